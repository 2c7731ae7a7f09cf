// SPEC.md A, endpoint 1 and rule 1: GET /UserService/users.
import { expect } from '@playwright/test';
import { expectXmlMediaType, sameId, show } from '../support/http.ts';
import { rule, test } from '../support/rule.ts';
import { expectSameUser, givenUser } from '../support/users.ts';
import { elements } from '../support/xml.ts';

test(
  ...rule('USR-LIST-01', async (ctx) => {
    await givenUser(ctx);
    const { reply, doc, users } = await ctx.api.listUsers();
    expectXmlMediaType(reply);
    expect(doc.root.name, `the list wraps its users in one element: ${show(reply)}`).not.toBe('user');
    const names = elements(doc.root).map((e) => e.name);
    expect(
      names.filter((n) => n !== 'user'),
      `elements of the list other than user: ${show(reply)}`,
    ).toEqual([]);
    expect(users.length, 'users in the list').toBeGreaterThan(0);
    for (const user of users) expect(user.id, `id is an integer: ${show(reply)}`).toMatch(/^\s*[+-]?\d+\s*$/);
  }),
);

test(
  ...rule('USR-LIST-02', async (ctx) => {
    const created = [await givenUser(ctx), await givenUser(ctx), await givenUser(ctx)];
    const { users } = await ctx.api.listUsers();
    for (const user of created) {
      const listed = users.filter((u) => sameId(u.id, user.id));
      expect(listed.length, `times user ${user.id} appears in the list`).toBe(1);
      expectSameUser(listed[0], user, 'listed user');
    }
  }),
);

test(
  ...rule('USR-LIST-03', async (ctx) => {
    await givenUser(ctx);
    const { doc, users } = await ctx.api.listUsers();
    const ids = users.map((u) => Number(u.id));
    const ascending = ids.every((id, i) => i === 0 || (ids[i - 1] as number) <= id);
    ctx.observe(
      `wrapper element <${doc.root.name}>; ${users.length} users; ${ascending ? 'ascending id order' : 'not in ascending id order'}`,
    );
  }),
);
