// Reading and writing the pact file. The written text depends only on the interactions: they are
// sorted by description (Pact keeps them in the order the tests ran) and the JSON is printed the
// same way every time, so a change of contract shows in git as a readable diff.
import { readFileSync } from 'node:fs';
import { PACT_FILE } from './constants';
import type { Json } from './states';

export interface PactState {
  name: string;
  params?: { [key: string]: Json };
}

export interface PactInteraction {
  description: string;
  providerStates?: PactState[];
  comments?: { text?: string[]; [key: string]: Json | undefined };
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: { content: Json };
  };
  response: { status: number; body?: { content: Json } };
  [key: string]: unknown;
}

export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: Record<string, unknown>;
}

export function normalizePact(pact: PactFile): string {
  const interactions = [...pact.interactions].sort((a, b) =>
    a.description < b.description ? -1 : a.description > b.description ? 1 : 0,
  );
  const seen = new Set<string>();
  for (const { description } of interactions) {
    if (seen.has(description)) throw new Error(`Two interactions are described "${description}"`);
    seen.add(description);
  }
  return `${JSON.stringify({ ...pact, interactions }, null, 2)}\n`;
}

export function readPactFile(file = PACT_FILE): PactFile {
  return JSON.parse(readFileSync(file, 'utf8')) as PactFile;
}
