import type { BasketStart } from '../features/basket/store';
import type { FormOutcome, Refusal } from '../ui/page-data';

/** What the server embeds in the HTML for hydration (a JSON script element with this id). */
export const PAGE_DATA_ID = 'page-data';

export interface EmbeddedPage {
  /** The page's address as the router reads it (pageUrl). */
  url: string;
  answers: Record<string, unknown>;
  refused: Record<string, Refusal>;
  cookieAccepted: boolean;
  /** The shop's time zone for order dates (SHOP_TIME_ZONE). */
  timeZone: string;
  /** The visitor's basket, rendered into the page, or why the server did not have it. */
  basket: BasketStart;
  /** What the server says of a form the visitor posted without the app. */
  outcome: FormOutcome;
  /** The share of views (0 to 1) that report their speed to /rum (RUM_SAMPLE). */
  rumSample: number;
}
