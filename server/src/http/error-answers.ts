import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Request, Response } from 'restify';
import {
  ERRORS,
  type ErrorCode,
  type ErrorEntry,
  HttpError,
  InvalidParamsError,
  OutcomeUnknownError,
  type Representation,
  ServiceUnavailableError,
  WritesRefusedError,
} from '../errors.ts';
import type { AccessLog } from '../logging.ts';
import { isRedisUnavailable, mayHaveBeenApplied, writeRefusal } from '../redis/errors.ts';
import { JSON_CONTENT_TYPE, sendBody } from './send.ts';
import { renderXmlError, XML_CONTENT_TYPE } from './xml.ts';

interface ErrorDescription {
  status: number;
  code: ErrorCode;
  message: string;
}

const WRITE_METHODS = new Set(['PUT', 'POST', 'PATCH', 'DELETE']);

/**
 * The one place where any error becomes a status, a catalogue code and a message. Messages never carry a
 * stack, a Redis reply or a file path: unexpected errors are logged and answered with a generic text.
 */
export function describeError(err: unknown, method = 'GET'): ErrorDescription {
  if (err instanceof HttpError) return { status: err.status, code: err.code, message: err.message };
  // Redis answered, refusing the change (OOM, MISCONF, READONLY...): say why; nothing was applied.
  const refusal = writeRefusal(err);
  if (refusal) return describeError(new WritesRefusedError(refusal), method);
  // A change sent to Redis that got no reply may have been applied: 503 would promise it was not.
  if (WRITE_METHODS.has(method) && mayHaveBeenApplied(err)) return describeError(new OutcomeUnknownError());
  if (isRedisUnavailable(err)) return describeError(new ServiceUnavailableError());
  // restify's own errors (its router's 404 and 405; any other 4xx keeps its status as a bad_request).
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : 'bad_request';
    return { status, code, message: ERRORS[code].message };
  }
  return { status: 500, code: 'internal_error', message: ERRORS.internal_error.message };
}

/** The code as `representation` writes it: the entry's own, or the one it names for a representation without it. */
function codeIn(code: ErrorCode, representation: Representation): string {
  const entry: ErrorEntry = ERRORS[code];
  return entry.in.includes(representation) ? code : (entry.otherwise ?? code);
}

/** An error body and its content type. */
function renderError(
  representation: Representation,
  { code, message }: ErrorDescription,
  err?: unknown,
): { contentType: string; body: string } {
  const id = codeIn(code, representation);
  if (representation === 'xml') return { contentType: XML_CONTENT_TYPE, body: renderXmlError(id, message) };
  // A 422 also names the offending field, for clients that highlight it.
  const value = err instanceof InvalidParamsError ? { id, message, field: err.field } : { id, message };
  return { contentType: JSON_CONTENT_TYPE, body: JSON.stringify(value) };
}

export function sendError(
  req: Request,
  res: Response,
  err: unknown,
  logger: Logger,
  representation: Representation,
): void {
  const description = describeError(err, req.method);
  if (description.status >= 500) logger.error({ err, reqId: req.id() }, 'request failed');
  const { contentType, body } = renderError(representation, description, err);
  const entry: ErrorEntry = ERRORS[description.code];
  sendBody(res, description.status, contentType, body, entry.headers);
}

/**
 * The method and target of the request the parser failed on: the one it was reading (a body cut short),
 * else the last request line before the error in the packet (earlier pipelined requests come first).
 */
function failedRequest(
  err: Error & { rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
): { method: string; path: string } {
  const incoming = (socket as ParsedSocket).parser?.incoming;
  if (incoming && !incoming.complete) return { method: incoming.method ?? '', path: incoming.url ?? '' };
  const packet =
    err.rawPacket?.toString('latin1', 0, (err.bytesParsed ?? Number.POSITIVE_INFINITY) + 1) ?? '';
  let method = '';
  let path = '';
  for (const line of packet.matchAll(/(?:^|\n)([A-Z]+) (\S*)/g)) [, method = '', path = ''] = line;
  return { method, path };
}

type ParsedSocket = Duplex & {
  _httpMessage?: ServerResponse | null;
  parser?: { incoming?: (IncomingMessage & { _dumped?: boolean }) | null };
};

/**
 * Node's HTTP parser rejects a request before any route runs (malformed request line or headers,
 * headers over the size limit, a body cut short, header or request timeout). Node's default answer has
 * no body; this one carries the same error body as every other answer, with nosniff and a Request-Id,
 * and it gets its access-log line like every other answer. `representationFor` gives the body of the
 * group the request target is under.
 */
export function handleClientError(
  err: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
  accessLog: AccessLog,
  representationFor: (path: string) => Representation,
): void {
  const { _httpMessage: pending, parser } = socket as ParsedSocket;
  const incoming = parser?.incoming;
  // Nobody to answer; or the request whose body was cut short was already answered (Node dumped the rest).
  if (err.code === 'ECONNRESET' || !socket.writable || (incoming && !incoming.complete && incoming._dumped)) {
    socket.destroy();
    return;
  }
  // A later pipelined request is broken while an earlier one's answer is being written: ours follows it.
  if (pending && !pending.writableFinished && (!incoming || incoming.complete)) {
    pending.once('finish', () => answerClientError(err, socket, accessLog, representationFor));
    return;
  }
  if (pending?.headersSent) {
    socket.destroy(); // the broken request's own answer had begun
    return;
  }
  answerClientError(err, socket, accessLog, representationFor);
}

function answerClientError(
  err: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
  accessLog: AccessLog,
  representationFor: (path: string) => Representation,
): void {
  if (!socket.writable) return;
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpError('header_too_large')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new HttpError('request_timeout')
        : new HttpError('bad_request', 'the request is not valid HTTP/1.1');
  const { status } = error;
  const { method, path } = failedRequest(err, socket);
  const { contentType, body } = renderError(representationFor(path), describeError(error));
  const reqId = randomUUID();
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${contentType}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nRequest-Id: ${reqId}\r\nConnection: close\r\n\r\n` +
      (method === 'HEAD' ? '' : body), // a HEAD answer has no body: it would read as a next answer
  );
  // The request line as far as it could be read (methods are upper case; a header line is not one) (bounded: it may be what was too large).
  accessLog(reqId, method.slice(0, 16), path.slice(0, 2048), status, 0);
}
