// SPEC.md A, endpoint 4 and rule 4: POST /UserService/users updates. Each step is judged through the
// model (support/judged.ts): the answer, and the state read back afterwards.
import { step, wrongBeyondLabel } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import { expectAbsent, expectStored, givenUser, newUser, unknownId } from '../support/users.ts';

test(
  ...rule('USR-POST-01', async (ctx) => {
    const user = await givenUser(ctx);
    await step(ctx.api, { kind: 'post', user: { ...user, name: `${user.name}-new` } });
  }),
);

test(
  ...rule('USR-POST-02', async (ctx) => {
    const user = await givenUser(ctx);
    const replacement = { id: user.id, name: newUser().name, profession: newUser().profession };
    await step(ctx.api, { kind: 'post', user: replacement });
    await expectStored(ctx.api, replacement, 'after POST (both name and profession replaced)');
    // Replacing again with one field back to its old value: nothing is merged from either version.
    const again = { id: user.id, name: user.name, profession: newUser().profession };
    await step(ctx.api, { kind: 'post', user: again });
    await expectStored(ctx.api, again, 'after a second POST');
  }),
);

test(
  ...rule('USR-POST-03', async (ctx) => {
    const id = unknownId(ctx);
    await step(ctx.api, { kind: 'post', user: { ...newUser(), id } });
  }),
);

test(
  ...rule('USR-POST-04', async (ctx) => {
    const id = unknownId(ctx);
    await step(ctx.api, { kind: 'post', user: { ...newUser(), id } });
    await expectAbsent(ctx.api, id, 'after POST of an unknown id');
  }),
);

test(
  ...rule('USR-POST-05', async (ctx) => {
    const user = await givenUser(ctx);
    // An update to other values first: a POST that does not update at all (or does what PUT does) is
    // that defect, named by it, not a defect of updates to the same values.
    const updated = { ...user, name: `${user.name}-upd` };
    const update = await step(ctx.api, { kind: 'post', user: updated });
    if (wrongBeyondLabel(update.found)) return;
    // The values it has now: an answer that counts the users changed (as SQL's rows) says failure.
    await step(ctx.api, { kind: 'post', user: { ...updated } });
    await expectStored(ctx.api, updated, 'after POST of the values it already has');
  }),
);
