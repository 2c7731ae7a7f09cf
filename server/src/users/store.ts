import type { Redis } from 'ioredis';
import type { ContentionObserver } from '../metrics/service-metrics.ts';
import { CONFLICT, DEFAULT_RETRY_POLICY, retryOnConflict } from '../redis/conflict-retry.ts';
import { KeyedCombiner } from '../redis/keyed-queue.ts';
import type { ConnectionPool } from '../redis/pool.ts';
import type { Replication } from '../redis/replication.ts';
import { DEFAULT_USER, type User } from './model.ts';

/**
 * All Redis commands for users. Keys share the `{usersvc}` hash tag so transactions stay valid on
 * Redis Cluster:
 * - `{usersvc}:users`        hash: canonical decimal id → JSON `{"name","profession"}`
 * - `{usersvc}:initialised`  marker: the collection exists (the default user was created once)
 * - `{usersvc}:guard:<id>`   touched by every update and delete of <id>; updates WATCH it, so an
 *                            update racing a delete of the same user retries instead of resurrecting it,
 *                            while writes to other users never conflict. Expires after a minute.
 */
export const USER_KEYS = {
  users: '{usersvc}:users',
  initialised: '{usersvc}:initialised',
  guard: (id: number) => `{usersvc}:guard:${id}`,
};

const GUARD_TTL_MS = 60_000;

/** Creates the collection with its default user, atomically with the marker, only if it never existed. */
const INITIALISE_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX') then
  redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
end
return 1`;

/**
 * Removes the user and touches its guard (aborting racing updates) in one step; a delete of an id
 * that does not exist changes nothing at all, not even the guard.
 */
const DELETE_SCRIPT = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if removed == 1 then
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return removed`;

interface StoredUser {
  name: string;
  profession: string;
}

function encode(user: User): string {
  const stored: StoredUser = { name: user.name, profession: user.profession };
  return JSON.stringify(stored);
}

function decode(id: string, value: string): User {
  const stored = JSON.parse(value) as StoredUser;
  return { id: Number(id), name: stored.name, profession: stored.profession };
}

export class UserStore {
  /** Set once this process has seen the collection exist; reset on reconnect (Redis may be new). */
  private initialised = false;

  /** Changes go through `replication.writer` and are acknowledged only once replicated (see Replication). */
  constructor(
    private readonly redis: Redis,
    private readonly transactions: ConnectionPool,
    private readonly replication: Replication,
    /** Told of update conflicts and give-ups (metrics). */
    private readonly contention?: ContentionObserver,
  ) {
    const reset = () => {
      this.initialised = false;
    };
    redis.on('ready', reset);
    if (replication.writer !== redis) replication.writer.on('ready', reset);
  }

  /**
   * Decoded users of the last list, by id, with the stored value they were decoded from. A user whose
   * stored value is unchanged is handed out again as the same frozen object (no JSON.parse, and the
   * renderer reuses its element); entries of users gone from the hash are dropped at the next list,
   * so the map holds the users of the last list only and does not grow with requests. Every list
   * still reads the whole hash from Redis, so changes made by any server instance (or anyone else)
   * are seen at once.
   */
  private readonly listed = new Map<string, { value: string; user: User; seen: number }>();
  private listings = 0;

  /** All users, ascending by id. */
  async listUsers(): Promise<User[]> {
    if (!this.initialised) await this.initialise();
    const all = await this.redis.hgetall(USER_KEYS.users);
    const seen = ++this.listings;
    const ids = Object.keys(all);
    const users = new Array<User>(ids.length);
    let ascending = true;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as string;
      const value = all[id] as string;
      let entry = this.listed.get(id);
      if (entry === undefined || entry.value !== value) {
        entry = { value, user: Object.freeze(decode(id, value)), seen };
        this.listed.set(id, entry);
      } else {
        entry.seen = seen;
      }
      users[i] = entry.user;
      if (i > 0 && (users[i - 1] as User).id > entry.user.id) ascending = false;
    }
    // Every listed id is in the map: more entries means some users are gone.
    if (this.listed.size !== ids.length) {
      for (const [id, entry] of this.listed) if (entry.seen !== seen) this.listed.delete(id);
    }
    // Non-negative integer keys come back from the object in ascending order already.
    return ascending ? users : users.sort((a, b) => a.id - b.id);
  }

  async getUser(id: number): Promise<User | undefined> {
    if (!this.initialised) await this.initialise();
    const value = await this.redis.hget(USER_KEYS.users, String(id));
    return value === null ? undefined : decode(String(id), value);
  }

  /** Adds the user unless one with its id exists; HSETNX makes concurrent creates of one id yield one winner. */
  async createUser(user: User): Promise<boolean> {
    if (!this.initialised) await this.initialise();
    const created =
      (await this.replication.writer.hsetnx(USER_KEYS.users, String(user.id), encode(user))) === 1;
    if (created) await this.replication.acknowledge();
    return created;
  }

  /**
   * Updates of one id in this process are combined (docs/concurrency.md): while one runs, those that
   * arrive wait together, and the next transaction writes the last of them; each caller gets its outcome.
   */
  private readonly updates = new KeyedCombiner<number, User, boolean>((_id, users) =>
    retryOnConflict(
      () => this.replaceIfExists(users[users.length - 1] as User),
      'user',
      DEFAULT_RETRY_POLICY,
      this.contention,
    ),
  );

  /** Replaces the user wholesale if it exists; false when it does not. */
  async updateUser(user: User): Promise<boolean> {
    if (!this.initialised) await this.initialise();
    return this.updates.submit(user.id, user);
  }

  /**
   * The update's one transaction (check-and-replace): WATCH the guard, HEXISTS, then MULTI HSET, INCR
   * guard, EXEC. CONFLICT when a write of the same user by another process (or a delete) came between.
   */
  private replaceIfExists(user: User): Promise<boolean | typeof CONFLICT> {
    const id = String(user.id);
    const guard = USER_KEYS.guard(user.id);
    return this.transactions.withConnection(async (conn) => {
      await conn.watch(guard);
      if (!(await conn.hexists(USER_KEYS.users, id))) {
        await conn.unwatch();
        return false;
      }
      const result = await conn
        .multi()
        .hset(USER_KEYS.users, id, encode(user))
        .incr(guard)
        .pexpire(guard, GUARD_TTL_MS)
        .exec();
      if (result === null) return CONFLICT;
      await this.replication.acknowledge(conn);
      return true;
    });
  }

  /** Removes the user if it exists; touching the guard in the same transaction aborts racing updates. */
  async deleteUser(id: number): Promise<boolean> {
    if (!this.initialised) await this.initialise();
    const removed = await this.replication.writer.eval(
      DELETE_SCRIPT,
      2,
      USER_KEYS.users,
      USER_KEYS.guard(id),
      String(id),
      GUARD_TTL_MS,
    );
    if (removed === 1) await this.replication.acknowledge();
    return removed === 1;
  }

  /**
   * Creates the collection with its default user unless it exists. Every call checks `initialised`
   * first, so once the collection is known to exist no request pays for an extra await.
   */
  private async initialise(): Promise<void> {
    // On the writer: the change that follows is acknowledged with it (a read does not wait for replicas).
    await this.replication.writer.eval(
      INITIALISE_SCRIPT,
      2,
      USER_KEYS.initialised,
      USER_KEYS.users,
      String(DEFAULT_USER.id),
      encode(DEFAULT_USER),
    );
    this.initialised = true;
  }
}
