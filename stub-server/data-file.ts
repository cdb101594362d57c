// The data file on disk: reading and checking it at start-up, setting a damaged one aside, and
// writing it crash-safely. A write goes to a temporary file in the same folder, is flushed to
// disk, then renamed over the data file (write-file-atomic), and the folder is flushed so that
// the rename is on disk too: a crash at any moment leaves the old file or the new one, whole.
import { constants, accessSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { existsSync, statSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { StartError } from '../host/process/start-error.ts';
import type { StubData } from './db.ts';
import { SCHEMA_VERSION } from './fixtures/seed.ts';

/**
 * A data file the stub cannot work with: `message` is the one line to print, in Russian. A
 * StartError, so the shop's command line, which embeds the stub, prints it as it is too.
 */
export class DataFileError extends StartError {}

const OTHER_FILE = 'или задайте другой файл через STUB_DATA_FILE=…';

/**
 * The file's bytes: compact JSON (`jq . db.json` shows it indented). Each top-level field is
 * serialised and encoded apart: the large ones (sessions, baskets) are plain ASCII, which V8
 * keeps in one-byte strings that encode several times faster than one string holding the
 * catalogue's Cyrillic too. The result is the bytes of `JSON.stringify(data)`.
 */
export function dataFileBytes(data: StubData): Buffer {
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(data)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) continue;
    parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:${json}`));
  }
  parts.push(Buffer.from(parts.length === 0 ? '{}\n' : '}\n'));
  return Buffer.concat(parts);
}

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error as Error).message;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isArrayOf = (value: unknown, check: (item: unknown) => boolean): boolean =>
  Array.isArray(value) && value.every(check);

const isRecordOf = (value: unknown, check: (item: unknown) => boolean): boolean =>
  isRecord(value) && Object.values(value).every(check);

const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

const hasNumber = (key: string) => (item: unknown) => isRecord(item) && isNumber(item[key]);

const hasString = (key: string) => (item: unknown) =>
  isRecord(item) && typeof item[key] === 'string';

/** Each top-level field, what it must hold, and that said in Russian. */
const FIELDS: [key: keyof StubData, check: (value: unknown) => boolean, expected: string][] = [
  ['sections', (v) => isArrayOf(v, hasNumber('id')), 'список разделов'],
  ['products', (v) => isArrayOf(v, hasNumber('id')), 'список товаров'],
  ['selections', (v) => isArrayOf(v, hasNumber('id')), 'список подборок'],
  [
    'home',
    (v) => isRecord(v) && isArrayOf(v.section_ids, isNumber) && isArrayOf(v.product_ids, isNumber),
    'объект с section_ids и product_ids',
  ],
  ['slides', (v) => isArrayOf(v, hasNumber('id')), 'список слайдов'],
  ['news', (v) => isArrayOf(v, isRecord), 'список новостей'],
  ['policy', isRecord, 'объект'],
  [
    'users',
    (v) => isArrayOf(v, (user) => hasNumber('id')(user) && hasString('username')(user)),
    'список пользователей',
  ],
  [
    'tokens',
    (v) => isArrayOf(v, (token) => hasString('key')(token) && hasNumber('user_id')(token)),
    'список токенов',
  ],
  ['sessions', (v) => isRecordOf(v, hasString('last_seen_ts')), 'объект сессий'],
  [
    'baskets',
    (v) => isRecordOf(v, (basket) => isRecord(basket) && isRecordOf(basket.lines, isNumber)),
    'объект корзин',
  ],
  [
    'orders',
    (v) =>
      isArrayOf(
        v,
        (order) => hasString('owner')(order) && isRecord(order) && Array.isArray(order.items),
      ),
    'список заказов',
  ],
  [
    'counters',
    (v) => isRecord(v) && isNumber(v.user) && isNumber(v.order) && isNumber(v.order_item),
    'объект счётчиков',
  ],
];

/** Why the text is not stub data of this version, in Russian; null when it is. */
export function dataProblem(text: string): string | null {
  if (text.trim() === '') return 'файл пуст';
  if (text.charCodeAt(0) === 0xfeff) return 'в начале стоит метка порядка байтов (BOM)';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `не JSON: ${(error as Error).message}`;
  }
  if (!isRecord(value)) return 'в нём не объект JSON';
  if (!isRecord(value.meta) || typeof value.meta.fixtures !== 'string')
    return 'нет поля meta с версией схемы';
  if (value.meta.schema !== SCHEMA_VERSION)
    return `версия схемы ${JSON.stringify(value.meta.schema)}, а эта заглушка знает ${SCHEMA_VERSION}`;
  for (const [key, check, expected] of FIELDS) {
    if (!(key in value)) return `нет поля ${key}`;
    if (!check(value[key])) return `в поле ${key} ожидается ${expected}`;
  }
  const known = new Set<string>(['meta', ...FIELDS.map(([key]) => key)]);
  const unknown = Object.keys(value).find((key) => !known.has(key));
  if (unknown !== undefined) return `неизвестное поле ${JSON.stringify(unknown)}`;
  return null;
}

function accessible(file: string, mode: number): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the data file exists. A path that is not a file, or a file the stub may not read or
 * write, throws DataFileError: the stub must not start on it, and must not replace it.
 */
export function checkDataFile(file: string): boolean {
  if (!existsSync(file)) return false;
  const stats = statSync(file);
  if (!stats.isFile())
    throw new DataFileError(`Путь данных заглушки — не файл: ${file}. Уберите его ${OTHER_FILE}.`);
  const writes = 'Заглушка записывает в него корзины, заказы и входы';
  // The permission bits count even for root, who may write anyway: a file made read-only is one
  // its owner does not want changed.
  if ((stats.mode & 0o222) === 0) {
    throw new DataFileError(
      `Файл данных заглушки только для чтения: ${file}. ${writes}: дайте права на запись ` +
        `(chmod u+w) ${OTHER_FILE}.`,
    );
  }
  if (!accessible(file, constants.W_OK)) {
    throw new DataFileError(
      `Файл данных заглушки не записать пользователю ${userInfo().username}: ${file}. ${writes}: ` +
        `дайте этому пользователю права на файл (chown или chmod) ${OTHER_FILE}.`,
    );
  }
  if ((stats.mode & 0o444) === 0 || !accessible(file, constants.R_OK))
    throw cannotRead(file, 'нет прав на чтение');
  return true;
}

const cannotRead = (file: string, reason: string) =>
  new DataFileError(
    `Файл данных заглушки не прочитать: ${file} (${reason}). ` +
      `Дайте права на чтение (chmod u+r, или chown на этого пользователя) ${OTHER_FILE}.`,
  );

export type ReadResult = { kind: 'data'; data: StubData } | { kind: 'damaged'; problem: string };

/** The contents of a data file checkDataFile() passed. */
export function readDataFile(file: string): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, errorCode(error));
  }
  const problem = dataProblem(text);
  return problem
    ? { kind: 'damaged', problem }
    : { kind: 'data', data: JSON.parse(text) as StubData };
}

/**
 * Renames a damaged data file to `db.json.corrupt-<time>` beside it, so that its bytes stay as
 * they were; answers the new name.
 */
export function setAside(file: string, problem: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let aside = `${file}.corrupt-${stamp}`;
  for (let n = 2; existsSync(aside); n += 1) aside = `${file}.corrupt-${stamp}-${n}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    throw new DataFileError(
      `Файл данных заглушки повреждён (${problem}), и его не отложить в сторону: ${file} ` +
        `(${errorCode(error)}). Файл не тронут: почините или уберите его сами, либо начните с ` +
        `исходных данных: npm run stub -- --reset.`,
    );
  }
  return aside;
}

