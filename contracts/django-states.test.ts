// The drop-in provider-state module for Django (contracts/django/pact_states.py) cannot drift
// from the pact: it registers exactly the states of contracts/support/states.ts, each function
// takes exactly the params its state's name promises, and the visitor's session is the one the
// verifier sends.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACT_SESSION } from './support/constants';
import { placeholders, STATES } from './support/states';

const MODULE = readFileSync(new URL('./django/pact_states.py', import.meta.url), 'utf8');

interface PythonState {
  name: string;
  params: string[];
}

/** `@state("name")` and the parameters, after `request`, of the function below it. */
function pythonStates(source: string): PythonState[] {
  const pattern = /^@state\("([^"]+)"\)\s*\ndef \w+\(request((?:,\s*\w+)*)\s*\):/gm;
  return [...source.matchAll(pattern)].map(([, name, params]) => ({
    name: name!,
    params: params!
      .split(',')
      .map((param) => param.trim())
      .filter(Boolean),
  }));
}

describe('contracts/django/pact_states.py', () => {
  it('reads the states and their params off the module', () => {
    const source = '@state("the token {token} is revoked")\ndef revoked(request, token):\n';
    expect(pythonStates(source)).toEqual([
      { name: 'the token {token} is revoked', params: ['token'] },
    ]);
  });

  it('registers exactly the states of the pact', () => {
    const names = pythonStates(MODULE).map((state) => state.name);
    expect(MODULE.match(/^@state\(/gm)).toHaveLength(names.length);
    expect([...names].sort()).toEqual(Object.values(STATES).sort());
  });

  it('gives each state function the params its name promises', () => {
    const wrong = pythonStates(MODULE).filter(
      ({ name, params }) => [...params].sort().join() !== placeholders(name).sort().join(),
    );
    expect(wrong).toEqual([]);
  });

  it("puts the basket and orders into the verifier's session", () => {
    expect(MODULE).toContain(`PACT_SESSION = "${PACT_SESSION}"`);
  });
});
