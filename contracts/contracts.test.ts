// The contract suite, in the order it must run: the consumer tests regenerate the pact file, then
// the completeness check and the stub verification read what was just written. One file, so that
// the order holds whatever order Vitest picks for test files.
import './support/env';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { safeParse } from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { answerShape } from '../src/api/answer-shapes';
import { authContracts } from './consumer/auth';
import { basketContracts } from './consumer/basket';
import { catalogContracts } from './consumer/catalog';
import { contentContracts } from './consumer/content';
import { orderContracts } from './consumer/orders';
import { serverCallContracts } from './consumer/server-calls';
import {
  apiModulesNotCovered,
  fieldsNotReadByApp,
  functionsWithoutInteraction,
  requiredResponseFields,
  routesWithoutInteraction,
  statesMissingFromGuide,
  statesWithoutParams,
} from './support/completeness';
import { API_MACHINERY, API_MODULES, apiFunctionRefs, writePactFile } from './support/consumer';
import { readPactFile } from './support/pact-file';
import { stubApiRoutes } from './support/stub-routes';
import { runVerifyCli } from './support/verify-cli';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The app's code that reads answers: every src file but the type declarations. */
function appSources(): string[] {
  const src = join(ROOT, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && file !== join('api', 'types.ts'))
    .map((file) => readFileSync(join(src, file), 'utf8'));
}

describe('consumer: every call of src/api against the Pact mock server', () => {
  catalogContracts();
  basketContracts();
  orderContracts();
  contentContracts();
  authContracts();
  serverCallContracts();

  afterAll(() => {
    const result = writePactFile();
    if (!result.written) console.warn(`[contracts] pact file left as it was: ${result.reason}`);
  });
});

describe('completeness of the pact file', () => {
  it('has an interaction for every function of src/api/{catalog,basket,orders,content,auth}.ts', () => {
    const functions = apiFunctionRefs();
    expect(functions.length).toBeGreaterThanOrEqual(22);
    expect(functionsWithoutInteraction(readPactFile(), functions)).toEqual([]);
  });

  it('knows every module of src/api: each is an API module above or the client machinery', () => {
    const files = readdirSync(new URL('../src/api', import.meta.url));
    expect(apiModulesNotCovered(files, Object.keys(API_MODULES), API_MACHINERY)).toEqual([]);
  });

  it('exercises every /api route of the stub', () => {
    const routes = stubApiRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(22);
    expect(routesWithoutInteraction(readPactFile(), routes)).toEqual([]);
  });

  it('gives every provider state the params its name promises', () => {
    expect(statesWithoutParams(readPactFile())).toEqual([]);
  });

  it('asks the backend only for fields the app reads', () => {
    const pact = readPactFile();
    expect(requiredResponseFields(pact).length).toBeGreaterThanOrEqual(25);
    expect(fieldsNotReadByApp(pact, appSources())).toEqual([]);
  });

  it("has every successful answer of the pact of the shape the shop's server checks it against", () => {
    const misfits = readPactFile().interactions.flatMap(({ description, request, response }) => {
      if (response.status < 200 || response.status >= 300) return [];
      const shape = answerShape(request.method, request.path.replace(/^\/api/, ''));
      if (!shape) return [`${description}: no shape for ${request.method} ${request.path}`];
      const result = safeParse(shape, response.body?.content);
      return result.success ? [] : [`${description}: ${result.issues[0].message}`];
    });
    expect(misfits).toEqual([]);
  });

  it('documents every provider state in contracts/README.md', () => {
    const guide = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    expect(statesMissingFromGuide(readPactFile(), guide)).toEqual([]);
  });
});

describe('the embedded stub honours the pact', () => {
  it('passes the Pact Verifier (npm run contracts:verify)', async () => {
    const { code, output, summary } = await runVerifyCli();
    expect(code, summary || output).toBe(0);
    expect(summary).toMatch(/^Pact verification: (\d+) interactions, \1 passed, 0 failed\./);
  });
});
