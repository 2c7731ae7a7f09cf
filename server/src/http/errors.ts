import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Request, Response } from 'restify';
import {
  HttpError,
  InvalidParamsError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnauthorizedError,
  WritesRefusedError,
} from '../errors.ts';
import type { AccessLog } from '../logging.ts';
import { isRedisUnavailable, mayHaveBeenApplied, writeRefusal } from '../redis/connect.ts';
import { JSON_CONTENT_TYPE, sendJson, sendXml } from './send.ts';
import { renderXmlError, XML_CONTENT_TYPE } from './xml.ts';

interface ErrorDescription {
  status: number;
  code: string;
  message: string;
}

/** Codes for the errors restify raises itself (routing, malformed URLs). */
const RESTIFY_CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

const WRITE_METHODS = new Set(['PUT', 'POST', 'PATCH', 'DELETE']);

/**
 * The one place where any error becomes a status, a code and a message. Messages never carry a
 * stack, a Redis reply or a file path: unexpected errors are logged and answered with a generic text.
 */
export function describeError(err: unknown, method = 'GET'): ErrorDescription {
  if (err instanceof HttpError) return { status: err.status, code: err.code, message: err.message };
  // Redis answered, refusing the change (OOM, MISCONF, READONLY...): say why; nothing was applied.
  const refusal = writeRefusal(err);
  if (refusal) return describeError(new WritesRefusedError(refusal), method);
  // A change sent to Redis that got no reply may have been applied: 503 would promise it was not.
  if (WRITE_METHODS.has(method) && mayHaveBeenApplied(err)) {
    return {
      status: 504,
      code: 'outcome_unknown',
      message:
        'the data store stopped answering while the change was being saved; it may or may not have been applied: read the resource before retrying',
    };
  }
  if (isRedisUnavailable(err)) {
    return {
      status: 503,
      code: 'service_unavailable',
      message: 'the data store is unavailable; try again shortly',
    };
  }
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = RESTIFY_CODES[status] ?? 'bad_request';
    const message =
      status === 404 ? 'no such resource' : status === 405 ? 'method not allowed' : 'bad request';
    return { status, code, message };
  }
  return { status: 500, code: 'internal_error', message: 'internal error' };
}

/** JSON resources live under /apps; everything else speaks XML. */
export function errorFormatFor(path: string): 'json' | 'xml' {
  return path === '/apps' || path.startsWith('/apps/') ? 'json' : 'xml';
}

export function sendError(req: Request, res: Response, err: unknown, logger: Logger): void {
  const { status, code, message } = describeError(err, req.method);
  if (status >= 500) logger.error({ err, reqId: req.id() }, 'request failed');
  const headers: Record<string, string> = {};
  if (err instanceof MethodNotAllowedError) headers.Allow = err.allow.join(', ');
  if (err instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'Bearer';
  // The rest of an oversized body is not read: close the connection rather than parse it as a request.
  if (err instanceof PayloadTooLargeError) headers.Connection = 'close';
  if (status === 503) headers['Retry-After'] = '1';
  if (errorFormatFor(req.getPath()) === 'json') {
    // A 422 also names the offending field, for clients that highlight it.
    const body =
      err instanceof InvalidParamsError ? { id: code, message, field: err.field } : { id: code, message };
    sendJson(res, status, body, headers);
  } else sendXml(res, status, renderXmlError(code, message), headers);
}

/**
 * Node's HTTP parser rejects a request before any route runs (malformed request line or headers,
 * headers over the size limit, a body cut short, header or request timeout). Node's default answer has
 * no body; this one carries the same error body as every other answer, with nosniff and a Request-Id,
 * and it gets its access-log line like every other answer.
 */
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

export function handleClientError(
  err: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
  accessLog: AccessLog,
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
    pending.once('finish', () => answerClientError(err, socket, accessLog));
    return;
  }
  if (pending?.headersSent) {
    socket.destroy(); // the broken request's own answer had begun
    return;
  }
  answerClientError(err, socket, accessLog);
}

function answerClientError(
  err: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  socket: Duplex,
  accessLog: AccessLog,
): void {
  if (!socket.writable) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'header_too_large', 'the request line and headers are larger than 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request was not received in time']
        : [400, 'bad_request', 'the request is not valid HTTP/1.1'];
  const { method, path } = failedRequest(err, socket);
  const json = errorFormatFor(path) === 'json';
  const reqId = randomUUID();
  const body = json ? JSON.stringify({ id: code, message }) : renderXmlError(code, message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${json ? JSON_CONTENT_TYPE : XML_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nRequest-Id: ${reqId}\r\nConnection: close\r\n\r\n` +
      (method === 'HEAD' ? '' : body), // a HEAD answer has no body: it would read as a next answer
  );
  // The request line as far as it could be read (methods are upper case; a header line is not one) (bounded: it may be what was too large).
  accessLog({ reqId, method: method.slice(0, 16), url: path.slice(0, 2048), status, ms: 0 });
}
