// SPEC.md A, endpoint 6 and rule 6: OPTIONS /UserService/users.
import { expect } from '@playwright/test';
import { decodeBody, expectXmlMediaType, OPERATIONS_BYTES, show, xmlOf } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { elements } from '../support/xml.ts';

test(
  ...rule('USR-OPT-01', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    expect(reply.status, show(reply)).toBeGreaterThanOrEqual(200);
    expect(reply.status, show(reply)).toBeLessThan(300);
    expectXmlMediaType(reply);
    expect(xmlOf(reply).root.name, `root element: ${show(reply)}`).toBe('operations');
  }),
);

test(
  ...rule('USR-OPT-02', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    const { root } = xmlOf(reply);
    expect(root.name, show(reply)).toBe('operations');
    expect(elements(root).length, `child elements in <operations>: ${show(reply)}`).toBe(0);
    const text = root.children.join('').trim();
    expect(text, show(reply)).toBe('GET, PUT, POST, DELETE');
    // The original wrote the element as a plain string and its clients compare it: the bytes, exactly.
    expect(decodeBody(reply), `the body must be exactly ${OPERATIONS_BYTES}: ${show(reply)}`).toBe(
      OPERATIONS_BYTES,
    );
  }),
);

test(
  ...rule('USR-OPT-03', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    ctx.observe(`OPTIONS: ${reply.status}, Allow: ${reply.headers.allow ?? '(none)'}`);
  }),
);
