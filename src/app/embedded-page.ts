/** What the server embeds in the HTML for hydration (a JSON script element with this id). */
export const PAGE_DATA_ID = 'page-data';

export interface EmbeddedPage {
  /** The page's address as the router reads it (pageUrl). */
  url: string;
  answers: Record<string, unknown>;
  refused: Record<string, number>;
  cookieAccepted: boolean;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE). */
  timeZone: string;
}
