import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { useReducedMotion } from '@mantine/hooks';
import type { EmblaCarouselType } from 'embla-carousel';
import Autoplay from 'embla-carousel-autoplay';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CarouselSlide } from '../../api/types';
import { useCarouselA11y } from '../../ui/carousel-a11y';
import { slideA11yProps } from '../../ui/slide-a11y';
import hover from '../../ui/HoverControls.module.css';
import { HomeSlide, SLIDE_INTERVAL_MS, type SlidesStart } from './HomeSlide';

/** The home carousel once its engine (Embla, through Mantine's Carousel) has loaded. */
export default function MovingSlides({
  slides,
  start,
}: {
  slides: CarouselSlide[];
  /** What the still carousel was asked to do as the engine loaded. */
  start: SlidesStart;
}) {
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
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const started = useRef(false);

  useEffect(() => {
    const root = carouselProps.ref.current;
    if (!embla || !root || started.current) return;
    started.current = true;
    if (start.turn === 1) embla.scrollNext();
    if (start.turn === -1) embla.scrollPrev();
    // The arrow the shopper had reached on the still carousel is now this one.
    const label = { prev: 'Предыдущий слайд', next: 'Следующий слайд' };
    if (start.focus)
      root.querySelector<HTMLElement>(`[aria-label="${label[start.focus]}"]`)?.focus();
  }, [embla, start, carouselProps.ref]);

  return (
    <>
      <Carousel
        {...carouselProps}
        getEmblaApi={(api) => {
          carouselProps.getEmblaApi(api);
          setEmbla(api);
        }}
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
            <HomeSlide slide={slide} first={index === 0} />
          </Carousel.Slide>
        ))}
      </Carousel>
      {status}
    </>
  );
}
