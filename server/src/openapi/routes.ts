import type { Request, Response } from 'restify';
import type { ResourceGroup } from '../http/groups.ts';
import { JSON_CONTENT_TYPE, sendBody } from '../http/send.ts';
import { buildOpenApiDocument } from './document.ts';

/** `/openapi.json`: the description, rendered once. */
export function openApiRoutes(): ResourceGroup {
  const text = JSON.stringify(buildOpenApiDocument());
  const description = async (_req: Request, res: Response) => sendBody(res, 200, JSON_CONTENT_TYPE, text);
  return { prefix: '', representation: 'xml', routes: (group) => group.read('/openapi.json', description) };
}

/** A restify route path in OpenAPI's form: `/apps/:app_id/domains` → `/apps/{app_id}/domains`. */
export function openApiPath(restifyPath: string): string {
  return restifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
