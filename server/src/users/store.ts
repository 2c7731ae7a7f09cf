import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { CONFLICT, DEFAULT_RETRY_POLICY, retryOnConflict } from '../concurrency/conflict-retry.ts';
import { KeyedCombiner } from '../concurrency/keyed-queue.ts';
import { DEFAULTS } from '../defaults.ts';
import type { ContentionObserver } from '../metrics/service-metrics.ts';
import { inOneWrite } from '../redis/connect.ts';
import type { RedisConnections } from '../redis/connections.ts';
import type { ConnectionPool } from '../redis/pool.ts';
import type { Replication } from '../redis/replication.ts';
import { LuaScript } from '../redis/script.ts';
import { USER_KEYS } from './keys.ts';
import { DEFAULT_USER, type User } from './model.ts';
import { USER_SCRIPTS } from './scripts.ts';

const GUARD_TTL_MS = 60_000;

const INITIALISE_SCRIPT = new LuaScript(USER_SCRIPTS.initialise);
const CREATE_SCRIPT = new LuaScript(USER_SCRIPTS.create);
const DELETE_SCRIPT = new LuaScript(USER_SCRIPTS.delete);

/**
 * One step of building the index for data written before it existed: HSCAN one cursor step and add
 * the ids it returned, in the same script, so an id is only ever added while its user exists (a delete
 * after this step removes it again). HSCAN returns every field present for the whole scan; users
 * created meanwhile are indexed by their create. One ZADD for the step's ids, not one call per id: Redis
 * is held the shorter. The last step sets the marker, and a version token if there is none yet (data
 * from before the token existed), so that lists can be cached.
 */
const INDEX_STEP_SCRIPT = new LuaScript(`
local step = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local fields = step[2]
local scored = {}
for i = 1, #fields, 2 do
  scored[#scored + 1] = fields[i]
  scored[#scored + 1] = fields[i]
end
if #scored > 0 then
  redis.call('ZADD', KEYS[2], unpack(scored))
end
if step[1] == '0' then
  redis.call('SET', KEYS[3], '1')
  redis.call('SET', KEYS[4], ARGV[3], 'NX')
end
return step[1]`);

const INDEX_STEP = DEFAULTS.indexStep;

/** Users read by id, and the version token read right after them ('' when there is none). */
export interface UserValues {
  users: User[];
  version: string;
}

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

/** All Redis commands for users (the keys, and what each holds: keys.ts). */
export class UserStore {
  /** Set once this process has seen the collection exist; reset on reconnect (Redis may be new). */
  private initialised = false;
  /** The index build of this process, while it runs or once it has finished (reset on reconnect). */
  private indexing: Promise<void> | undefined;
  /** Version tokens written by this process: a random prefix and a counter, unique across instances. */
  private readonly versionPrefix = randomUUID();
  private changeCount = 0;

  private readonly reads: Redis;
  private readonly changes: Redis;
  private readonly transactions: ConnectionPool;

  /** Changes go through the changes' connection and are acknowledged only once replicated (see Replication). */
  constructor(
    connections: Pick<RedisConnections, 'reads' | 'changes' | 'transactions'>,
    private readonly replication: Replication,
    /** Told of update conflicts and give-ups (metrics). */
    private readonly contention?: ContentionObserver,
  ) {
    const reset = () => {
      this.initialised = false;
      this.indexing = undefined;
    };
    this.reads = connections.reads;
    this.changes = connections.changes;
    this.transactions = connections.transactions;
    this.reads.on('ready', reset);
    this.changes.on('ready', reset);
  }

  private nextVersion(): string {
    return `${this.versionPrefix}:${++this.changeCount}`;
  }

  /**
   * Makes the collection and its id index ready for a list: creates the collection if needed, and
   * waits for the index build (see `ensureIndex`) when data from before the index is being indexed.
   */
  async prepareList(): Promise<void> {
    if (!this.initialised) await this.initialise();
    await this.ensureIndex();
  }

  /**
   * Builds the id index for users stored before it existed, in steps of INDEX_STEP users, so that no step
   * holds Redis long (docs/listing.md); requests other than the list never wait for it. Started at start-up
   * (service.ts) and awaited by lists; a failed build is started again by the next list.
   */
  ensureIndex(): Promise<void> {
    this.indexing ??= this.buildIndex().catch((err: unknown) => {
      this.indexing = undefined;
      throw err;
    });
    return this.indexing;
  }

  private async buildIndex(): Promise<void> {
    if ((await this.reads.exists(USER_KEYS.idsComplete)) === 1) return;
    let cursor = '0';
    do {
      // It writes the index: on the changes' connection, so a Redis refusing writes holds up no read.
      cursor = (await INDEX_STEP_SCRIPT.run(
        this.changes,
        4,
        USER_KEYS.users,
        USER_KEYS.ids,
        USER_KEYS.idsComplete,
        USER_KEYS.version,
        cursor,
        INDEX_STEP,
        this.nextVersion(),
      )) as string;
    } while (cursor !== '0');
  }

