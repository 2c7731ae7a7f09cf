import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { APP_KEYS } from '../../src/apps/keys.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { call, expectJson } from './helpers.ts';

const WRITERS = 40;

/** Changes of one domain or worker, many at once from two instances on one Redis: none refused, none lost. */
describe('apps: many writers of one domain or worker, two instances on one Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  let a: TestService;
  let b: TestService;
  let urls: string[];
  before(async () => {
    redis = await startTestRedis();
    a = await startTestService({ workerStopGraceMs: 60_000 }, redis);
    b = await startTestService({ workerStopGraceMs: 60_000 }, redis);
    urls = [a.url, b.url];
    client = new Redis(redis.url);
  });
  after(async () => {
    client?.disconnect();
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it(`${WRITERS} concurrent PATCHes of one domain: all 200, each a change of its own, the last one stays with its hostname`, async () => {
    const created = await call(urls[0]!, 'POST', '/apps/busy/domains', { hostname: 'start.example.com' });
    expectJson(created, 201);
    const id = created.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        call(urls[i % 2]!, 'PATCH', `/apps/busy/domains/${id}`, { hostname: `h${i}.example.com` }),
      ),
    );
    for (const answer of answers) expectJson(answer, 200);
    // Every PATCH was applied on its own: each answer carries a distinct updated_at.
    const stamps = answers.map((answer) => answer.body.updated_at as string);
    expect(new Set(stamps).size).to.equal(WRITERS);
    const latest = answers.find((answer) => answer.body.updated_at === [...stamps].sort().at(-1))!;
    const now = await call(urls[1]!, 'GET', `/apps/busy/domains/${id}`);
    expect(now.body).to.deep.equal(latest.body);
    // Only the hostname that stayed is claimed; every other one was freed again.
    expect(await client.hgetall(APP_KEYS.hostnames('busy'))).to.deep.equal({ [now.body.hostname]: id });
  });

  it(`${WRITERS} concurrent PATCHes of one worker: all 200 with distinct updated_at; then concurrent DELETEs: all 202, one job`, async () => {
    const created = await call(urls[0]!, 'POST', '/apps/busy/workers', { command: 'run' });
    expectJson(created, 201);
    const id = created.body.id as string;
    const sizes = ['small', 'standard', 'large'];
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        call(urls[i % 2]!, 'PATCH', `/apps/busy/workers/${id}`, { size: sizes[i % 3] }),
      ),
    );
    for (const answer of answers) expectJson(answer, 200);
    const stamps = answers.map((answer) => answer.body.updated_at as string);
    expect(new Set(stamps).size).to.equal(WRITERS);
    const latest = answers.find((answer) => answer.body.updated_at === [...stamps].sort().at(-1))!;
    expect((await call(urls[1]!, 'GET', `/apps/busy/workers/${id}`)).body).to.deep.equal(latest.body);

    const before = await client.xlen(APP_KEYS.removals);
    const stops = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => call(urls[i % 2]!, 'DELETE', `/apps/busy/workers/${id}`)),
    );
    for (const stop of stops) {
      expectJson(stop, 202);
      expect(stop.body).to.deep.equal({});
    }
    expect(await client.xlen(APP_KEYS.removals)).to.equal(before + 1);
  });
});
