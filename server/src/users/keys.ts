import { HASH_TAG, serviceKey } from '../redis/keys.ts';

/**
 * Redis keys of the users (all the Redis commands on them are in store.ts). Keys share the `{usersvc}`
 * hash tag so transactions and scripts stay valid on Redis Cluster:
 * - `{usersvc}:users`        hash: canonical decimal id → JSON `{"name","profession"}`
 * - `{usersvc}:user-ids`     sorted set: every id of the hash, score = id; the list reads the users in
 *                            id order from it, a chunk at a time (docs/listing.md). Create and delete
 *                            change it in the same script as the hash; an update does not touch it.
 * - `{usersvc}:user-ids:complete`  marker: the sorted set covers the hash (set when the index built at
 *                            start for data written before it existed has finished).
 * - `{usersvc}:users:version` a token that every change of a user replaces (a new unique value), so a
 *                            list document cached by any instance is known to be current with one GET.
 * - `{usersvc}:initialised`  marker: the collection exists (the default user was created once)
 * - `{usersvc}:guard:<id>`   touched by every update and delete of <id>; updates WATCH it, so an
 *                            update racing a delete of the same user retries instead of resurrecting it,
 *                            while writes to other users never conflict. Expires after a minute.
 */
export const USER_KEYS = {
  users: serviceKey('users'),
  ids: serviceKey('user-ids'),
  idsComplete: serviceKey('user-ids', 'complete'),
  version: serviceKey('users', 'version'),
  initialised: serviceKey('initialised'),
  // Built on every update and delete: a template, not serviceKey's array.
  guard: (id: number) => `${HASH_TAG}:guard:${id}`,
};
