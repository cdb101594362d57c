// The views of this page's life, as the speed the shopper saw is told by view (src/app/rum.ts):
// the page's full load first, then each page the app showed in place, with when it began.
import { pageKind, type PageKind } from '../lib/rum-beacon';

export interface View {
  /** performance.now() when it began; 0 for the load. */
  at: number;
  kind: PageKind;
}

export const views: View[] = [];

/** The router shows the page of the route at `routePath` (null: the 404 page): a view begins. */
export function noteView(routePath: string | null): void {
  views.push({ at: views.length === 0 ? 0 : performance.now(), kind: pageKind(routePath) });
}
