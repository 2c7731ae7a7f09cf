import type { Redis } from 'ioredis';
import { CONFLICT, DEFAULT_RETRY_POLICY, retryOnConflict } from '../../concurrency/conflict-retry.ts';
import { KeyedQueue } from '../../concurrency/keyed-queue.ts';
import { ConflictError } from '../../errors.ts';
import type { ContentionObserver } from '../../metrics/service-metrics.ts';
import type { RedisConnections } from '../../redis/connections.ts';
import type { Replication } from '../../redis/replication.ts';
import { APP_KEYS, REMOVAL_GROUP } from '../keys.ts';
import { newId, timestamp } from '../params.ts';
import type { Worker, WorkerSize } from './model.ts';

type StoredWorker = Omit<Worker, 'id'>;

/** A removal job as it sits in the stream. */
export interface RemovalJob {
  /** The stream entry id. */
  jobId: string;
  appId: string;
  workerId: string;
  /** When the grace period ends, in ms since the epoch. */
  due: number;
}

/** Replaces the worker if it is still exactly as read. KEYS workers; ARGV id, expected json, new json. */
const REPLACE_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'missing' end
if current ~= ARGV[2] then return 'stale' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'`;

/**
 * The up → stopping transition and its removal job, in one step: the job is added only by the call
 * that changes the worker it read (compare-and-set), so a repeated DELETE never enqueues twice.
 * XADD comes first: if it fails (out of memory), the script stops before the worker is marked, so a
 * worker is never left stopping without a job.
 * KEYS workers, removal stream; ARGV id, expected json, new json, app id, due.
 */
const STOP_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'missing' end
if current ~= ARGV[2] then return 'stale' end
redis.call('XADD', KEYS[2], '*', 'app', ARGV[4], 'worker', ARGV[1], 'due', ARGV[5])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'`;

/**
 * Carries out a removal job: deletes the worker if it is (still) stopping, acknowledges the job and
 * drops it from the stream, all at once. Deleting is idempotent and the reply says whether this call
 * removed the worker, so a job handed to two consumers takes effect, and is counted, once.
 * KEYS workers, removal stream; ARGV worker id, group, job id.
 */
const COMPLETE_SCRIPT = `
local removed = 0
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and cjson.decode(current).state == 'stopping' then removed = redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('XACK', KEYS[2], ARGV[2], ARGV[3])
redis.call('XDEL', KEYS[2], ARGV[3])
return removed`;

function encode(worker: Worker): string {
  const stored: StoredWorker = {
    command: worker.command,
    size: worker.size,
    state: worker.state,
    created_at: worker.created_at,
    updated_at: worker.updated_at,
  };
  return JSON.stringify(stored);
}

function decode(id: string, value: string): Worker {
  const stored = JSON.parse(value) as StoredWorker;
  return { id, ...stored };
}

export type StopOutcome = 'missing' | 'already_stopping' | 'stopping';

/** All Redis commands for workers and their removal (keys in `../keys.ts`). */
export class WorkerStore {
  /** Changes of one worker in this process take turns, so they never conflict with each other. */
  private readonly turns = new KeyedQueue<string>();

  private readonly reads: Redis;
  private readonly changes: Redis;

  /** Changes go through the changes' connection and are acknowledged only once replicated (see Replication). */
  constructor(
    connections: Pick<RedisConnections, 'reads' | 'changes'>,
    private readonly replication: Replication,
    /** How long a stopping worker stays before its removal job deletes it. */
    private readonly stopGraceMs: number,
    /** Told of update conflicts and give-ups (metrics). */
    private readonly contention?: ContentionObserver,
  ) {
    this.reads = connections.reads;
    this.changes = connections.changes;
  }

