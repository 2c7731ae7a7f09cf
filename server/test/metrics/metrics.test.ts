import fs from 'node:fs';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { loadConfig } from '../../src/config.ts';
import { describeService } from '../../src/service.ts';
import { type ChildServer, startChildServer } from '../reliability/support/child-server.ts';
import { call, sendForm } from '../support/http.ts';
import { startTestService, suiteService } from '../support/service.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key as string] = value as string;
    }
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await call(`${url}/metrics`, { headers });
  expect(res.status, res.body).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(res.body);
}

const ITEM = '/UserService/users/{userid}';

describe('metrics: /metrics in the Prometheus text format', () => {
  const svc = suiteService();

  it('counts requests by route template, method and status, and times them by route template', async () => {
    const before = await scrape(svc.url);
    const base = `${svc.url}/UserService/users`;
    for (let i = 0; i < 5; i++) expect((await call(`${base}/1`)).status).to.equal(200);
    for (let i = 0; i < 3; i++) expect((await call(`${base}/99${i}`)).status).to.equal(404);
    expect((await sendForm(base, 'PUT', { id: 42, name: 'a', profession: 'b' })).status).to.equal(200);
    const after = await scrape(svc.url);
    const delta = (name: string, labels: Record<string, string>) =>
      sum(after, name, labels) - sum(before, name, labels);
    expect(delta('usersvc_http_requests_total', { route: ITEM, method: 'GET', status: '200' })).to.equal(5);
    expect(delta('usersvc_http_requests_total', { route: ITEM, method: 'GET', status: '404' })).to.equal(3);
    expect(
      delta('usersvc_http_requests_total', { route: '/UserService/users', method: 'PUT', status: '200' }),
    ).to.equal(1);
    expect(delta('usersvc_http_request_duration_seconds_count', { route: ITEM, method: 'GET' })).to.equal(8);
    const inf = sum(after, 'usersvc_http_request_duration_seconds_bucket', {
      route: ITEM,
      method: 'GET',
      le: '+Inf',
    });
    expect(inf).to.equal(
      sum(after, 'usersvc_http_request_duration_seconds_count', { route: ITEM, method: 'GET' }),
    );
    expect(
      sum(after, 'usersvc_http_request_duration_seconds_sum', { route: ITEM, method: 'GET' }),
    ).to.be.above(0);
    // The default process metrics are there too.
    expect(after.some((s) => s.name === 'process_cpu_user_seconds_total')).to.equal(true);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).to.equal(true);
  });

  it('route labels never carry an id: many ids, unknown paths and odd methods give a bounded label set', async () => {
    for (let i = 0; i < 40; i++) {
      await call(`${svc.url}/UserService/users/${1000 + i}`);
      await call(`${svc.url}/apps/app-${i}/domains`);
      await call(`${svc.url}/nowhere/${i}`);
      await call(`${svc.url}/UserService/users/${i}`, { method: 'PATCH' });
    }
    const samples = await scrape(svc.url);
    const routes = new Set(
      samples.filter((s) => s.name.startsWith('usersvc_http_')).map((s) => s.labels.route),
    );
    const templates = new Set([...Object.keys(describeService().paths as object), 'unmatched']);
    for (const route of routes) expect(templates, `route label ${route}`).to.include(route);
    const labels = samples.flatMap((s) => Object.values(s.labels));
    expect(labels.some((value) => /app-\d|10\d\d|nowhere/.test(value))).to.equal(false);
    const series = samples.filter((s) => s.name === 'usersvc_http_requests_total').length;
    expect(series).to.be.below(30);
  });

  it('shows the transaction pool, the removal stream, Redis connections and the contention counters', async () => {
    await sendForm(`${svc.url}/UserService/users`, 'POST', { id: 1, name: 'x', profession: 'y' });
    const samples = await scrape(svc.url);
    expect(sum(samples, 'usersvc_redis_transaction_pool_size')).to.be.at.least(1);
    expect(sum(samples, 'usersvc_redis_transaction_pool_opened_total')).to.be.at.least(1);
    for (const name of [
      'usersvc_redis_transaction_pool_in_use',
      'usersvc_redis_transaction_pool_waiting',
      'usersvc_worker_removals_pending',
      'usersvc_worker_removals_lag',
    ]) {
      expect(
        samples.some((s) => s.name === name),
        name,
      ).to.equal(true);
    }
    expect(sum(samples, 'usersvc_redis_connected', { connection: 'shared' })).to.equal(1);
    expect(samples.some((s) => s.name === 'usersvc_redis_reconnects_total')).to.equal(true);
    for (const resource of ['user', 'domain', 'worker']) {
      expect(
        samples.some((s) => s.name === 'usersvc_update_conflicts_total' && s.labels.resource === resource),
      ).to.equal(true);
      expect(
        samples.some(
          (s) => s.name === 'usersvc_update_contention_503_total' && s.labels.resource === resource,
        ),
      ).to.equal(true);
    }
  });

  it('every usersvc_ metric that ops/alerts.yml, docs/operations.md and the README name is exposed', async () => {
    await call(`${svc.url}/UserService/users/1`);
    const exposed = new Set((await scrape(svc.url)).map((s) => s.name));
    for (const file of ['ops/alerts.yml', 'docs/operations.md', 'README.md']) {
      const named = new Set(fs.readFileSync(file, 'utf8').match(/usersvc_[a-z0-9_]+/g) ?? []);
      expect(named.size, file).to.be.above(0);
      for (const name of named) {
        // A histogram is exposed as its _bucket, _sum and _count series.
        const found =
          exposed.has(name) || ['_bucket', '_sum', '_count'].some((end) => exposed.has(name + end));
        expect(found, `${file} names ${name}`).to.equal(true);
      }
    }
  });

  it("the compose profile `metrics` starts Prometheus scraping the server's /metrics", () => {
    const compose = parseYaml(fs.readFileSync('docker-compose.yml', 'utf8'));
    const prometheus = compose.services.prometheus;
    expect(prometheus.profiles).to.deep.equal(['metrics']);
    expect(prometheus.volumes).to.include('./ops/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    expect(compose.services.server.profiles, 'the server runs without the profile').to.equal(undefined);
    const config = parseYaml(fs.readFileSync('ops/prometheus.yml', 'utf8'));
    const job = config.scrape_configs[0];
    expect(job.metrics_path).to.equal('/metrics');
    expect(job.static_configs[0].targets).to.deep.equal(['server:8080']);
  });

  it('a worker removal job shows as pending until it is carried out', async () => {
    const worker = async () => {
      const created = await call(`${svc.url}/apps/m/workers`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ command: 'run' }),
      });
      return (JSON.parse(created.body) as { id: string }).id;
    };
    // Pending from the moment the runner reads the job until it carries it out, at the end of the grace
    // period (1 s by default), which also removes the worker in the same script. So a scrape made after
    // the runner took the job and followed by a GET that still finds the worker saw it pending. A
    // round whose worker is gone by then (a machine stalled for longer than the grace) proves nothing:
    // it is run again with a new worker, up to three rounds.
    const runner = svc.service.workerRemovals;
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out after 5 s waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    for (let round = 1; ; round++) {
      await until('the runner to hold no job', () => runner.holding === 0);
      const id = await worker();
      expect((await call(`${svc.url}/apps/m/workers/${id}`, { method: 'DELETE' })).status).to.equal(202);
      await until('the runner to take the job', () => runner.holding === 1);
      const pending = sum(await scrape(svc.url), 'usersvc_worker_removals_pending');
      if ((await call(`${svc.url}/apps/m/workers/${id}`)).status === 200) {
        expect(pending).to.equal(1);
        break;
      }
      expect(round, 'rounds whose worker was removed before the scrape was checked').to.be.below(3);
    }
    await until('the job to be carried out', () => runner.holding === 0);
    expect(sum(await scrape(svc.url), 'usersvc_worker_removals_pending')).to.equal(0);
  });
});

