import { VisuallyHidden } from '@mantine/core';
import type { EmblaCarouselType } from 'embla-carousel';
import { type ReactNode, useEffect, useRef, useState } from 'react';

/** Where a carousel stands: the selected scroll snap and how many there are. */
export interface CarouselPosition {
  index: number;
  count: number;
}

interface CarouselA11yOptions {
  /** Announce each change; off while the carousel turns by itself (autoplay). */
  live: boolean;
  /** The position as the shopper hears it, e.g. «Слайд 2 из 5». */
  describe: (position: CarouselPosition) => string;
}

/**
 * Russian words for Mantine's Carousel (9.7). The arrows, indicators and slides take labels
 * through props, but two English texts are out of any prop's reach: a live region that says
 * «Slide 2 of 5» at every change (autoplay included) and the indicators' list label «Slides».
 * The first is silenced and replaced by `status`; the second is renamed. React leaves both
 * attributes alone afterwards, as its own values for them never change.
 */
export function useCarouselA11y({ live, describe }: CarouselA11yOptions): {
  carouselProps: {
    ref: React.RefObject<HTMLDivElement | null>;
    getEmblaApi: (embla: EmblaCarouselType) => void;
    'aria-roledescription': string;
  };
  status: ReactNode;
} {
  const root = useRef<HTMLDivElement>(null);
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const [position, setPosition] = useState<CarouselPosition>({ index: 0, count: 0 });

  // After every render: the indicators' list comes and goes with the number of slides.
  useEffect(() => {
    const node = root.current;
    if (!node) return;
    for (const region of node.querySelectorAll(':scope > [role="status"]')) {
      region.setAttribute('aria-live', 'off');
      region.setAttribute('aria-hidden', 'true');
    }
    node.querySelector(':scope > [role="tablist"]')?.setAttribute('aria-label', 'Слайды');
  });

  useEffect(() => {
    if (!embla) return;
    const update = () =>
      setPosition({ index: embla.selectedScrollSnap(), count: embla.scrollSnapList().length });
    update();
    embla.on('select', update).on('reInit', update);
    return () => {
      embla.off('select', update).off('reInit', update);
    };
  }, [embla]);

  return {
    carouselProps: { ref: root, getEmblaApi: setEmbla, 'aria-roledescription': 'карусель' },
    status:
      position.count > 1 ? (
        <VisuallyHidden role="status" aria-live={live ? 'polite' : 'off'} aria-atomic="true">
          {describe(position)}
        </VisuallyHidden>
      ) : null,
  };
}
