// The guide (contracts/README.md) and the reference backend say the same thing: every Python
// listing of the guide headed `# contracts/django/reference/<file>` is that file's text, word for
// word, so a team that copies the guide copies the backend that passes the pact.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CHANGE } from './support/change-hook';

const ROOT = new URL('../', import.meta.url);
const HEADER = /^# (contracts\/django\/reference\/\S+)\n/;

/** The guide's Python listings that name a file of the reference backend: file and text. */
export function referenceListings(guide: string): { file: string; text: string }[] {
  return [...guide.matchAll(/```python\n([\s\S]*?)```/g)].flatMap(([, block = '']) => {
    const header = HEADER.exec(block);
    return header ? [{ file: header[1]!, text: block.slice(header[0].length) }] : [];
  });
}

describe('the guide quotes the reference backend word for word', () => {
  const guide = readFileSync(new URL('contracts/README.md', ROOT), 'utf8');
  const listings = referenceListings(guide);

  it('has the listings of the idempotent checkout and the visitor address', () => {
    expect(listings.map((listing) => listing.file)).toEqual(
      expect.arrayContaining([
        'contracts/django/reference/shop/models.py',
        'contracts/django/reference/shop/views.py',
        'contracts/django/reference/shop/middleware.py',
      ]),
    );
  });

  it('has the listings of the change hook: settings, signals, the stock an order takes, tell_shop', () => {
    const listed = listings.map((listing) => listing.file);
    expect(listed).toEqual(
      expect.arrayContaining([
        'contracts/django/reference/berries/settings.py',
        'contracts/django/reference/shop/signals.py',
        'contracts/django/reference/shop/changes.py',
      ]),
    );
    expect(listings.some((listing) => listing.text.includes('def take_stock(lines):'))).toBe(true);
  });

  it('shows the change hook’s body as the hook’s pact is written from it', () => {
    const section = guide.slice(guide.indexOf('## Tell the shop what changed'));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(JSON.parse(example)).toEqual(EXAMPLE_CHANGE);
  });

  it.each(referenceListings(readFileSync(new URL('contracts/README.md', ROOT), 'utf8')))(
    '$file holds the listing',
    ({ file, text }) => {
      expect(readFileSync(new URL(file, ROOT), 'utf8')).toContain(text);
    },
  );
});
