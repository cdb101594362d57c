// The image route's results on disk, under a size cap: the least recently used go first.
// Each result is two files named by its key (a hash of source address, width and format, so no
// request can make two sources share a name): the image, and a JSON note of what it was made
// from (the source's ETag and Last-Modified) and when the source was last asked.
// Files are written under a temporary name and renamed: instances sharing the folder never
// read half a file, and a result another instance evicted is simply made again.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Validators } from './image-source.ts';

export interface CacheNote {
  source: string;
  type: string;
  /** The result's own ETag (a hash of its bytes). */
  etag: string;
  validators: Validators;
  /** When the source last confirmed it (ms since the epoch). */
  checkedAt: number;
}

export interface CachedImage {
  body: Buffer;
  note: CacheNote;
}

interface Entry {
  bytes: number;
  usedAt: number;
}

export class ImageCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Counts what earlier runs left, oldest use first (the files' times). */
  private init(): Promise<void> {
    this.ready ??= (async () => {
      // The shop's alone: a folder another user made first (the default is in the shared
      // temporary folder) could hold files of theirs for the shop to serve.
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const owner = (await stat(this.dir)).uid;
      if (process.getuid && owner !== process.getuid()) {
        throw new Error(`${this.dir} belongs to another user; set IMAGE_CACHE_DIR`);
      }
      const found: [string, Entry][] = [];
      for (const name of await readdir(this.dir)) {
        if (!name.endsWith('.img')) continue;
        const info = await stat(path.join(this.dir, name)).catch(() => null);
        if (info) found.push([name.slice(0, -4), { bytes: info.size, usedAt: info.mtimeMs }]);
      }
      found.sort((a, b) => a[1].usedAt - b[1].usedAt);
      for (const [key, entry] of found) this.remember(key, entry);
      await this.evict();
    })();
    return this.ready;
  }

  private remember(key: string, entry: Entry): void {
    this.forget(key);
    this.entries.set(key, entry);
    this.total += entry.bytes;
  }

  private forget(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.bytes;
  }

  private files(key: string) {
    return { image: path.join(this.dir, `${key}.img`), note: path.join(this.dir, `${key}.json`) };
  }

  /** Bytes held now (for tests and the benchmark). */
  async size(): Promise<number> {
    await this.init();
    return this.total;
  }

  async get(key: string): Promise<CachedImage | null> {
    await this.init();
    const files = this.files(key);
    try {
      const [body, noteText] = await Promise.all([
        readFile(files.image),
        readFile(files.note, 'utf8'),
      ]);
      const note = JSON.parse(noteText) as CacheNote;
      // Map order is use order: a hit moves to the end.
      this.remember(key, { bytes: body.byteLength, usedAt: Date.now() });
      return { body, note };
    } catch {
      this.forget(key);
      return null;
    }
  }

  async put(key: string, body: Buffer, note: CacheNote): Promise<void> {
    await this.init();
    const files = this.files(key);
    const temp = `.${randomUUID()}`;
    await writeFile(files.note + temp, JSON.stringify(note));
    await writeFile(files.image + temp, body);
    await rename(files.note + temp, files.note);
    await rename(files.image + temp, files.image);
    this.remember(key, { bytes: body.byteLength, usedAt: Date.now() });
    await this.evict();
  }

  /** The source said 304: the result stays, asked again after the next interval. */
  async confirm(key: string, cached: CachedImage, checkedAt: number): Promise<void> {
    const note: CacheNote = { ...cached.note, checkedAt };
    const file = this.files(key).note;
    const temp = `${file}.${randomUUID()}`;
    await writeFile(temp, JSON.stringify(note));
    await rename(temp, file);
  }

  async delete(key: string): Promise<void> {
    this.forget(key);
    const files = this.files(key);
    await Promise.all([rm(files.image, { force: true }), rm(files.note, { force: true })]);
  }

  private async evict(): Promise<void> {
    for (const key of this.entries.keys()) {
      if (this.total <= this.maxBytes) return;
      await this.delete(key);
    }
  }
}