/** The temporary files of writes a crash cut short (write-file-atomic names them `db.json.<n>`). */
export function removeLeftovers(file: string): void {
  const folder = dirname(file);
  const pattern = new RegExp(`^${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`);
  for (const name of readdirSync(folder)) {
    if (pattern.test(name)) unlinkSync(join(folder, name));
  }
}

export function makeFolder(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new DataFileError(
      `Папку данных заглушки не создать: ${dirname(file)} (${errorCode(error)}). ` +
        `Дайте права на неё ${OTHER_FILE}.`,
    );
  }
}

/** The start-up write: synchronous, and a failure stops the start with one clear line. */
export function writeDataFileAtStart(file: string, bytes: Buffer): void {
  try {
    writeFileAtomic.sync(file, bytes);
  } catch (error) {
    throw new DataFileError(
      `Файл данных заглушки не записать: ${file} (${errorCode(error)}). Проверьте права на ` +
        `папку ${dirname(file)} и место на диске ${OTHER_FILE}.`,
    );
  }
}

/** Flushes the folder, so that the rename of a write survives a power cut too. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** One crash-safe write of the whole file; rejects when the new file is not in place. */
export async function writeDataFile(file: string, bytes: Buffer): Promise<void> {
  await writeFileAtomic(file, bytes);
  // The new file is in place: what follows only makes the rename outlive a power cut, and its
  // failure (a file system without folder fsync) must not undo a change that is already there.
  await syncFolder(dirname(file)).catch((error: unknown) => {
    console.warn(`[stub] Папка ${dirname(file)} не сброшена на диск (${errorCode(error)})`);
  });
}
