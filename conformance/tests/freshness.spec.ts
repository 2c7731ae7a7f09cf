// Consequences along the freshness axis (docs/coverage.md): a read right after a change sees it,
// through every read path: HEAD and GET of the list, HEAD and GET by id.
import type { Api } from '../support/http.ts';
import { expectOn } from '../support/http.ts';
import { step } from '../support/judged-users.ts';
import { rule, test } from '../support/rule.ts';
import {
  expectAbsent,
  expectStored,
  isolated,
  type NewUser,
  newUser,
  ownId,
  readListing,
} from '../support/users.ts';

/**
 * The first reads right after a change are HEADs: HEAD by id answers the status GET by id then
 * answers (where it did before the changes: a HEAD by id that never answers as GET, 405 say, is
 * USR-HEAD-03's defect, not a stale read); on an instance of the rule's own, HEAD of the list announces
 * the length of the list GET then answers. (What GET by id and the list answer is checked by
 * expectStored and expectAbsent.)
 */
async function expectHeads(
  api: Api,
  id: number,
  heads: { fresh: boolean; byIdAsGet: boolean },
  what: string,
): Promise<void> {
  const headList = await api.send('HEAD', '/UserService/users');
  const headUser = await api.send('HEAD', `/UserService/users/${id}`);
  const getUser = await api.get(`/UserService/users/${id}`);
  if (heads.byIdAsGet)
    expectOn(getUser, headUser.status, `${what}: HEAD by id vs the GET by id after it`).toBe(getUser.status);
  const { fresh } = heads;
  const { reply } = await readListing(api);
  const announced = headList.headers['content-length'];
  const sent = reply.headers['content-length'] ?? String(reply.body.length);
  if (fresh && announced !== undefined)
    expectOn(reply, announced, `${what}: Content-Length of HEAD of the list vs the GET after it`).toBe(sent);
}

test(
  ...rule('USR-FRESH-01', async (ctx) => {
    const { api, fresh } = await isolated(ctx);
    const user: NewUser = newUser('fresh');
    if (!fresh) ownId(ctx, user.id);
    // Every read path once before the changes, so that a cache has something to serve.
    const getBefore = await step(api, { kind: 'get', id: user.id });
    const headBefore = await api.send('HEAD', `/UserService/users/${user.id}`);
    const heads = { fresh, byIdAsGet: headBefore.status === getBefore.reply.status };
    await step(api, { kind: 'list' });
    await api.send('HEAD', '/UserService/users');

    await step(api, { kind: 'put', user });
    await expectHeads(api, user.id, heads, 'right after PUT');
    await expectStored(api, user, 'right after PUT');

    const update = { ...user, name: `${user.name}-2`, profession: `${user.profession}-2` };
    await step(api, { kind: 'post', user: update });
    await expectHeads(api, user.id, heads, 'right after POST');
    await expectStored(api, update, 'right after POST');

    await step(api, { kind: 'delete', id: user.id });
    await expectHeads(api, user.id, heads, 'right after DELETE');
    await expectAbsent(api, user.id, 'right after DELETE');
  }),
);
