// SPEC.md A, endpoint 6 and rule 6: OPTIONS /UserService/users.
import { expect } from '@playwright/test';
import { describe, expectXmlMediaType, xmlOf } from '../support/http.ts';
import { rule } from '../support/rule.ts';
import { elements } from '../support/xml.ts';

rule('USR-OPT-01', async (ctx) => {
  const reply = await ctx.api.send('OPTIONS', '/UserService/users');
  expect(reply.status, describe(reply)).toBeGreaterThanOrEqual(200);
  expect(reply.status, describe(reply)).toBeLessThan(300);
  expectXmlMediaType(reply);
  expect(xmlOf(reply).root.name, `root element: ${describe(reply)}`).toBe('operations');
});

rule('USR-OPT-02', async (ctx) => {
  const reply = await ctx.api.send('OPTIONS', '/UserService/users');
  const { root } = xmlOf(reply);
  expect(root.name, describe(reply)).toBe('operations');
  expect(elements(root).length, `child elements in <operations>: ${describe(reply)}`).toBe(0);
  const text = root.children.join('').trim();
  expect(text, describe(reply)).toBe('GET, PUT, POST, DELETE');
});

rule('USR-OPT-03', async (ctx) => {
  const reply = await ctx.api.send('OPTIONS', '/UserService/users');
  ctx.observe(`OPTIONS: ${reply.status}, Allow: ${reply.headers.allow ?? '(none)'}`);
});
