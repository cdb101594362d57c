// The spec's catalogue texts (spec §2, §3, §4), character for character. The catalogue's name
// is its page's title and the header's button (so this small module rides in the entry).
export const EMPTY_SECTION_TEXT = 'Раздел пока пуст';
export const CATALOG_TITLE = 'Каталог';
