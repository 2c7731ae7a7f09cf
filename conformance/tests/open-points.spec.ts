// SPEC.md A, rules 8-11 and the statuses the spec does not fix: recorded, never failed.

import type { Reply } from '../support/http.ts';
import { randomText, resultOf, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { givenUser, isolated, newUser, ownId, unknownId } from '../support/users.ts';

function outcome(reply: Reply): string {
  try {
    return `${reply.status} ${resultOf(reply)}`;
  } catch {
    return `${reply.status} (no result element)`;
  }
}

test(
  ...rule('USR-OPEN-01', async (ctx) => {
    const user = newUser('open');
    ownId(ctx, user.id);
    const put = await ctx.api.put(user);
    const post = await ctx.api.post({ ...user, name: `${user.name}-2` });
    const del = await ctx.api.del(user.id);
    ctx.observe(`success: PUT ${outcome(put)}, POST ${outcome(post)}, DELETE ${outcome(del)}`);
  }),
);

test(
  ...rule('USR-OPEN-02', async (ctx) => {
    const user = await givenUser(ctx);
    const ghost = unknownId(ctx);
    const put = await ctx.api.put(user);
    const post = await ctx.api.post({ ...user, id: ghost });
    const del = await ctx.api.del(ghost);
    ctx.observe(
      `failure: PUT of an existing id ${outcome(put)}, POST of an unknown id ${outcome(post)}, DELETE of an unknown id ${outcome(del)}${
        [put, post, del].every((reply) => reply.status === 200)
          ? " (200 for every failure: the original service's choice)"
          : ''
      }`,
    );
  }),
);

test(
  ...rule('USR-OPEN-03', async (ctx) => {
    const user = newUser('path');
    ownId(ctx, user.id);
    const put = await ctx.api.form('PUT', `/UserService/users/${user.id}`, user);
    const created = await ctx.api.readUser(user.id);
    const post = await ctx.api.form('POST', `/UserService/users/${user.id}`, {
      ...user,
      name: `${user.name}-2`,
    });
    const updated = await ctx.api.readUser(user.id);
    ctx.observe(
      `PUT /UserService/users/{id}: ${outcome(put)}${created ? ' (user created)' : ''}; POST /UserService/users/{id}: ${outcome(post)}${updated?.name.endsWith('-2') ? ' (user updated)' : ''}`,
    );
  }),
);

test(
  ...rule('USR-OPEN-04', async (ctx) => {
    // Invalid input: on an instance of its own where one can be started (see HTTP-04).
    const { api, fresh } = await isolated(ctx);
    const user = newUser('invalid');
    if (!fresh) {
      ownId(ctx, user.id);
      ownId(ctx, `x${user.id}`);
    }
    const missing = await api.form('PUT', '/UserService/users', { id: user.id, name: user.name });
    const notInt = await api.form('PUT', '/UserService/users', {
      id: `x${user.id}`,
      name: randomText('n'),
      profession: 'p',
    });
    ctx.observe(`missing profession: ${show(missing).slice(0, 200)}; id "x…": ${show(notInt).slice(0, 200)}`);
  }),
);

test(
  ...rule('USR-OPEN-05', async (ctx) => {
    const empty = newUser('empty');
    const long = { ...newUser('long'), name: 'x'.repeat(10_000) };
    ownId(ctx, empty.id);
    ownId(ctx, long.id);
    const emptyReply = await ctx.api.put({ ...empty, name: '' });
    const emptyStored = await ctx.api.readUser(empty.id);
    const longReply = await ctx.api.put(long);
    const longStored = await ctx.api.readUser(long.id);
    ctx.observe(
      `empty name: ${outcome(emptyReply)}${emptyStored ? ' (stored)' : ' (not stored)'}; 10,000-character name: ${outcome(longReply)}${longStored ? (longStored.name === long.name ? ' (stored whole)' : ` (stored as ${longStored.name.length} characters)`) : ' (not stored)'}`,
    );
  }),
);

test(
  ...rule('USR-OPEN-06', async (ctx) => {
    const user = await givenUser(ctx);
    const zeros = await ctx.api.get(`/UserService/users/00${user.id}`);
    const zerosUser = await ctx.api.readUser(`00${user.id}`);
    const letters = await ctx.api.get('/UserService/users/abc');
    const del = await ctx.api.del('abc');
    ctx.observe(
      `GET /UserService/users/00{id}: ${zeros.status}${zerosUser ? ' (the user)' : ''}; GET /UserService/users/abc: ${letters.status}; DELETE /UserService/users/abc: ${outcome(del)}`,
    );
  }),
);
