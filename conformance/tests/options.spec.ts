// SPEC.md A, endpoint 6 and rule 6: OPTIONS /UserService/users.
import { decodeBody, expectOn, expectXmlMediaType, OPERATIONS_BYTES, xmlOf } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { elements } from '../support/xml.ts';

test(
  ...rule('USR-OPT-01', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    expectOn(reply, reply.status).toBeGreaterThanOrEqual(200);
    expectOn(reply, reply.status).toBeLessThan(300);
    expectXmlMediaType(reply);
    expectOn(reply, xmlOf(reply).root.name, 'root element').toBe('operations');
  }),
);

test(
  ...rule('USR-OPT-02', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    const { root } = xmlOf(reply);
    expectOn(reply, root.name).toBe('operations');
    expectOn(reply, elements(root).length, 'child elements in <operations>').toBe(0);
    const text = root.children.join('').trim();
    expectOn(reply, text).toBe('GET, PUT, POST, DELETE');
    // The original wrote the element as a plain string and its clients compare it: the bytes, exactly.
    expectOn(reply, decodeBody(reply), `the body must be exactly ${OPERATIONS_BYTES}`).toBe(OPERATIONS_BYTES);
  }),
);

test(
  ...rule('USR-OPT-03', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    ctx.observe(`OPTIONS: ${reply.status}, Allow: ${reply.headers.allow ?? '(none)'}`);
  }),
);
