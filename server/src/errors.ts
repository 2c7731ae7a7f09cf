/**
 * The error catalogue: every error code the service answers, once, with its status, its default message,
 * the representations it appears in and the headers that go with it. The typed errors below each name
 * one entry; `http/error-answers.ts` turns them into an XML or JSON body in one place. docs/errors.md
 * shows this table (server/test/errors-doc.test.ts fails when they disagree; `make errors-doc` rewrites it).
 */

import { maxHeaderSize } from 'node:http';
import { DEFAULTS, kib, seconds } from './defaults.ts';

/** The two error bodies: `<error><code/><message/></error>` and `{"id", "message"}`. */
export type Representation = 'xml' | 'json';

export interface ErrorEntry {
  status: number;
  /** Used when the throw site gives none; `{name}` is filled from the site's parameters. */
  message: string;
  /** The representations that carry this code. */
  in: readonly Representation[];
  /** The code answered instead in a representation that does not carry this one. */
  otherwise?: string;
  /** Headers every answer with this code carries. */
  headers?: Readonly<Record<string, string>>;
  /** When it is answered (docs/errors.md). */
  when: string;
}

const BOTH = ['xml', 'json'] as const;
const XML_ONLY = ['xml'] as const;
const JSON_ONLY = ['json'] as const;

export const ERRORS = {
  bad_request: {
    status: 400,
    message: 'bad request',
    in: BOTH,
    when: 'not valid HTTP/1.1, a request target no URL can be made of, no Host header in HTTP/1.1; JSON: a body not UTF-8, not JSON or not a JSON object',
  },
  invalid_host: {
    status: 400,
    message: 'the Host header is not a valid host[:port]',
    in: BOTH,
    when: 'a Host header that is not a valid host[:port], or more than one',
  },
  malformed_body: {
    status: 400,
    message: 'the request body could not be read',
    in: XML_ONLY,
    otherwise: 'bad_request',
    when: 'a body cut short, a form body not UTF-8 or with a bad percent-escape',
  },
  invalid_id: {
    status: 400,
    message: 'the user id must be a decimal integer',
    in: XML_ONLY,
    when: 'a user id that is not a decimal integer in the signed 32-bit range',
  },
  invalid_field: {
    status: 400,
    message: 'a field is not valid',
    in: XML_ONLY,
    when: `name or profession blank, over ${DEFAULTS.userTextMaxChars} characters, or with characters XML 1.0 cannot carry`,
  },
  id_mismatch: {
    status: 400,
    message: 'the form id differs from the id in the path',
    in: XML_ONLY,
    when: 'the form id differs from the id in the path',
  },
  unknown_field: {
    status: 400,
    message: 'unknown form field',
    in: XML_ONLY,
    when: 'a form field other than id, name, profession',
  },
  duplicate_field: {
    status: 400,
    message: 'a form field is given more than once',
    in: XML_ONLY,
    when: 'a form field given twice',
  },
  missing_field: {
    status: 400,
    message: 'missing form field(s)',
    in: XML_ONLY,
    when: 'a form field left out',
  },
  unauthorized: {
    status: 401,
    message: 'a valid bearer token is required',
    in: BOTH,
    headers: { 'WWW-Authenticate': 'Bearer' },
    when: '`API_TOKEN` is set and the bearer token is missing or wrong',
  },
  host_not_allowed: {
    status: 403,
    message: 'this host name is not served here (ALLOWED_HOSTS lists the names that are)',
    in: BOTH,
    when: '`ALLOWED_HOSTS` is set and does not list the Host',
  },
  cross_origin: {
    status: 403,
    message: 'a change from a page of another origin is refused',
    in: BOTH,
    when: 'no `API_TOKEN`, and a change comes with the Origin of another host',
  },
  not_found: {
    status: 404,
    message: 'no such resource',
    in: BOTH,
    when: 'unknown path; unknown user; JSON: unknown or malformed resource id, invalid `app_id`',
  },
  method_not_allowed: {
    status: 405,
    message: 'method not allowed',
    in: BOTH,
    when: 'a method the path does not support (with an `Allow` header)',
  },
  request_timeout: {
    status: 408,
    message: 'the request was not received in time',
    in: BOTH,
    when: `headers not received within ${seconds(DEFAULTS.headersTimeoutMs)}, or the whole request within ${seconds(DEFAULTS.requestTimeoutMs)}`,
  },
  conflict: {
    status: 409,
    message: 'conflict',
    in: JSON_ONLY,
    when: 'hostname already used in the app; PATCH of a stopping worker',
  },
  payload_too_large: {
    status: 413,
    message: 'the request body is larger than {limit} bytes',
    in: BOTH,
    headers: { Connection: 'close' }, // the rest of the body is not read: not to be parsed as a request
    when: `a body over ${kib(DEFAULTS.bodyLimitBytes)} (the connection is closed)`,
  },
  unsupported_media_type: {
    status: 415,
    message: 'the request body must be {expected}',
    in: BOTH,
    when: 'Content-Type not the one of the resource (form or JSON; a charset, if any, UTF-8)',
  },
  expectation_failed: {
    status: 417,
    message: 'the only expectation supported is "Expect: 100-continue"',
    in: BOTH,
    when: 'an `Expect` other than 100-continue',
  },
  invalid_params: {
    status: 422,
    message: 'a field is not valid',
    in: JSON_ONLY,
    when: 'missing, invalid, unknown or read-only field (the body also names the `field`)',
  },
  header_too_large: {
    status: 431,
    message: `the request line and headers are larger than ${kib(maxHeaderSize)}`,
    in: BOTH,
    when: `request line and headers over ${kib(maxHeaderSize)}`,
  },
  internal_error: { status: 500, message: 'internal error', in: BOTH, when: 'a bug (logged)' },
  service_unavailable: {
    status: 503,
    message: 'the data store is unavailable; try again shortly',
    in: BOTH,
    headers: { 'Retry-After': '1' },
    when: `Redis unreachable, refusing changes or too slow, a change that kept losing to other instances for ${seconds(DEFAULTS.conflictRetryBudgetMs)}, not ready, shutting down; nothing was changed, safe to retry`,
  },
  outcome_unknown: {
    status: 504,
    message:
      'the data store stopped answering while the change was being saved; it may or may not have been applied: read the resource before retrying',
    in: BOTH,
    when: 'Redis stopped answering while a change was being saved, or did not replicate it in time: read before retrying',
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;
type CodeOfStatus<S extends number> = {
  [K in ErrorCode]: (typeof ERRORS)[K]['status'] extends S ? K : never;
}[ErrorCode];

/** The catalogue's message for `code`, its `{name}` places filled from `params`. */
function defaultMessage(code: ErrorCode, params: Record<string, string | number> = {}): string {
  return ERRORS[code].message.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
}

/** An error answered with a catalogue entry: its status, its code and a message (the entry's by default). */
export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = defaultMessage(code),
  ) {
    super(message);
    this.name = new.target.name;
    this.status = ERRORS[code].status;
  }
}

