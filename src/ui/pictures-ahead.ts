import { type RefObject, useEffect } from 'react';
import { oneATask } from '../lib/one-a-task';

/**
 * How far below (and above) the screen a skipped block's pictures are asked for: Chromium's own
 * lazy-loading distance on a 4G connection, so they come as early as they would without
 * `content-visibility`, and no earlier: each picture that arrives is work for the main thread
 * (an SVG drawing is a document of its own).
 */
const AHEAD = '1250px 0px';

/**
 * Runs `start` once the shopper has scrolled: at once if the page already is (a reload or a way
 * back puts the shopper where they were), else at the first scroll of the page or of anything in
 * it, by a finger, a key, a link to an anchor or find in page. Anything in it: a swipe along a
 * selection's row scrolls the row, whose scroll does not bubble, and brings its cards beyond the
 * screen's edge, which the browser's lazy loading does not find either. Returns a function that
 * cancels it.
 */
function whenScrolled(start: () => void): () => void {
  if (window.scrollY > 0) {
    start();
    return () => {};
  }
  const controller = new AbortController();
  window.addEventListener('scroll', start, {
    capture: true,
    once: true,
    passive: true,
    signal: controller.signal,
  });
  return () => controller.abort();
}

/**
 * A block drawn only near the viewport (`content-visibility: auto`, issue 44) hides its lazy
 * pictures from the browser's lazy loading, which finds a picture by where it is drawn: they would
 * be asked for only once on screen. Here the block's own place, which the browser keeps, is
 * watched instead, and when it comes within AHEAD each of its pictures is fetched by an image of
 * its own, with the same candidates: the picture finds the file in the browser's cache when its
 * block is drawn. The block is neither drawn nor changed for it (its pictures stay lazy).
 *
 * Watched from the first scroll only: until the shopper moves, the page's first screen has the
 * phone's connection and main thread to itself, as it has without JavaScript. Fetched at the
 * start, the pictures below it (a dozen SVG drawings on the home page, each a document the main
 * thread parses) had doubled the pictures a still page loads and were most of what its start
 * cost a phone above the same HTML without scripts.
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
        // slow phone), and a block has a dozen.
        const pictures = [
          ...element.querySelectorAll<HTMLImageElement>('img[loading="lazy"]'),
        ].filter((picture) => !picture.complete);
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
    const stopWaiting = whenScrolled(() => observer.observe(element));
    return () => {
      stopWaiting();
      observer.disconnect();
      stopFetching();
    };
  }, [block]);
}
