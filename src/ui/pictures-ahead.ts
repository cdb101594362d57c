import { type RefObject, useEffect } from 'react';
import { oneATask } from '../lib/one-a-task';

/**
 * How far below (and above) the screen a skipped block's pictures are asked for: Chromium's own
 * lazy-loading distance on a 4G connection, so they come as early as they would without
 * `content-visibility`, and no earlier: each picture that arrives is work for the main thread
 * (an SVG drawing is a document of its own), and the page is still starting.
 */
const AHEAD = '1250px 0px';

/**
 * A block drawn only near the viewport (`content-visibility: auto`, issue 44) hides its lazy
 * pictures from the browser's lazy loading, which finds a picture by where it is drawn: they would
 * be asked for only once on screen. Here the block's own place, which the browser keeps, is
 * watched instead, and when it comes within AHEAD each of its pictures is fetched by an image of
 * its own, with the same candidates: the picture finds the file in the browser's cache when its
 * block is drawn. The block is neither drawn nor changed for it (its pictures stay lazy).
 */
export function usePicturesAhead(block: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = block.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let stopFetching = () => {};
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        // A picture the browser has already loaded needs nothing. The rest one a task: an image
        // given a `srcset` picks its candidate, some 0.6 ms each in Chromium here (2–3 ms on a
        // slow phone), and a block has a dozen while the page is still starting.
        const pictures = [
          ...element.querySelectorAll<HTMLImageElement>('img[loading="lazy"]'),
        ].filter((picture) => !picture.complete);
        if (pictures.length === 0) return;
        stopFetching = oneATask(pictures, (picture) => {
          const early = new Image();
          // `sizes` and `srcset` before `src`: the browser picks its candidate when `src` is set.
          early.sizes = picture.sizes;
          early.srcset = picture.srcset;
          early.src = picture.getAttribute('src') ?? '';
        });
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      stopFetching();
    };
  }, [block]);
}