  /** The version token of the collection ('' when there is none: nothing may be cached then). */
  async listVersion(): Promise<string> {
    return (await this.reads.get(USER_KEYS.version)) ?? '';
  }

  /**
   * Up to `limit` ids above `afterId` (from the lowest when undefined), ascending, from the id index:
   * one ZRANGEBYSCORE … LIMIT, which holds Redis for a time bounded by `limit` at any collection size.
   */
  readIdsAfter(afterId: number | undefined, limit: number): Promise<string[]> {
    const from = afterId === undefined ? '-inf' : `(${afterId}`;
    return this.reads.zrangebyscore(USER_KEYS.ids, from, '+inf', 'LIMIT', 0, limit);
  }

  /**
   * The users of `ids` that still exist (one HMGET), in the order given, and the version token read
   * right after (sent in the same turn, so Redis runs them back to back on the shared connection).
   * Plain commands rather than one script: measured, a script doing both cost Redis twice the time.
   */
  async readUsers(ids: readonly string[]): Promise<UserValues> {
    const [values, version] = await Promise.all([
      ids.length === 0 ? Promise.resolve([]) : this.reads.hmget(USER_KEYS.users, ...ids),
      this.reads.get(USER_KEYS.version),
    ]);
    const users: User[] = [];
    for (let i = 0; i < ids.length; i++) {
      const value = values[i];
      // null: deleted since its id was read (it did not exist for the whole list): left out.
      if (value != null) users.push(decode(ids[i] as string, value));
    }
    return { users, version: version ?? '' };
  }

  async getUser(id: number): Promise<User | undefined> {
    if (!this.initialised) await this.initialise();
    const value = await this.reads.hget(USER_KEYS.users, String(id));
    return value === null ? undefined : decode(String(id), value);
  }

  /** Adds the user unless one with its id exists; HSETNX makes concurrent creates of one id yield one winner. */
  async createUser(user: User): Promise<boolean> {
    if (!this.initialised) await this.initialise();
    const created =
      (await CREATE_SCRIPT.run(
        this.changes,
        3,
        USER_KEYS.users,
        USER_KEYS.ids,
        USER_KEYS.version,
        String(user.id),
        encode(user),
        this.nextVersion(),
      )) === 1;
    if (created) await this.replication.acknowledge(this.changes);
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
   * The update's one transaction (check-and-replace): WATCH the guard and HEXISTS, then MULTI HSET,
   * INCR guard, SET version, EXEC: two round trips. CONFLICT when a write of the same user by another
   * process (or a delete) came between.
   */
  private replaceIfExists(user: User): Promise<boolean | typeof CONFLICT> {
    const id = String(user.id);
    const guard = USER_KEYS.guard(user.id);
    return this.transactions.withConnection(async (conn) => {
      // WATCH and HEXISTS in one write (one round trip): Redis runs them in this order on this connection.
      const [, exists] = await Promise.all(
        inOneWrite(conn, () => [conn.watch(guard), conn.hexists(USER_KEYS.users, id)]),
      );
      if (!exists) {
        await conn.unwatch();
        return false;
      }
      const result = await conn
        .multi()
        .hset(USER_KEYS.users, id, encode(user))
        .incr(guard)
        .pexpire(guard, GUARD_TTL_MS)
        .set(USER_KEYS.version, this.nextVersion())
        .exec();
      if (result === null) return CONFLICT;
      await this.replication.acknowledge(conn);
      return true;
    });
  }

  /** Removes the user if it exists; touching the guard in the same transaction aborts racing updates. */
  async deleteUser(id: number): Promise<boolean> {
    if (!this.initialised) await this.initialise();
    const removed = await DELETE_SCRIPT.run(
      this.changes,
      4,
      USER_KEYS.users,
      USER_KEYS.guard(id),
      USER_KEYS.ids,
      USER_KEYS.version,
      String(id),
      GUARD_TTL_MS,
      this.nextVersion(),
    );
    if (removed === 1) await this.replication.acknowledge(this.changes);
    return removed === 1;
  }

  /**
   * Creates the collection with its default user unless it exists. Every call checks `initialised`
   * first, so once the collection is known to exist no request pays for an extra await.
   */
  private async initialise(): Promise<void> {
    // Usually the collection exists: a read then stays a read (a Redis refusing writes still serves it).
    if ((await this.reads.exists(USER_KEYS.initialised)) === 1) {
      this.initialised = true;
      return;
    }
    // On the writer: the change that follows is acknowledged with it (a read does not wait for replicas).
    await INITIALISE_SCRIPT.run(
      this.changes,
      4,
      USER_KEYS.initialised,
      USER_KEYS.users,
      USER_KEYS.ids,
      USER_KEYS.version,
      String(DEFAULT_USER.id),
      encode(DEFAULT_USER),
      this.nextVersion(),
    );
    this.initialised = true;
  }
}
