import { type RefObject, useEffect } from 'react';

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
 * watched instead, and its pictures are asked for when it comes within AHEAD. The pictures load
 * without being drawn: no style or layout is spent on the block before it is seen.
 */
export function usePicturesAhead(block: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = block.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        // Straight on the elements, not through React: a render of the block's cards would cost
        // the very time skipping them saves. React never sets `loading` again, the prop unchanged.
        for (const picture of element.querySelectorAll('img[loading="lazy"]')) {
          (picture as HTMLImageElement).loading = 'eager';
        }
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [block]);
}
