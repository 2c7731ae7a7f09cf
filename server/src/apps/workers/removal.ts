import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DEFAULTS } from '../../defaults.ts';
import { APP_KEYS, REMOVAL_GROUP } from '../keys.ts';
import type { RemovalJob, WorkerStore } from './store.ts';

export interface RemovalRunnerOptions {
  /** The changes' connection, for the short commands that change the stream (XGROUP, XAUTOCLAIM, the job scripts). */
  changes: Redis;
  /**
   * A connection of its own for the blocking XREADGROUP (redis/connections.ts `openBlockingConnection`);
   * `stop` disconnects it, which ends a blocked read at once.
   */
  blocking: Redis;
  store: WorkerStore;
  logger: Logger;
  /** This instance's grace period; the default claim idle time is this plus a margin. */
  stopGraceMs: number;
  /** A pending job idle this long is taken over from its consumer (presumed crashed). */
  claimIdleMs?: number;
  /** How often pending jobs of crashed consumers are looked for. */
  claimIntervalMs?: number;
  /** How long one XREADGROUP blocks. */
  blockMs?: number;
  /** No more jobs are read while this many wait for their due time. */
  maxInFlight?: number;
  /** Unique per runner; generated when not given. */
  consumer?: string;
  /** Consumers of past runs idle this long with nothing pending are removed from the group. */
  forgetConsumersAfterMs?: number;
}

interface Held {
  job: RemovalJob;
  timer: NodeJS.Timeout | undefined;
}

type StreamEntry = [id: string, fields: string[]];

const RETRY_MS = DEFAULTS.removalRetryMs;
/** Idle time given to the jobs handed back on a clean stop: any consumer may take them at once. */
const HANDED_BACK_IDLE_MS = 1e12;
/** Removes the consumer from the group only if no job is pending for it. KEYS stream; ARGV group, consumer. */
const LEAVE_GROUP_SCRIPT = `
if #redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 1, ARGV[2]) > 0 then return 0 end
redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
return 1`;
/**
 * Removes from the group the consumers (other than the caller) that hold nothing and have not read
 * for ARGV[3] ms: past runs that were handed back or crashed. Atomic, so no job is dropped with them.
 * KEYS stream; ARGV group, own consumer, idle ms.
 */
const FORGET_CONSUMERS_SCRIPT = `
local removed = 0
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #consumer, 2 do info[consumer[i]] = consumer[i + 1] end
  if info.name ~= ARGV[2] and info.pending == 0 and info.idle >= tonumber(ARGV[3]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info.name)
    removed = removed + 1
  end
end
return removed`;

/**
 * Carries out worker removals from the Redis Stream `{usersvc}:worker-removals` as a member of the
 * consumer group `worker-removers`:
 * - a dedicated connection blocks on XREADGROUP for new jobs; each job waits for its due time (the end
 *   of the grace period) and is then carried out by one atomic script (delete if stopping, XACK, XDEL);
 * - jobs left pending by a consumer that crashed are taken over with XAUTOCLAIM once idle for
 *   `claimIdleMs` (longer than a live consumer ever holds one: the grace period plus a margin);
 * - on a clean stop, the jobs this consumer still holds are handed back (made idle at once), so
 *   another instance, or the next start, carries them out without waiting for the claim time.
 * The deletion is idempotent and its count comes from the same script, so a job that two consumers
 * both end up holding still takes effect once.
 */
export class RemovalRunner {
  readonly consumer: string;
  /** Workers this runner removed (each counted once across all instances). */
  removed = 0;
  /**
   * Jobs this runner carried out that found the worker already removed: by another consumer, or by
   * this runner's own earlier attempt whose reply was lost (a time-out), which is then retried.
   */
  alreadyDone = 0;

  private readonly changes: Redis;
  private readonly blocking: Redis;
  private readonly store: WorkerStore;
  private readonly logger: Logger;
  private readonly claimIdleMs: number;
  private readonly claimIntervalMs: number;
  private readonly blockMs: number;
  private readonly maxInFlight: number;
  private readonly forgetConsumersAfterMs: number;

