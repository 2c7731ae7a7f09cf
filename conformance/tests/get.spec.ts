// SPEC.md A, endpoint 2 and rules 2 and 9: GET /UserService/users/{userid}.
import { expect } from '@playwright/test';
import { expectOn, expectXmlMediaType, sameId, userOf, xmlOf } from '../support/http.ts';
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import { expectAbsent, expectSameUser, expectStored, givenUser, unknownId } from '../support/users.ts';

test(
  ...rule('USR-GET-01', async (ctx) => {
    const user = await givenUser(ctx);
    const reply = await ctx.api.get(`/UserService/users/${user.id}`);
    expectOn(reply, reply.status).toBeGreaterThanOrEqual(200);
    expectOn(reply, reply.status).toBeLessThan(300);
    expectXmlMediaType(reply);
    const doc = xmlOf(reply);
    expectOn(reply, doc.root.name, 'root element').toBe('user');
    const read = userOf(doc.root);
    expectOn(reply, read && sameId(read.id, user.id), 'id of the answered user').toBe(true);
    expectSameUser(read, user, 'GET by id');
  }),
);

test(
  ...rule('USR-GET-02', async (ctx) => {
    const id = unknownId(ctx);
    const { reply } = await step(ctx.api, { kind: 'get', id });
    expectOn(reply, reply.status, 'no server error').toBeLessThan(500);
    expect(await ctx.api.readUser(id), `a user is served for the unknown id ${id}`).toBeUndefined();
  }),
);

test(
  ...rule('USR-GET-03', async (ctx) => {
    const id = unknownId(ctx);
    const reply = await ctx.api.get(`/UserService/users/${id}`);
    let root = 'no XML body';
    try {
      root = `<${xmlOf(reply).root.name}>`;
    } catch {}
    ctx.observe(
      `GET of an unknown id: ${reply.status}, ${reply.headers['content-type'] ?? 'no Content-Type'}, ${reply.body.length ? root : 'empty body'}`,
    );
  }),
);

test(
  ...rule('USR-GET-04', async (ctx) => {
    const user = await givenUser(ctx);
    const id = unknownId(ctx);
    for (const method of ['GET', 'HEAD', 'GET']) await ctx.api.send(method, `/UserService/users/${id}`);
    await ctx.api.send('OPTIONS', '/UserService/users');
    await ctx.api.send('HEAD', '/UserService/users');
    await step(ctx.api, { kind: 'get', id });
    await expectAbsent(ctx.api, id, 'after reads of an unknown id');
    await expectStored(ctx.api, user, 'a user after reads');
  }),
);
