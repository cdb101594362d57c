import { STORE_NAME } from './shop-info';

/** What a page is called and how it is described: the same on the server and in the browser. */
export interface PageTexts {
  /** The page's own part of the title, after the store's name. */
  title: string;
  /** The description meta: what search engines and link previews show under the title. */
  description: string;
}

export function pageTitle(section: string): string {
  return `${STORE_NAME} — ${section}`;
}

/**
 * Sets the document's title (the store name plus the page's) and its description meta, as the
 * server wrote them for the page. A missing title or meta element is only logged (spec §2).
 */
export function showPageTexts({ title, description }: PageTexts): void {
  if (!document.querySelector('title')) console.warn('[title] the page has no <title> element');
  // Only a change is written: the page the server sent has them already, and a title set tells
  // the browser's own window, some milliseconds of the task that hydrates the page.
  const fullTitle = pageTitle(title);
  if (document.title !== fullTitle) document.title = fullTitle;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (meta) {
    if (meta.content !== description) meta.content = description;
  } else console.warn('[title] the page has no description meta element');
}
