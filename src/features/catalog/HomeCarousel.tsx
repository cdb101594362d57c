import { Skeleton } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { type ComponentType, useCallback, useEffect, useRef, useState } from 'react';
import type { CarouselSlide } from '../../api/types';
import { CarouselArrow } from '../../ui/CarouselArrow';
import { slideA11yProps } from '../../ui/slide-a11y';
import { Loaded } from '../../ui/Loaded';
import hover from '../../ui/HoverControls.module.css';
import type { Load } from '../../ui/useLoads';
import classes from './HomeCarousel.module.css';
import { HomeSlide, SLIDE_INTERVAL_MS, type SlidesStart } from './HomeSlide';

type Moving = ComponentType<{ slides: CarouselSlide[]; start: SlidesStart }>;

/**
 * The carousel as it first shows: the first slide, still, with the arrows once the app runs. Its engine (Embla,
 * some 9 KB of gzip) is not needed to show it, so it loads only when the carousel is about to
 * move: when its first interval runs out, or when the shopper points at it, touches it, focuses
 * it or presses an arrow. The still slides take exactly the place of the moving ones.
 */
function StillSlides({
  slides,
  onStart,
}: {
  slides: CarouselSlide[];
  onStart: (start: SlidesStart) => void;
}) {
  // The arrows start the engine: before the app runs (and without JavaScript) they could do
  // nothing, so they are not shown until then (HomeCarousel.module.css). A phone swipes nothing
  // here either: its arrows never show.
  const arrows = slides.length > 1;
  return (
    <div
      role="region"
      aria-roledescription="карусель"
      aria-label="Новости магазина"
      className={`${classes.still} ${hover.root}`}
      onPointerEnter={() => onStart({})}
      onTouchStart={() => onStart({})}
    >
      <div className={classes.stillTrack}>
        {slides.map((slide, index) => (
          <div key={slide.id} {...slideA11yProps(index, slides.length)}>
            <HomeSlide slide={slide} first={index === 0} />
          </div>
        ))}
      </div>
      {arrows && (
        <div className={`${classes.stillControls} ${hover.controls}`}>
          <CarouselArrow
            direction="prev"
            label="Предыдущий слайд"
            onFocus={() => onStart({ focus: 'prev' })}
            onClick={() => onStart({ focus: 'prev', turn: -1 })}
          />
          <CarouselArrow
            direction="next"
            label="Следующий слайд"
            onFocus={() => onStart({ focus: 'next' })}
            onClick={() => onStart({ focus: 'next', turn: 1 })}
          />
        </div>
      )}
    </div>
  );
}

function Slides({ slides }: { slides: CarouselSlide[] }) {
  const reduceMotion = useReducedMotion();
  const [moving, setMoving] = useState<{ Component: Moving; start: SlidesStart } | null>(null);
  // What the shopper (or the first interval) asked for while the engine loads: all of it is done.
  const asked = useRef<SlidesStart | null>(null);

  const start = useCallback((intent: SlidesStart) => {
    const loading = asked.current !== null;
    asked.current = { ...asked.current, ...intent };
    if (loading) return;
    void import('./MovingSlides').then(
      (module) => setMoving({ Component: module.default, start: asked.current ?? {} }),
      // Offline: the slides stay still; the next intent tries again.
      () => {
        asked.current = null;
      },
    );
  }, []);

  // The first turn is the engine's job too: it loads when the first interval runs out.
  useEffect(() => {
    if (slides.length < 2 || reduceMotion || moving) return;
    const timer = window.setTimeout(() => start({ turn: 1 }), SLIDE_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [slides.length, reduceMotion, moving, start]);

  if (moving) return <moving.Component slides={slides} start={moving.start} />;
  return <StillSlides slides={slides} onStart={start} />;
}

/** Spec §2: the home carousel; it cycles every 6 s, with arrows on hover. */
export function HomeCarousel({ state }: { state: Load<CarouselSlide[]> }) {
  return (
    <Loaded load={state} pending={<Skeleton className={classes.skeleton} />}>
      {(slides) => (slides.length === 0 ? null : <Slides slides={slides} />)}
    </Loaded>
  );
}
