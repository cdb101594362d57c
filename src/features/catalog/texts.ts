// The spec's catalogue texts (spec §2, §3, §4), character for character.
export const EMPTY_SECTION_TEXT = 'Раздел пока пуст';
export const CATALOG_TITLE = 'Каталог';
