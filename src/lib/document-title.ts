import { useEffect } from 'react';
import { STORE_NAME } from './shop-info';

export function pageTitle(section: string): string {
  return `${STORE_NAME} — ${section}`;
}

/**
 * Sets the document title (and the description meta, when the page has one) to the store name
 * plus `section`. Nothing happens while `section` is undefined (data still loading). A missing
 * title or meta element is only logged (spec §2).
 */
export function useDocumentTitle(section: string | undefined): void {
  useEffect(() => {
    if (section === undefined) return;
    const title = pageTitle(section);
    if (!document.querySelector('title')) console.warn('[title] the page has no <title> element');
    document.title = title;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (meta) meta.content = title;
    else console.warn('[title] the page has no description meta element');
  }, [section]);
}
