// How an instance stops (host/process/draining.ts): what nginx, which keeps connections to it, sees
// of an answer under way when SIGTERM comes, and of a request sent on a kept connection after it.
import { request, Agent } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { draining } from '../../host/process/draining.ts';
import { listen, type Listening } from './http-helpers.ts';

let shop: Listening | undefined;
afterEach(() => shop?.close());

/** GET `path` on `agent`'s kept connection: the status and the Connection header. */
function get(agent: Agent, path: string): Promise<{ status: number; connection?: string }> {
  const { hostname, port } = new URL(shop?.url ?? '');
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, path, agent }, (answer) => {
      answer.resume();
      answer.on('end', () =>
        resolve({ status: answer.statusCode ?? 0, connection: answer.headers.connection }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('an instance that stops', () => {
  it('closes the connection after the answer under way, and after any request that comes later', async () => {
    const drain = draining();
    let arrived: () => void = () => {};
    const heldArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => {};
    const app = express();
    app.use(drain.track);
    app.get('/held', (_req, res) => {
      release = () => res.send('done');
      arrived();
    });
    app.get('/quick', (_req, res) => res.send('ok'));
    shop = await listen(app);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Before: answers keep their connection, as nginx's keepalive wants.
    expect((await get(agent, '/quick')).connection).toBe('keep-alive');
    const held = get(agent, '/held');
    await heldArrived;
    drain.stop();
    release();
    expect(await held).toEqual({ status: 200, connection: 'close' });
    // A request after the stop (nginx may still hold a connection it sends it on).
    const late = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(late, '/quick')).connection).toBe('close');
    agent.destroy();
    late.destroy();
  });
});