describe('metrics: WAIT timeouts, the bearer token, METRICS=0', () => {
  it('config: METRICS (on unless 0) and METRICS_PUBLIC (off unless 1); anything else is refused', () => {
    expect(loadConfig({})).to.include({ metrics: true, metricsPublic: false });
    expect(loadConfig({ METRICS: '0', METRICS_PUBLIC: '1' })).to.include({
      metrics: false,
      metricsPublic: true,
    });
    expect(() => loadConfig({ METRICS: 'off' })).to.throw(/METRICS must be 0 or 1/);
  });

  it('counts changes whose WAIT could not confirm the replicas (answered 504)', async () => {
    const svc = await startTestService({ redisWaitReplicas: 1, redisWaitTimeoutMs: 50 });
    try {
      const res = await sendForm(`${svc.url}/UserService/users`, 'PUT', {
        id: 5,
        name: 'a',
        profession: 'b',
      });
      expect(res.status).to.equal(504);
      const samples = await scrape(svc.url);
      expect(sum(samples, 'usersvc_redis_wait_timeouts_total')).to.equal(1);
      expect(sum(samples, 'usersvc_http_requests_total', { status: '504' })).to.equal(1);
    } finally {
      await svc.close();
    }
  });

  it('needs the bearer token when API_TOKEN is set, unless METRICS_PUBLIC=1', async () => {
    const closed = await startTestService({ apiToken: 's3cret' });
    const open = await startTestService({ apiToken: 's3cret', metricsPublic: true }, closed.redis);
    try {
      expect((await call(`${closed.url}/metrics`)).status).to.equal(401);
      await scrape(closed.url, { Authorization: 'Bearer s3cret' });
      await scrape(open.url);
      // Only /metrics is opened: the rest still needs the token.
      expect((await call(`${open.url}/UserService/users`)).status).to.equal(401);
    } finally {
      await open.close();
      await closed.close();
    }
  });

  it('METRICS=0: no /metrics (404), the service answers as usual', async () => {
    const svc = await startTestService({ metrics: false });
    try {
      expect((await call(`${svc.url}/metrics`)).status).to.equal(404);
      expect((await call(`${svc.url}/UserService/users/1`)).status).to.equal(200);
    } finally {
      await svc.close();
    }
  });
});

