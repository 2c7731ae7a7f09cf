import type { Request, Response } from 'restify';
import type { ResourceGroup } from '../http/groups.ts';
import { JSON_CONTENT_TYPE, sendBody } from '../http/send.ts';
import { answer, jsonOf } from './describe.ts';

/** `/openapi.json`: the description of the mounted groups, rendered once, when first asked for. */
export function openApiRoutes(describe: () => object): ResourceGroup {
  let text: string | undefined;
  const description = async (_req: Request, res: Response) => {
    text ??= JSON.stringify(describe());
    sendBody(res, 200, JSON_CONTENT_TYPE, text);
  };
  return {
    prefix: '',
    representation: 'xml',
    routes: (group) =>
      group.read('/openapi.json', description, {
        operationId: 'openapi',
        summary: 'This description',
        answers: { 200: answer('OpenAPI 3.1.', jsonOf({ type: 'object', required: ['openapi', 'paths'] })) },
      }),
  };
}
