// Consequences along the concurrency axis (docs/coverage.md): every write raced against itself and
// against the others, with the outcomes the spec allows. USR-PUT-05 races PUT against itself.
import { expect } from '@playwright/test';
import { createDomain, newApp } from '../support/apps.ts';
import { type Reply, resultOf, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { expectAbsent, expectSameUser, expectStored, givenUser, newUser, ownId } from '../support/users.ts';

const CONTENDERS = 20;
const ROUNDS = 10;

const outcomeOf = (reply: Reply): string => {
  try {
    return resultOf(reply);
  } catch {
    return `unreadable (${reply.status})`;
  }
};

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

test(
  ...rule('USR-RACE-01', async (ctx) => {
    const user = await givenUser(ctx);
    const replies = await Promise.all(Array.from({ length: CONTENDERS }, () => ctx.api.del(user.id)));
    const counts = tally(replies.map(outcomeOf));
    expect(
      counts.success,
      `successes among ${CONTENDERS} concurrent DELETEs: ${JSON.stringify(counts)}`,
    ).toBe(1);
    expect(counts.failure, `failures: ${JSON.stringify(counts)}`).toBe(CONTENDERS - 1);
    await expectAbsent(ctx.api, user.id, 'after the concurrent DELETEs');
  }),
);

test(
  ...rule('USR-RACE-02', async (ctx) => {
    const user = await givenUser(ctx);
    const contenders = Array.from({ length: CONTENDERS }, (_, i) => ({
      id: user.id,
      name: `${user.name}-n${i}`,
      profession: `${user.profession}-p${i}`,
    }));
    const replies = await Promise.all(contenders.map((c) => ctx.api.post(c)));
    const counts = tally(replies.map(outcomeOf));
    expect(counts.success, `successes among ${CONTENDERS} concurrent POSTs: ${JSON.stringify(counts)}`).toBe(
      CONTENDERS,
    );
    const stored = await ctx.api.readUser(user.id);
    const winner = contenders.find((c) => c.name === stored?.name);
    expect(winner, `the stored name is one of the POSTs': ${JSON.stringify(stored)}`).toBeDefined();
    await expectStored(ctx.api, winner as (typeof contenders)[number], 'the stored user is one POST whole');
  }),
);

test(
  ...rule('USR-RACE-03', async (ctx) => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = newUser('race-del');
      ownId(ctx, user.id);
      const [put, del] = await Promise.all([ctx.api.put(user), ctx.api.del(user.id)]);
      expect(outcomeOf(put), `PUT of a new id raced with its DELETE: ${show(put)}`).toBe('success');
      const deleted = outcomeOf(del);
      expect(['success', 'failure'], `DELETE raced with the PUT: ${show(del)}`).toContain(deleted);
      const read = await ctx.api.readUser(user.id);
      if (deleted === 'success')
        expect(read, `DELETE answered success, yet user ${user.id} is served`).toBeUndefined();
      else expectSameUser(read, user, 'DELETE answered failure (it came first): the PUT stays');
    }
  }),
);

test(
  ...rule('USR-RACE-04', async (ctx) => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = newUser('race-post');
      const update = { ...user, name: `${user.name}-post`, profession: `${user.profession}-post` };
      ownId(ctx, user.id);
      const [put, post] = await Promise.all([ctx.api.put(user), ctx.api.post(update)]);
      expect(outcomeOf(put), `PUT of a new id raced with a POST: ${show(put)}`).toBe('success');
      const posted = outcomeOf(post);
      expect(['success', 'failure'], `POST raced with the PUT: ${show(post)}`).toContain(posted);
      expectSameUser(
        await ctx.api.readUser(user.id),
        posted === 'success' ? update : user,
        `POST answered ${posted}: the stored user is ${posted === 'success' ? "the POST's" : "the PUT's"}`,
      );
    }
  }),
);

test(
  ...rule('APP-RACE-01', async (ctx) => {
    const domain = await createDomain(ctx, newApp());
    const replies = await Promise.all(
      Array.from({ length: CONTENDERS }, () => ctx.api.send('DELETE', domain.path)),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(
      ok.length,
      `DELETEs answered 200 among ${CONTENDERS} concurrent DELETEs of one domain: ${JSON.stringify(tally(replies.map((r) => String(r.status))))}`,
    ).toBe(1);
    expect(replies.filter((r) => r.status >= 500).map(show), 'server errors').toEqual([]);
  }),
);
