import { Children, type ReactNode, useEffect, useRef, useState } from 'react';
import { CarouselArrow } from './CarouselArrow';
import { slideA11yProps } from './slide-a11y';
import classes from './CardCarousel.module.css';
import hover from './HoverControls.module.css';

/** Spec §9: product and section carousels. */
export const CARD_SLIDE_WIDTH = 175;
export const CARD_SLIDE_GAP = 15;
/** A card's picture in a carousel is as wide as its slide (`sizes`). */
export const CAROUSEL_CARD_SIZES = `${CARD_SLIDE_WIDTH}px`;

/**
 * A row of cards that scrolls sideways: by swipe or trackpad, natively, and by the arrows on
 * hover. The browser's own scrolling with snap points needs no carousel engine, so a phone
 * swipes it with its own physics, and focusing a card scrolls it into view.
 */
export function CardCarousel({ label, children }: { label: string; children: ReactNode }) {
  const track = useRef<HTMLDivElement>(null);
  const [atStart, setAtStart] = useState(true);
  const [atEnd, setAtEnd] = useState(true);
  const count = Children.count(children);

  useEffect(() => {
    const node = track.current;
    if (!node) return;
    const update = () => {
      setAtStart(node.scrollLeft <= 1);
      setAtEnd(node.scrollLeft + node.clientWidth >= node.scrollWidth - 1);
    };
    // First measured when the observer reports the row's size, after the browser's own layout:
    // read here, scrollWidth would lay the page out at once, inside the task that hydrates it, and
    // lay out a home block the browser skips until it nears the viewport (issue 44).
    node.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(node);
    return () => {
      node.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, []);

  /** A page at a time: as many whole cards as fit; the snap points align the result. */
  const turn = (direction: -1 | 1) => {
    const node = track.current;
    if (!node) return;
    const step = CARD_SLIDE_WIDTH + CARD_SLIDE_GAP;
    const page = Math.max(1, Math.floor((node.clientWidth + CARD_SLIDE_GAP) / step)) * step;
    const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)').matches;
    node.scrollBy({ left: direction * page, behavior: reduceMotion ? 'instant' : 'smooth' });
  };

  return (
    <div
      role="region"
      aria-roledescription="карусель"
      aria-label={label}
      className={`${classes.root} ${hover.root}`}
    >
      <div ref={track} className={classes.track}>
        {Children.map(children, (child, index) => (
          <div role="group" className={classes.slide} {...slideA11yProps(index, count)}>
            {child}
          </div>
        ))}
      </div>
      <div className={`${classes.controls} ${hover.controls}`}>
        <CarouselArrow
          direction="prev"
          label="Прокрутить назад"
          inactive={atStart}
          onClick={() => turn(-1)}
        />
        <CarouselArrow
          direction="next"
          label="Прокрутить вперёд"
          inactive={atEnd}
          onClick={() => turn(1)}
        />
      </div>
    </div>
  );
}
