// The guide (contracts/README.md) is all a backend team reads, and it cannot go stale:
// - every Python listing of the guide headed `# contracts/django/<file>` is that file's text, word
//   for word, so a team that copies the guide copies the backend that passes the pact;
// - every Python file it names is one it shows;
// - the numbers it gives (interactions, states) are the pact's, and its example of the summary is
//   what `npm run contracts:verify` prints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CHANGE } from './support/change-hook';
import { readPactFile } from './support/pact-file';
import { explain } from './support/provider';
import { formatReport } from './support/report';

const ROOT = new URL('../', import.meta.url);
const HEADER = /^# (contracts\/django\/\S+)\n/;
const GUIDE = readFileSync(new URL('contracts/README.md', ROOT), 'utf8');
/** The part for backend developers: what follows is for the storefront's own. */
const BACKEND_PART = GUIDE.slice(0, GUIDE.indexOf("\n## For the storefront's developers"));

/** The guide's Python listings that name a file of contracts/django/: file and text. */
export function referenceListings(guide: string): { file: string; text: string }[] {
  return [...guide.matchAll(/```python\n([\s\S]*?)```/g)].flatMap(([, block = '']) => {
    const header = HEADER.exec(block);
    return header ? [{ file: header[1]!, text: block.slice(header[0].length) }] : [];
  });
}

/** The first line of each Python listing, where it says which file it is: `# shop/views.py`. */
function listingHeaders(guide: string): string[] {
  return [...guide.matchAll(/```python\n# (\S+\.py)\b/g)].map(([, file]) => file!);
}

/** Python files the text names (`shop/views.py`, `tests/test_pact.py`), once each. */
export function namedPythonFiles(text: string): string[] {
  return [...new Set([...text.matchAll(/[\w./-]*\w\.py\b/g)].map(([file]) => file))];
}

/** The files of `named` that no listing shows: a listing of `a/shop/views.py` shows `shop/views.py`. */
export function filesNotShown(named: string[], headers: string[]): string[] {
  return named.filter(
    (file) => !headers.some((header) => header === file || header.endsWith(`/${file}`)),
  );
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

describe('the guide quotes the reference backend word for word', () => {
  const listings = referenceListings(GUIDE);

  it('has the listings of the idempotent checkout, the visitor address and the state endpoint', () => {
    expect(listings.map((listing) => listing.file)).toEqual(
      expect.arrayContaining([
        'contracts/django/reference/shop/models.py',
        'contracts/django/reference/shop/views.py',
        'contracts/django/reference/shop/middleware.py',
        'contracts/django/reference/shop/pact_states.py',
        'contracts/django/pact_states.py',
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
    const section = GUIDE.slice(GUIDE.indexOf('## Tell the shop what changed'));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(JSON.parse(example)).toEqual(EXAMPLE_CHANGE);
  });

  it.each(listings)('$file holds the listing', ({ file, text }) => {
    expect(readFileSync(new URL(file, ROOT), 'utf8')).toContain(text);
  });
});

describe('the guide shows every file it names', () => {
  it('reads the files a text names and finds those no listing shows', () => {
    const text = 'copy `shop/views.py`, then `tests/test_x.py`; run python manage.py';
    expect(namedPythonFiles(text)).toEqual(['shop/views.py', 'tests/test_x.py', 'manage.py']);
    expect(filesNotShown(namedPythonFiles(text), ['contracts/x/shop/views.py'])).toEqual([
      'tests/test_x.py',
      'manage.py',
    ]);
  });

  it('names no Python file, for backend developers, that it does not show', () => {
    // `manage.py` is every Django project's own command, not a file of ours.
    const named = namedPythonFiles(BACKEND_PART).filter((file) => file !== 'manage.py');
    expect(filesNotShown(named, listingHeaders(BACKEND_PART))).toEqual([]);
  });

  it('sends backend developers to no other file of contracts/django/', () => {
    const links = [...BACKEND_PART.matchAll(/\]\((django\/[^)]*)\)/g)].map(([, link]) => link);
    // The reference backend is an example to run, never what the guide's steps need.
    expect(links).toEqual(['django/reference/']);
  });
});

describe("the guide's numbers are the pact's", () => {
  const pact = readPactFile();

  it('gives the number of interactions in its examples of the summary', () => {
    const counts = [...GUIDE.matchAll(/Pact verification: (\d+) interactions/g)].map(([, n]) =>
      Number(n),
    );
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).toEqual(counts.map(() => pact.interactions.length));
  });

  it('gives the number of states in its example of a state URL that fails every state', () => {
    const states = new Set(
      pact.interactions.flatMap((interaction) =>
        (interaction.providerStates ?? []).map((state) => state.name),
      ),
    );
    const counts = [...GUIDE.matchAll(/for every state \((\d+) states\)/g)].map(([, n]) =>
      Number(n),
    );
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).toEqual(counts.map(() => states.size));
  });

  it('counts the Idempotency-Key interactions, and those a backend that ignores the key fails', () => {
    const keyed = pact.interactions.filter((interaction) =>
      interaction.description.includes('Idempotency-Key'),
    );
    // Another visitor's key passes by design: to a backend without keys, each request is a first.
    const failedWithoutKeys = keyed.filter(
      (interaction) => !interaction.description.includes('another visitor'),
    );
    const match = /(\w+) of the pact's (\w+) `Idempotency-Key` interactions/.exec(GUIDE);
    expect(match?.slice(1)).toEqual([
      NUMBER_WORDS[failedWithoutKeys.length],
      NUMBER_WORDS[keyed.length],
    ]);
  });
});

describe("the guide's example of the summary", () => {
  it('is what contracts:verify prints for those mismatches, as the Pact Verifier gives them', () => {
    const pact = readPactFile();
    const block = [...GUIDE.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)]
      .map(([, text]) => text!)
      .find((text) => text.startsWith('Pact verification:') && text.includes('Failures by cause'));
    const number = (path: string, actual: string, half = 'a number') => ({
      type: 'BodyMismatch',
      path,
      actual: `"${actual}"`,
      mismatch: `Expected '${actual}' (String) to be ${half}`,
    });
    const failures = explain(
      pact.interactions,
      [
        {
          description: 'GET /api/catalog/product: the home page products',
          mismatches: [
            number('$[0].price', '890.00'),
            number('$[0].price', '890.00', 'a null value'),
            number('$[0].rest', '15.00'),
          ],
        },
        {
          description: 'GET /api/catalog/basket: a revoked token (401)',
          mismatches: [
            {
              type: 'StatusMismatch',
              expected: 401,
              actual: 403,
              mismatch: 'expected 401 but was 403',
            },
          ],
        },
      ],
      [],
      [],
    );
    const report = { ok: false, total: pact.interactions.length, failures, stateErrors: [] };
    expect(`${formatReport(report)}\n`).toBe(block);
  });
});
