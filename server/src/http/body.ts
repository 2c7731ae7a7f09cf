import type { IncomingMessage } from 'node:http';
import { BODY_LIMIT_BYTES } from '../config.ts';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.ts';

/**
 * Checks that the request's media type is `expected` (parameters allowed; a charset, when given,
 * must be UTF-8). Anything else is 415.
 */
export function requireMediaType(req: IncomingMessage, expected: string): void {
  const header = req.headers['content-type'];
  if (!header) throw new UnsupportedMediaTypeError(expected);
  const [type = '', ...params] = header.split(';');
  if (type.trim().toLowerCase() !== expected) throw new UnsupportedMediaTypeError(expected);
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() === 'charset' && !/^"?utf-8"?$/i.test(value.trim())) {
      throw new UnsupportedMediaTypeError(`${expected} in UTF-8`);
    }
  }
}

/** Reads the whole request body, refusing (413) more than `limit` bytes, declared or sent. */
export async function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new PayloadTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new PayloadTooLargeError(limit);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof PayloadTooLargeError) throw err;
    throw new BadRequestError('malformed_body', 'the request body could not be read');
  }
  return Buffer.concat(chunks, size);
}
