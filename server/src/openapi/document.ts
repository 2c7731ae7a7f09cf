import { maxHeaderSize } from 'node:http';
import { HOSTNAME_MAX } from '../apps/domains/model.ts';
import { COMMAND_MAX, DEFAULT_WORKER_SIZE, WORKER_SIZES } from '../apps/workers/model.ts';
import { DEFAULTS, kib } from '../defaults.ts';
import { ERRORS, type ErrorCode, type ErrorEntry, type Representation } from '../errors.ts';
import type { DescribedRoute, Method } from '../http/groups.ts';
import { USER_ID_MAX, USER_ID_MIN, USER_TEXT_MAX } from '../users/model.ts';
import { answer, JSON_TYPE, type Json, ref, XML } from './describe.ts';

/**
 * The OpenAPI 3.1 description of both APIs, served at /openapi.json, built from the routes of the
 * mounted groups (each route declares its description where it is registered: http/groups.ts,
 * openapi/describe.ts) and the error catalogue (server/src/errors.ts: the status of each error). The
 * schemas are written in code so that the limits (text lengths, id range, sizes, body limit) are the
 * very constants the validation uses. The server's tests check every answer they receive against this
 * document (server/test/support/openapi-check.ts).
 *
 * Two things OpenAPI cannot say per operation are said once, as extensions the tests also check:
 * `x-undescribed-method` (any other method on a described path: 405 with Allow) and
 * `x-undescribed-path` (any other path: 404), both with the error body of the path's format.
 */

const SCHEMAS: Json = {
  User: {
    type: 'object',
    xml: { name: 'user' },
    required: ['id', 'name', 'profession'],
    additionalProperties: false,
    properties: {
      id: ref('UserId'),
      name: ref('UserText'),
      profession: ref('UserText'),
    },
  },
  Users: {
    type: 'object',
    xml: { name: 'users' },
    description: 'Every user, in ascending numeric id order; `<users/>` when there is none.',
    additionalProperties: false,
    properties: {
      user: { type: 'array', items: ref('User'), xml: { name: 'user' } },
    },
  },
  Result: {
    type: 'string',
    enum: ['success', 'failure'],
    xml: { name: 'result' },
    description:
      "Exactly `<result>success</result>` or `<result>failure</result>`: no XML declaration, no white space (the original service's clients compare the string). With FAILURE_STATUS=original every failure result is answered with status 200.",
  },
  Operations: {
    type: 'string',
    const: 'GET, PUT, POST, DELETE',
    xml: { name: 'operations' },
    description:
      'Exactly `<operations>GET, PUT, POST, DELETE</operations>`: no XML declaration, no white space.',
  },
  XmlError: {
    type: 'object',
    xml: { name: 'error' },
    required: ['code', 'message'],
    additionalProperties: false,
    properties: {
      code: {
        type: 'string',
        description: 'Stable machine-readable code, e.g. `invalid_id`, `missing_field`.',
      },
      message: { type: 'string' },
    },
  },
  UserId: {
    type: 'integer',
    minimum: USER_ID_MIN,
    maximum: USER_ID_MAX,
    description:
      'A signed 32-bit decimal integer; leading zeros allowed (`007` is 7); no sign `+`, no fraction.',
  },
  UserText: {
    type: 'string',
    minLength: 1,
    maxLength: USER_TEXT_MAX,
    description: `Not blank, at most ${USER_TEXT_MAX} characters (code points), only characters XML 1.0 can carry. Stored as sent.`,
  },
  UserForm: {
    type: 'object',
    required: ['id', 'name', 'profession'],
    additionalProperties: false,
    description: 'Exactly these fields, once each (missing, duplicated or unknown: 400).',
    properties: { id: ref('UserId'), name: ref('UserText'), profession: ref('UserText') },
  },
  UserPathForm: {
    type: 'object',
    required: ['name', 'profession'],
    additionalProperties: false,
    description:
      'The id comes from the path; when the form gives one it must be the same (else 400 `id_mismatch`).',
    properties: { id: ref('UserId'), name: ref('UserText'), profession: ref('UserText') },
  },
  Timestamp: {
    type: 'string',
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
    description: 'ISO 8601 UTC with milliseconds.',
  },
  ResourceId: {
    type: 'string',
    pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    description: 'A lower-case UUID v4 (matched case-insensitively in paths).',
  },
  Hostname: {
    type: 'string',
    minLength: 1,
    maxLength: HOSTNAME_MAX,
    description:
      'An RFC 1123 host name (dot-separated labels of 1-63 letters, digits, hyphens); stored lower-case.',
  },
  Domain: {
    type: 'object',
    required: ['id', 'hostname', 'created_at', 'updated_at'],
    additionalProperties: false,
    properties: {
      id: ref('ResourceId'),
      hostname: ref('Hostname'),
      created_at: ref('Timestamp'),
      updated_at: ref('Timestamp'),
    },
  },
  DomainChange: {
    type: 'object',
    required: ['hostname'],
    additionalProperties: false,
    properties: { hostname: ref('Hostname') },
  },
  WorkerSize: { type: 'string', enum: [...WORKER_SIZES] },
  Command: {
    type: 'string',
    minLength: 1,
    maxLength: COMMAND_MAX,
    description: `Not blank, at most ${COMMAND_MAX} characters, no control characters other than tab.`,
  },
  Worker: {
    type: 'object',
    required: ['id', 'command', 'size', 'state', 'created_at', 'updated_at'],
    additionalProperties: false,
    properties: {
      id: ref('ResourceId'),
      command: ref('Command'),
      size: ref('WorkerSize'),
      state: {
        type: 'string',
        enum: ['up', 'stopping'],
        description: '`stopping` from an accepted DELETE until the removal job deletes it.',
      },
      created_at: ref('Timestamp'),
      updated_at: ref('Timestamp'),
    },
  },
  NewWorker: {
    type: 'object',
    required: ['command'],
    additionalProperties: false,
    properties: { command: ref('Command'), size: { ...ref('WorkerSize'), default: DEFAULT_WORKER_SIZE } },
  },
  WorkerResize: {
    type: 'object',
    required: ['size'],
    additionalProperties: false,
    properties: { size: ref('WorkerSize') },
  },
  Accepted: {
    type: 'object',
    additionalProperties: false,
    maxProperties: 0,
    description: 'The change is accepted; the resource is not returned.',
  },
  JsonError: {
    type: 'object',
    required: ['id', 'message'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        description: 'Stable machine-readable code, e.g. `not_found`, `invalid_params`.',
      },
      message: { type: 'string' },
      field: { type: 'string', description: 'Only on 422: the offending field.' },
    },
  },
  Health: {
    type: 'object',
    required: ['status'],
    additionalProperties: false,
    properties: { status: { type: 'string', enum: ['ok', 'ready'] } },
  },
};

