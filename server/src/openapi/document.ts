import { HOSTNAME_MAX } from '../apps/domains/model.ts';
import { COMMAND_MAX, DEFAULT_WORKER_SIZE, WORKER_SIZES } from '../apps/workers/model.ts';
import { BODY_LIMIT_BYTES } from '../config.ts';
import { USER_ID_MAX, USER_ID_MIN, USER_TEXT_MAX } from '../users/model.ts';

/**
 * The OpenAPI 3.1 description of both APIs, served at /openapi.json. Written in code rather than as a
 * YAML file so that the limits (text lengths, id range, sizes, body limit) are the very constants the
 * validation uses: a limit changed in the model changes the description with it. The server's tests
 * check every answer they receive against this document (server/test/support/openapi-check.ts).
 *
 * Two things OpenAPI cannot say per operation are said once, as extensions the tests also check:
 * `x-undescribed-method` (any other method on a described path: 405 with Allow) and
 * `x-undescribed-path` (any other path: 404), both with the error body of the path's format.
 */
type Json = Record<string, unknown>;

const XML = 'application/xml';
const JSON_TYPE = 'application/json';
const ref = (name: string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });

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
  },
  Operations: {
    type: 'string',
    const: 'GET, PUT, POST, DELETE',
    xml: { name: 'operations' },
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

type Format = 'xml' | 'json';
const errorContent = (format: Format) =>
  format === 'xml' ? { [XML]: { schema: ref('XmlError') } } : { [JSON_TYPE]: { schema: ref('JsonError') } };

function answer(description: string, content?: Json, headers: Json = {}): Json {
  return {
    description,
    headers: { 'Request-Id': ref('RequestId', 'headers'), ...headers },
    ...(content ? { content } : {}),
  };
}

const xmlOf = (schema: string) => ({ [XML]: { schema: ref(schema) } });
const jsonOf = (schema: Json) => ({ [JSON_TYPE]: { schema } });

/** Errors any request can get: Node's parser refusing it, a token missing, Redis away, a bug. */
function commonErrors(format: Format, { authenticated = true } = {}): Json {
  return {
    '400': answer(
      'The request is not valid HTTP, or its parameters or body are invalid.',
      errorContent(format),
    ),
    ...(authenticated
      ? {
          '401': answer('API_TOKEN is set and the bearer token is missing or wrong.', errorContent(format), {
            'WWW-Authenticate': ref('WwwAuthenticate', 'headers'),
          }),
        }
      : {}),
    '403': answer(
      'The Host names a host ALLOWED_HOSTS does not list (`host_not_allowed`), or, with no API_TOKEN, a change came from another origin (`cross_origin`).',
      errorContent(format),
    ),
    '408': answer('The request was not received in time.', errorContent(format)),
    '417': answer('The request sent an Expect value other than 100-continue.', errorContent(format)),
    '431': answer('The request line and headers are larger than 16 KiB.', errorContent(format)),
    '500': answer('Internal error (a bug; logged).', errorContent(format)),
    '503': answer(
      'Redis is unreachable or refuses changes (out of memory, read-only, failed save), no transaction connection was free in time, or the record was changed concurrently for too long; nothing changed, safe to retry.',
      errorContent(format),
      { 'Retry-After': ref('RetryAfter', 'headers') },
    ),
  };
}

const changeErrors = (format: Format, mediaType: string): Json => ({
  '413': answer(
    `The body is larger than ${BODY_LIMIT_BYTES} bytes (the connection is closed).`,
    errorContent(format),
  ),
  '415': answer(`The body is not ${mediaType} (a charset, if given, must be UTF-8).`, errorContent(format)),
  '504': answer(
    'The change reached Redis but was not confirmed (no reply, or not replicated in time): it may or may not be applied; read before retrying.',
    errorContent(format),
  ),
});

const notFound = (format: Format, what: string) => ({ '404': answer(what, errorContent(format)) });

function formBody(schema: string): Json {
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': {
        schema: ref(schema),
        encoding: { name: { contentType: 'text/plain; charset=utf-8' } },
      },
    },
  };
}

const jsonBody = (schema: string): Json => ({ required: true, content: jsonOf(ref(schema)) });

/** A GET and its HEAD twin (same status and headers, no body). */
function read(operationId: string, summary: string, responses: Json, extra: Json = {}): Json {
  const head: Json = {};
  for (const [status, response] of Object.entries(responses)) {
    const { content: _dropped, ...rest } = response as Json;
    head[status] = { ...rest, description: `${(response as Json).description} (no body)` };
  }
  return {
    get: { operationId, summary, ...extra, responses },
    head: {
      operationId: `${operationId}Head`,
      summary: `${summary} (headers only)`,
      ...extra,
      responses: head,
    },
  };
}

