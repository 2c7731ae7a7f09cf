import type { Request, Response, Server } from 'restify';
import { routeRead } from '../http/routes.ts';
import { JSON_CONTENT_TYPE, sendBody } from '../http/send.ts';
import { buildOpenApiDocument } from './document.ts';

/** `/openapi.json`: the description, rendered once. */
export function registerOpenApiRoute(server: Server): void {
  const text = JSON.stringify(buildOpenApiDocument());
  routeRead(server, '/openapi.json', async (_req: Request, res: Response) =>
    sendBody(res, 200, JSON_CONTENT_TYPE, text),
  );
}

/** A restify route path in OpenAPI's form: `/apps/:app_id/domains` → `/apps/{app_id}/domains`. */
export function openApiPath(restifyPath: string): string {
  return restifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
