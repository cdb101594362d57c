import { http } from './http';
import type { Credentials, TokenResponse, User } from './types';

export const obtainToken = (credentials: Credentials) =>
  http<TokenResponse>('/auth/token/', { method: 'POST', body: credentials });

export const getCurrentUser = () => http<User>('/auth/user/me/');