const userIdParam = {
  name: 'userid',
  in: 'path',
  required: true,
  description: 'A user id (see UserId); anything else is 400 `invalid_id`.',
  schema: { type: 'string', pattern: '^-?[0-9]{1,20}$' },
};
const appIdParam = {
  name: 'app_id',
  in: 'path',
  required: true,
  description: 'Any 1-100 characters of A-Z a-z 0-9 . _ - (else 404).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,100}$' },
};
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: ref('ResourceId') });

function userPaths(): Json {
  const xmlErrors = commonErrors('xml');
  const changeXml = changeErrors('xml', 'application/x-www-form-urlencoded');
  const result = (status: string, text: string) => ({ [status]: answer(text, xmlOf('Result')) });
  const allow = (methods: string) => ({
    '200': answer(`The operations; Allow: ${methods}.`, xmlOf('Operations'), {
      Allow: ref('Allow', 'headers'),
    }),
  });
  const options = (operationId: string, methods: string, extra: Json = {}) => ({
    operationId,
    summary: 'The supported operations',
    security: [{}],
    responses: { ...allow(methods), ...commonErrors('xml', { authenticated: false }), ...extra },
  });
  // PUT creates and POST updates, on the collection (id in the form) and on /{userid} (id in the path).
  const create = (operationId: string, summary: string, form: string) => ({
    operationId,
    summary,
    requestBody: formBody(form),
    responses: {
      ...result('200', '`success`: created.'),
      ...result('409', '`failure`: a user with this id exists.'),
      ...xmlErrors,
      ...changeXml,
    },
  });
  const update = (operationId: string, summary: string, form: string) => ({
    operationId,
    summary,
    requestBody: formBody(form),
    responses: {
      ...result('200', '`success`: updated.'),
      ...result('404', '`failure`: no user has this id.'),
      ...xmlErrors,
      ...changeXml,
    },
  });
  return {
    '/UserService/users': {
      ...read('listUsers', 'Every user', { '200': answer('The users.', xmlOf('Users')), ...xmlErrors }),
      put: create('createUser', 'Create a user', 'UserForm'),
      post: update('updateUser', 'Update a user', 'UserForm'),
      options: options('userOperations', 'GET, HEAD, PUT, POST, OPTIONS'),
    },
    '/UserService/users/{userid}': {
      parameters: [userIdParam],
      ...read('getUser', 'One user', {
        '200': answer('The user.', xmlOf('User')),
        ...notFound('xml', 'No user has this id (`not_found`).'),
        ...xmlErrors,
      }),
      put: create('createUserAt', 'Create the user with the id of the path', 'UserPathForm'),
      post: update('updateUserAt', 'Update the user with the id of the path', 'UserPathForm'),
      delete: {
        operationId: 'deleteUser',
        summary: 'Delete a user',
        responses: {
          ...result('200', '`success`: deleted.'),
          ...result('404', '`failure`: no user has this id.'),
          ...xmlErrors,
          '504': changeXml['504'],
        },
      },
      options: options('userItemOperations', 'GET, HEAD, PUT, POST, DELETE, OPTIONS'),
    },
  };
}

