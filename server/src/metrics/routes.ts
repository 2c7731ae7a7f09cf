import type { Request, Response } from 'restify';
import { ServiceUnavailableError } from '../errors.ts';
import type { ResourceGroup } from '../http/groups.ts';
import { sendBody } from '../http/send.ts';
import { answer } from '../openapi/describe.ts';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** `/metrics`: the Prometheus text format; `scrape` gives this process's or the whole cluster's. */
export function metricsRoutes(scrape: () => Promise<string>): ResourceGroup {
  const metrics = async (_req: Request, res: Response) => {
    let text: string;
    try {
      text = await scrape();
    } catch {
      throw new ServiceUnavailableError('the metrics could not be collected; try again shortly');
    }
    sendBody(res, 200, METRICS_CONTENT_TYPE, text);
  };
  return {
    prefix: '',
    representation: 'xml',
    routes: (group) =>
      group.read('/metrics', metrics, {
        operationId: 'metrics',
        summary: 'Prometheus metrics, summed over every process of the server',
        description:
          'Needs the bearer token when API_TOKEN is set, unless METRICS_PUBLIC=1. Absent (404) with METRICS=0. The names are listed in docs/operations.md.',
        answers: {
          200: answer('The Prometheus text format (0.0.4).', {
            'text/plain': { schema: { type: 'string' } },
          }),
        },
        errors: { not_found: 'The server runs with METRICS=0.' },
      }),
  };
}
