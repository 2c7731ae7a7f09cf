/**
 * The Lua of the users' atomic changes, as plain text: the store sends them (by SHA1, users/store.ts)
 * and the benchmark's framework-free baseline sends the same (bench/baseline.ts).
 */
export const USER_SCRIPTS = {
  /** Creates the collection with its default user, atomically with the marker, only if it never existed. */
  initialise: `
if redis.call('SET', KEYS[1], '1', 'NX') then
  if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 1 then
    redis.call('ZADD', KEYS[3], ARGV[1], ARGV[1])
    redis.call('SET', KEYS[4], ARGV[3])
  end
end
return 1`,

  /** HSETNX (of concurrent creates of one id exactly one wins), and the id into the index, in one step. */
  create: `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])
redis.call('SET', KEYS[3], ARGV[3])
return 1`,

  /**
   * Removes the user and its id from the index and touches its guard (aborting racing updates) in one
   * step; a delete of an id that does not exist changes nothing at all, not even the guard.
   */
  delete: `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if removed == 1 then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('SET', KEYS[4], ARGV[3])
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return removed`,
} as const;