  private readonly held = new Map<string, Held>();
  private readonly running = new Set<Promise<void>>();
  private readonly wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];
  private groupReady = false;
  /** Consecutive failures: only the first of a series is logged as a warning. */
  private failures = 0;
  private stopping = false;
  private stopped: Promise<void> | undefined;

  constructor(options: RemovalRunnerOptions) {
    this.changes = options.changes;
    this.blocking = options.blocking;
    this.store = options.store;
    this.logger = options.logger;
    this.claimIdleMs = options.claimIdleMs ?? options.stopGraceMs + DEFAULTS.removalClaimMarginMs;
    this.claimIntervalMs = options.claimIntervalMs ?? DEFAULTS.removalClaimIntervalMs;
    this.blockMs = options.blockMs ?? DEFAULTS.removalBlockMs;
    this.maxInFlight = options.maxInFlight ?? DEFAULTS.removalMaxInFlight;
    this.forgetConsumersAfterMs = options.forgetConsumersAfterMs ?? DEFAULTS.removalForgetConsumersAfterMs;
    this.consumer = options.consumer ?? `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  }

  /** Jobs this runner holds now (waiting for their due time or being carried out). */
  get holding(): number {
    return this.held.size;
  }

  /**
   * The consumer group's backlog (XINFO GROUPS): jobs delivered and not yet done (those waiting for
   * their grace period included), and jobs not yet delivered (`lag`; null when Redis cannot say).
   * Zeros while the group does not exist yet.
   */
  async backlog(): Promise<{ pending: number; lag: number | null }> {
    let groups: unknown[][];
    try {
      groups = (await this.changes.xinfo('GROUPS', APP_KEYS.removals)) as unknown[][];
    } catch (err) {
      if (err instanceof Error && err.message.includes('no such key')) return { pending: 0, lag: 0 };
      throw err;
    }
    for (const group of groups) {
      const fields = new Map<unknown, unknown>();
      for (let i = 0; i + 1 < group.length; i += 2) fields.set(group[i], group[i + 1]);
      if (fields.get('name') !== REMOVAL_GROUP) continue;
      const lag = fields.get('lag');
      return { pending: Number(fields.get('pending') ?? 0), lag: typeof lag === 'number' ? lag : null };
    }
    return { pending: 0, lag: 0 };
  }

  start(): void {
    if (this.loops.length > 0 || this.stopping) return;
    this.loops = [this.readLoop(), this.claimLoop()];
    this.logger.info(
      { consumer: this.consumer, claimIdleMs: this.claimIdleMs },
      'worker removal runner started',
    );
  }

  /** Stops reading, lets running jobs finish, hands back the jobs still waiting; then closes its connection. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      for (const wake of this.wakers) wake();
      this.blocking.disconnect(); // ends a blocked XREADGROUP at once
      await Promise.all(this.loops);
      for (const entry of this.held.values()) clearTimeout(entry.timer);
      await Promise.all(this.running);
      if (this.loops.length > 0) await this.handBack();
      this.held.clear();
      this.logger.info({ consumer: this.consumer, removed: this.removed }, 'worker removal runner stopped');
    })();
    return this.stopped;
  }

  private async readLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        if (this.blocking.status !== 'ready') {
          await this.sleep(100);
          continue;
        }
        if (this.held.size >= this.maxInFlight) {
          await this.sleep(50);
          continue;
        }
        await this.ensureGroup();
        const reply = (await this.blocking.xreadgroup(
          'GROUP',
          REMOVAL_GROUP,
          this.consumer,
          'COUNT',
          this.maxInFlight - this.held.size,
          'BLOCK',
          this.blockMs,
          'STREAMS',
          APP_KEYS.removals,
          '>',
        )) as Array<[string, StreamEntry[]]> | null;
        for (const [, entries] of reply ?? []) for (const entry of entries) this.accept(entry);
        this.failures = 0;
      } catch (err) {
        if (this.stopping) break;
        this.onError(err, 'reading removal jobs failed');
        await this.sleep(RETRY_MS);
      }
    }
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.ensureGroup();
        await this.claimIdleJobs();
        this.failures = 0;
        await this.changes.eval(
          FORGET_CONSUMERS_SCRIPT,
          1,
          APP_KEYS.removals,
          REMOVAL_GROUP,
          this.consumer,
          this.forgetConsumersAfterMs,
        );
      } catch (err) {
        if (!this.stopping) this.onError(err, 'claiming idle removal jobs failed');
      }
      await this.sleep(this.claimIntervalMs);
    }
  }

  /** Takes over the jobs that another (crashed or stopped) consumer left pending long enough. */
  private async claimIdleJobs(): Promise<void> {
    let cursor = '0-0';
    for (let page = 0; page < 10 && !this.stopping; page++) {
      const [next, entries] = (await this.changes.xautoclaim(
        APP_KEYS.removals,
        REMOVAL_GROUP,
        this.consumer,
        this.claimIdleMs,
        cursor,
        'COUNT',
        100,
      )) as [string, Array<StreamEntry | null>];
      for (const entry of entries) if (entry) this.accept(entry, true);
      cursor = next;
      if (cursor === '0-0') break;
    }
  }

  private async ensureGroup(): Promise<void> {
    if (this.groupReady) return;
    try {
      // From the start of the stream: jobs added before the group existed are carried out too.
      await this.changes.xgroup('CREATE', APP_KEYS.removals, REMOVAL_GROUP, '0', 'MKSTREAM');
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('BUSYGROUP'))) throw err;
    }
    this.groupReady = true;
  }

  /** Schedules a job read or claimed by this consumer for its due time. */
  private accept([jobId, fields]: StreamEntry, claimed = false): void {
    if (this.stopping || this.held.has(jobId)) return;
    const values = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) values.set(String(fields[i]), String(fields[i + 1]));
    const appId = values.get('app');
    const workerId = values.get('worker');
    const due = Number(values.get('due'));
    if (!appId || !workerId || !Number.isFinite(due)) {
      this.logger.warn({ jobId }, 'dropping a malformed worker removal job');
      this.changes
        .multi()
        .xack(APP_KEYS.removals, REMOVAL_GROUP, jobId)
        .xdel(APP_KEYS.removals, jobId)
        .exec()
        .catch(() => {});
      return;
    }
    if (claimed)
      this.logger.info(
        { jobId, appId, workerId, consumer: this.consumer },
        'took over a pending worker removal',
      );
    const entry: Held = { job: { jobId, appId, workerId, due }, timer: undefined };
    this.held.set(jobId, entry);
    this.schedule(entry, due - Date.now());
  }

  private schedule(entry: Held, delayMs: number): void {
    entry.timer = setTimeout(() => this.execute(entry), Math.max(0, delayMs));
  }

  private execute(entry: Held): void {
    entry.timer = undefined;
    if (this.stopping) return;
    // The due time is in Date.now() terms, and a Node timer can fire up to 1 ms before Date.now() has
    // advanced by its delay (libuv counts whole milliseconds of another clock: nodejs/node#26578): a job
    // whose timer fired early waits out the rest, so it is never carried out before its grace period ends.
    const early = entry.job.due - Date.now();
    if (early > 0) {
      this.schedule(entry, early);
      return;
    }
    const run = (async () => {
      const { job } = entry;
      try {
        const removed = await this.store.completeRemoval(job);
        this.held.delete(job.jobId);
        if (removed) {
          this.removed++;
          this.logger.info(
            { jobId: job.jobId, appId: job.appId, workerId: job.workerId, consumer: this.consumer },
            'worker removed',
          );
        } else {
          this.alreadyDone++;
          this.logger.debug(
            { jobId: job.jobId, consumer: this.consumer },
            'worker removal already carried out',
          );
        }
      } catch (err) {
        // Still pending in Redis (handed back on stop), or carried out with its reply lost: nothing is
        // lost either way, but such a removal is counted by no runner.
        if (this.stopping) return;
        this.onError(err, 'a worker removal failed; retrying');
        this.schedule(entry, RETRY_MS);
      }
    })();
    this.running.add(run);
    run.finally(() => this.running.delete(run));
  }

  /** Makes every job still pending for this consumer immediately claimable by another one. */
  private async handBack(): Promise<void> {
    try {
      const pending = (await this.changes.xpending(
        APP_KEYS.removals,
        REMOVAL_GROUP,
        '-',
        '+',
        10_000,
        this.consumer,
      )) as Array<[string, string, number, number]>;
      const ids = pending.map(([id]) => id);
      if (ids.length > 0) {
        await this.changes.xclaim(
          APP_KEYS.removals,
          REMOVAL_GROUP,
          this.consumer,
          0,
          ...ids,
          'IDLE',
          HANDED_BACK_IDLE_MS,
          'JUSTID',
        );
        this.logger.info(
          { consumer: this.consumer, jobs: ids.length },
          'handed back pending worker removals',
        );
      }
      // A consumer with nothing pending leaves the group (checked atomically: deleting a consumer drops its pending jobs).
      await this.changes.eval(LEAVE_GROUP_SCRIPT, 1, APP_KEYS.removals, REMOVAL_GROUP, this.consumer);
    } catch (err) {
      this.onError(err, 'could not hand back pending worker removals; another instance will claim them');
    }
  }

  private onError(err: unknown, message: string): void {
    if (err instanceof Error && err.message.includes('NOGROUP')) this.groupReady = false; // Redis lost the group
    const details = { err: err instanceof Error ? err.message : String(err), consumer: this.consumer };
    if (this.failures++ === 0) this.logger.warn(details, message);
    else this.logger.debug(details, message);
  }

  /** Waits `ms`, or less when the runner stops. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }
}
