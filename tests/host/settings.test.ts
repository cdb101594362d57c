// The settings' one table (host/process/settings.ts): what an operator reads in docs/deploy.md
// and in `--help` is what the server does, and a bad value stops the start with a message that
// says which variable and what it may hold.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSettings, SETTINGS, settingDefaults } from '../../host/process/settings.ts';

const ROOT = new URL('../../', import.meta.url);

/** docs/deploy.md's settings table: one row per variable, its cells as written. */
function deployDocRows(): string[][] {
  const doc = readFileSync(new URL('docs/deploy.md', ROOT), 'utf8');
  const lines = doc.split('\n');
  const header = lines.findIndex((line) => /^\|\s*variable\s*\|\s*default\s*\|/.test(line));
  expect(header).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** host/main.ts run as an operator runs it, with `env` added; its exit code and output. */
async function runMain(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out };
}

describe("docs/deploy.md's table of settings", () => {
  it('has every setting, with its default, limits and help, and nothing else', () => {
    const table = Object.values(SETTINGS).map((setting) => [
      `\`${setting.env}\``,
      setting.shown,
      setting.limits,
      setting.help,
    ]);
    expect(deployDocRows()).toEqual(table);
  });
});

describe('reading the environment', () => {
  it('gives every default when nothing is set, and an empty variable is unset', () => {
    expect(readSettings({})).toEqual(settingDefaults);
    expect(readSettings({ SSR_DATA_TIMEOUT_MS: '' }).dataTimeoutMs).toBe(1500);
  });

  it('takes values within the limits', () => {
    const settings = readSettings({
      PORT: '0',
      SSR_DATA_TIMEOUT_MS: '60000',
      API_TARGET: 'https://backend.example',
      SHOP_TIME_ZONE: 'Asia/Yekaterinburg',
      ACCESS_LOG: '0',
    });
    expect(settings).toMatchObject({
      port: 0,
      dataTimeoutMs: 60_000,
      apiTarget: 'https://backend.example',
      timeZone: 'Asia/Yekaterinburg',
      accessLog: false,
    });
  });

  it.each([
    ['PORT', '65536', 'целое от 0 до 65535'],
    ['PORT', 'abc', 'целое от 0 до 65535'],
    ['SSR_DATA_TIMEOUT_MS', '-1', 'целое от 0 до 60000'],
    ['SSR_DATA_TIMEOUT_MS', '1.5', 'целое от 0 до 60000'],
    ['BACKEND_MAX_SOCKETS', '0', 'целое от 1 до 10000'],
    ['API_TARGET', 'backend.example', 'адрес вида https://backend.example'],
    ['SHOP_TIME_ZONE', 'Moscow', 'пояс IANA вида Europe/Moscow'],
    ['ACCESS_LOG', 'no', '0 или 1'],
  ])('refuses %s=%s, naming it and its limits', (name, value, limits) => {
    expect(() => readSettings({ [name]: value })).toThrow(
      `Некорректное значение ${name}: «${value}». Допустимо: ${limits}.`,
    );
  });
});

describe('host/main.ts', () => {
  it('prints the usage made from the table on --help', async () => {
    const { code, out } = await runMain(['--help'], {});
    expect(code).toBe(0);
    for (const setting of Object.values(SETTINGS)) {
      expect(out).toContain(setting.env);
      expect(out).toContain(setting.help);
      expect(out).toContain(`(${setting.shown}; ${setting.limits})`);
    }
  });

  it('stops with the variable, its limits and the usage on a bad value', async () => {
    const { code, out } = await runMain([], { FORM_TIMEOUT_MS: '90000' });
    expect(code).toBe(2);
    expect(out).toContain(
      'Некорректное значение FORM_TIMEOUT_MS: «90000». Допустимо: целое от 0 до 60000.',
    );
    expect(out).toContain('Переменные окружения');
  });
});
