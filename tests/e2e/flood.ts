// One address flooding the shop with uncached searches (issue 39), run as a process of its own by
// tests/e2e/fairness.ts: `node --import tsx tests/e2e/flood.ts FRONT AT_ONCE [LOCAL_ADDRESS]
// [HEADERS_JSON]`. AT_ONCE requests at a time, each a search nobody asked before, in turn a
// search page and the app's product search, until SIGTERM; each second (and first, once it has
// begun) a line on stdout with the answers so far by status, as JSON pairs (0: failed).
import { Agent, request } from 'node:http';

const [front = '', atOnce = '1', localAddress = '', headersJson = '{}'] = process.argv.slice(2);
const headers = JSON.parse(headersJson) as Record<string, string>;
const agent = new Agent({ keepAlive: true, localAddress: localAddress || undefined });
const statuses = new Map<number, number>();
let running = true;
let sent = 0;

const one = (path: string) =>
  new Promise<number>((resolve) => {
    const outgoing = request(`${front}${path}`, { agent, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
      answer.on('error', () => resolve(0));
    });
    outgoing.on('error', () => resolve(0));
    outgoing.end();
  });

async function loop(): Promise<void> {
  while (running) {
    sent += 1;
    const q = encodeURIComponent(`ягода ${sent} ${Math.random().toString(36).slice(2)}`);
    const status = await one(sent % 2 ? `/api/catalog/product_search?q=${q}` : `/search?q=${q}`);
    if (running) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
}

const say = () => process.stdout.write(`${JSON.stringify([...statuses])}\n`);
// The test that started it has gone: so does the flood.
process.stdout.on('error', () => process.exit(0));
const loops = Array.from({ length: Number(atOnce) }, loop);
say();
const every = setInterval(say, 1000);
process.once('SIGTERM', () => {
  running = false;
  clearInterval(every);
  agent.destroy();
  void Promise.all(loops).then(() => {
    say();
    process.exit(0);
  });
});