const HEADERS: Json = {
  RequestId: {
    description: "The request's own `Request-Id` when it is 1-128 visible ASCII characters, else a new UUID.",
    required: true,
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$' },
  },
  Allow: {
    description: 'The methods the path supports.',
    required: true,
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds after which a retry may succeed.',
    required: true,
    schema: { type: 'string', const: '1' },
  },
  Location: { description: 'The path of the created resource.', required: true, schema: { type: 'string' } },
  WwwAuthenticate: { required: true, schema: { type: 'string', const: 'Bearer' } },
};

type Format = Representation;
const errorContent = (format: Format) =>
  format === 'xml' ? { [XML]: { schema: ref('XmlError') } } : { [JSON_TYPE]: { schema: ref('JsonError') } };

/** The headers of the catalogue that this description documents (Connection: close is not an API header). */
const DOCUMENTED_HEADERS: Readonly<Record<string, string>> = {
  'WWW-Authenticate': 'WwwAuthenticate',
  'Retry-After': 'RetryAfter',
};

/** An error answer: the catalogue gives its status and headers, the route (or the lists below) what it means. */
function errorAnswer(code: ErrorCode, description: string, format: Format): [string, Json] {
  const entry: ErrorEntry = ERRORS[code];
  const headers: Json = {};
  for (const name of Object.keys(entry.headers ?? {})) {
    const component = DOCUMENTED_HEADERS[name];
    if (component) headers[name] = ref(component, 'headers');
  }
  return [String(entry.status), answer(description, errorContent(format), headers)];
}

/** Errors any request can get: Node's parser refusing it, a token missing (not on open routes), Redis away, a bug. */
const COMMON_ERRORS: Partial<Record<ErrorCode, string>> = {
  bad_request: 'The request is not valid HTTP, or its parameters or body are invalid.',
  unauthorized: 'API_TOKEN is set and the bearer token is missing or wrong.',
  host_not_allowed:
    'The Host names a host ALLOWED_HOSTS does not list (`host_not_allowed`), or, with no API_TOKEN, a change came from another origin (`cross_origin`).',
  request_timeout: 'The request was not received in time.',
  expectation_failed: 'The request sent an Expect value other than 100-continue.',
  header_too_large: `The request line and headers are larger than ${kib(maxHeaderSize)}.`,
  internal_error: 'Internal error (a bug; logged).',
  service_unavailable:
    'Redis is unreachable or refuses changes (out of memory, read-only, failed save), no transaction connection was free in time, or the record was changed concurrently for too long; nothing changed, safe to retry.',
};

