// The views of this page's life, as the speed the shopper saw is told by view (src/app/rum.ts):
// the page's full load first, then each page the app showed in place, with when it began. Kept
// by the app's own code (the router notes each page shown), read by the speed report's.

export interface View {
  /** performance.now() when it began; 0 for the load. */
  at: number;
  /** The route of the page shown, as declared (`/product/:id`); null for the 404 page. */
  route: string | null;
}

export const views: View[] = [];

/** The router shows the page of the route at `route`: a view begins. */
export function noteView(route: string | null): void {
  views.push({ at: views.length === 0 ? 0 : performance.now(), route });
}
