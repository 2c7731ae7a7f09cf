import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
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
 * no body; this one carries the same error body as every other answer, with nosniff and a Request-Id.
 */
export function handleClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'header_too_large', 'the request line and headers are larger than 16 KiB']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request was not received in time']
        : [400, 'bad_request', 'the request is not valid HTTP/1.1'];
  const path = /^[A-Za-z]+ (\S+)/.exec(err.rawPacket?.toString('latin1') ?? '')?.[1] ?? '';
  const json = errorFormatFor(path) === 'json';
  const body = json ? JSON.stringify({ id: code, message }) : renderXmlError(code, message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${json ? JSON_CONTENT_TYPE : XML_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nRequest-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}
