import type { Redis } from 'ioredis';
import type { Request, Response, Server } from 'restify';
import { ServiceUnavailableError } from '../errors.ts';
import { sendJson } from '../http/send.ts';

/** `/healthz`: the process answers. `/readyz`: it can also reach Redis. */
export function registerHealthRoutes(server: Server, redis: Redis): void {
  server.get('/healthz', async (_req: Request, res: Response) => sendJson(res, 200, { status: 'ok' }));
  server.get('/readyz', async (_req: Request, res: Response) => {
    try {
      await redis.ping();
    } catch {
      throw new ServiceUnavailableError('Redis is not reachable');
    }
    sendJson(res, 200, { status: 'ready' });
  });
}
