// /__control: test-only endpoints (mounted only with `controls: true`). No CSRF here.
import express, { type Router } from 'express';
import jsonServer from 'json-server';
import type { StubContext } from '../context.ts';
import { type FaultSpec, pathMatches } from '../faults.ts';
import { apiErrors, apiNotFound, defineRoute, HttpError, pathId } from '../http.ts';
import { isSessionKey } from '../session.ts';
import { applyState, NAMED_STATES, revokeToken } from '../states.ts';
import { isRecord, objectBody } from '../validation.ts';

const fail = (detail: string): HttpError => new HttpError(400, { detail });

function faultSpec(body: unknown): FaultSpec {
  const data = objectBody(body);
  const { path, method, status, delay_ms, network_error, times, body: answer } = data;
  if (typeof path !== 'string' || !(pathMatches('/api', path) || pathMatches('/media', path)))
    throw fail('path: ожидается путь в /api или /media');
  const spec: FaultSpec = { path };
  if (method !== undefined) {
    if (typeof method !== 'string') throw fail('method: ожидается строка');
    spec.method = method.toUpperCase();
  }
  if (status !== undefined) {
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
      throw fail('status: ожидается код 200..599');
    spec.status = status;
  }
  if (answer !== undefined) {
    if (!isRecord(answer) && !Array.isArray(answer)) throw fail('body: ожидается JSON-объект');
    spec.body = answer;
  }
  if (delay_ms !== undefined) {
    if (typeof delay_ms !== 'number' || delay_ms < 0 || delay_ms > 120_000)
      throw fail('delay_ms: ожидается 0..120000');
    spec.delay_ms = delay_ms;
  }
  if (network_error !== undefined) {
    if (typeof network_error !== 'boolean') throw fail('network_error: ожидается boolean');
    spec.network_error = network_error;
  }
  if (times !== undefined) {
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1)
      throw fail('times: ожидается целое число >= 1');
    spec.times = times;
  }
  if (spec.status === undefined && !spec.delay_ms && !spec.network_error)
    throw fail('Нужен status, delay_ms или network_error');
  return spec;
}

export function controlRoutes(ctx: StubContext): Router {
  const { store, faults, settings } = ctx;
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(jsonServer.bodyParser);

  defineRoute(router, '/reset', {
    post: (_req, res) => {
      store.reset();
      faults.clear();
      res.json({ reset: true });
    },
  });
  defineRoute(router, '/faults', {
    get: (_req, res) => {
      res.json(faults.list());
    },
    post: (req, res) => {
      res.status(201).json(faults.add(faultSpec(req.body)));
    },
    delete: (_req, res) => {
      faults.clear();
      res.status(204).end();
    },
  });
  defineRoute(router, '/faults/:id(\\d+)', {
    delete: (req, res) => {
      if (!faults.remove(pathId(req))) throw new HttpError(404, { detail: 'Не найдено.' });
      res.status(204).end();
    },
  });
  defineRoute(router, '/revoke', {
    post: (req, res) => {
      const { token } = objectBody(req.body);
      if (typeof token !== 'string' || !revokeToken(store.data, token))
        throw new HttpError(404, { detail: 'Нет такого токена.' });
      store.save();
      res.json({ revoked: token });
    },
  });
  defineRoute(router, '/settings', {
    get: (_req, res) => {
      res.json(settings);
    },
    post: (req, res) => {
      const { csrf, fixed_session } = objectBody(req.body);
      if (csrf !== undefined) {
        if (typeof csrf !== 'boolean') throw fail('csrf: ожидается boolean');
        settings.csrf = csrf;
      }
      if (fixed_session !== undefined) {
        if (
          fixed_session !== null &&
          (typeof fixed_session !== 'string' || !isSessionKey(fixed_session))
        )
          throw fail('fixed_session: 8..64 латинских букв и цифр или null');
        settings.fixedSession = fixed_session;
      }
      res.json(settings);
    },
  });
  defineRoute(router, '/state', {
    get: (_req, res) => {
      const data = store.data;
      res.json({
        named_states: NAMED_STATES,
        users: data.users.map(({ password: _password, ...user }) => user),
        tokens: data.tokens,
        sessions: data.sessions,
        baskets: data.baskets,
        orders: data.orders.map(({ id, owner, status, created_ts, order_sum }) => ({
          id,
          owner,
          status,
          created_ts,
          order_sum,
        })),
        settings,
        faults: faults.list(),
      });
    },
    post: (req, res) => {
      res.json(applyState(ctx, req.body));
    },
  });
  router.use(apiNotFound);
  router.use(apiErrors);
  return router;
}
