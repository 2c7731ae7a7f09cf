// SPEC.md, "What the service does": the collection, its default user, persistence.
import { expect, request as playwrightRequest } from '@playwright/test';
import { Api, sameId } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { expectStored, givenUser, newUser } from '../support/users.ts';

test(
  ...rule('USR-COL-01', async (ctx) => {
    const { api } = await ctx.fresh();
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
    const other = await playwrightRequest.newContext();
    try {
      await expectStored(new Api(other, ctx.api.baseUrl), user, 'read back by later requests');
    } finally {
      await other.dispose();
    }
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
