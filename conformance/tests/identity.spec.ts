// Consequences along the identity axis (docs/coverage.md): an integer id is one user however it is
// written, where the implementation accepts the writing. The suite sends leading zeros and a plus sign:
// the writings integer parsers commonly accept (Java's Integer.parseInt of the original service, and
// JavaScript's Number, among them); a writing the implementation refuses is no finding.
import { expectOn, type Reply, resultOf } from '../support/http.ts';
import { lateAtNextWrite, step, wrongBeyondLabel } from '../support/judged-users.ts';
import { observeUser } from '../support/read-back.ts';
import { rule, test } from '../support/rule.ts';
import {
  expectAbsent,
  expectSameUser,
  expectStored,
  givenUpdatedUser,
  listed,
  type NewUser,
  ownId,
} from '../support/users.ts';

const outcomeOf = (reply: Reply): string => {
  try {
    return resultOf(reply);
  } catch {
    return `no result (${reply.status})`;
  }
};

test(
  ...rule('USR-ID-01', async (ctx) => {
    // Updated alone first: updates that never take effect are that defect, not one of the id's writing.
    const user = await givenUpdatedUser(ctx);
    let current: NewUser = user;
    const writings = [`00${user.id}`, `+${user.id}`];
    for (const [i, written] of writings.entries()) {
      ownId(ctx, written);
      // Through the model, the writing one it lets an implementation refuse: whatever it names of this PUT
      // of an existing id (a second user with the id, an overwrite, the success word) is that defect, the
      // same as for the id as the user has it. A name of its own: a user the PUT added is told apart.
      const put = await step(
        ctx.api,
        { kind: 'put', user: { id: written, name: `${user.name}-put${i}`, profession: user.profession } },
        { features: [`form id: ${written.startsWith('+') ? 'plus' : 'zeros'}`] },
      );
      if (wrongBeyondLabel(put.found)) return;
      const read = await ctx.api.readUser(written);
      if (read) expectSameUser(read, current, `GET /UserService/users/${written} serves user ${user.id}`);
      const update = {
        id: user.id,
        name: `${user.name}-post${i}`,
        profession: `${user.profession}-post${i}`,
      };
      const post = await ctx.api.post({ ...update, id: written });
      if (outcomeOf(post) === 'success') current = update;
      await expectStored(
        ctx.api,
        current,
        `POST with id ${written} answered ${outcomeOf(post)}, so user ${user.id} must be ${current === update ? 'updated' : 'unchanged'}`,
      );
      const found = await listed(ctx.api, user.id);
      expectOn(found.reply, found.users.length + found.broken, `user elements whose id is ${user.id}`).toBe(
        1,
      );
      // The POST above went round the model: the model takes the user as served, so that the next PUT's
      // read-back does not take the POST's change for its own.
      await observeUser(ctx.api, user.id);
    }
    const del = await ctx.api.del(writings[0] as string);
    // Answered success, the user still served: a write sent next tells a removal made late
    // (lateAtNextWrite) from one of the id's writing.
    if (outcomeOf(del) === 'success' && (await ctx.api.readUser(user.id)))
      await lateAtNextWrite(ctx.api, { kind: 'delete', id: user.id }, del);
    if (outcomeOf(del) === 'success') await expectAbsent(ctx.api, user.id, `after DELETE of ${writings[0]}`);
    else await expectStored(ctx.api, current, `DELETE of ${writings[0]} answered ${outcomeOf(del)}`);
  }),
);