/** Malformed request: unreadable body, bad id, missing or duplicated field (400). */
export class BadRequestError extends HttpError {
  constructor(code: CodeOfStatus<400>, message?: string) {
    super(code, message);
  }
}

/** The request is readable but a field's value is not acceptable (422, JSON resources). */
export class InvalidParamsError extends HttpError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('invalid_params', message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor() {
    super('unauthorized');
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limit: number) {
    super('payload_too_large', defaultMessage('payload_too_large', { limit }));
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(expected: string) {
    super('unsupported_media_type', defaultMessage('unsupported_media_type', { expected }));
  }
}

/** Redis is unreachable or too busy; the request changed nothing that was acknowledged. */
export class ServiceUnavailableError extends HttpError {
  constructor(message?: string) {
    super('service_unavailable', message);
  }
}

/** Redis is up and serves reads but refuses changes (out of memory, failed save, replica): nothing was applied. */
export class WritesRefusedError extends ServiceUnavailableError {
  constructor(why: string) {
    super(`the data store refuses changes: ${why}; nothing was changed, reads still work; try again later`);
  }
}

/** A change reached Redis but was not confirmed (no reply, or not replicated in time): it may or may not stay applied. */
export class OutcomeUnknownError extends HttpError {
  constructor(message?: string) {
    super('outcome_unknown', message);
  }
}

/** The request is understood but refused whoever sends it this way (a host not served, another origin). */
export class ForbiddenError extends HttpError {
  constructor(code: CodeOfStatus<403>) {
    super(code);
  }
}

/** An `Expect` header other than 100-continue (Node's own 417 has no body). */
export class ExpectationFailedError extends HttpError {
  constructor() {
    super('expectation_failed');
  }
}
