import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { Children, type ReactNode } from 'react';
import { slideA11yProps, useCarouselA11y } from './carousel-a11y';
import classes from './HoverControls.module.css';

/** Spec §9: product and section carousels. */
export const CARD_SLIDE_WIDTH = 175;
export const CARD_SLIDE_GAP = 15;

/** A row of cards that scrolls sideways: by swipe, by drag, or by the arrows on hover. */
export function CardCarousel({ label, children }: { label: string; children: ReactNode }) {
  const { carouselProps, status } = useCarouselA11y({
    live: true,
    describe: ({ index, count }) => `${label}: страница ${index + 1} из ${count}`,
  });
  const count = Children.count(children);
  return (
    <>
      <Carousel
        {...carouselProps}
        aria-label={label}
        slideSize={CARD_SLIDE_WIDTH}
        slideGap={CARD_SLIDE_GAP}
        includeGapInSize={false}
        emblaOptions={{ align: 'start', containScroll: 'trimSnaps', slidesToScroll: 'auto' }}
        controlSize={36}
        classNames={{ root: classes.root, controls: classes.controls, control: classes.control }}
        previousControlProps={{ 'aria-label': 'Прокрутить назад' }}
        nextControlProps={{ 'aria-label': 'Прокрутить вперёд' }}
      >
        {Children.map(children, (child, index) => (
          <Carousel.Slide {...slideA11yProps(index, count)}>{child}</Carousel.Slide>
        ))}
      </Carousel>
      {status}
    </>
  );
}
