import type net from 'node:net';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { openRaw } from '../../../testing/http.ts';
import { range, seededUser, storeUsers } from '../../../testing/seed-users.ts';
import { USER_KEYS } from '../../src/users/keys.ts';
import { renderUserList } from '../../src/users/render.ts';
import { connectTestRedis } from '../support/dump.ts';
import { call, SUCCESS, sendForm } from '../support/http.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { skipOnTopology } from '../support/topologies.ts';

const LIST = '/UserService/users';

/** The users of a list document, as (id, name) in document order. */
function listed(xml: string): Array<{ id: number; name: string }> {
  return [...xml.matchAll(/<user><id>(-?\d+)<\/id><name>([^<]*)<\/name>/g)].map((m) => ({
    id: Number(m[1]),
    name: m[2] as string,
  }));
}

/** Times a command ran in Redis so far, scripts' inner calls included (INFO commandstats). */
async function commandCalls(redis: Redis, command: string): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

/** A raw HTTP/1.1 GET of the list on a socket the test reads (or stops reading) itself. */
function rawList(url: string): { socket: net.Socket; received: () => Buffer; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  // A cut connection is what some tests expect: it ends `closed`, it fails nothing.
  const { socket, received, done } = openRaw(
    Number(port),
    `GET ${LIST} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`,
    {
      host: hostname,
    },
  );
  return { socket, received, closed: done.then(() => {}) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(20);
  }
}

