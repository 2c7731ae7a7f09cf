// SPEC.md A, endpoint 6 and rule 6: OPTIONS /UserService/users.
import { judgeBytes } from '../model/index.ts';
import { elements } from '../model/xml.ts';
import { expectOn, expectXmlMediaType, xmlOf } from '../support/http.ts';
import { modelOf } from '../support/judged.ts';
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';

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
    // The model judges the list and, the original having written the element as a plain string that its
    // clients compare, the bytes (RES-OPS-1): the signatures the explorer names these defects by.
    const { reply, observed } = await step(ctx.api, { kind: 'options' });
    modelOf(ctx.api.log).add(judgeBytes('OPTIONS', observed), reply);
    const { root } = xmlOf(reply);
    expectOn(reply, root.name).toBe('operations');
    expectOn(reply, elements(root).length, 'child elements in <operations>').toBe(0);
  }),
);

test(
  ...rule('USR-OPT-03', async (ctx) => {
    const reply = await ctx.api.send('OPTIONS', '/UserService/users');
    ctx.observe(`OPTIONS: ${reply.status}, Allow: ${reply.headers.allow ?? '(none)'}`);
  }),
);