  /** The app's workers, oldest first (ties broken by id). */
  async list(appId: string): Promise<Worker[]> {
    const all = await this.reads.hgetall(APP_KEYS.workers(appId));
    return Object.entries(all)
      .map(([id, value]) => decode(id, value))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async get(appId: string, id: string): Promise<Worker | undefined> {
    const value = await this.reads.hget(APP_KEYS.workers(appId), id);
    return value === null ? undefined : decode(id, value);
  }

  async create(appId: string, command: string, size: WorkerSize): Promise<Worker> {
    const now = timestamp();
    const worker: Worker = { id: newId(), command, size, state: 'up', created_at: now, updated_at: now };
    await this.changes.hset(APP_KEYS.workers(appId), worker.id, encode(worker));
    await this.replication.acknowledge(this.changes);
    return worker;
  }

  /** Changes the size; undefined when the worker does not exist, 409 while it is stopping. */
  async resize(appId: string, id: string, size: WorkerSize): Promise<Worker | undefined> {
    return this.turns.run(`${appId}/${id}`, () =>
      retryOnConflict(
        () => this.resizeIfUnchanged(appId, id, size),
        'worker',
        DEFAULT_RETRY_POLICY,
        this.contention,
      ),
    );
  }

  /**
   * Marks the worker stopping and enqueues its removal after the grace period. Only the up → stopping
   * transition enqueues; a worker already stopping is left as it is.
   */
  async requestStop(appId: string, id: string): Promise<StopOutcome> {
    return this.turns.run(`${appId}/${id}`, () =>
      retryOnConflict(() => this.stopIfUnchanged(appId, id), 'worker', DEFAULT_RETRY_POLICY, this.contention),
    );
  }

  /** Reads the worker and replaces it if it is still as read; CONFLICT when it changed in between. */
  private async resizeIfUnchanged(
    appId: string,
    id: string,
    size: WorkerSize,
  ): Promise<Worker | undefined | typeof CONFLICT> {
    const key = APP_KEYS.workers(appId);
    const expected = await this.reads.hget(key, id);
    if (expected === null) return undefined;
    const current = decode(id, expected);
    if (current.state === 'stopping')
      throw new ConflictError('the worker is stopping and can no longer be changed');
    const next: Worker = { ...current, size, updated_at: timestamp(current.updated_at) };
    const outcome = await this.changes.eval(REPLACE_SCRIPT, 1, key, id, expected, encode(next));
    if (outcome === 'ok') {
      await this.replication.acknowledge(this.changes);
      return next;
    }
    if (outcome === 'missing') return undefined;
    return CONFLICT;
  }

  /** Reads the worker and marks it stopping (with its job) if it is still as read; CONFLICT otherwise. */
  private async stopIfUnchanged(appId: string, id: string): Promise<StopOutcome | typeof CONFLICT> {
    const key = APP_KEYS.workers(appId);
    const expected = await this.reads.hget(key, id);
    if (expected === null) return 'missing';
    const current = decode(id, expected);
    if (current.state === 'stopping') return 'already_stopping';
    const next: Worker = { ...current, state: 'stopping', updated_at: timestamp(current.updated_at) };
    const due = String(Date.now() + this.stopGraceMs);
    const outcome = await this.changes.eval(
      STOP_SCRIPT,
      2,
      key,
      APP_KEYS.removals,
      id,
      expected,
      encode(next),
      appId,
      due,
    );
    if (outcome === 'ok') {
      await this.replication.acknowledge(this.changes);
      return 'stopping';
    }
    if (outcome === 'missing') return 'missing';
    return CONFLICT;
  }

  /**
   * Carries out a removal job (see COMPLETE_SCRIPT); true when this call removed the worker. Not waited
   * for replicas: nobody is answered, and a job lost in a failover comes back and is carried out again.
   */
  async completeRemoval(job: RemovalJob): Promise<boolean> {
    const removed = await this.changes.eval(
      COMPLETE_SCRIPT,
      2,
      APP_KEYS.workers(job.appId),
      APP_KEYS.removals,
      job.workerId,
      REMOVAL_GROUP,
      job.jobId,
    );
    return removed === 1;
  }
}
