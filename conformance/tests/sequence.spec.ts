// SPEC.md, end of section A: "Test sequence that is known to hold against a fresh service".
import { expect } from '@playwright/test';
import { sameId, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { expectOutcome } from '../support/users.ts';

test(
  ...rule('USR-SEQ-01', async (ctx) => {
    const { api } = await ctx.fresh();
    const { users } = await api.listUsers();
    expect(users.length, '1. the list is non-empty').toBeGreaterThan(0);
    const one = await api.get('/UserService/users/1');
    const first = await api.readUser(1);
    expect(first && sameId(first.id, 1), `2. GET id 1 returns id 1: ${show(one)}`).toBe(true);
    expectOutcome(await api.post({ id: 1, name: 'Suresh', profession: 'Clerk' }), 'success');
    expectOutcome(await api.put({ id: 2, name: 'Naresh', profession: 'Engineer' }), 'success');
    expectOutcome(await api.del(2), 'success');
  }),
);
