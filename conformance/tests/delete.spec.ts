// SPEC.md A, endpoint 5 and rule 5: DELETE /UserService/users/{userid}. Each step is judged through
// the model (support/judged.ts): the answer, and the state read back afterwards.
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import { expectAbsent, expectStored, givenUser, unknownId } from '../support/users.ts';

test(
  ...rule('USR-DEL-01', async (ctx) => {
    const user = await givenUser(ctx);
    await step(ctx.api, { kind: 'delete', id: user.id });
  }),
);

test(
  ...rule('USR-DEL-02', async (ctx) => {
    const gone = await givenUser(ctx);
    const kept = await givenUser(ctx);
    await step(ctx.api, { kind: 'delete', id: gone.id });
    await expectAbsent(ctx.api, gone.id, 'after DELETE');
    await expectStored(ctx.api, kept, 'another user after the DELETE');
  }),
);

test(
  ...rule('USR-DEL-03', async (ctx) => {
    const id = unknownId(ctx);
    await step(ctx.api, { kind: 'delete', id });
  }),
);

test(
  ...rule('USR-DEL-04', async (ctx) => {
    const kept = await givenUser(ctx);
    const id = unknownId(ctx);
    await step(ctx.api, { kind: 'delete', id });
    await expectStored(ctx.api, kept, 'a user after a DELETE of an unknown id');
    await expectAbsent(ctx.api, id, 'after a DELETE of an unknown id');
  }),
);

test(
  ...rule('USR-DEL-05', async (ctx) => {
    const user = await givenUser(ctx);
    await step(ctx.api, { kind: 'delete', id: user.id });
    await step(ctx.api, { kind: 'delete', id: user.id });
    await expectAbsent(ctx.api, user.id, 'after the same DELETE twice');
  }),
);
