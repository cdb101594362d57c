// What the app reads from a failed call: its HTTP status and DRF field errors (src/api/http.ts).
import { errorStatus, fieldErrors } from '../../src/api/http';

/** Awaits a call that must fail and answers its error. */
export async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('The call succeeded, but the interaction answers with an error');
}

export async function failureStatus(call: Promise<unknown>): Promise<number | undefined> {
  return errorStatus(await failure(call));
}

export async function failureFields(call: Promise<unknown>): Promise<Record<string, string[]>> {
  return fieldErrors(await failure(call));
}
