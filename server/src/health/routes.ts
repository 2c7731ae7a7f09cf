import type { Request, Response } from 'restify';
import { ServiceUnavailableError } from '../errors.ts';
import type { ResourceGroup } from '../http/groups.ts';
import { sendJson } from '../http/send.ts';
import { answer, jsonOf, ref } from '../openapi/describe.ts';
import type { Readiness } from './readiness.ts';

/**
 * `/healthz`: the process answers (liveness). `/readyz`: it can serve reads and changes now (see
 * Readiness); 503 with the reason otherwise, as an XML error like every path outside /apps.
 */
export function healthRoutes(readiness: Readiness): ResourceGroup {
  const live = async (_req: Request, res: Response) => sendJson(res, 200, { status: 'ok' });
  const ready = async (_req: Request, res: Response) => {
    const notReady = await readiness.check();
    if (notReady) throw new ServiceUnavailableError(`not ready: ${notReady}`);
    sendJson(res, 200, { status: 'ready' });
  };
  return {
    prefix: '',
    representation: 'xml',
    routes(group) {
      const health = ref('Health');
      group.read('/healthz', live, {
        operationId: 'liveness',
        summary: 'The process answers',
        open: true,
        answers: { 200: answer('Alive.', jsonOf(health)) },
      });
      group.read('/readyz', ready, {
        operationId: 'readiness',
        summary: 'The process answers and reaches Redis',
        open: true,
        answers: { 200: answer('Ready.', jsonOf(health)) },
      });
    },
  };
}
