// Sound HTTP practice the spec implies (SHOULD: a failure is a warning, the run still passes).
import { expect } from '@playwright/test';
import { disagreement, incompleteUser } from '../model/index.ts';
import { childText, type XmlElement } from '../model/xml.ts';
import { expectOn, randomText, show } from '../support/http.ts';
import { modelOf } from '../support/judged.ts';
import { rule, test } from '../support/rule.ts';
import { givenUser, isolated, newUser, ownId, readListing, unknownId } from '../support/users.ts';

/** A user element as listed, whatever fields it lacks. */
type Listed = { id?: string; name?: string; profession?: string };
const fieldsOf = (e: XmlElement): Listed => ({
  id: childText(e, 'id'),
  name: childText(e, 'name'),
  profession: childText(e, 'profession'),
});
const showFields = (u: Listed) =>
  `a user (${[`id ${u.id ?? 'missing'}`, `name ${u.name ?? 'missing'}`, `profession ${u.profession ?? 'missing'}`].join(', ')})`;

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
    expectOn(reply, reply.status).toBe(404);
  }),
);

test(
  ...rule('HTTP-04', async (ctx) => {
    // Invalid input: on an instance of its own where one can be started, so that whatever it leaves
    // cannot reach other rules; on a shared target, removing what it created is part of the rule.
    // Each invalid form is judged on its own (a 5xx, or a user stored from it), so that a service
    // that gets two of them wrong is reported with two defects, not the first one only.
    const { api, fresh } = await isolated(ctx);
    const user = newUser('invalid');
    const marker = randomText('invalid');
    const forms: Array<{
      what: string;
      form: Record<string, string | number>;
      stored: (u: Listed) => boolean;
    }> = [
      {
        what: 'PUT without profession',
        form: { id: user.id, name: user.name },
        stored: (u) => u.id === String(user.id),
      },
      {
        what: 'PUT without id',
        form: { name: `${marker}-no-id`, profession: marker },
        stored: (u) => u.name === `${marker}-no-id`,
      },
      {
        what: 'PUT with a non-integer id',
        form: { id: `x${user.id}`, name: `${marker}-not-int`, profession: marker },
        stored: (u) => u.name === `${marker}-not-int`,
      },
    ];
    const model = modelOf(api.log);
    for (const { what, form, stored } of forms) {
      const reply = await api.form('PUT', '/UserService/users', form);
      if (reply.status >= 500)
        model.add(
          [
            disagreement(
              what,
              'status',
              '5xx',
              `${what} answered ${show(reply)}: invalid input is not a server error`,
              'SHOULD',
            ),
          ],
          reply,
        );
      const listing = await readListing(api);
      const found = [...listing.users, ...listing.broken.map(fieldsOf)].filter(stored);
      if (!fresh) for (const u of found) if (u.id !== undefined) ownId(ctx, u.id, api);
      // A user stored without an element breaks a MUST (RES-USER-1): named as the explorer names it
      // (one defect, whichever of the two meets it), rather than as a SHOULD.
      const incomplete = found
        .map((u) => incompleteUser(`${what} answered ${reply.status}`, { ...u, id: u.id ?? '(none)' }))
        .find((d) => d !== undefined);
      if (found.length)
        model.add(
          [
            incomplete ||
              disagreement(
                what,
                'state-change',
                'stored',
                `${what} answered ${reply.status} and stored it: the list then holds ${found.map(showFields).join(', ')}; invalid input should change nothing`,
                'SHOULD',
              ),
          ],
          listing.reply,
        );
    }
  }),
);
