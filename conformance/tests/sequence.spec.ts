// SPEC.md, end of section A: "Test sequence that is known to hold against a fresh service".
import { expect } from '@playwright/test';
import { expectOn, sameId } from '../support/http.ts';
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import { expectSameUser } from '../support/users.ts';

test(
  ...rule('USR-SEQ-01', async (ctx) => {
    const { api } = await ctx.fresh();
    await step(api, { kind: 'list' });
    const { users } = await api.listUsers();
    expect(users.length, '1. the list is non-empty').toBeGreaterThan(0);
    const one = await api.get('/UserService/users/1');
    const first = await api.readUser(1);
    expectOn(one, first && sameId(first.id, 1), '2. GET id 1 returns id 1').toBe(true);
    await step(api, { kind: 'post', user: { id: 1, name: 'Suresh', profession: 'Clerk' } });
    await step(api, { kind: 'put', user: { id: 2, name: 'Naresh', profession: 'Engineer' } });
    await step(api, { kind: 'delete', id: 2 });
  }),
);

test(
  ...rule('USR-SEQ-02', async (ctx) => {
    const { api } = await ctx.fresh();
    await step(api, { kind: 'list' });
    await step(api, { kind: 'get', id: 1 });
    const posted = { id: 1, name: 'Suresh', profession: 'Clerk' };
    await step(api, { kind: 'post', user: posted });
    await step(api, { kind: 'put', user: { id: 2, name: 'Naresh', profession: 'Engineer' } });
    await step(api, { kind: 'delete', id: 2 });
    const { users } = await api.listUsers();
    expect(
      users.map((u) => u.id.trim()),
      'ids listed after the sequence',
    ).toHaveLength(1);
    expect(sameId(users[0]?.id ?? '', 1), `the one user left is id 1 (got ${users[0]?.id})`).toBe(true);
    expectSameUser(users[0], posted, 'user 1 in the list after the sequence');
    expectSameUser(await api.readUser(1), posted, 'GET /UserService/users/1 after the sequence');
  }),
);
