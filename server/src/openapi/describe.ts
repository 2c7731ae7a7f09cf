import type { ErrorCode } from '../errors.ts';
import { FORM_TYPE } from '../http/form.ts';

/**
 * What a route says about itself for the OpenAPI description, given where it is declared
 * (http/groups.ts): `/openapi.json` is built from the mounted groups' routes (document.ts). The
 * errors every route can answer (a malformed request, a missing token, Redis away…) and those of every
 * change (413, 415, 504) are added by the document; a route names only its own, by catalogue code.
 */
export type Json = Record<string, unknown>;

export interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Answered without the bearer token even when API_TOKEN is set (health checks, OPTIONS): no 401. */
  open?: boolean;
  requestBody?: Json;
  /** The answers that are not errors, by status (`answer()`). */
  answers: Record<number, Json>;
  /** This route's own errors by catalogue code (the status is the catalogue's): what each means here. */
  errors?: Partial<Record<ErrorCode, string>>;
}

/** A description that names the path's `Allow` value (OPTIONS): given once every route is mounted. */
export type RouteDescription = RouteDoc | ((path: { allow: string }) => RouteDoc);

export const XML = 'application/xml';
export const JSON_TYPE = 'application/json';

export const ref = (name: string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });
export const xmlOf = (schema: string) => ({ [XML]: { schema: ref(schema) } });
export const jsonOf = (schema: Json) => ({ [JSON_TYPE]: { schema } });

/** One answer: its description, its content by media type, its headers (Request-Id always). */
export function answer(description: string, content?: Json, headers: Json = {}): Json {
  return {
    description,
    headers: { 'Request-Id': ref('RequestId', 'headers'), ...headers },
    ...(content ? { content } : {}),
  };
}

/** A path parameter (`:name` in the route's path), described once by its group. */
export function pathParameter(name: string, schema: Json, description?: string): Json {
  return { name, in: 'path', required: true, ...(description ? { description } : {}), schema };
}

export function formBody(schema: string): Json {
  return {
    required: true,
    content: {
      [FORM_TYPE]: {
        schema: ref(schema),
        encoding: { name: { contentType: 'text/plain; charset=utf-8' } },
      },
    },
  };
}

export const jsonBody = (schema: string): Json => ({ required: true, content: jsonOf(ref(schema)) });
