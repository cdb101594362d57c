// The login form posted to the shop's server (before the app's code arrived, or without it): the
// credentials exchanged for the visitor's token, with the app's own messages.
import { obtainToken } from '../api/auth';
import {
  loginErrorMessage,
  PASSWORD_REQUIRED,
  USERNAME_REQUIRED,
} from '../features/session/login-error';
import type { FormOutcome } from '../ui/page-data';

export type LoginFormResult =
  | { kind: 'signed-in'; token: string }
  /** The form again with the login kept (never the password), and why. */
  | { kind: 'refused'; outcome: FormOutcome };

export async function logInByForm(fields: Record<string, unknown>): Promise<LoginFormResult> {
  const username = typeof fields.username === 'string' ? fields.username.trim() : '';
  const password = typeof fields.password === 'string' ? fields.password : '';
  const refused = (outcome: Omit<FormOutcome, 'values'>): LoginFormResult => ({
    kind: 'refused',
    outcome: { values: { username }, ...outcome },
  });
  const errors: Record<string, string> = {};
  if (!username) errors.username = USERNAME_REQUIRED;
  if (!password) errors.password = PASSWORD_REQUIRED;
  if (Object.keys(errors).length > 0) return refused({ errors });
  try {
    const { token } = await obtainToken({ username, password });
    return { kind: 'signed-in', token };
  } catch (error) {
    return refused({ notice: loginErrorMessage(error) });
  }
}
