// What visitors' browsers carry besides the shop's and the backend's cookies (issue 39): a
// sibling app's Cyrillic on the same domain, spaces, an analytics JSON, quotes, `=` in values,
// empty names, a broken %-escape, a tab, and a hundred more. None may change what the shop does.

/** `text` as Node reads it from a request's header: its UTF-8 bytes, one Latin-1 char each. */
export const asHeader = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** The stray cookies as one Cookie header (fetch sends each char as its byte). */
export const STRAY_COOKIES = [
  asHeader('city=Москва'),
  'x=a b',
  '_consent={"necessary":true,"analytics":false,"list":[1,2]}',
  'q="quoted value"',
  'eq=a=b==',
  '=nameless',
  '=',
  'broken=%E0%A4%A',
  'tab=a\tb',
  ...Array.from({ length: 100 }, (_, i) => `stray${i}=${i}`),
].join('; ');
