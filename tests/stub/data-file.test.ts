// A data file the stub cannot use as it is: a damaged one is set aside with its bytes untouched
// and one line naming both files; one it may not read or write stops the start with one line.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStubApp } from '../../stub-server/app.ts';
import { DataFileError, dataFileBytes } from '../../stub-server/data-file.ts';
import type { StubData } from '../../stub-server/db.ts';
import { buildSeed } from '../../stub-server/fixtures/seed.ts';
import { tempDataFile } from './helpers.ts';
import { runStubToExit, spawnStub } from './stub-process.ts';

const dirs: string[] = [];
function freshFile(): { dir: string; dataFile: string } {
  const made = tempDataFile();
  dirs.push(made.dir);
  return made;
}
afterAll(() => {
  for (const dir of dirs) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A good data file's text, with a basket to lose. */
function goodText(): string {
  const data = buildSeed(new Date());
  data.baskets['session:abcdefgh12'] = {
    lines: { '7': 1.5 },
    updated_ts: new Date().toISOString(),
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

function changed(edit: (data: Record<string, unknown>) => void): string {
  const data = JSON.parse(goodText()) as Record<string, unknown>;
  edit(data);
  return JSON.stringify(data, null, 2);
}

const readData = (file: string): StubData => JSON.parse(readFileSync(file, 'utf8')) as StubData;

let warn: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  error = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a damaged data file', () => {
  const good = goodText();
  it.each([
    ['cut short by one byte', Buffer.from(good.trimEnd().slice(0, -1)), /не JSON/],
    [
      'with a UTF-8 BOM',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good)]),
      /BOM/,
    ],
    ['with NUL bytes after it', Buffer.concat([Buffer.from(good), Buffer.alloc(64)]), /не JSON/],
    ['empty (0 bytes)', Buffer.alloc(0), /файл пуст/],
    [
      'of another schema version',
      Buffer.from(changed((d) => ((d.meta as { schema: number }).schema = 2))),
      /версия схемы 2/,
    ],
    ['{"a":1}', Buffer.from('{"a":1}'), /нет поля meta/],
    ['with "baskets": null', Buffer.from(changed((d) => (d.baskets = null))), /baskets/],
    [
      'with a basket line that is not a number',
      Buffer.from(
        changed(
          (d) =>
            ((d.baskets as Record<string, unknown>)['session:abcdefgh12'] = {
              lines: { '7': 'x' },
            }),
        ),
      ),
      /baskets/,
    ],
    [
      'with a field json-server cannot serve',
      Buffer.from(changed((d) => (d.extra = 1))),
      /неизвестное поле "extra"/,
    ],
    ['a JSON list', Buffer.from('[1, 2]'), /не объект JSON/],
  ])(
    '%s: set aside byte for byte, one line, the stub starts from the seed',
    (_name, bytes, reason) => {
      const { dir, dataFile } = freshFile();
      writeFileSync(dataFile, bytes);
      createStubApp({ dataFile });

      const asides = readdirSync(dir).filter((name) => name.startsWith('db.json.corrupt-'));
      expect(asides).toHaveLength(1);
      const aside = join(dir, asides[0]!);
      expect(readFileSync(aside).equals(bytes)).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(error).not.toHaveBeenCalled();
      const line = String(warn.mock.calls[0]?.[0]);
      expect(line).not.toContain('\n');
      expect(line).toMatch(reason);
      expect(line).toContain(`${dataFile} отложен как ${aside}`);
      expect(line).toContain('npm run stub -- --reset');
      // The data file is the seed again, whole.
      const data = readData(dataFile);
      expect(data.products.length).toBeGreaterThanOrEqual(45);
      expect(data.baskets).toEqual({});
    },
  );

  it('a second damaged file gets a copy of its own', () => {
    const { dir, dataFile } = freshFile();
    writeFileSync(dataFile, '{');
    createStubApp({ dataFile });
    writeFileSync(dataFile, '}');
    createStubApp({ dataFile });
    const asides = readdirSync(dir).filter((name) => name.startsWith('db.json.corrupt-'));
    expect(asides.map((name) => readFileSync(join(dir, name), 'utf8')).sort()).toEqual(['{', '}']);
  });

  it('npm start prints the one line, no stack trace, and serves the seed', async () => {
    const { dataFile } = freshFile();
    writeFileSync(dataFile, '{"a":1}');
    const stub = await spawnStub(dataFile);
    try {
      const lines = stub.output().trim().split('\n');
      const warning = lines.filter((line) => line.startsWith('[stub]'));
      expect(warning).toHaveLength(1);
      expect(warning[0]).toMatch(/отложен как .*db\.json\.corrupt-/);
      expect(stub.output()).not.toMatch(/\n\s+at /);
      const answer = await fetch(new URL('/api/catalog/section_root', stub.url));
      expect(answer.status).toBe(200);
    } finally {
      await stub.stop();
    }
  }, 30_000);
});

