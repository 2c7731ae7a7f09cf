import type { Redis } from 'ioredis';
import { CONFLICT, DEFAULT_RETRY_POLICY, retryOnConflict } from '../../concurrency/conflict-retry.ts';
import { KeyedQueue } from '../../concurrency/keyed-queue.ts';
import { ConflictError } from '../../errors.ts';
import type { ContentionObserver } from '../../metrics/service-metrics.ts';
import type { RedisConnections } from '../../redis/connections.ts';
import type { Replication } from '../../redis/replication.ts';
import { LuaScript } from '../../redis/script.ts';
import { APP_KEYS } from '../keys.ts';
import { newId, timestamp } from '../params.ts';
import type { Domain } from './model.ts';

interface StoredDomain {
  hostname: string;
  created_at: string;
  updated_at: string;
}

/** Adds the domain unless its hostname is taken in the app: KEYS domains, hostnames; ARGV id, hostname, json. */
const CREATE_SCRIPT = new LuaScript(`
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`);

/**
 * Replaces the domain if it is still exactly as read (compare-and-set), moving its hostname claim.
 * KEYS domains, hostnames; ARGV id, expected json, new json, old hostname, new hostname.
 */
const UPDATE_SCRIPT = new LuaScript(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'missing' end
if current ~= ARGV[2] then return 'stale' end
if ARGV[4] ~= ARGV[5] then
  if redis.call('HSETNX', KEYS[2], ARGV[5], ARGV[1]) == 0 then return 'conflict' end
  if redis.call('HGET', KEYS[2], ARGV[4]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[4]) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'`);

/** Removes the domain and frees its hostname; returns the stored JSON as it was, or nil. KEYS domains, hostnames; ARGV id. */
const DELETE_SCRIPT = new LuaScript(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
local hostname = cjson.decode(current).hostname
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], hostname) == ARGV[1] then redis.call('HDEL', KEYS[2], hostname) end
return current`);

function encode(domain: Domain): string {
  const stored: StoredDomain = {
    hostname: domain.hostname,
    created_at: domain.created_at,
    updated_at: domain.updated_at,
  };
  return JSON.stringify(stored);
}

function decode(id: string, value: string): Domain {
  const stored = JSON.parse(value) as StoredDomain;
  return { id, hostname: stored.hostname, created_at: stored.created_at, updated_at: stored.updated_at };
}

function hostnameTaken(hostname: string): ConflictError {
  return new ConflictError(`the hostname ${hostname} is already used by another domain of this app`);
}

/** All Redis commands for domains (keys in `../keys.ts`). Hostnames are unique per app, atomically. */
export class DomainStore {
  /** Changes of one domain in this process take turns, so they never conflict with each other. */
  private readonly turns = new KeyedQueue<string>();

  private readonly reads: Redis;
  private readonly changes: Redis;

  /** Changes go through the changes' connection and are acknowledged only once replicated (see Replication). */
  constructor(
    connections: Pick<RedisConnections, 'reads' | 'changes'>,
    private readonly replication: Replication,
    /** Told of update conflicts and give-ups (metrics). */
    private readonly contention?: ContentionObserver,
  ) {
    this.reads = connections.reads;
    this.changes = connections.changes;
  }

  /** The app's domains, oldest first (ties broken by id). */
  async list(appId: string): Promise<Domain[]> {
    const all = await this.reads.hgetall(APP_KEYS.domains(appId));
    return Object.entries(all)
      .map(([id, value]) => decode(id, value))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async get(appId: string, id: string): Promise<Domain | undefined> {
    const value = await this.reads.hget(APP_KEYS.domains(appId), id);
    return value === null ? undefined : decode(id, value);
  }

  /** Creates a domain; 409 when the (lower-case) hostname is already used in the app. */
  async create(appId: string, hostname: string): Promise<Domain> {
    const now = timestamp();
    const domain: Domain = { id: newId(), hostname, created_at: now, updated_at: now };
    const keys = [APP_KEYS.domains(appId), APP_KEYS.hostnames(appId)];
    const added = await CREATE_SCRIPT.run(this.changes, 2, ...keys, domain.id, hostname, encode(domain));
    if (added !== 1) throw hostnameTaken(hostname);
    await this.replication.acknowledge(this.changes);
    return domain;
  }

  /** Sets the hostname and advances updated_at; undefined when the domain does not exist. */
  async update(appId: string, id: string, hostname: string): Promise<Domain | undefined> {
    return this.turns.run(`${appId}/${id}`, () =>
      retryOnConflict(
        () => this.updateIfUnchanged(appId, id, hostname),
        'domain',
        DEFAULT_RETRY_POLICY,
        this.contention,
      ),
    );
  }

  /** Reads the domain and replaces it if it is still as read; CONFLICT when it changed in between. */
  private async updateIfUnchanged(
    appId: string,
    id: string,
    hostname: string,
  ): Promise<Domain | undefined | typeof CONFLICT> {
    const expected = await this.reads.hget(APP_KEYS.domains(appId), id);
    if (expected === null) return undefined;
    const current = decode(id, expected);
    const next: Domain = { ...current, hostname, updated_at: timestamp(current.updated_at) };
    const outcome = await UPDATE_SCRIPT.run(
      this.changes,
      2,
      APP_KEYS.domains(appId),
      APP_KEYS.hostnames(appId),
      id,
      expected,
      encode(next),
      current.hostname,
      hostname,
    );
    if (outcome === 'ok') {
      await this.replication.acknowledge(this.changes);
      return next;
    }
    if (outcome === 'missing') return undefined;
    if (outcome === 'conflict') throw hostnameTaken(hostname);
    return CONFLICT; // 'stale': changed since it was read
  }

  /** Removes the domain; returns it as it was just before, or undefined when it did not exist. */
  async remove(appId: string, id: string): Promise<Domain | undefined> {
    const removed = await DELETE_SCRIPT.run(
      this.changes,
      2,
      APP_KEYS.domains(appId),
      APP_KEYS.hostnames(appId),
      id,
    );
    if (typeof removed !== 'string') return undefined;
    await this.replication.acknowledge(this.changes);
    return decode(id, removed);
  }
}
