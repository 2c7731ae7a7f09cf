import { expect } from 'chai';
import { USER_KEYS } from '../../src/users/keys.ts';
import { connectTestRedis } from '../support/dump.ts';
import { call, FAILURE, SUCCESS, sendForm } from '../support/http.ts';
import { suiteService, usersUrl } from '../support/service.ts';

describe('users: atomicity under concurrency', () => {
  const svc = suiteService({}, { each: true });
  const base = () => usersUrl(svc);

  it('20 concurrent first requests against an empty Redis see exactly one default user', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? call(base()) : sendForm(base(), 'PUT', { id: 1000 + i, name: 'n', profession: 'p' }),
      ),
    );
    for (const [i, answer] of answers.entries()) {
      if (i % 2 === 0) expect(answer.body.match(/<id>1<\/id>/g), `list ${i}`).to.have.length(1);
      else expect(answer.body).to.equal(SUCCESS);
    }
    const redis = await connectTestRedis(svc.redis.url);
    expect(await redis.hget(USER_KEYS.users, '1')).to.equal('{"name":"Mahesh","profession":"Teacher"}');
    redis.disconnect();
  });

  it('50 concurrent PUTs of one new id: exactly one succeeds, and its fields are stored', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        sendForm(base(), 'PUT', { id: 4242, name: `racer${i}`, profession: 'p' }),
      ),
    );
    const winners = answers.flatMap((a, i) => (a.body === SUCCESS ? [i] : []));
    expect(winners).to.have.length(1);
    expect(answers.filter((a) => a.body === FAILURE && a.status === 409)).to.have.length(49);
    expect((await call(`${base()}/4242`)).body).to.contain(`<name>racer${winners[0]}</name>`);
  });

  it('POST racing DELETE never resurrects a deleted user', async () => {
    const rounds = 40;
    let resurrected = 0;
    for (let round = 0; round < rounds; round++) {
      const id = 5000 + round;
      await sendForm(base(), 'PUT', { id, name: 'orig', profession: 'p' });
      const answers = await Promise.all([
        call(`${base()}/${id}`, { method: 'DELETE' }),
        ...Array.from({ length: 6 }, (_, i) =>
          sendForm(base(), 'POST', { id, name: `upd${i}`, profession: 'q' }),
        ),
      ]);
      const deleted = answers[0]!;
      expect(deleted.body).to.equal(SUCCESS);
      const after = await call(`${base()}/${id}`);
      if (after.status !== 404) resurrected++;
      const updates = await Promise.all(
        Array.from({ length: 3 }, () => sendForm(base(), 'POST', { id, name: 'late', profession: 'q' })),
      );
      for (const u of updates) expect(u.body).to.equal(FAILURE);
    }
    expect(resurrected, 'users visible again after a successful DELETE').to.equal(0);
  });

  it('concurrent POSTs to one user: every answer is success and the record is one of the submitted ones', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        sendForm(base(), 'POST', { id: 1, name: `n${i}`, profession: `p${i}` }),
      ),
    );
    expect(answers.every((a) => a.body === SUCCESS)).to.equal(true);
    const final = (await call(`${base()}/1`)).body;
    const match = /<name>n(\d+)<\/name><profession>p(\d+)<\/profession>/.exec(final);
    expect(match, final).to.not.equal(null);
    expect(match![1]).to.equal(match![2]); // never a torn record mixing two updates
  });
});
