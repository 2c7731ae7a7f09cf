import { expect } from 'chai';
import { startTestRedis, type TestRedis } from '../../../testing/redis.ts';
import { USER_KEYS } from '../../src/users/keys.ts';
import { connectTestRedis } from '../support/dump.ts';
import { call, FAILURE, SUCCESS, sendForm } from '../support/http.ts';
import { startTestService, suiteService, type TestService, usersUrl } from '../support/service.ts';

const WRITERS = 200;

/** The stored value of user `id`, read from Redis itself. */
async function stored(redis: TestRedis, id: number): Promise<string | null> {
  const client = await connectTestRedis(redis.url);
  try {
    return await client.hget(USER_KEYS.users, String(id));
  } finally {
    client.disconnect();
  }
}

/**
 * `WRITERS` concurrent POSTs of one id, sent round-robin to `bases`: every answer is 200 success, and
 * the record that stays is one of the submitted ones, whole (name and profession of the same POST).
 */
async function manyWritersOfOneId(bases: string[], redis: TestRedis, id: number): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: WRITERS }, (_, i) =>
      sendForm(bases[i % bases.length] as string, 'POST', { id, name: `n${i}`, profession: `p${i}` }),
    ),
  );
  const refused = answers.filter((a) => a.status !== 200 || a.body !== SUCCESS);
  expect(refused.map((a) => `${a.status} ${a.body}`)).to.deep.equal([]);
  const value = await stored(redis, id);
  const submitted = Array.from({ length: WRITERS }, (_, i) =>
    JSON.stringify({ name: `n${i}`, profession: `p${i}` }),
  );
  expect(submitted, `stored ${value}`).to.include(value);
  for (const base of bases) {
    const read = await call(`${base}/${id}`);
    const match = /<name>n(\d+)<\/name><profession>p(\d+)<\/profession>/.exec(read.body);
    expect(match, read.body).to.not.equal(null);
    expect(match![1]).to.equal(match![2]);
  }
}

/**
 * Rounds of: create the user, then one DELETE racing POSTs of the same id (sent round-robin to
 * `bases`). Every POST is answered 200 (applied before the delete) or 404 (after it), never 503;
 * the user stays deleted, and POSTs after the delete fail.
 */
async function postsRacingDelete(bases: string[], rounds: number, posts: number): Promise<void> {
  let resurrected = 0;
  for (let round = 0; round < rounds; round++) {
    const id = 7000 + round;
    const first = bases[0] as string;
    expect((await sendForm(first, 'PUT', { id, name: 'orig', profession: 'p' })).body).to.equal(SUCCESS);
    const [deleted, ...updates] = await Promise.all([
      call(`${bases[round % bases.length]}/${id}`, { method: 'DELETE' }),
      ...Array.from({ length: posts }, (_, i) =>
        sendForm(bases[i % bases.length] as string, 'POST', { id, name: `upd${i}`, profession: 'q' }),
      ),
    ]);
    expect(deleted!.body).to.equal(SUCCESS);
    for (const u of updates) {
      expect([`200 ${SUCCESS}`, `404 ${FAILURE}`]).to.include(`${u.status} ${u.body}`);
    }
    for (const base of bases) if ((await call(`${base}/${id}`)).status !== 404) resurrected++;
    const late = await Promise.all(
      bases.map((base) => sendForm(base, 'POST', { id, name: 'late', profession: 'q' })),
    );
    for (const u of late) expect(`${u.status} ${u.body}`).to.equal(`404 ${FAILURE}`);
  }
  expect(resurrected, 'users visible again after a successful DELETE').to.equal(0);
}

describe('users: many writers of one id', () => {
  describe('one instance', () => {
    const svc = suiteService();
    const base = () => usersUrl(svc);

    it(`${WRITERS} concurrent POSTs of one id: every answer 200, the record is one of them, whole`, async () => {
      await manyWritersOfOneId([base()], svc.redis, 1);
    });

    it('POSTs racing a DELETE of the same id: 200 or 404, never 503, and never resurrected', async () => {
      await postsRacingDelete([base()], 20, 30);
    });
  });

  describe('two instances sharing one Redis', () => {
    let redis: TestRedis;
    let a: TestService;
    let b: TestService;
    let bases: string[];
    before(async () => {
      redis = await startTestRedis();
      a = await startTestService({}, redis);
      b = await startTestService({}, redis);
      bases = [a, b].map((svc) => `${svc.url}/UserService/users`);
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await redis?.stop();
    });

    it(`${WRITERS} concurrent POSTs of one id split over both: every answer 200, the record is one of them, whole`, async () => {
      await manyWritersOfOneId(bases, redis, 1);
    });

    it('the same id written again and again from both instances at once: all 200', async () => {
      for (let round = 0; round < 5; round++) await manyWritersOfOneId(bases, redis, 1);
    });

    it('POSTs split over both racing a DELETE of the same id: 200 or 404, never 503, and never resurrected', async () => {
      await postsRacingDelete(bases, 20, 30);
    });
  });
});
