import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStubApp } from '../../stub-server/app.ts';
import type { StubData } from '../../stub-server/db.ts';
import { startTestServer, type TestServer, tempDataFile, Visitor } from './helpers.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A raw TCP connection to the server, to hold it open in a chosen state. */
async function openSocket(port: number) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let bytes = Buffer.alloc(0);
  let onData = () => {};
  socket.on('data', (chunk: Buffer) => {
    bytes = Buffer.concat([bytes, chunk]);
    onData();
  });
  // The server cutting the connection is what the test wants; it is not an error here.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  /** True once a whole answer, headers and its Content-Length body, has come. */
  const complete = () => {
    const end = bytes.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const length = /content-length: (\d+)/i.exec(bytes.subarray(0, end).toString('latin1'))?.[1];
    return length !== undefined && bytes.length >= end + 4 + Number(length);
  };
  return {
    write: (data: string) => socket.write(data),
    answered: () =>
      new Promise<void>((resolve) => {
        onData = () => {
          if (complete()) resolve();
        };
        onData();
      }),
    closed,
    received: () => bytes.toString('utf8'),
  };
}

// Every temporary directory of this file, removed at the end.
const dirs: string[] = [];
function tempFile(): { dir: string; dataFile: string } {
  const made = tempDataFile();
  dirs.push(made.dir);
  return made;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the stub server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ controls: false });
  });
  afterAll(() => server.dispose());

  it('keeps /api and /media for the stub', async () => {
    const api = await fetch(new URL('/api/catalog/nothing', server.url), {
      headers: { Accept: 'text/html' },
    });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ detail: 'Не найдено.' });
    expect((await new Visitor(server.url).get('/api/catalog/section_root')).status).toBe(200);
    const media = await fetch(new URL('/media/catalog/product-1.svg', server.url));
    expect(media.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('close() also ends open connections, idle keep-alive and mid-request alike', async () => {
    const extra = await startTestServer();
    const idle = await openSocket(extra.port);
    idle.write(`GET /api/catalog/section HTTP/1.1\r\nHost: stub\r\nConnection: keep-alive\r\n\r\n`);
    await idle.answered();
    // Headers not finished: Node counts this one as busy, and server.close() alone waits for it.
    const busy = await openSocket(extra.port);
    busy.write('GET /api/catalog/section HTTP/1.1\r\nHost: stub\r\n');

    // close() resolves only once every connection is gone, so neither socket is left open and
    // the unfinished request got no answer; a close() that waited on them would never get here.
    await Promise.all([extra.dispose(), idle.closed, busy.closed]);
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(busy.received()).toBe('');
  });
});

describe('createStubApp as middleware', () => {
  it('handles /api and /media and lets every other request fall through', async () => {
    const { dataFile } = tempFile();
    const { app: stub } = createStubApp({ dataFile });
    const host = express();
    host.use(stub);
    host.use((req, res) => {
      res.status(200).type('text/plain').send(`host:${req.path}`);
    });
    const http = createServer(host);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      for (const path of [
        '/',
        '/src/main.tsx',
        '/@vite/client',
        '/apiary',
        '/__control/reset',
        '/mediafile',
      ]) {
        const response = await fetch(base + path);
        expect(await response.text(), path).toBe(`host:${path}`);
      }
      expect((await fetch(`${base}/api/catalog/section_root`)).status).toBe(200);
      expect((await fetch(`${base}/media/catalog/section-1.svg`)).status).toBe(200);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

describe('the CLI', () => {
  it('--reset serves the stub on PORT, prints the URL and stops on SIGTERM', async () => {
    const { dataFile } = tempFile();
    createStubApp({ dataFile });
    const data = JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;
    data.baskets['session:abcdefgh12'] = {
      lines: { '7': 1 },
      updated_ts: '2026-01-01T00:00:00+03:00',
    };
    writeFileSync(dataFile, JSON.stringify(data));

    const child = spawn(process.execPath, ['--import', 'tsx', 'stub-server/serve.ts', '--reset'], {
      cwd: REPO,
      env: { ...process.env, PORT: '0', STUB_DATA_FILE: dataFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /: (http:\/\/127\.0\.0\.1:\d+\/)api\//.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on('exit', () => reject(new Error(`exited early: ${output}`)));
    });
    try {
      expect(output).toContain('Заглушка API магазина ягод');
      const answer = await new Visitor(url).get('/api/catalog/section_root');
      expect(answer.status).toBe(200);
      const reseeded = JSON.parse(readFileSync(dataFile, 'utf8')) as StubData;
      expect(reseeded.baskets).toEqual({});
      // The stub alone: pages are the shop's server's (host/main.ts).
      expect((await fetch(url, { headers: { Accept: 'text/html' } })).status).toBe(404);
    } finally {
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 30_000);
});
