import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { Skeleton } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import Autoplay from 'embla-carousel-autoplay';
import { useMemo, useState } from 'react';
import { getCarousel } from '../../api/content';
import type { CarouselSlide } from '../../api/types';
import { slideA11yProps, useCarouselA11y } from '../../ui/carousel-a11y';
import { ErrorState } from '../../ui/ErrorState';
import hover from '../../ui/HoverControls.module.css';
import { useLoad } from '../../ui/useLoad';
import classes from './HomeCarousel.module.css';

/** Spec §9: the home carousel's default interval. */
export const SLIDE_INTERVAL_MS = 6000;

const SLIDE_IMAGE = { width: 800, height: 500 };

/** A slide's text is multi-line: each line is its own paragraph (spec §3). */
export function slideParagraphs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `first`: the slide on screen on arrival; its picture is the page's largest paint. */
function Slide({ slide, first }: { slide: CarouselSlide; first: boolean }) {
  return (
    <div
      className={classes.slide}
      style={{ background: slide.background, color: slide.text_color }}
      data-testid="home-slide"
    >
      <div className={classes.text}>
        {slideParagraphs(slide.text).map((line, index) => (
          <p key={index}>{line}</p>
        ))}
      </div>
      {slide.image && (
        // The slide's words carry its meaning; the picture only decorates.
        <img
          src={slide.image}
          alt=""
          width={SLIDE_IMAGE.width}
          height={SLIDE_IMAGE.height}
          fetchPriority={first ? 'high' : undefined}
          className={classes.image}
        />
      )}
    </div>
  );
}

function Slides({ slides }: { slides: CarouselSlide[] }) {
  const reduceMotion = useReducedMotion();
  // One plugin instance for the carousel's life; it pauses while the pointer rests on a slide.
  const [autoplay] = useState(() =>
    Autoplay({ delay: SLIDE_INTERVAL_MS, stopOnMouseEnter: true, stopOnInteraction: false }),
  );
  const plugins = useMemo(() => (reduceMotion ? [] : [autoplay]), [reduceMotion, autoplay]);
  // Autoplay stops while the focus is inside (embla's stopOnFocusIn); only then, or without
  // autoplay at all, does a slide change deserve to be announced (WAI-ARIA carousel pattern).
  const [focusInside, setFocusInside] = useState(false);
  const { carouselProps, status } = useCarouselA11y({
    live: reduceMotion || focusInside,
    describe: ({ index, count }) => `Слайд ${index + 1} из ${count}`,
  });
  return (
    <>
      <Carousel
        {...carouselProps}
        aria-label="Новости магазина"
        emblaOptions={{ loop: slides.length > 1 }}
        plugins={plugins}
        withIndicators={slides.length > 1}
        withControls={slides.length > 1}
        controlSize={36}
        classNames={{ root: hover.root, controls: hover.controls }}
        previousControlProps={{ 'aria-label': 'Предыдущий слайд' }}
        nextControlProps={{ 'aria-label': 'Следующий слайд' }}
        getIndicatorProps={(index) => ({ 'aria-label': `Показать слайд ${index + 1}` })}
        onFocus={() => setFocusInside(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) setFocusInside(false);
        }}
      >
        {slides.map((slide, index) => (
          <Carousel.Slide key={slide.id} {...slideA11yProps(index, slides.length)}>
            <Slide slide={slide} first={index === 0} />
          </Carousel.Slide>
        ))}
      </Carousel>
      {status}
    </>
  );
}

/** Spec §2: the home carousel; it cycles every 6 s, with arrows on hover. */
export function HomeCarousel() {
  const state = useLoad(getCarousel);
  if (state.status === 'loading') return <Skeleton className={classes.skeleton} />;
  if (state.status === 'error') return <ErrorState onRetry={state.reload} />;
  if (state.data.length === 0) return null;
  return <Slides slides={state.data} />;
}
