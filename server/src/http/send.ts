import type { Response } from 'restify';
import { XML_CONTENT_TYPE } from './xml.ts';

export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

/**
 * Writes a complete answer with an exact Content-Length. Restify leaves the body out for HEAD, so a
 * HEAD gets the same status and headers as the GET it mirrors.
 */
export function sendBody(
  res: Response,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.sendRaw(status, body);
}

export function sendXml(res: Response, status: number, body: string, headers?: Record<string, string>): void {
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
