// What the completeness check asks of a pact file: every src/api function makes at least one
// interaction, every stub route is exercised by one, every state carries the params its name
// promises, and every field the pact asks of a backend is read by the app. Each answers the list
// of what is missing, empty when nothing is.
import type { PactFile } from './pact-file';
import { placeholders } from './states';
import type { StubRoute } from './stub-routes';

export function functionsWithoutInteraction(pact: PactFile, functionRefs: string[]): string[] {
  const covered = new Set(
    pact.interactions.map((interaction) => interaction.comments?.apiFunction),
  );
  return functionRefs.filter((ref) => !covered.has(ref));
}

/**
 * Modules of src/api (file names) that the contract does not cover: neither listed as API
 * modules, whose every function needs an interaction, nor as the client's own machinery.
 */
export function apiModulesNotCovered(
  files: string[],
  apiModules: string[],
  machinery: readonly string[],
): string[] {
  return files
    .filter((file) => /\.tsx?$/.test(file))
    .filter((file) => !machinery.includes(file))
    .filter((file) => !apiModules.includes(file.replace(/\.tsx?$/, '')))
    .map((file) => `src/api/${file}`);
}

export function routesWithoutInteraction(pact: PactFile, routes: StubRoute[]): string[] {
  return routes
    .filter(
      (route) =>
        !pact.interactions.some(
          ({ request }) =>
            (route.method === '*' || request.method === route.method) &&
            request.path.startsWith('/api/') &&
            route.matches(request.path.slice('/api'.length)),
        ),
    )
    .map((route) => `${route.method} /api${route.path}`);
}

export function statesWithoutParams(pact: PactFile): string[] {
  return pact.interactions.flatMap(({ description, providerStates = [] }) =>
    providerStates.flatMap(({ name, params = {} }) =>
      placeholders(name)
        .filter((key) => !(key in params))
        .map((key) => `${description}: "${name}" has no param ${key}`),
    ),
  );
}

/** State names of the pact that the backend developers' guide does not mention. */
export function statesMissingFromGuide(pact: PactFile, guide: string): string[] {
  const names = new Set(
    pact.interactions.flatMap(({ providerStates = [] }) => providerStates.map(({ name }) => name)),
  );
  return [...names].filter((name) => !guide.includes(`\`${name}\``));
}

/** The keys of the objects in the pact's response bodies: the fields a backend must send. */
export function requiredResponseFields(pact: PactFile): string[] {
  const fields = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        // The basket's keys are product ids, not fields.
        if (!/^\d+$/.test(key)) fields.add(key);
        walk(value);
      }
    }
  };
  for (const { response } of pact.interactions) walk(response.body?.content);
  return [...fields].sort();
}

/** Source text without its comments: a field named in a comment is not read. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * Fields the pact asks of a backend that no app source reads: `.field`, `?.field`, or taken out
 * of the answer by destructuring (`({ field })`, `{ id, field = '' }`). The app's type
 * declarations are no reader, so src/api/types.ts is left out of `sources` by the caller.
 */
export function fieldsNotReadByApp(pact: PactFile, sources: string[]): string[] {
  const code = sources.map(withoutComments).join('\n');
  const read = (field: string) =>
    new RegExp(`\\.${field}(?![\\w$])`).test(code) ||
    new RegExp(`[{,]\\s*${field}\\s*[,}=]`).test(code);
  return requiredResponseFields(pact).filter((field) => !read(field));
}
