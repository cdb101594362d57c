import type { CSSProperties } from 'react';
import type { CarouselSlide } from '../../api/types';
import { cssColour } from '../../lib/css-colour';
import { responsiveImage, shopImagePath } from '../../lib/image-url';
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

/**
 * The picture's width (HomeCarousel.module.css), as `sizes`. It covers its column, which on a
 * phone is taller than the picture's 16:10, so the height decides: 240 px high (a little more
 * with long text) is 384 px wide. From sm, half of the slide 320 px high needs 512 px, and the
 * half is 554 px at most (the page's column stops at 1108 px).
 */
export const SLIDE_SIZES = '(min-width:37.5em) 554px,400px';

/** A slide's text is multi-line: each line is its own paragraph (spec §3). */
export function slideParagraphs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The slide's own colours, when both are colours: text the backend sent never becomes CSS of its
 * own. One without the other could leave the text unreadable: then the theme's colours paint it.
 */
export function slideColours(slide: CarouselSlide): CSSProperties | undefined {
  const background = cssColour(slide.background);
  const color = cssColour(slide.text_color);
  return background && color ? { background, color } : undefined;
}

/**
 * `first`: the slide on screen on arrival; its picture is the page's largest paint, asked for
 * first (React's server render preloads it, with its srcset). The others wait until near.
 */
export function HomeSlide({ slide, first }: { slide: CarouselSlide; first: boolean }) {
  const image = shopImagePath(slide.image);
  return (
    <div className={classes.slide} style={slideColours(slide)} data-testid="home-slide">
      <div className={classes.text}>
        {slideParagraphs(slide.text).map((line, index) => (
          <p key={index}>{line}</p>
        ))}
      </div>
      {image && (
        // The slide's words carry its meaning; the picture only decorates.
        <img
          {...responsiveImage(image, SLIDE_SIZES)}
          alt=""
          width={SLIDE_IMAGE.width}
          height={SLIDE_IMAGE.height}
          loading={first ? undefined : 'lazy'}
          fetchPriority={first ? 'high' : undefined}
          className={classes.image}
        />
      )}
    </div>
  );
}
