import { HASH_TAG, serviceKey } from '../redis/keys.ts';

/**
 * Redis keys of the JSON resources. Every key carries the `{usersvc}` hash tag, so the Lua scripts
 * that touch an app's hashes and the removal stream together stay valid on Redis Cluster.
 * An app id is 1-100 characters of `[A-Za-z0-9._-]` (no `:`), so keys cannot collide.
 * - `{usersvc}:app:<app_id>:domains`    hash: domain id → JSON `{"hostname","created_at","updated_at"}`
 * - `{usersvc}:app:<app_id>:hostnames`  hash: lower-case hostname → domain id (uniqueness per app)
 * - `{usersvc}:app:<app_id>:workers`    hash: worker id → JSON `{"command","size","state","created_at","updated_at"}`
 * - `{usersvc}:worker-removals`         stream of removal jobs `app`, `worker`, `due` (ms since epoch),
 *                                       read by the consumer group `worker-removers`
 */
export const APP_KEYS = {
  // Built on every request of an app: templates, not serviceKey's array.
  domains: (appId: string) => `${HASH_TAG}:app:${appId}:domains`,
  hostnames: (appId: string) => `${HASH_TAG}:app:${appId}:hostnames`,
  workers: (appId: string) => `${HASH_TAG}:app:${appId}:workers`,
  removals: serviceKey('worker-removals'),
};

export const REMOVAL_GROUP = 'worker-removers';
