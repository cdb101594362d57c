// The backend's change hook: POST /hooks/changed, the backend says what changed in the catalogue
// or the content (contracts/README.md, "Tell the shop what changed"), and the shop renews what
// shows it at once instead of waiting for its kept copies to run out (host/pages/page-renewal.ts).
//
// Only the backend may ask for that work: the body is signed with HMAC-SHA256 under a secret the
// two share (CHANGE_HOOK_SECRET), says when it was sent (a few minutes' leeway), and names itself
// by an id that is accepted once. Everything else is a 401 that renews nothing, decided before
// any work: a flood of bad hooks costs a read of at most 16 KB and one HMAC each.
//
// The recipe (deploy/nginx.conf) brings each hook to every instance: to one through the
// upstream, whose answer the backend gets, and a copy to each. The copies of one delivery carry
// nginx's request id (X-Shop-Delivery): an instance acts on the first it sees, answers the other
// as accepted, and refuses the same id in any other delivery, which is a replay. Every instance
// hears every hook, so each holds every id it must refuse.
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { LRUCache } from 'lru-cache';
import * as v from 'valibot';
import type { Change } from '../../src/server-entry/entry-server.tsx';

export const CHANGE_HOOK_PATH = '/hooks/changed';
export const SIGNATURE_HEADER = 'X-Shop-Signature';
export const DELIVERY_HEADER = 'X-Shop-Delivery';
/** How far a hook's sent_at may stand from the shop's clock, either way. */
export const HOOK_LEEWAY_SECONDS = 300;
const MAX_BODY_BYTES = 16 * 1024;
/** At most this many ids are named in one list: a whole catalogue is `everything`. */
const MAX_IDS = 1000;

const ids = v.optional(
  v.pipe(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
    v.maxLength(MAX_IDS, `не больше ${MAX_IDS} id; весь каталог — "everything": true`),
  ),
  [],
);

/** The hook's body, as the guide shows it; any other field is refused, so a typo is not silent. */
const HookBody = v.strictObject({
  id: v.pipe(v.string(), v.minLength(8), v.maxLength(100)),
  sent_at: v.pipe(v.number(), v.integer()),
  products: ids,
  sections: ids,
  selections: ids,
  slides: v.optional(v.boolean(), false),
  news: v.optional(v.boolean(), false),
  policy: v.optional(v.boolean(), false),
  everything: v.optional(v.boolean(), false),
});

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/** `sha256=<hex>`: the signature of `body` under `secret`, as the backend sends it. */
export function signHook(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface ChangeHookOptions {
  secret: string;
  /** Told each accepted change once, after its answer is sent. */
  accept(change: Change): void;
  /** The wall clock, in milliseconds. */
  now?: () => number;
}

/** The hook's route: answers, in Russian, what was wrong or that the change is taken. */
export function changeHook(options: ChangeHookOptions): Router {
  const now = options.now ?? Date.now;
  // An instance that has just started remembers no ids: it takes no hook sent before it started
  // (its data is newer than such a hook anyway), so nothing it has not seen can be replayed to it.
  const startedAt = Math.floor(now() / 1000);
  const delivered = new LRUCache<string, string>({
    max: 100_000,
    ttl: 2 * HOOK_LEEWAY_SECONDS * 1000,
  });
  const secret = Buffer.from(options.secret);
  const router = express.Router();

  const refuse = (res: Response, status: number, detail: string) => {
    res.status(status).json({ detail });
  };

  const handle = async (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    const declared = Number(req.get('content-length'));
    if (declared > MAX_BODY_BYTES) {
      refuse(res, 413, `Тело хука больше ${MAX_BODY_BYTES} байт`);
      return;
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === null) {
      refuse(res, 413, `Тело хука больше ${MAX_BODY_BYTES} байт`);
      return;
    }
    const signature = SIGNATURE.exec(req.get(SIGNATURE_HEADER) ?? '')?.[1];
    const expected = createHmac('sha256', secret).update(body).digest();
    if (!signature || !timingSafeEqual(Buffer.from(signature, 'hex'), expected)) {
      refuse(res, 401, `Подпись ${SIGNATURE_HEADER} не сходится: sha256=<HMAC-SHA256 тела в hex>`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      refuse(res, 400, 'Тело хука — не JSON');
      return;
    }
    const result = v.safeParse(HookBody, parsed);
    if (!result.success) {
      const issue = result.issues[0];
      const field = issue.path?.map((step) => String(step.key)).join('.') ?? 'тело';
      refuse(res, 400, `${field}: ${issue.message}`);
      return;
    }
    const hook = result.output;
    const change: Change = {
      products: hook.products,
      sections: hook.sections,
      selections: hook.selections,
      slides: hook.slides,
      news: hook.news,
      policy: hook.policy,
      everything: hook.everything,
    };
    if (!names(change)) {
      refuse(res, 400, 'Хук не называет ни одного изменения');
      return;
    }
    const nowSeconds = Math.floor(now() / 1000);
    if (Math.abs(nowSeconds - hook.sent_at) > HOOK_LEEWAY_SECONDS) {
      refuse(
        res,
        401,
        `sent_at расходится с часами магазина больше чем на ${HOOK_LEEWAY_SECONDS} с: отправьте изменение заново`,
      );
      return;
    }
    if (hook.sent_at < startedAt) {
      refuse(res, 401, 'Хук отправлен до запуска этого экземпляра магазина: отправьте его заново');
      return;
    }
    const delivery = req.get(DELIVERY_HEADER) ?? '';
    const first = delivered.get(hook.id);
    if (first !== undefined && (first === '' || first !== delivery)) {
      refuse(res, 401, `Хук ${hook.id} уже принят: каждая отправка — с новым id и подписью`);
      return;
    }
    res.status(202).json({ detail: 'Принято' });
    // The other copy of a delivery this instance has acted on: answered, nothing done twice.
    if (first !== undefined) return;
    delivered.set(hook.id, delivery);
    options.accept(change);
  };
  router.post(CHANGE_HOOK_PATH, (req, res, next) => {
    handle(req, res).catch(next);
  });
  router.all(CHANGE_HOOK_PATH, (_req, res) => {
    res.set('Allow', 'POST');
    refuse(res, 405, 'Хук принимает только POST');
  });
  return router;
}

/** Whether the change names anything. */
function names(change: Change): boolean {
  return (
    change.everything ||
    change.slides ||
    change.news ||
    change.policy ||
    change.products.length + change.sections.length + change.selections.length > 0
  );
}

/** The request's body, or null once it passes `limit` bytes (the rest is not read). */
function readBody(req: Request, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
