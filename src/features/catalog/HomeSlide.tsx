import type { CarouselSlide } from '../../api/types';
import classes from './HomeCarousel.module.css';

/** Spec §9: the home carousel's default interval. */
export const SLIDE_INTERVAL_MS = 6000;

/** What the still carousel was asked to do while its engine loaded. */
export interface SlidesStart {
  /** Move one slide on (the first interval ran out, or an arrow was pressed) or back. */
  turn?: 1 | -1;
  /** The arrow that had the keyboard focus. */
  focus?: 'prev' | 'next';
}

const SLIDE_IMAGE = { width: 800, height: 500 };

/** A slide's text is multi-line: each line is its own paragraph (spec §3). */
export function slideParagraphs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `first`: the slide on screen on arrival; its picture is the page's largest paint. */
export function HomeSlide({ slide, first }: { slide: CarouselSlide; first: boolean }) {
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
