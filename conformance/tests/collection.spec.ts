// SPEC.md, "What the service does": the collection, its default user, persistence.
import { expect } from '@playwright/test';
import { type Api, onNewConnections, type Reply, resultOf, sameId, show } from '../support/http.ts';
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import { expectStored, givenUser, newUser } from '../support/users.ts';

test(
  ...rule('USR-COL-01', async (ctx) => {
    const { api } = await ctx.fresh();
    await step(api, { kind: 'list' });
    const { users } = await api.listUsers();
    expect(
      users.map((u) => u.id),
      'users listed by a fresh service',
    ).toHaveLength(1);
    expect(sameId(users[0]?.id ?? '', 1), `the only user has id 1 (got ${users[0]?.id})`).toBe(true);
  }),
);

test(
  ...rule('USR-COL-02', async (ctx) => {
    const { api } = await ctx.fresh();
    await step(api, { kind: 'get', id: 1 });
    await step(api, { kind: 'list' });
    const user = await api.readUser(1);
    expect(user, 'GET /UserService/users/1 as the first read of a fresh service').toBeDefined();
    const { users } = await api.listUsers();
    expect(
      users.map((u) => u.id),
      'the collection then holds the single default user',
    ).toEqual([user?.id]);
  }),
);

test(
  ...rule('USR-COL-03', async (ctx) => {
    const user = await givenUser(ctx, ctx.api, newUser('persist'));
    // Read back on new connections, from a request context of its own.
    await onNewConnections(ctx.api, (other) => expectStored(other, user, 'read back by later requests'));
  }),
);

test(
  ...rule('USR-COL-04', async (ctx) => {
    const { api, restart } = await ctx.fresh();
    const user = await givenUser(ctx, api, newUser('restart'));
    const after = await restart();
    await expectStored(after, user, 'after a restart');
  }),
);

test(
  ...rule('USR-COL-05', async (ctx) => {
    const { api } = await ctx.fresh();
    const user = await api.readUser(1);
    ctx.observe(
      user
        ? `default user: id ${user.id}, name ${JSON.stringify(user.name)}, profession ${JSON.stringify(user.profession)}`
        : 'GET /UserService/users/1 served no user',
    );
  }),
);

/** On a fresh instance: the first read (which creates the collection), then every user deleted. */
async function emptied(api: Api): Promise<void> {
  await step(api, { kind: 'list' });
  const { users } = await api.listUsers();
  for (const user of users) await step(api, { kind: 'delete', id: user.id });
  await step(api, { kind: 'list' });
  expect((await api.listUsers()).users, 'the list right after deleting every user').toEqual([]);
}

async function expectStillEmpty(api: Api, what: string): Promise<void> {
  await step(api, { kind: 'get', id: 1 });
  await step(api, { kind: 'list' });
  expect(await api.readUser(1), `${what}: GET /UserService/users/1 serves a user again`).toBeUndefined();
  expect(
    (await api.listUsers()).users.map((u) => u.id),
    `${what}: users listed (the default user must not come back)`,
  ).toEqual([]);
}

test(
  ...rule('USR-COL-06', async (ctx) => {
    const { api } = await ctx.fresh();
    await emptied(api);
    // Every kind of read, then the list twice: none of them finds "no collection".
    await api.send('HEAD', '/UserService/users');
    await api.send('OPTIONS', '/UserService/users');
    await expectStillEmpty(api, 'reads of the emptied collection');
    await expectStillEmpty(api, 'a second round of reads');
  }),
);

test(
  ...rule('USR-COL-07', async (ctx) => {
    const { api } = await ctx.fresh();
    const user = newUser('first-write');
    const reply: Reply = await api.put(user);
    let outcome: string;
    try {
      outcome = resultOf(reply);
    } catch {
      outcome = show(reply);
    }
    const ids = (await api.listUsers()).users.map((u) => u.id);
    ctx.observe(
      `PUT as the first request: ${outcome}; the list then holds ${ids.length} user(s)${ids.some((id) => sameId(id, 1)) ? ', the default user among them' : ', not the default user'}`,
    );
  }),
);

test(
  ...rule('USR-COL-08', async (ctx) => {
    const { api, restart } = await ctx.fresh();
    await emptied(api);
    const after = await restart();
    await expectStillEmpty(after, 'after a restart');
  }),
);
