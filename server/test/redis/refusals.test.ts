import { expect } from 'chai';
import { Redis } from 'ioredis';
import { freePort } from '../../../testing/free-port.ts';
import { call, SUCCESS, sendForm } from '../support/http.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { skipOnTopology } from '../support/topologies.ts';

/**
 * Issue 23: a Redis that is up but refuses changes. Every change answers 503 saying why (XML for
 * users, JSON under /apps), nothing changes, reads keep working, /readyz says 503 with the reason, and
 * everything is accepted again as soon as Redis accepts it, with no restart.
 */
describe('redis: a Redis that refuses changes (maxmemory OOM, read-only replica)', () => {
  let svc: TestService;
  let admin: Redis;
  before(async function () {
    skipOnTopology(this, 'it reconfigures the one Redis');
    svc = await startTestService();
    admin = new Redis(svc.redis.url);
  });
  after(async () => {
    admin?.disconnect();
    await svc?.close();
  });

  const users = () => `${svc.url}/UserService/users`;
  const json = (url: string, body: unknown) =>
    call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function expectChangesRefused(why: RegExp, app: string) {
    const xmlRefusal = new RegExp(
      `^<\\?xml [^>]*\\?><error><code>service_unavailable</code><message>the data store refuses changes: ${why.source}[^<]*</message></error>$`,
    );
    const create = await sendForm(users(), 'PUT', { id: 42, name: 'new', profession: 'p' });
    const update = await sendForm(users(), 'POST', { id: 41, name: 'changed', profession: 'p' });
    for (const answer of [create, update]) {
      expect(answer.status).to.equal(503);
      expect(answer.headers.get('retry-after')).to.equal('1');
      expect(answer.body).to.match(xmlRefusal);
    }
    const domain = await json(`${svc.url}/apps/${app}/domains`, { hostname: 'example.com' });
    const worker = await json(`${svc.url}/apps/${app}/workers`, { command: 'run' });
    for (const answer of [domain, worker]) {
      expect(answer.status).to.equal(503);
      const body = JSON.parse(answer.body) as { id: string; message: string };
      expect(body.id).to.equal('service_unavailable');
      expect(body.message).to.match(new RegExp(`^the data store refuses changes: ${why.source}`));
    }
    // Reads work; nothing changed.
    expect((await call(`${users()}/41`)).body).to.contain('<name>before</name>');
    expect((await call(`${users()}/42`)).status).to.equal(404);
    expect((await call(users())).status).to.equal(200);
    expect((await call(`${svc.url}/apps/${app}/domains`)).body).to.equal('[]');
    const ready = await call(`${svc.url}/readyz`);
    expect(ready.status).to.equal(503);
    expect(ready.body).to.match(new RegExp(`changes refused: ${why.source}`));
    expect((await call(`${svc.url}/healthz`)).status).to.equal(200);
  }

  async function expectChangesAccepted(app: string) {
    expect((await call(`${svc.url}/readyz`)).status).to.equal(200);
    expect((await sendForm(users(), 'POST', { id: 41, name: 'after', profession: 'p' })).body).to.equal(
      SUCCESS,
    );
    expect((await sendForm(users(), 'PUT', { id: 42, name: 'new', profession: 'p' })).body).to.equal(SUCCESS);
    expect((await json(`${svc.url}/apps/${app}/domains`, { hostname: 'example.com' })).status).to.equal(201);
    expect((await call(`${users()}/42`, { method: 'DELETE' })).body).to.equal(SUCCESS);
    await sendForm(users(), 'POST', { id: 41, name: 'before', profession: 'p' });
  }

  it('maxmemory reached (noeviction): 503 "out of memory" for every change, reads work, back at once when memory is freed', async () => {
    expect((await sendForm(users(), 'PUT', { id: 41, name: 'before', profession: 'p' })).body).to.equal(
      SUCCESS,
    );
    // 4 MB made by SETRANGE, not sent: a 4 MB SET leaves a query buffer of its size that Redis frees
    // a little later, so memory measured after it fell below the limit set from it (1 run in 3 under load).
    await admin.setrange('filler', 4_000_000 - 1, 'x');
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', String(used - 2_000_000));
    try {
      await expectChangesRefused(/Redis is out of memory \(maxmemory reached\)/, 'oom');
      // Reads keep working after the server reconnects while Redis is still full (a reconnect used to
      // make the next read re-create the collection, a write Redis refused: 503 until memory was freed).
      await admin.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      // Killing the clients freed their buffers: full again before the server is back.
      const usedNow = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
      await admin.config('SET', 'maxmemory', String(usedNow - 2_000_000));
      // While the server reconnects a read may answer 503 "unreachable"; never "refuses changes".
      const answers: string[] = [];
      let read = await call(`${users()}/41`);
      for (let tries = 0; tries < 30; tries++) {
        answers.push(`${read.status} ${read.body}`);
        if (read.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
        read = await call(`${users()}/41`);
      }
      expect(answers.filter((answer) => answer.includes('refuses changes'))).to.deep.equal([]);
      expect(read.status, read.body).to.equal(200);
      expect(read.body).to.contain('<name>before</name>');
      expect((await call(users())).status).to.equal(200);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
      await admin.del('filler');
    }
    await expectChangesAccepted('oom');
  });

  it('Redis turned into a read-only replica: 503 "read-only replica", reads work, back when it is a master again', async () => {
    await admin.call('REPLICAOF', '127.0.0.1', String(await freePort()));
    try {
      await expectChangesRefused(/the Redis server is a read-only replica/, 'replica');
    } finally {
      await admin.call('REPLICAOF', 'NO', 'ONE');
    }
    await expectChangesAccepted('replica');
  });
});
