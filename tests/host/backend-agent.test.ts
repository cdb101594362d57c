// The fetch of the server's calls (host/backend/backend-agent.ts's callFetch): a redirect is a
// failed call, never followed, and an answer over the cap fails as it streams in, its connection
// cut, so that none is ever read whole.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnswerTooLargeError,
  backendAgent,
  BackendRedirectError,
} from '../../host/backend/backend-agent.ts';
import { listen, type Listening } from './http-helpers.ts';

const CAP = 64 * 1024;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function server(handler: (res: ServerResponse, url: string) => void): Promise<Listening> {
  const running = await listen((req, res) => {
    req.resume();
    handler(res, req.url ?? '');
  });
  open.push(running);
  return running;
}

function agent() {
  const made = backendAgent(4, CAP);
  open.push({ close: () => made.close() });
  return made;
}

describe("the server's calls to the backend", () => {
  it('never follow a redirect: a 307 fails, and the host it names is never asked', async () => {
    const asked: string[] = [];
    const elsewhere = await server((res, url) => {
      asked.push(url);
      res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"id":1}');
    });
    const backend = await server((res) => {
      res.writeHead(307, { Location: `${elsewhere.url}/api/catalog/order_commit` }).end();
    });
    const call = agent().callFetch(`${backend.url}/api/catalog/order_commit`, {
      method: 'POST',
      body: '{"phone":"+79123456789"}',
    });
    await expect(call).rejects.toBeInstanceOf(BackendRedirectError);
    expect(asked).toEqual([]);
  });

  it('fail an answer whose length is over the cap before reading it', async () => {
    const backend = await server((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': CAP + 1 });
      res.end(`"${'x'.repeat(CAP - 1)}"`);
    });
    await expect(agent().callFetch(`${backend.url}/api/catalog/product`)).rejects.toBeInstanceOf(
      AnswerTooLargeError,
    );
  });

  it('fail an answer that streams past the cap, and cut its connection', async () => {
    let answering: ServerResponse | undefined;
    const backend = await server((res) => {
      answering = res;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // Endless, at the reader's pace: only the shop's cut ends it.
      const piece = `${'[1,2,3],'.repeat(1024)}`;
      const more = () => {
        while (!res.destroyed && res.write(piece));
      };
      res.on('drain', more);
      res.write('[');
      more();
    });
    const answer = await agent().callFetch(`${backend.url}/api/catalog/product`);
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toBeInstanceOf(AnswerTooLargeError);
    if (answering && !answering.destroyed) await once(answering, 'close');
    expect(answering?.destroyed).toBe(true);
  });

  it('pass an answer under the cap whole, with every cookie it sets', async () => {
    const backend = await server((res) => {
      res.setHeader('Set-Cookie', ['sessionid=s; Path=/', 'csrftoken=c; Path=/']);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('[1,2,3]');
    });
    const answer = await agent().callFetch(`${backend.url}/api/catalog/product`);
    expect(await answer.json()).toEqual([1, 2, 3]);
    expect(answer.headers.getSetCookie()).toEqual(['sessionid=s; Path=/', 'csrftoken=c; Path=/']);
  });
});