function appPaths(): Json {
  const jsonErrors = commonErrors('json');
  const changeJson = changeErrors('json', 'application/json');
  const invalid = {
    '422': answer(
      'A field is unknown, read-only, missing or invalid (`field` names it).',
      errorContent('json'),
    ),
  };
  const noApp = notFound('json', 'The app id is not valid (`not_found`).');
  const full = (status: string, schema: string, text: string, headers: Json = {}) => ({
    [status]: answer(text, jsonOf(ref(schema)), headers),
  });
  const created = (schema: string) =>
    full('201', schema, 'Created: the full resource.', { Location: ref('Location', 'headers') });
  const missing = (kind: string) =>
    notFound('json', `No ${kind} has this id in the app (or the app id is not valid).`);
  const hostnameTaken = {
    '409': answer('The hostname is used by another domain of the app.', errorContent('json')),
  };
  return {
    '/apps/{app_id}/domains': {
      parameters: [appIdParam],
      ...read('listDomains', "The app's domains", {
        '200': answer('The domains.', jsonOf({ type: 'array', items: ref('Domain') })),
        ...noApp,
        ...jsonErrors,
      }),
      post: {
        operationId: 'createDomain',
        summary: 'Create a domain',
        requestBody: jsonBody('DomainChange'),
        responses: {
          ...created('Domain'),
          ...noApp,
          ...hostnameTaken,
          ...invalid,
          ...jsonErrors,
          ...changeJson,
        },
      },
    },
    '/apps/{app_id}/domains/{domain_id}': {
      parameters: [appIdParam, idParam('domain_id')],
      ...read('getDomain', 'One domain', {
        ...full('200', 'Domain', 'The domain.'),
        ...missing('domain'),
        ...jsonErrors,
      }),
      patch: {
        operationId: 'changeDomain',
        summary: "Change a domain's hostname",
        requestBody: jsonBody('DomainChange'),
        responses: {
          ...full('200', 'Domain', 'Changed: the full domain.'),
          ...missing('domain'),
          ...hostnameTaken,
          ...invalid,
          ...jsonErrors,
          ...changeJson,
        },
      },
      delete: {
        operationId: 'deleteDomain',
        summary: 'Delete a domain',
        responses: {
          ...full('200', 'Domain', 'Deleted: the domain as it was.'),
          ...missing('domain'),
          ...jsonErrors,
          '504': changeJson['504'],
        },
      },
    },
    '/apps/{app_id}/workers': {
      parameters: [appIdParam],
      ...read('listWorkers', "The app's workers", {
        '200': answer('The workers.', jsonOf({ type: 'array', items: ref('Worker') })),
        ...noApp,
        ...jsonErrors,
      }),
      post: {
        operationId: 'createWorker',
        summary: 'Start a worker',
        requestBody: jsonBody('NewWorker'),
        responses: { ...created('Worker'), ...noApp, ...invalid, ...jsonErrors, ...changeJson },
      },
    },
    '/apps/{app_id}/workers/{worker_id}': {
      parameters: [appIdParam, idParam('worker_id')],
      ...read('getWorker', 'One worker', {
        ...full('200', 'Worker', 'The worker.'),
        ...missing('worker'),
        ...jsonErrors,
      }),
      patch: {
        operationId: 'resizeWorker',
        summary: 'Resize a worker',
        requestBody: jsonBody('WorkerResize'),
        responses: {
          ...full('200', 'Worker', 'Resized: the full worker.'),
          ...missing('worker'),
          '409': answer('The worker is stopping and can no longer be changed.', errorContent('json')),
          ...invalid,
          ...jsonErrors,
          ...changeJson,
        },
      },
      delete: {
        operationId: 'stopWorker',
        summary: 'Stop a worker (asynchronous)',
        description: 'The worker is `stopping` at once and removed by a job after WORKER_STOP_GRACE_MS.',
        responses: {
          ...full('202', 'Accepted', 'Accepted: `{}`.'),
          ...missing('worker'),
          ...jsonErrors,
          '504': changeJson['504'],
        },
      },
    },
  };
}

function servicePaths(): Json {
  // Health, metrics and the description are root groups answering XML errors (http/groups.ts), so /readyz's 503 is an <error>.
  const open = { security: [{}] };
  const health = commonErrors('xml', { authenticated: false });
  return {
    '/healthz': read(
      'liveness',
      'The process answers',
      { '200': answer('Alive.', jsonOf(ref('Health'))), ...health },
      open,
    ),
    '/readyz': read(
      'readiness',
      'The process answers and reaches Redis',
      { '200': answer('Ready.', jsonOf(ref('Health'))), ...health },
      open,
    ),
    '/metrics': read(
      'metrics',
      'Prometheus metrics, summed over every process of the server',
      {
        '200': answer('The Prometheus text format (0.0.4).', {
          'text/plain': { schema: { type: 'string' } },
        }),
        ...notFound('xml', 'The server runs with METRICS=0.'),
        ...commonErrors('xml'),
      },
      {
        description:
          'Needs the bearer token when API_TOKEN is set, unless METRICS_PUBLIC=1. Absent (404) with METRICS=0. The names are listed in docs/operations.md.',
      },
    ),
    '/openapi.json': read('openapi', 'This description', {
      '200': answer('OpenAPI 3.1.', jsonOf({ type: 'object', required: ['openapi', 'paths'] })),
      ...commonErrors('xml'),
    }),
  };
}

export function buildOpenApiDocument(): Json {
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
    paths: { ...userPaths(), ...appPaths(), ...servicePaths() },
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
