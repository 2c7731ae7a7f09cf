// SPEC.md A, endpoint 1 and rule 1: GET /UserService/users.
import { expect } from '@playwright/test';
import { expectOn, expectXmlMediaType, sameId } from '../support/http.ts';
import { modelOf } from '../support/judged.ts';
import { judgeBulk, judgeServerErrors, outcome } from '../support/judged-races.ts';
import { rule, test } from '../support/rule.ts';
import { expectSameUser, givenUser, isolated, newUser, readListing, removeUser } from '../support/users.ts';

const INTEGER = /^\s*[+-]?\d+\s*$/;

import { elements } from '../model/xml.ts';

test(
  ...rule('USR-LIST-01', async (ctx) => {
    // The whole list is judged on an instance of its own; on a shared target, only the rule's user.
    const { api, fresh } = await isolated(ctx);
    const user = await givenUser(ctx, api);
    const { reply, doc, users, broken } = await readListing(api);
    expectXmlMediaType(reply);
    expectOn(reply, doc.root.name, 'the list wraps its users in one element').not.toBe('user');
    const others = elements(doc.root).filter((e) => e.name !== 'user');
    const own = users.filter((u) => sameId(u.id, user.id));
    expectOn(
      reply,
      own.length,
      `the rule's user ${user.id} as one user element with id, name and profession`,
    ).toBe(1);
    if (fresh) {
      expectOn(
        reply,
        others.map((e) => e.name),
        'elements of the list other than user',
      ).toEqual([]);
      expectOn(reply, broken.length, 'user elements without exactly one id, name and profession').toBe(0);
      for (const listed of users) expectOn(reply, listed.id, 'id is an integer').toMatch(INTEGER);
    } else {
      if (others.length || broken.length)
        ctx.observe(
          `not judged (the shared target's, not this rule's): ${others.length} elements other than user, ${broken.length} user elements lacking an id, name or profession`,
        );
    }
  }),
);

test(
  ...rule('USR-LIST-02', async (ctx) => {
    const created = [await givenUser(ctx), await givenUser(ctx), await givenUser(ctx)];
    const { reply, users } = await readListing(ctx.api);
    for (const user of created) {
      const listedUser = users.filter((u) => sameId(u.id, user.id));
      expectOn(reply, listedUser.length, `times user ${user.id} appears in the list`).toBe(1);
      expectSameUser(listedUser[0], user, 'listed user');
    }
  }),
);

test(
  ...rule('USR-LIST-03', async (ctx) => {
    await givenUser(ctx);
    const { doc, users } = await readListing(ctx.api);
    const ids = users.map((u) => Number(u.id));
    const ascending = ids.every((id, i) => i === 0 || (ids[i - 1] as number) <= id);
    ctx.observe(
      `wrapper element <${doc.root.name}>; ${users.length} users; ${ascending ? 'ascending id order' : 'not in ascending id order'}`,
    );
    const a = await givenUser(ctx, ctx.api, {
      ...newUser(),
      id: 1_999_999_999 - Math.floor(Math.random() * 1000),
    });
    const b = await givenUser(ctx, ctx.api, { ...newUser(), id: a.id - 1000 });
    const listed = (await readListing(ctx.api)).users.map((u) => u.id);
    const order = listed.findIndex((id) => sameId(id, a.id)) < listed.findIndex((id) => sameId(id, b.id));
    ctx.observe(
      `a user created after one with a higher id is listed ${order ? 'after it (creation order)' : 'before it'}`,
    );
  }),
);

const MANY = 205;
/** USR-LIST-04: small bursts of concurrent PUTs first, each judged at once, before the larger ones. */
const SMALL_BURST = 5;
/** Small bursts sent, at the most, while they meet server errors. */
const SMALL_BURSTS = 5;

test(
  ...rule('USR-LIST-04', async (ctx) => {
    // A user of its own first: its steps judge the answers and learn what this implementation's words mean.
    await givenUser(ctx);
    const base = newUser('many');
    const users = Array.from({ length: MANY }, (_, i) => ({ ...newUser('many'), id: base.id + i * 7 }));
    ctx.cleanup(async () => {
      for (let i = 0; i < users.length; i += 25)
        await Promise.all(users.slice(i, i + 25).map((u) => removeUser(ctx.api, u.id)));
    });
    const listedIds = (listed: ReadonlyArray<{ id: string }>) =>
      new Set(listed.map((l) => l.id.trim().replace(/^\+/, '')));
    // Small bursts first, judged at once: a service that loses concurrent writes shows it there, before
    // the larger bursts can break its state for good and hide the lost writes behind that. A small burst
    // that met server errors (the model holds them as a finding of their own) is followed by another, on
    // an instance of its own if this one broke for good.
    let smallLeft = SMALL_BURSTS;
    for (let i = 0; i < users.length; ) {
      const small = smallLeft > 0;
      const burst = users.slice(i, i + (small ? SMALL_BURST : 25));
      i += burst.length;
      const replies = await Promise.all(burst.map((u) => ctx.api.put(u)));
      const outcomes = replies.map((reply) => outcome(ctx.api, reply));
      await judgeServerErrors(ctx.api, replies);
      if (small) {
        // The writes of the burst that answered success, judged even when another one failed.
        const stored = burst.filter((_, j) => outcomes[j] === 'success');
        const listing = await readListing(ctx.api).catch(() => undefined);
        if (listing) await judgeBulk(ctx.api, stored, listedIds(listing.users));
        // Judged without a server error: on to the larger bursts; else another small one.
        smallLeft = listing && replies.every((r) => r.status < 500) ? 0 : smallLeft - 1;
        if (smallLeft > 0) {
          await ctx.moveIfBroken();
          continue;
        }
      }
      for (const [j, reply] of replies.entries())
        expectOn(reply, outcomes[j], `creating ${MANY} users`).toBe('success');
      if (modelOf(ctx.api.log).findings.length) return;
    }
    const listed = (await readListing(ctx.api)).users;
    const missing = users.filter((u) => !listed.some((l) => sameId(l.id, u.id)));
    // Left out by the list, or lost by the writes: told apart by GET by id.
    await judgeBulk(ctx.api, users, listedIds(listed));
    expect(
      missing.length,
      `of ${MANY} users just created, missing from one GET of the list (${listed.length} listed)`,
    ).toBe(0);
  }),
);
