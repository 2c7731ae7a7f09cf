/**
 * The few errors the service raises. Each carries its HTTP status and a stable machine-readable code;
 * `http/errors.ts` turns them into an XML or JSON body in one place.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Malformed request: unreadable body, bad id, missing or duplicated field (400). */
export class BadRequestError extends HttpError {
  constructor(code: string, message: string) {
    super(400, code, message);
  }
}

/** The request is readable but a field's value is not acceptable (422, JSON resources). */
export class InvalidParamsError extends HttpError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(422, 'invalid_params', message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'a valid bearer token is required') {
    super(401, 'unauthorized', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(
    readonly allow: readonly string[],
    method: string,
  ) {
    super(405, 'method_not_allowed', `${method} is not allowed here; allowed: ${allow.join(', ')}`);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limit: number) {
    super(413, 'payload_too_large', `the request body is larger than ${limit} bytes`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(expected: string) {
    super(415, 'unsupported_media_type', `the request body must be ${expected}`);
  }
}

/** Redis is unreachable or too busy; the request changed nothing that was acknowledged. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'the data store is unavailable; try again shortly') {
    super(503, 'service_unavailable', message);
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
  constructor(
    message = 'the data store stopped answering while the change was being saved; it may or may not have been applied: read the resource before retrying',
  ) {
    super(504, 'outcome_unknown', message);
  }
}

/** The request is understood but refused whoever sends it this way (a host not served, another origin). */
export class ForbiddenError extends HttpError {
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

/** An `Expect` header other than 100-continue (Node's own 417 has no body). */
export class ExpectationFailedError extends HttpError {
  constructor() {
    super(417, 'expectation_failed', 'the only expectation supported is "Expect: 100-continue"');
  }
}
