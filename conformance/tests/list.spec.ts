// SPEC.md A, endpoint 1 and rule 1: GET /UserService/users.
import { expect } from '@playwright/test';
import { expectXmlMediaType, sameId, show } from '../support/http.ts';
import { judgeBulk, modelOf, outcome } from '../support/judged.ts';
import { rule, test } from '../support/rule.ts';
import { expectSameUser, givenUser, isolated, newUser, readListing, removeUser } from '../support/users.ts';

const INTEGER = /^\s*[+-]?\d+\s*$/;

import { elements } from '../support/xml.ts';

test(
  ...rule('USR-LIST-01', async (ctx) => {
    // The whole list is judged on an instance of its own; on a shared target, only the rule's user.
    const { api, fresh } = await isolated(ctx);
    const user = await givenUser(ctx, api);
    const { reply, doc, users, broken } = await readListing(api);
    expectXmlMediaType(reply);
    expect(doc.root.name, `the list wraps its users in one element: ${show(reply)}`).not.toBe('user');
    const others = elements(doc.root).filter((e) => e.name !== 'user');
    const own = users.filter((u) => sameId(u.id, user.id));
    expect(
      own.length,
      `the rule's user ${user.id} as one user element with id, name and profession: ${show(reply)}`,
    ).toBe(1);
    if (fresh) {
      expect(
        others.map((e) => e.name),
        `elements of the list other than user: ${show(reply)}`,
      ).toEqual([]);
      expect(broken.length, `user elements without exactly one id, name and profession: ${show(reply)}`).toBe(
        0,
      );
      for (const listed of users) expect(listed.id, `id is an integer: ${show(reply)}`).toMatch(INTEGER);
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
      expect(listedUser.length, `times user ${user.id} appears in the list: ${show(reply)}`).toBe(1);
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
/** USR-LIST-04: the first, small burst of concurrent PUTs, judged before the rest. */
const FIRST_BURST = 5;

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
    // A small burst first, judged at once: a service that loses concurrent writes shows it there,
    // before the larger bursts can break its state for good and hide the lost writes behind that.
    for (let i = 0; i < users.length; i += i === 0 ? FIRST_BURST : 25) {
      const burst = users.slice(i, i + (i === 0 ? FIRST_BURST : 25));
      const replies = await Promise.all(burst.map((u) => ctx.api.put(u)));
      const outcomes = replies.map((reply) => outcome(ctx.api, reply));
      if (i === 0) {
        // The writes of the burst that answered success, judged even when another one failed.
        const stored = burst.filter((_, j) => outcomes[j] === 'success');
        const listing = await readListing(ctx.api).catch(() => undefined);
        if (listing) await judgeBulk(ctx.api, stored, listedIds(listing.users));
      }
      for (const [j, reply] of replies.entries())
        expect(outcomes[j], `creating ${MANY} users: ${show(reply)}`).toBe('success');
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
