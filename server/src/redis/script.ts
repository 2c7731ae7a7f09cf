import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script sent by its SHA1 (EVALSHA). With EVAL, the whole text travels with every call and Redis
 * hashes it again each time; this is what every create and delete pays. A Redis that does not hold
 * the script (restarted, flushed, another node after a failover) answers NOSCRIPT without running
 * anything, and the call is then sent once as EVAL, which also loads it.
 */
export class LuaScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  run(client: Redis, numKeys: number, ...args: Array<string | number>): Promise<unknown> {
    return client.evalsha(this.sha, numKeys, ...args).catch((err: unknown) => {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) {
        return client.eval(this.source, numKeys, ...args);
      }
      throw err;
    });
  }
}
