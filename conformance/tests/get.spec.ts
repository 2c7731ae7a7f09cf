// SPEC.md A, endpoint 2 and rules 2 and 9: GET /UserService/users/{userid}.
import { expect } from '@playwright/test';
import { describe, expectXmlMediaType, sameId, userOf, xmlOf } from '../support/http.ts';
import { rule } from '../support/rule.ts';
import { expectSameUser, givenUser, unknownId } from '../support/users.ts';

rule('USR-GET-01', async (ctx) => {
  const user = await givenUser(ctx);
  const reply = await ctx.api.get(`/UserService/users/${user.id}`);
  expect(reply.status, describe(reply)).toBeGreaterThanOrEqual(200);
  expect(reply.status, describe(reply)).toBeLessThan(300);
  expectXmlMediaType(reply);
  const doc = xmlOf(reply);
  expect(doc.root.name, `root element: ${describe(reply)}`).toBe('user');
  const read = userOf(doc.root);
  expect(read && sameId(read.id, user.id), `id of the answered user: ${describe(reply)}`).toBe(true);
  expectSameUser(read, user, 'GET by id');
});

rule('USR-GET-02', async (ctx) => {
  const id = unknownId(ctx);
  const reply = await ctx.api.get(`/UserService/users/${id}`);
  expect(reply.status, `no server error: ${describe(reply)}`).toBeLessThan(500);
  expect(await ctx.api.readUser(id), `a user is served for the unknown id ${id}`).toBeUndefined();
});

rule('USR-GET-03', async (ctx) => {
  const id = unknownId(ctx);
  const reply = await ctx.api.get(`/UserService/users/${id}`);
  let root = 'no XML body';
  try {
    root = `<${xmlOf(reply).root.name}>`;
  } catch {}
  ctx.observe(`GET of an unknown id: ${reply.status}, ${reply.headers['content-type'] ?? 'no Content-Type'}, ${reply.body.length ? root : 'empty body'}`);
});
