// The reference backend's sender of the change hook (contracts/django/reference/shop/changes.py),
// by its own Python tests (shop/test_changes.py) against a stand-in shop: the body, the signature,
// the retries with a growing pause, each a new hook, and that the code that saved never waits.
// Needs Debian's python3-django for /usr/bin/python3, as the other reference backend tests do.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { PROJECT_DIR, PYTHON } from './django/reference/serve';

const run = promisify(execFile);

it('the reference backend tells the shop what changed: signed, retried, never in the way', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'berries-django-changes-'));
  try {
    const result = await run(
      PYTHON,
      ['manage.py', 'test', 'shop.test_changes', '--noinput', '-v', '2'],
      {
        cwd: PROJECT_DIR,
        env: { ...process.env, DJANGO_DATA_DIR: dir, PYTHONDONTWRITEBYTECODE: '1' },
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    expect(result.stderr).toMatch(/^Ran 7 tests in .*\n\nOK$/m);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