describe('a data file the stub may not use', () => {
  it.each([
    ['read-only (0444)', 0o444, /только для чтения/],
    ['unreadable (0200)', 0o200, /не прочитать/],
  ])('%s: createStubApp refuses it and leaves it as it was', (_name, mode, message) => {
    const { dataFile } = freshFile();
    const text = goodText();
    writeFileSync(dataFile, text);
    chmodSync(dataFile, mode);
    expect(() => createStubApp({ dataFile })).toThrow(DataFileError);
    expect(() => createStubApp({ dataFile, reset: true })).toThrow(message);
    chmodSync(dataFile, 0o644);
    expect(readFileSync(dataFile, 'utf8')).toBe(text);
    expect(statSync(dataFile).mode & 0o777).toBe(0o644);
  });

  it.each([
    [
      'read-only (0444)',
      0o444,
      /^Файл данных заглушки только для чтения: .*db\.json\. .*chmod u\+w/,
    ],
    [
      'unreadable (0200)',
      0o200,
      /^Файл данных заглушки не прочитать: .*db\.json \(нет прав на чтение\)\. .*chmod u\+r/,
    ],
  ])(
    '%s: npm start stops with one line naming the file, the reason and what to do',
    async (_name, mode, line) => {
      const { dataFile } = freshFile();
      const text = goodText();
      writeFileSync(dataFile, text);
      chmodSync(dataFile, mode);
      const { code, output } = await runStubToExit(dataFile);
      expect(code).toBe(1);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output.trim()).toMatch(line);
      expect(output).toContain(dataFile);
      chmodSync(dataFile, 0o644);
      expect(readFileSync(dataFile, 'utf8')).toBe(text);
    },
    30_000,
  );

  it('a folder where the file should be stops the start too', async () => {
    const { dataFile } = freshFile();
    mkdirSync(dataFile);
    const { code, output } = await runStubToExit(dataFile);
    expect(code).toBe(1);
    expect(output.trim()).toMatch(/^Путь данных заглушки — не файл: .*db\.json\./);
    expect(output).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('a data file under a path that is a file: the folder cannot be made, one line', async () => {
    const { dir, dataFile } = freshFile();
    writeFileSync(dataFile, goodText());
    const { code, output } = await runStubToExit(join(dataFile, 'db.json'));
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output.trim()).toMatch(/^Папку данных заглушки не создать: .*db\.json \(EEXIST\)/);
    expect(readdirSync(dir)).toEqual(['db.json']);
  }, 30_000);

  // Even root cannot create a file in /proc: a folder nobody may write into.
  it.runIf(existsSync('/proc/self'))(
    'a folder the stub may not write into: the start-up write fails with one line',
    async () => {
      const { code, output } = await runStubToExit('/proc/db.json');
      expect(code).toBe(1);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output.trim()).toMatch(/^Файл данных заглушки не записать: \/proc\/db\.json \(/);
    },
    30_000,
  );
});

describe('temporary files of writes a crash cut short', () => {
  it('are removed at start-up; copies set aside are kept', () => {
    const { dir, dataFile } = freshFile();
    writeFileSync(dataFile, goodText());
    writeFileSync(`${dataFile}.123456789`, '{"half": ');
    writeFileSync(`${dataFile}.corrupt-2026-01-01T00-00-00-000Z`, '{');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    createStubApp({ dataFile });
    expect(readdirSync(dir).sort()).toEqual([
      'db.json',
      'db.json.corrupt-2026-01-01T00-00-00-000Z',
      'notes.txt',
    ]);
    expect(readData(dataFile).baskets['session:abcdefgh12']?.lines).toEqual({ '7': 1.5 });
  });
});

describe('dataFileBytes', () => {
  it('is JSON.stringify of the data, Cyrillic and fields left undefined included', () => {
    const data = JSON.parse(goodText()) as StubData;
    data.users[0]!.first_name = 'Пётр «Ягодный»';
    Object.assign(data.policy, { note: undefined });
    Object.assign(data, { extra: undefined });
    expect(dataFileBytes(data).toString('utf8')).toBe(`${JSON.stringify(data)}\n`);
  });
});