/** Errors of a change with a body (413, 415) and of every change (504). */
function changeErrors(mediaType: string | undefined): Partial<Record<ErrorCode, string>> {
  return {
    ...(mediaType
      ? {
          payload_too_large: `The body is larger than ${DEFAULTS.bodyLimitBytes} bytes (the connection is closed).`,
          unsupported_media_type: `The body is not ${mediaType} (a charset, if given, must be UTF-8).`,
        }
      : {}),
    outcome_unknown:
      'The change reached Redis but was not confirmed (no reply, or not replicated in time): it may or may not be applied; read before retrying.',
  };
}

const CHANGES = new Set<Method>(['PUT', 'POST', 'PATCH', 'DELETE']);

/** The OpenAPI operation of one route: its answers, its own errors, then the common and the change errors. */
function operation(route: DescribedRoute): Json {
  const { doc } = route;
  const mediaType = Object.keys((doc.requestBody?.content as Json | undefined) ?? {})[0];
  const errors = {
    ...doc.errors,
    ...COMMON_ERRORS,
    ...(CHANGES.has(route.method) ? changeErrors(mediaType) : {}),
  };
  if (doc.open) delete errors.unauthorized;
  const responses: Json = {};
  for (const [status, response] of Object.entries(doc.answers)) responses[status] = response;
  for (const [code, description] of Object.entries(errors) as Array<[ErrorCode, string]>) {
    const [status, response] = errorAnswer(code, description, route.representation);
    responses[status] ??= response; // a route's own error first: e.g. its 404 over none
  }
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.open ? { security: [{}] } : {}),
    ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
    responses,
  };
}

/** HEAD answers GET's status and headers without a body. */
function headOf(get: Json): Json {
  const responses: Json = {};
  for (const [status, response] of Object.entries(get.responses as Json)) {
    const { content: _dropped, ...rest } = response as Json;
    responses[status] = { ...rest, description: `${(response as Json).description} (no body)` };
  }
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary} (headers only)`,
    responses,
  };
}

/** The paths object: one entry per route path, its parameters from the group, one operation per method. */
function pathsOf(routes: readonly DescribedRoute[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    if (!paths[path]) {
      const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => name as string);
      const parameters = names.map((name) => {
        const parameter = route.parameters[name];
        if (!parameter) throw new Error(`${route.path}: the parameter ${name} is not described`);
        return parameter;
      });
      paths[path] = parameters.length > 0 ? { parameters } : {};
    }
    const item = paths[path] as Json;
    const method = route.method.toLowerCase();
    item[method] = method === 'head' ? headOf(operation(route)) : operation(route);
  }
  return paths;
}

/** A restify route path in OpenAPI's form: `/apps/:app_id/domains` → `/apps/{app_id}/domains`. */
export function openApiPath(restifyPath: string): string {
  return restifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The description of the service whose groups have these routes (http/groups.ts `describeGroups`). */
export function buildOpenApiDocument(routes: readonly DescribedRoute[]): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'User Service',
      version: '1.0.0',
      description:
        "The XML user service (docs/SPEC.md) and the JSON resources under /apps. Every answer carries `Request-Id` and `X-Content-Type-Options: nosniff`. A method a path does not list answers 405 with `Allow` (x-undescribed-method); a path not listed answers 404 (x-undescribed-path); both carry the error body of the path's format (JSON under /apps, XML elsewhere).",
    },
    servers: [{ url: '/' }],
    security: [{}, { bearer: [] }],
    paths: pathsOf(routes),
    components: {
      schemas: SCHEMAS,
      headers: HEADERS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Optional: only when the server runs with API_TOKEN. Then every request except OPTIONS, /healthz and /readyz (and /metrics with METRICS_PUBLIC=1) needs it.',
        },
      },
      responses: {
        MethodNotAllowed: answer(
          'The path does not support the method; Allow lists those it does.',
          { ...errorContent('xml'), ...errorContent('json') },
          { Allow: ref('Allow', 'headers') },
        ),
        UnknownPath: answer('No such path.', { ...errorContent('xml'), ...errorContent('json') }),
      },
    },
    'x-undescribed-method': ref('MethodNotAllowed', 'responses'),
    'x-undescribed-path': ref('UnknownPath', 'responses'),
  };
}
