// SPEC.md A, endpoint 5 and rule 5: DELETE /UserService/users/{userid}.
import { expect } from '@playwright/test';
import { resultOf, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { expectAbsent, expectOutcome, expectStored, givenUser, unknownId } from '../support/users.ts';

test(
  ...rule('USR-DEL-01', async (ctx) => {
    const user = await givenUser(ctx);
    expectOutcome(await ctx.api.del(user.id), 'success');
  }),
);

test(
  ...rule('USR-DEL-02', async (ctx) => {
    const gone = await givenUser(ctx);
    const kept = await givenUser(ctx);
    await ctx.api.del(gone.id);
    await expectAbsent(ctx.api, gone.id, 'after DELETE');
    await expectStored(ctx.api, kept, 'another user after the DELETE');
  }),
);

test(
  ...rule('USR-DEL-03', async (ctx) => {
    const id = unknownId(ctx);
    expectOutcome(await ctx.api.del(id), 'failure');
  }),
);

test(
  ...rule('USR-DEL-04', async (ctx) => {
    const kept = await givenUser(ctx);
    const id = unknownId(ctx);
    await ctx.api.del(id);
    await expectStored(ctx.api, kept, 'a user after a DELETE of an unknown id');
    await expectAbsent(ctx.api, id, 'after a DELETE of an unknown id');
  }),
);

test(
  ...rule('USR-DEL-05', async (ctx) => {
    const user = await givenUser(ctx);
    await ctx.api.del(user.id);
    const second = await ctx.api.del(user.id);
    await expectAbsent(ctx.api, user.id, 'after the same DELETE twice');
    expect(resultOf(second), `a repeated DELETE finds nothing to remove: ${show(second)}`).toBe('failure');
  }),
);
