// The backend's change hook as the tests and `npm run bench:fresh` send it (contracts/README.md,
// "Tell the shop what changed"), and the variants of a page nginx keeps apart (deploy/nginx.conf's
// proxy_cache_key: theme, cookie notice, encoding).
import { randomUUID } from 'node:crypto';
import { CHANGE_HOOK_PATH, SIGNATURE_HEADER, signHook } from '../../host/backend/change-hook.ts';

/** The secret the tests' shops and backends share. */
export const HOOK_SECRET = 'berries-test-hook-secret-0123456789abcdef';

export interface HookFields {
  products?: number[];
  sections?: number[];
  selections?: number[];
  slides?: boolean;
  news?: boolean;
  policy?: boolean;
  everything?: boolean;
}

/** A hook's body: a new id, sent now (or at `sentAt`, in seconds). */
export function hookBody(fields: HookFields, sentAt = Math.floor(Date.now() / 1000)): string {
  return JSON.stringify({ id: randomUUID(), sent_at: sentAt, ...fields });
}

/** Posts `body` to the shop at `base`, signed with `secret`; the status and the detail. */
export async function postHook(
  base: string,
  body: string,
  secret = HOOK_SECRET,
): Promise<{ status: number; detail: string }> {
  const answer = await fetch(`${base}${CHANGE_HOOK_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signHook(secret, body) },
    body,
  });
  const text = await answer.text();
  let detail = text;
  try {
    detail = (JSON.parse(text) as { detail: string }).detail;
  } catch {
    // nginx's own page: the text as it is
  }
  return { status: answer.status, detail };
}

export interface Variant {
  theme: 'light' | 'dark';
  accepted: boolean;
  encoding: 'br' | 'gzip' | 'identity';
}

/** Every variant of a public page: both themes, notice on and off, brotli, gzip and none. */
export const VARIANTS: Variant[] = (['light', 'dark'] as const).flatMap((theme) =>
  [false, true].flatMap((accepted) =>
    (['br', 'gzip', 'identity'] as const).map((encoding) => ({ theme, accepted, encoding })),
  ),
);

export const variantName = (variant: Variant) =>
  `${variant.theme}, ${variant.accepted ? 'без уведомления' : 'с уведомлением'}, ${variant.encoding}`;

export interface SeenPage {
  status: number;
  /** nginx's X-Cache-Status. */
  cache: string | null;
  encoding: string | null;
  html: string;
}

/** The headers of a shopper of `variant`: the cookies nginx keys on, and the encoding. */
export function variantHeaders(variant: Variant): Record<string, string> {
  return {
    Cookie: `theme=${variant.theme}; cookieAccepted=${variant.accepted}`,
    'Accept-Encoding': variant.encoding,
  };
}

/** `address` at `base` as a shopper of `variant` asks for it (fetch decodes what comes). */
export async function fetchVariant(
  base: string,
  address: string,
  variant: Variant,
): Promise<SeenPage> {
  const answer = await fetch(`${base}${address}`, {
    headers: variantHeaders(variant),
    redirect: 'manual',
  });
  return {
    status: answer.status,
    cache: answer.headers.get('x-cache-status'),
    encoding: answer.headers.get('content-encoding'),
    html: await answer.text(),
  };
}

/** Whether the page is `variant`'s: its theme, its cookie notice, its encoding. */
export function isVariant(page: SeenPage, variant: Variant): boolean {
  return (
    page.html.includes(`data-mantine-color-scheme="${variant.theme}"`) &&
    page.html.includes('action="/cookie-consent"') !== variant.accepted &&
    (page.encoding ?? 'identity') === variant.encoding
  );
}

/** A price as the shop shows it: `1 234 ₽` with Russian spaces. */
export function priceShown(rub: number): RegExp {
  const digits = new Intl.NumberFormat('ru-RU').format(rub).replace(/\s/g, '\\s');
  return new RegExp(`${digits}\\s₽`);
}
