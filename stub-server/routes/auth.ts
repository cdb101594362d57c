// DRF's obtain_auth_token and the current user.
import express, { type Router } from 'express';
import type { TokenResponse, User } from '../../src/api/types.ts';
import { mergeBasket } from '../baskets.ts';
import { nowIso } from '../clock.ts';
import type { StubContext } from '../context.ts';
import type { StoredUser, StubData } from '../db.ts';
import { badRequest, defineRoute, HttpError } from '../http.ts';
import { checkPassword } from '../passwords.ts';
import { newTokenKey, rotateSession, sessionOwner, userOwner, visitorOf } from '../session.ts';
import { BAD_CREDENTIALS, validateCredentials } from '../validation.ts';

export const toUser = (user: StoredUser): User => ({
  id: user.id,
  username: user.username,
  first_name: user.first_name,
  last_name: user.last_name,
  email: user.email,
});

/** DRF keeps one token per user: the current one, or a new one once it was revoked. */
export function tokenFor(data: StubData, user: StoredUser): string {
  const current = data.tokens.find((token) => token.user_id === user.id && !token.revoked);
  if (current) return current.key;
  const key = newTokenKey();
  data.tokens.push({ key, user_id: user.id, created_ts: nowIso(), revoked: false });
  return key;
}

export function authRoutes(ctx: StubContext): Router {
  const { store } = ctx;
  const router = express.Router();

  defineRoute(router, '/auth/token/', {
    post: async (req, res) => {
      const { username, password } = validateCredentials(req.body);
      const data = store.data;
      const user = data.users.find((candidate) => candidate.username === username);
      if (!user || !checkPassword(password, user.password)) {
        throw badRequest({ non_field_errors: [BAD_CREDENTIALS] });
      }
      const token = tokenFor(data, user);
      // What the visitor put in the basket before logging in moves into the account's basket;
      // then the session gets a new key, as Django's login() does against session fixation.
      mergeBasket(data, sessionOwner(visitorOf(req).sessionId), userOwner(user));
      const session = rotateSession(ctx, req);
      await store.save();
      session.issue(res);
      res.json({ token } satisfies TokenResponse);
    },
  });
  defineRoute(router, '/auth/user/me/', {
    get: (req, res) => {
      const { user } = visitorOf(req);
      if (!user) {
        throw new HttpError(
          401,
          { detail: 'Учетные данные не были предоставлены.' },
          { 'WWW-Authenticate': 'Token' },
        );
      }
      res.json(toUser(user) satisfies User);
    },
  });
  return router;
}
