import type { Request, Response } from 'restify';
import { markSent } from './restify.ts';
import { XML_CONTENT_TYPE } from './xml.ts';

export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

/** Bodies at least this long are sent as bytes. */
const LARGE_BODY = 16 * 1024;

/** The headers of every answer: the request's Request-Id, nosniff and the type (then the caller's own). */
export function answerHead(
  res: Response,
  contentType: string,
  headers?: Record<string, string>,
): Record<string, string | number> {
  const req = res.req as Request;
  const head: Record<string, string | number> = {
    'Request-Id': req.id(),
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': contentType,
  };
  if (headers) Object.assign(head, headers);
  return head;
}

/**
 * writeHead, then, for a request that sent `Expect`, the head at once: Node queues the interim
 * `100 Continue` of a pipelined request, and a Buffer written after writeHead would put the head in
 * front of it (the head, then `100 Continue`, then the body: a broken answer; found by the HTTP fuzzer).
 */
export function writeAnswerHead(res: Response, status: number, head: Record<string, string | number>): void {
  res.statusCode = status;
  res.writeHead(status, head);
  if ((res.req as Request).headers.expect !== undefined) res.flushHeaders();
}

/**
 * Writes a complete answer with an exact Content-Length, the request's Request-Id and nosniff. Restify
 * leaves the body out for HEAD, so a HEAD gets the same status and headers as the GET it mirrors.
 */
export function sendBody(
  res: Response,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers?: Readonly<Record<string, string>>,
): void {
  const req = res.req as Request;
  // Sent as bytes, Node writes the head and a large body side by side instead of copying both into one string.
  if (typeof body === 'string' && body.length >= LARGE_BODY) body = Buffer.from(body, 'utf8');
  // Every header in one object handed to writeHead: Node writes it as is, where headers set one by
  // one with setHeader are first copied into a lower-cased map (measured: about 5 % of a GET).
  const head = answerHead(res, contentType, headers);
  head['Content-Length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  // What res.sendRaw(status, body) does, in one write: restify's flush() calls writeHead(), write(body)
  // and end() apart, so every answer went out as a corked writev; end(body) lets Node send the head
  // and the body together. `_sent` tells restify the answer is written (as sendRaw would).
  markSent(res);
  writeAnswerHead(res, status, head);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

export function sendXml(
  res: Response,
  status: number,
  body: string | Buffer,
  headers?: Record<string, string>,
): void {
  sendBody(res, status, XML_CONTENT_TYPE, body, headers);
}

export function sendJson(
  res: Response,
  status: number,
  value: unknown,
  headers?: Record<string, string>,
): void {
  sendBody(res, status, JSON_CONTENT_TYPE, JSON.stringify(value), headers);
}
