/**
 * The one hash tag of the service's Redis keys: every key carries it, so all of the service's data
 * lives in one slot of a Redis Cluster and every transaction and script stays valid there.
 */
export const HASH_TAG = '{usersvc}';

/** A key of the service: the hash tag, then the parts, joined by `:`. */
export const serviceKey = (...parts: string[]): string => [HASH_TAG, ...parts].join(':');
