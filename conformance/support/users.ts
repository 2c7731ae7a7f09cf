/** Shared steps of the section A rules. */
import { expect } from '@playwright/test';
import { type Api, type Reply, randomId, randomText, resultOf, show, type User } from './http.ts';
import type { RuleContext } from './rule.ts';

export type NewUser = {
  id: number;
  name: string;
  profession: string;
};

export function newUser(prefix = 'conf'): NewUser {
  return { id: randomId(), name: randomText(`${prefix}-name`), profession: randomText(`${prefix}-prof`) };
}

/** Creates a user for a rule that is about something else; deleted after the rule. */
export async function givenUser(
  ctx: RuleContext,
  api: Api = ctx.api,
  user: NewUser = newUser(),
): Promise<NewUser> {
  ctx.cleanup(() => api.del(user.id));
  const reply = await api.put(user);
  let outcome: string;
  try {
    outcome = resultOf(reply);
  } catch (err) {
    throw new Error(`could not create a user for this rule: ${(err as Error).message}`);
  }
  if (outcome !== 'success') throw new Error(`could not create a user for this rule: ${show(reply)}`);
  return user;
}

/** An id nobody has, with the cleanup in case the implementation creates it anyway. */
export function unknownId(ctx: RuleContext, api: Api = ctx.api): number {
  const id = randomId();
  ctx.cleanup(() => api.del(id));
  return id;
}

export function expectOutcome(reply: Reply, outcome: 'success' | 'failure'): void {
  expect(resultOf(reply), show(reply)).toBe(outcome);
}

export function expectSameUser(actual: User | undefined, expected: NewUser, what: string): void {
  expect(actual, `${what}: user ${expected.id} is not served`).toBeDefined();
  expect({ name: actual?.name, profession: actual?.profession }, what).toEqual({
    name: expected.name,
    profession: expected.profession,
  });
}

/** Reads the user back through GET by id and through the list. */
export async function expectStored(api: Api, user: NewUser, what: string): Promise<void> {
  expectSameUser(await api.readUser(user.id), user, `${what} (GET by id)`);
  const listed = await api.usersWithId(user.id);
  expect(listed.length, `${what}: times user ${user.id} appears in the list`).toBe(1);
  expectSameUser(listed[0], user, `${what} (list)`);
}

export async function expectAbsent(api: Api, id: number, what: string): Promise<void> {
  expect(await api.readUser(id), `${what}: GET by id still serves user ${id}`).toBeUndefined();
  expect((await api.usersWithId(id)).length, `${what}: user ${id} is still in the list`).toBe(0);
}
