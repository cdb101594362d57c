// The operator's files in deploy/ as Debian's tools read them: Prometheus' configuration and
// alerts (promtool, with the alerts' unit tests in tests/prometheus/alerts.test.yml), the mtail
// program that counts nginx's caches from its log, and the systemd unit (systemd-analyze).
// `bash .ci/run` installs prometheus and mtail; systemd-analyze comes with systemd.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../host/process/settings.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** A Debian tool's output; a missing tool fails with what installs it. */
async function tool(command: string, args: string[], install: string) {
  if (!existsSync(command))
    throw new Error(`${command} is missing: ${install} (bash .ci/run does)`);
  return run(command, args, { cwd: ROOT });
}

describe('Prometheus', () => {
  it('reads deploy/prometheus.yml and deploy/alerts.yml (promtool check)', async () => {
    const install = 'apt-get install prometheus';
    const config = await tool(
      '/usr/bin/promtool',
      ['check', 'config', 'deploy/prometheus.yml'],
      install,
    );
    expect(config.stdout).toContain('SUCCESS: deploy/prometheus.yml is valid');
    const rules = await tool('/usr/bin/promtool', ['check', 'rules', 'deploy/alerts.yml'], install);
    expect(rules.stdout).toContain('SUCCESS: 9 rules found');
  });

  it('fires each alert on its unit test series, and only there (promtool test rules)', async () => {
    const { stdout } = await tool(
      '/usr/bin/promtool',
      ['test', 'rules', 'tests/prometheus/alerts.test.yml'],
      'apt-get install prometheus',
    );
    expect(stdout).toContain('SUCCESS');
    // Every alert of the file has a test that fires it.
    const alerts = (await readFile(path.join(ROOT, 'deploy/alerts.yml'), 'utf8')).match(
      /- alert: (\w+)/g,
    );
    const tests = await readFile(path.join(ROOT, 'tests/prometheus/alerts.test.yml'), 'utf8');
    for (const alert of alerts ?? []) {
      const name = alert.slice('- alert: '.length);
      expect(tests).toMatch(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
    }
    expect(alerts).toHaveLength(9);
  });
});

describe("mtail's program for nginx's log", () => {
  it("counts the caches' answers by status, and every answer by status class", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'berries-mtail-'));
    try {
      const line = (request: string, status: number, cache: string) =>
        `127.0.0.1 - - [01/Jan/2026:10:00:00 +0300] "${request} HTTP/1.1" ${status} 512 "-" "Mozilla/5.0" id=0123456789abcdef0123456789abcdef cache=${cache} rt=0.001\n`;
      const log = path.join(dir, 'access.log');
      await writeFile(
        log,
        [
          line('GET /', 200, 'HIT'),
          line('GET /catalog', 200, 'HIT'),
          line('GET /product/7', 200, 'MISS'),
          line('GET /', 200, 'STALE'),
          line('GET /order', 200, 'BYPASS'),
          line('GET /api/catalog/basket', 502, '-'),
          line('GET /assets/index.js', 304, '-'),
        ].join(''),
      );
      const { stdout } = await tool(
        '/usr/bin/mtail',
        [
          '--one_shot',
          '--one_shot_format',
          'prometheus',
          '--progs',
          'deploy/nginx.mtail',
          '--logs',
          log,
        ],
        'apt-get install mtail',
      );
      const value = (series: string) =>
        Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(stdout)?.[1]);
      expect(value('nginx_cache_requests_total{cache_status="HIT",prog="nginx.mtail"}')).toBe(2);
      expect(value('nginx_cache_requests_total{cache_status="MISS",prog="nginx.mtail"}')).toBe(1);
      expect(value('nginx_cache_requests_total{cache_status="STALE",prog="nginx.mtail"}')).toBe(1);
      expect(value('nginx_cache_requests_total{cache_status="BYPASS",prog="nginx.mtail"}')).toBe(1);
      expect(value('nginx_http_requests_total{prog="nginx.mtail",status_class="5xx"}')).toBe(1);
      expect(value('nginx_http_requests_total{prog="nginx.mtail",status_class="3xx"}')).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/berries-shop@.service', () => {
  const unit = () => readFile(path.join(ROOT, 'deploy/berries-shop@.service'), 'utf8');
  const directive = (text: string, name: string) =>
    [...text.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((match) => match[1]);

  it('runs one drained, restarted, confined instance per port', async () => {
    const text = await unit();
    expect(directive(text, 'Environment')).toContain('PORT=%i');
    expect(directive(text, 'Environment')).toContain('MALLOC_ARENA_MAX=2');
    expect(directive(text, 'KillSignal')).toEqual(['SIGTERM']);
    // Longer than the stop's grace for nginx's idle connections, and the proxy's 20 s.
    const stopMs = Number(directive(text, 'TimeoutStopSec')[0]) * 1000;
    expect(stopMs).toBeGreaterThan(SETTINGS.stopGraceMs.default + 20_000);
    expect(directive(text, 'Restart')).toEqual(['on-failure']);
    expect(directive(text, 'NoNewPrivileges')).toEqual(['yes']);
    expect(directive(text, 'ProtectSystem')).toEqual(['strict']);
    expect(directive(text, 'PrivateTmp')).toEqual(['yes']);
    // The pictures' cache is the one place it writes besides its state directory (below).
    const cache = directive(text, 'Environment')
      .find((line) => line?.startsWith('IMAGE_CACHE_DIR='))
      ?.slice('IMAGE_CACHE_DIR='.length);
    expect(cache).toBeDefined();
    expect(directive(text, 'ReadWritePaths')).toEqual([cache]);
  });

  it("runs deploy/release.sh's current release, which that script restarts it onto", async () => {
    const text = await unit();
    const script = await readFile(path.join(ROOT, 'deploy/release.sh'), 'utf8');
    const home = /^home=\$\{BERRIES_HOME:-(\S+)\}$/m.exec(script)?.[1];
    expect(home).toBe('/srv/berries-shop');
    expect(directive(text, 'ExecStart')).toEqual([`/usr/bin/node ${home}/current/host/main.js`]);
    expect(script).toContain('restart=${BERRIES_RESTART:-systemctl restart berries-shop@\\{\\}}');
    // The list of kept pages a restarted instance renews lives in its state directory.
    const state = directive(text, 'StateDirectory')[0];
    expect(directive(text, 'Environment')).toContain(
      `KEPT_PAGES_FILE=/var/lib/${state}/kept-pages.json`,
    );
  });

  it.skipIf(!existsSync('/usr/bin/systemd-analyze'))(
    'passes systemd-analyze verify without a warning',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'berries-unit-'));
      try {
        // An instance of the template, with this machine's node (Debian's is /usr/bin/node).
        const file = path.join(dir, 'berries-shop@3001.service');
        await writeFile(file, (await unit()).replace('/usr/bin/node', process.execPath));
        const { stdout, stderr } = await run('/usr/bin/systemd-analyze', ['verify', file]);
        expect(stdout + stderr).toBe('');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
