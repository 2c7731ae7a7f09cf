// Sound HTTP practice the spec implies (SHOULD: a failure is a warning, the run still passes).
import { expect } from '@playwright/test';
import { randomText, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import {
  expectAbsent,
  givenUser,
  isolated,
  newUser,
  ownId,
  readListing,
  unknownId,
} from '../support/users.ts';

test(
  ...rule('HTTP-01', async (ctx) => {
    const user = await givenUser(ctx);
    const ghost = unknownId(ctx);
    const replies = [
      await ctx.api.put(user),
      await ctx.api.post({ ...user, id: ghost }),
      await ctx.api.del(ghost),
    ];
    expect(replies.filter((r) => r.status >= 500).map(show), 'failure results answered with a 5xx').toEqual(
      [],
    );
  }),
);

test(
  ...rule('HTTP-02', async (ctx) => {
    const user = newUser('ok');
    ownId(ctx, user.id);
    const replies = [
      await ctx.api.put(user),
      await ctx.api.post({ ...user, name: `${user.name}-2` }),
      await ctx.api.del(user.id),
    ];
    expect(
      replies.filter((r) => r.status < 200 || r.status > 299).map(show),
      'success results without a 2xx',
    ).toEqual([]);
  }),
);

test(
  ...rule('HTTP-03', async (ctx) => {
    const reply = await ctx.api.get(`/UserService/${randomText('no-such-path')}`);
    expect(reply.status, show(reply)).toBe(404);
  }),
);

test(
  ...rule('HTTP-04', async (ctx) => {
    // Invalid input: on an instance of its own where one can be started, so that whatever it leaves
    // cannot reach other rules; on a shared target, removing what it created is part of the rule.
    const { api, fresh } = await isolated(ctx);
    const user = newUser('invalid');
    if (!fresh) {
      ownId(ctx, user.id);
      ownId(ctx, `x${user.id}`);
    }
    const missing = await api.form('PUT', '/UserService/users', { id: user.id, name: user.name });
    expect(missing.status, `a form without profession: ${show(missing)}`).toBeLessThan(500);
    await expectAbsent(api, user.id, 'after a PUT without profession');
    const marker = randomText('invalid-id');
    const notInt = await api.form('PUT', '/UserService/users', {
      id: `x${user.id}`,
      name: marker,
      profession: marker,
    });
    expect(notInt.status, `a form whose id is not an integer: ${show(notInt)}`).toBeLessThan(500);
    const { users } = await readListing(api);
    expect(
      users.filter((u) => u.name === marker).length,
      'users created from a form with a non-integer id',
    ).toBe(0);
  }),
);