describe('users: the streamed list', () => {
  let svc: TestService;
  let redis: Redis;
  beforeEach(async () => {
    svc = await startTestService();
    redis = await connectTestRedis(svc.redis.url);
    redis.on('error', () => {}); // some tests stop Redis on purpose
  });
  afterEach(async () => {
    redis?.disconnect();
    await svc?.close();
  });

  it('a list of many chunks has the same bytes as the whole document; ids ascending; HEAD has no body', async () => {
    const ids = [...range(1, 2500), -2_147_483_648, -5, 0, 2_147_483_647];
    await storeUsers(redis, ids);
    const expected = renderUserList([...ids].sort((a, b) => a - b).map((id) => ({ id, ...seededUser(id) })));
    const streamed = await call(svc.url + LIST);
    expect(streamed.status).to.equal(200);
    expect(streamed.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
    expect(streamed.body).to.equal(expected);
    // The second list comes from the cache (nothing changed): same bytes, now with a Content-Length.
    const cached = await call(svc.url + LIST);
    expect(cached.body).to.equal(expected);
    expect(cached.headers.get('content-length')).to.equal(String(Buffer.byteLength(expected)));
    const head = await call(svc.url + LIST, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.body).to.equal('');
    // A change (here to the same values) makes the kept document stale: a HEAD builds it again and
    // answers its length, and the GET after it gets those bytes.
    const same = seededUser(5);
    expect((await sendForm(svc.url + LIST, 'POST', { id: 5, ...same })).body).to.equal(SUCCESS);
    const rebuilt = await call(svc.url + LIST, { method: 'HEAD' });
    expect(rebuilt.headers.get('content-length')).to.equal(String(Buffer.byteLength(expected)));
    expect((await call(svc.url + LIST)).body).to.equal(expected);
  });

  it('indexes at start the users stored before the index existed, and lists them all in order', async () => {
    await svc.service.close(); // the server only: its Redis stays
    await redis.flushall();
    await storeUsers(redis, range(1, 3000), { indexed: false });
    const restarted = await startTestService({}, svc.redis);
    try {
      await checkIndexed(restarted.url);
    } finally {
      await restarted.close();
    }
  });

  async function checkIndexed(url: string): Promise<void> {
    const ids = listed((await call(url + LIST)).body).map((u) => u.id);
    expect(ids).to.deep.equal([...range(1, 3000)]);
    expect(await redis.zcard(USER_KEYS.ids)).to.equal(3000);
    expect(await redis.get(USER_KEYS.idsComplete)).to.equal('1');
    // Changes keep it right afterwards.
    expect((await call(`${url}${LIST}/2`, { method: 'DELETE' })).body).to.equal(SUCCESS);
    expect((await sendForm(url + LIST, 'PUT', { id: 5000, name: 'n', profession: 'p' })).body).to.equal(
      SUCCESS,
    );
    const after = listed((await call(url + LIST)).body).map((u) => u.id);
    expect(after).to.deep.equal([1, ...range(3, 3000), 5000]);
  }

  it('a cached list is current across instances: a change made through another instance is seen at once', async () => {
    await storeUsers(redis, range(1, 50));
    const other = await startTestService({}, svc.redis);
    try {
      const before = (await call(svc.url + LIST)).body;
      expect((await call(svc.url + LIST)).body).to.equal(before); // cached now
      await sendForm(`${other.url}${LIST}`, 'POST', { id: 7, name: 'Renamed', profession: 'p' });
      expect(listed((await call(svc.url + LIST)).body)[6]).to.deep.equal({ id: 7, name: 'Renamed' });
      await call(`${other.url}${LIST}/8`, { method: 'DELETE' });
      await sendForm(`${other.url}${LIST}`, 'PUT', { id: 51, name: 'New', profession: 'p' });
      const ids = listed((await call(svc.url + LIST)).body).map((u) => u.id);
      expect(ids).to.include(51).and.not.include(8);
    } finally {
      await other.close();
    }
  });

  it('under concurrent writes: every user present throughout appears once, with a state it had during the list', async function () {
    this.timeout(60_000);
    // Stable users: even ids 2..40000, renamed g<n> by their updater (n rises). Churn: odd ids below
    // 4000, deleted and created again meanwhile, spread between the stable ones.
    const stable = [...range(1, 20_000)].map((i) => 2 * i);
    const churn = [...range(0, 1999)].map((i) => 2 * i + 1);
    await storeUsers(redis, [...stable, ...churn], { user: () => ({ name: 'g0', profession: 'p' }) });
    const acked = new Map<number, number>(); // generation answered success
    const sent = new Map<number, number>(); // generation last sent
    let running = true;
    let writes = 0;
    const base = svc.url + LIST;
    const updater = async (worker: number) => {
      for (let n = 1; running; n++) {
        for (let k = worker; k < 400 && running; k += 4) {
          const id = stable[(k * 50) % stable.length] as number;
          sent.set(id, n);
          const answer = await sendForm(base, 'POST', { id, name: `g${n}`, profession: 'p' });
          expect(answer.body).to.equal(SUCCESS);
          acked.set(id, n);
          writes++;
        }
      }
    };
    const churner = async () => {
      while (running) {
        for (const id of churn.slice(0, 200)) {
          await call(`${base}/${id}`, { method: 'DELETE' });
          await sendForm(base, 'PUT', { id, name: 'back', profession: 'p' });
          writes += 2;
          if (!running) return;
        }
      }
    };
    const writers = [updater(0), updater(1), updater(2), updater(3), churner()];
    try {
      await pause(100);
      for (let list = 0; list < 6; list++) {
        const floor = new Map(acked);
        const writesBefore = writes;
        const answer = await call(base);
        const ceiling = new Map(sent);
        expect(answer.status).to.equal(200);
        expect(answer.body.endsWith('</users>'), 'a complete document').to.equal(true);
        const users = listed(answer.body);
        for (let i = 1; i < users.length; i++) {
          expect((users[i] as { id: number }).id, `ascending at ${i}`).to.be.greaterThan(
            (users[i - 1] as { id: number }).id,
          );
        }
        const byId = new Map(users.map((u) => [u.id, u.name]));
        for (const id of stable) {
          const name = byId.get(id);
          expect(name, `stable user ${id} in list ${list}`).to.be.a('string');
          const generation = Number((name as string).slice(1));
          expect(generation, `state of ${id}`).to.be.within(floor.get(id) ?? 0, ceiling.get(id) ?? 0);
        }
        expect(writes, 'writes happened during the list').to.be.greaterThan(writesBefore);
      }
    } finally {
      running = false;
      await Promise.allSettled(writers);
    }
  });

  describe('large lists (200,000 users)', () => {
    const USERS = 200_000;
    /** Chunks of the server's default size (500 users). */
    const CHUNKS = USERS / 500;
    beforeEach(async function () {
      skipOnTopology(this, 'stops Redis and seeds a large list');
      this.timeout(60_000);
      await storeUsers(redis, range(1, USERS));
    });

    it('a reader that stops reading makes the server wait; one that goes away ends the list', async function () {
      this.timeout(60_000);
      const reader = rawList(svc.url);
      await until('the first bytes', () => reader.received().length > 0);
      reader.socket.pause();
      // The server fills the socket's buffers, then waits: its chunk reads stop well short of the end.
      let calls = -1;
      await until(
        'the list to stop reading chunks',
        async () => {
          const now = await commandCalls(redis, 'zrangebyscore');
          const stopped = now === calls;
          calls = now;
          if (!stopped) await pause(300);
          return stopped;
        },
        20_000,
      );
      expect(calls, 'chunks read while the client does not read')
        .to.be.greaterThan(0)
        .and.lessThan(CHUNKS / 2);
      reader.socket.destroy();
      await pause(500);
      expect(await commandCalls(redis, 'zrangebyscore'), 'chunks read after the client left').to.be.at.most(
        calls + 1,
      );
      // The server is fine: a whole list still comes out.
      const whole = await call(svc.url + LIST);
      expect(listed(whole.body)).to.have.length(USERS);
      expect(whole.body.endsWith('</users>')).to.equal(true);
    });

    it('Redis failing after the first bytes: the connection is closed without the end of the document', async function () {
      this.timeout(60_000);
      const reader = rawList(svc.url);
      await until('the first bytes', () => reader.received().length > 0);
      reader.socket.pause();
      await svc.redis.stopTemporarily('SIGKILL');
      reader.socket.resume();
      await reader.closed;
      const text = reader.received().toString('utf8');
      expect(text).to.match(/^HTTP\/1\.1 200 OK\r\n/);
      expect(text).to.match(/\r\ntransfer-encoding: chunked\r\n/i);
      expect(text, 'no end of the document').not.to.contain('</users>');
      expect(text.endsWith('\r\n0\r\n\r\n'), 'no final chunk').to.equal(false);
      expect(listed(text).length, 'some users were sent').to.be.greaterThan(0).and.lessThan(USERS);
      await svc.redis.start();
      // Before the first byte, a failure is still an error status.
      await svc.redis.stopTemporarily('SIGKILL');
      expect((await call(svc.url + LIST)).status).to.equal(503);
      await svc.redis.start();
    });
  });
});