describe('metrics: PROCESSES=2, one scrape sums every process', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let server: ChildServer;
  before(async () => {
    redis = await startTestRedis();
    server = await startChildServer({ env: { PROCESSES: '2', REDIS_URL: redis.url, LOG_LEVEL: 'info' } });
    // /readyz answered by one worker; the primary says when both listen.
    const deadline = Date.now() + 20_000;
    while (!server.output().includes('user service listening (cluster)')) {
      if (Date.now() > deadline)
        throw new Error(`the workers did not all start:\n${server.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await redis?.stop();
  });

  it('after a known number of requests over new connections (spread over both workers), each scrape shows the total', async () => {
    const N = 40;
    for (let i = 0; i < N; i++) {
      // call() opens a new connection per request: the primary hands each to the next worker.
      const reply = await call(`${server.url}/UserService/users/1`);
      expect(reply.status, reply.body).to.equal(200);
    }
    const put = await sendForm(`${server.url}/UserService/users`, 'PUT', {
      id: 77,
      name: 'n',
      profession: 'p',
    });
    expect(put.status).to.equal(200);
    // Several scrapes, each on a new connection, so both workers answer one: all show the same sums.
    for (let i = 0; i < 4; i++) {
      const reply = await call(`${server.url}/metrics`);
      expect(reply.status, reply.body).to.equal(200);
      const samples = parseExposition(reply.body);
      expect(
        sum(samples, 'usersvc_http_requests_total', { route: ITEM, method: 'GET', status: '200' }),
      ).to.equal(N);
      expect(
        sum(samples, 'usersvc_http_requests_total', { route: '/UserService/users', method: 'PUT' }),
      ).to.equal(1);
      expect(
        sum(samples, 'usersvc_http_request_duration_seconds_count', { route: ITEM, method: 'GET' }),
      ).to.equal(N);
      // Each worker has its own shared connection: the sum says two processes answered.
      expect(sum(samples, 'usersvc_redis_connected', { connection: 'shared' })).to.equal(2);
    }
  });
});
