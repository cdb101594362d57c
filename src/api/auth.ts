import { type Api, getter, http } from './http';
import type { Credentials, TokenResponse, User } from './types';

export const obtainToken = (credentials: Credentials, api: Api = http) =>
  api<TokenResponse>('/auth/token/', { method: 'POST', body: credentials });

export const getCurrentUser = getter<User>('/auth/user/me/');
