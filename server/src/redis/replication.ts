import type { Redis } from 'ioredis';
import { OutcomeUnknownError } from '../errors.ts';
import { isCluster, serviceSlotConnection } from './connect.ts';

const NOT_REPLICATED =
  'the change was saved on the Redis master but not confirmed by its replicas in time; it may be lost if the master fails: read the resource before retrying';

/**
 * Acknowledged means replicated: after a change, `WAIT replicas timeout` on the connection that carried
 * it confirms that the configured number of replicas have every write that connection sent so far.
 * When fewer confirm in time, or WAIT itself fails, the change is answered 504 outcome_unknown.
 *
 * WAIT counts the replicas that reached this client's last write, so it must go over the same
 * connection, right after the write's reply (the stores call it at once, in the same event-loop turn,
 * so ioredis cannot have reconnected elsewhere in between). Concurrent writes on the changes'
 * connection (a turn's commands in one write, see createSharedClient) end up with their WAITs queued
 * together, and all but the first return at once.
 * On a Cluster, a lone WAIT (no key) would go to any node: it is sent to the connection of the master
 * owning the service's slot, the one the write went through.
 *
 * The stores send their changes through the changes' connection (redis/connections.ts), apart from
 * reads, because a waiting WAIT holds up every command queued behind it on its connection.
 */
export class Replication {
  constructor(
    readonly replicas: number,
    readonly timeoutMs: number,
    /** Told when WAIT confirms too few replicas or fails (metrics). */
    private readonly onTimeout?: () => void,
  ) {}

  /** Confirms that the writes sent so far on `conn` reached the replicas. */
  async acknowledge(conn: Redis): Promise<void> {
    if (this.replicas === 0) return;
    let reached: number;
    try {
      const target = isCluster(conn) ? serviceSlotConnection(conn) : conn;
      if (!target) throw new Error('the master of the service slot is not known');
      reached = await target.wait(this.replicas, this.timeoutMs);
    } catch {
      this.onTimeout?.();
      throw new OutcomeUnknownError();
    }
    if (reached < this.replicas) {
      this.onTimeout?.();
      throw new OutcomeUnknownError(NOT_REPLICATED);
    }
  }
}
