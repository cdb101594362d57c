// Django-style password hashes (`pbkdf2_sha256$iterations$salt$hash`) so the data file never
// holds a clear-text password.
import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

const ITERATIONS = 10_000;

export function hashPassword(password: string, salt = randomBytes(9).toString('hex')): string {
  const hash = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256').toString('base64');
  return `pbkdf2_sha256$${ITERATIONS}$${salt}$${hash}`;
}

export function checkPassword(password: string, encoded: string): boolean {
  const [algorithm, iterations, salt, hash] = encoded.split('$');
  if (algorithm !== 'pbkdf2_sha256' || !iterations || !salt || !hash) return false;
  const actual = pbkdf2Sync(password, salt, Number(iterations), 32, 'sha256');
  const expected = Buffer.from(hash, 'base64');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
