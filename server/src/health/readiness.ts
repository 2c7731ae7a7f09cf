import type { Redis } from 'ioredis';
import { DEFAULTS } from '../defaults.ts';
import { HttpError } from '../errors.ts';
import type { RedisConnections } from '../redis/connections.ts';
import { writeRefusal } from '../redis/errors.ts';
import { serviceKey } from '../redis/keys.ts';

/**
 * A script that writes nothing but is declared as one that may write (Redis 7 shebang, no `no-writes`
 * flag): Redis refuses it exactly when it would refuse a change (OOM at maxmemory, MISCONF after a
 * failed save, READONLY on a replica, NOREPLICAS) and holds it during `CLIENT PAUSE WRITE`, and it
 * leaves the data as it was. The key routes it to the master of the service's slot on a Cluster.
 */
const WRITE_PROBE = '#!lua\nreturn 1';
const PROBE_KEY = serviceKey('readyz');

/**
 * Longest a probe may take: a stalled Redis fails the check instead of holding /readyz. The pool's wait
 * limit: when an update would be answered 503 for want of a connection, so is /readyz.
 */
const PROBE_TIMEOUT_MS = DEFAULTS.readinessProbeTimeoutMs;

/**
 * What /readyz reports: whether the service can serve reads AND changes right now. Three probes, in
 * parallel, each bounded in time: a PING on the shared connection (reads), the write probe on the
 * changes' connection (creates, deletes, /apps changes) and the write probe on a transaction connection
 * from the pool (updates), which also fails when the pool cannot hand out a connection in time.
 * Concurrent calls share one round of probes.
 */
export class Readiness {
  private round: Promise<string | undefined> | undefined;

  constructor(
    private readonly connections: Pick<RedisConnections, 'reads' | 'changes' | 'transactions'>,
    private readonly timeoutMs = PROBE_TIMEOUT_MS,
  ) {}

  /** undefined when ready; otherwise why not, for the 503 body. */
  check(): Promise<string | undefined> {
    this.round ??= this.probe().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  private async probe(): Promise<string | undefined> {
    const writeProbe = (conn: Redis) => conn.eval(WRITE_PROBE, 1, PROBE_KEY);
    const reasons = await Promise.all([
      this.bounded('reads', () => this.connections.reads.ping()),
      this.bounded('changes', () => writeProbe(this.connections.changes)),
      this.bounded('updates', () => this.connections.transactions.withConnection(writeProbe, this.timeoutMs)),
    ]);
    const failed = reasons.filter((reason) => reason !== undefined);
    return failed.length === 0 ? undefined : failed.join('; ');
  }

  private async bounded(what: string, probe: () => Promise<unknown>): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), this.timeoutMs);
    });
    try {
      await Promise.race([probe(), timeout]);
      return undefined;
    } catch (err) {
      // Redis 6 cannot compile the shebang: that says nothing about refused writes.
      if (err instanceof Error && /Error compiling script|unexpected symbol/i.test(err.message))
        return undefined;
      const refusal = writeRefusal(err);
      if (refusal) return `${what} refused: ${refusal}`;
      if (err instanceof HttpError) return `${what}: ${err.message}`;
      const timedOut = err instanceof Error && err.message === 'timed out';
      return `${what}: Redis ${timedOut ? `did not answer within ${this.timeoutMs} ms` : 'is not reachable'}`;
    } finally {
      clearTimeout(timer);
    }
  }
}
