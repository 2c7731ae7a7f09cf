/**
 * The hostile corpus: raw requests (written byte for byte on a socket) with the answer each must get.
 * `code` is the XML `<code>` (users) or the JSON `id` (/apps) of the error body.
 */
import { FORM_TYPE, formBody } from '../../../../testing/form.ts';

export interface HostileCase {
  title: string;
  part: 'users' | 'apps' | 'http';
  /** The bytes to send; several pieces are sent with a pause between them. */
  pieces: Array<string | Buffer>;
  /** Half-close the socket after the last piece (the client sends nothing more). */
  end?: boolean;
  status: number;
  code: string;
  /** Body format of the error: 'xml', 'json'. */
  format: 'xml' | 'json';
  /** The answer must close the connection (`Connection: close`). */
  closes?: boolean;
  /** The issue whose finding the case is a regression test of. */
  finding?: string;
}

const JSON_TYPE = 'application/json';
/** A domain/worker id that exists nowhere. */
export const NO_SUCH_UUID = '0b9a3c9e-5d43-4f1e-9a59-0c6f3c1b2d7e';

interface Raw {
  method?: string;
  path: string;
  headers?: Record<string, string> | Array<[string, string]>;
  body?: string | Buffer;
  /** Content-Length as sent; undefined: the body's real length (none without a body). */
  length?: string | null;
  version?: string;
}

export function raw({
  method = 'GET',
  path,
  headers = {},
  body,
  length,
  version = 'HTTP/1.1',
}: Raw): string | Buffer {
  const lines = [`${method} ${path} ${version}`, 'Host: 127.0.0.1'];
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of pairs) lines.push(`${name}: ${value}`);
  const bodyBytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  if (length !== null) {
    const value = length ?? (bodyBytes ? String(bodyBytes.length) : undefined);
    if (value !== undefined) lines.push(`Content-Length: ${value}`);
  }
  lines.push('Connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return bodyBytes ? Buffer.concat([head, bodyBytes]) : head.toString('latin1');
}

const U = '/UserService/users';
const put = (body: string | Buffer, contentType: string | null = FORM_TYPE, path = U) =>
  raw({ method: 'PUT', path, headers: contentType === null ? {} : { 'Content-Type': contentType }, body });
const post = (body: string | Buffer, contentType: string | null = FORM_TYPE, path = U) =>
  raw({ method: 'POST', path, headers: contentType === null ? {} : { 'Content-Type': contentType }, body });

function users(title: string, request: string | Buffer, status: number, code: string): HostileCase {
  return { title, part: 'users', pieces: [request], status, code, format: 'xml' };
}

function http(
  title: string,
  request: string | Buffer | Array<string | Buffer>,
  status: number,
  code: string,
  format: 'xml' | 'json' = 'xml',
  end = false,
): HostileCase {
  return {
    title,
    part: 'http',
    pieces: Array.isArray(request) ? request : [request],
    status,
    code,
    format,
    end,
  };
}

const chunked = (method: string, path: string, contentType: string, chunks: string[], terminate = true) => {
  const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  return (
    head +
    chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') +
    (terminate ? '0\r\n\r\n' : '')
  );
};

const big = (n: number, ch = 'x') => ch.repeat(n);

export const USER_CASES: HostileCase[] = [
  // Methods
  users(
    'PATCH on the collection',
    raw({ method: 'PATCH', path: U, headers: { 'Content-Type': FORM_TYPE }, body: 'id=1' }),
    405,
    'method_not_allowed',
  ),
  users('DELETE on the collection', raw({ method: 'DELETE', path: U }), 405, 'method_not_allowed'),
  users('TRACE on the collection', raw({ method: 'TRACE', path: U }), 405, 'method_not_allowed'),
  users('PROPFIND on an item', raw({ method: 'PROPFIND', path: `${U}/1` }), 405, 'method_not_allowed'),
  users(
    'PATCH on an item',
    raw({ method: 'PATCH', path: `${U}/1`, headers: { 'Content-Type': FORM_TYPE }, body: 'name=x' }),
    405,
    'method_not_allowed',
  ),
  // Paths
  users('unknown path', raw({ path: '/UserService/user' }), 404, 'not_found'),
  users('wrong case in the path', raw({ path: '/userservice/USERS' }), 404, 'not_found'),
  users('extra segment', raw({ path: `${U}/1/extra` }), 404, 'not_found'),
  users('dot-dot traversal', raw({ path: `${U}/../../../etc/passwd` }), 404, 'not_found'),
  users('encoded traversal as id', raw({ path: `${U}/%2e%2e%2f%2e%2e%2fetc%2fpasswd` }), 400, 'invalid_id'),
  users('broken percent-escape in the id', raw({ path: `${U}/%ZZ` }), 404, 'not_found'),
  users('invalid UTF-8 escape in the id', raw({ path: `${U}/%C3%28` }), 404, 'not_found'),
  users('encoded NUL as id', raw({ path: `${U}/%00` }), 400, 'invalid_id'),
  users(
    'encoded CRLF header injection in the id',
    raw({ path: `${U}/1%0d%0aX-Injected:%20yes` }),
    400,
    'invalid_id',
  ),
  users('id with a query string of garbage', raw({ path: `${U}/x?id=1&%ZZ` }), 400, 'invalid_id'),
  // Ids
  users('id huge (30 digits)', raw({ path: `${U}/${big(30, '9')}` }), 400, 'invalid_id'),
  users('id one above int32', raw({ path: `${U}/2147483648` }), 400, 'invalid_id'),
  users('id one below int32', raw({ method: 'DELETE', path: `${U}/-2147483649` }), 400, 'invalid_id'),
  users('negative id that does not exist', raw({ path: `${U}/-5` }), 404, 'not_found'),
  users('float id', raw({ path: `${U}/1.5` }), 400, 'invalid_id'),
  users('float id 1.0 on DELETE', raw({ method: 'DELETE', path: `${U}/1.0` }), 400, 'invalid_id'),
  users('hex id', raw({ path: `${U}/0x10` }), 400, 'invalid_id'),
  users('exponent id', raw({ method: 'DELETE', path: `${U}/1e3` }), 400, 'invalid_id'),
  users('id padded with an encoded space', raw({ path: `${U}/%201` }), 400, 'invalid_id'),
  users('id with a plus sign', raw({ path: `${U}/+1` }), 400, 'invalid_id'),
  users('id Infinity', raw({ path: `${U}/Infinity` }), 400, 'invalid_id'),
  users('id NaN on DELETE', raw({ method: 'DELETE', path: `${U}/NaN` }), 400, 'invalid_id'),
  users('id with a minus only', raw({ path: `${U}/-` }), 400, 'invalid_id'),
  users('id in full-width digits', raw({ path: `${U}/%EF%BC%91` }), 400, 'invalid_id'),
  users('very long id (8 KB)', raw({ path: `${U}/${big(8000, '1')}` }), 404, 'not_found'),
  // Form fields
  users('PUT with an empty body', put(''), 400, 'missing_field'),
  users('PUT missing id', put('name=a&profession=b'), 400, 'missing_field'),
  users('PUT missing profession', put('id=7001&name=a'), 400, 'missing_field'),
  users('POST missing name', post('id=1&profession=b'), 400, 'missing_field'),
  users('PUT with id twice', put('id=7001&id=7002&name=a&profession=b'), 400, 'duplicate_field'),
  users('POST with profession twice', post('id=1&name=a&profession=b&profession=c'), 400, 'duplicate_field'),
  users('PUT with an unknown field', put('id=7001&name=a&profession=b&admin=true'), 400, 'unknown_field'),
  users('PUT with a field name in another case', put('ID=7001&name=a&profession=b'), 400, 'unknown_field'),
  users('PUT with id empty', put('id=&name=a&profession=b'), 400, 'invalid_id'),
  users('PUT with id negative zero padded', put('id=-0.0&name=a&profession=b'), 400, 'invalid_id'),
  users('PUT with id in hex', put('id=0x1B59&name=a&profession=b'), 400, 'invalid_id'),
  users('PUT with id exponent', put('id=7e3&name=a&profession=b'), 400, 'invalid_id'),
  users('PUT with id padded by spaces', put('id=+7001+&name=a&profession=b'), 400, 'invalid_id'),
  users('PUT with id huge', put(`id=${big(500, '9')}&name=a&profession=b`), 400, 'invalid_id'),
  users('PUT with id as an array', put('id[]=7001&name=a&profession=b'), 400, 'unknown_field'),
  users('PUT with an empty name', put('id=7001&name=&profession=b'), 400, 'invalid_field'),
  users('PUT with a blank profession', put('id=7001&name=a&profession=%20%09%20'), 400, 'invalid_field'),
  users('PUT with a NUL in the name', put('id=7001&name=a%00b&profession=b'), 400, 'invalid_field'),
  users('PUT with ESC in the profession', put('id=7001&name=a&profession=%1B%5B31m'), 400, 'invalid_field'),
  users(
    'PUT with a raw control byte in the body',
    put('id=7001&name=a\x01b&profession=b'),
    400,
    'invalid_field',
  ),
  users('PUT with U+FFFF in the name', put('id=7001&name=%EF%BF%BF&profession=b'), 400, 'invalid_field'),
  users(
    'PUT with an encoded lone surrogate',
    put('id=7001&name=%ED%A0%80&profession=b'),
    400,
    'malformed_body',
  ),
  users('PUT with an invalid UTF-8 escape', put('id=7001&name=%C3%28&profession=b'), 400, 'malformed_body'),
  users(
    'PUT with raw invalid UTF-8 bytes',
    put(Buffer.from([...Buffer.from('id=7001&name='), 0xff, 0xfe, ...Buffer.from('&profession=b')])),
    400,
    'malformed_body',
  ),
  users('PUT with a broken escape', put('id=7001&name=%E&profession=b'), 400, 'malformed_body'),
  users(
    'PUT with a name of 257 characters',
    put(`id=7001&name=${big(257)}&profession=b`),
    400,
    'invalid_field',
  ),
  users(
    'PUT with a name of 257 emoji',
    put(formBody({ id: 7001, name: '😀'.repeat(257), profession: 'b' }, { encode: 'component' })),
    400,
    'invalid_field',
  ),
  users(
    'PUT with a profession of 60 000 characters',
    put(`id=7001&name=a&profession=${big(60_000)}`),
    400,
    'invalid_field',
  ),
  users(
    'PUT with XML-special text on an existing id',
    put('id=1&name=%3Cuser%3E%3Cid%3E9%3C%2Fid%3E&profession=%5D%5D%3E%26amp%3B'),
    409,
    'failure',
  ),
  users(
    'POST with a CDATA end and a DOCTYPE to an unknown id',
    post(
      formBody(
        { id: 7001, name: ']]><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;', profession: 'b' },
        { encode: 'component' },
      ),
    ),
    404,
    'failure',
  ),
  users('DELETE of an id that does not exist', raw({ method: 'DELETE', path: `${U}/7001` }), 404, 'failure'),
  users(
    'PUT in the path with a different form id',
    put('id=7002&name=a&profession=b', FORM_TYPE, `${U}/7001`),
    400,
    'id_mismatch',
  ),
  users(
    'POST in the path with a bad path id',
    post('name=a&profession=b', FORM_TYPE, `${U}/seven`),
    400,
    'invalid_id',
  ),
  // Content types
  users(
    'PUT without a Content-Type',
    put('id=7001&name=a&profession=b', null),
    415,
    'unsupported_media_type',
  ),
  users('PUT as text/plain', put('id=7001&name=a&profession=b', 'text/plain'), 415, 'unsupported_media_type'),
  users(
    'PUT as application/xml',
    put('<user><id>7001</id></user>', 'application/xml'),
    415,
    'unsupported_media_type',
  ),
  users(
    'PUT as JSON',
    put('{"id":7001,"name":"a","profession":"b"}', JSON_TYPE),
    415,
    'unsupported_media_type',
  ),
  users(
    'PUT as multipart',
    put(
      '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n7001\r\n--x--',
      'multipart/form-data; boundary=x',
    ),
    415,
    'unsupported_media_type',
  ),
  users(
    'PUT in latin-1',
    put('id=7001&name=a&profession=b', `${FORM_TYPE}; charset=iso-8859-1`),
    415,
    'unsupported_media_type',
  ),
  users(
    'PUT with two media types in one header',
    put('id=7001&name=a&profession=b', `${FORM_TYPE}, text/plain`),
    415,
    'unsupported_media_type',
  ),
  users(
    'PUT with an empty Content-Type',
    put('id=7001&name=a&profession=b', ''),
    415,
    'unsupported_media_type',
  ),
  users(
    'lying Content-Type: form header, JSON body',
    put('{"id":7001,"name":"a","profession":"b"}'),
    400,
    'unknown_field',
  ),
  users(
    'lying Content-Type: form header, XML body',
    put('<user><id>7001</id><name>a</name></user>'),
    400,
    'unknown_field',
  ),
  // Bodies
  users(
    'declared body over 64 KiB (not sent)',
    raw({ method: 'PUT', path: U, headers: { 'Content-Type': FORM_TYPE }, length: '1000000' }),
    413,
    'payload_too_large',
  ),
  users('body over 64 KiB sent', put(`id=7001&name=a&profession=${big(70_000)}`), 413, 'payload_too_large'),
  users(
    'chunked body over 64 KiB',
    chunked(
      'PUT',
      U,
      FORM_TYPE,
      Array.from({ length: 9 }, () => big(8192)),
    ),
    413,
    'payload_too_large',
  ),
  users(
    'chunked body with a bad field',
    chunked('PUT', U, FORM_TYPE, ['id=7001&na', 'me=a&profession=b&x=1']),
    400,
    'unknown_field',
  ),
];

export const HTTP_CASES: HostileCase[] = [
  http('unknown method', 'FOO /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'bad_request'),
  http('lower-case method', 'get /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'bad_request'),
  http(
    'raw control character in the path',
    'GET /UserService/users/1\x01 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    400,
    'bad_request',
  ),
  http(
    'raw space inside the path',
    'GET /UserService/users/1 2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    400,
    'bad_request',
  ),
  http(
    'a TLS handshake on the plain HTTP port',
    Buffer.from('16030100a5010000a10303', 'hex'),
    400,
    'bad_request',
  ),
  http('no Host header', 'GET /UserService/users HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'bad_request'),
  http(
    'header line without a colon',
    'GET /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken header\r\n\r\n',
    400,
    'bad_request',
  ),
  http(
    'NUL in a header value',
    'GET /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x00b\r\n\r\n',
    400,
    'bad_request',
  ),
  http(
    'obsolete header folding',
    'GET /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\r\n b\r\n\r\n',
    400,
    'bad_request',
  ),
  http(
    'oversized header (20 KB)',
    `GET /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big(20_000)}\r\n\r\n`,
    431,
    'header_too_large',
  ),
  http(
    'oversized path (20 KB)',
    `GET /UserService/users/${big(20_000, '1')} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    431,
    'header_too_large',
  ),
  http(
    '3000 small headers',
    `GET /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
    431,
    'header_too_large',
  ),
  http(
    'non-numeric Content-Length',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: abc\r\n\r\nid=1`,
    400,
    'bad_request',
  ),
  http(
    'negative Content-Length',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: -5\r\n\r\nid=1`,
    400,
    'bad_request',
  ),
  http(
    'two different Content-Lengths',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 5\r\nContent-Length: 30\r\n\r\nid=70`,
    400,
    'bad_request',
  ),
  http(
    'Content-Length with Transfer-Encoding (smuggling)',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    400,
    'bad_request',
  ),
  http(
    'malformed chunk size',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nid=7001\r\n0\r\n\r\n`,
    400,
    'bad_request',
  ),
  http(
    'unknown Transfer-Encoding',
    `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nTransfer-Encoding: gzip\r\n\r\nid=7001`,
    400,
    'bad_request',
  ),
  http(
    'truncated body, then the client half-closes',
    [
      `PUT /UserService/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 100\r\n\r\nid=7001&name=a`,
    ],
    400,
    'bad_request',
    'xml',
    true,
  ),
  http(
    'truncated chunked body, then the client half-closes',
    [chunked('PUT', U, FORM_TYPE, ['id=7001&name=a&pro'], false)],
    400,
    'bad_request',
    'xml',
    true,
  ),
];

const A = '/apps/reliability-app';
const jsonReq = (
  method: string,
  path: string,
  body: string | Buffer | undefined,
  contentType: string | null = JSON_TYPE,
) =>
  raw({
    method,
    path,
    headers: contentType === null ? {} : { 'Content-Type': contentType },
    ...(body === undefined ? {} : { body }),
  });
function apps(title: string, request: string | Buffer, status: number, code: string): HostileCase {
  return { title, part: 'apps', pieces: [request], status, code, format: 'json' };
}
const nested = (depth: number) => `{"hostname":${'['.repeat(depth)}${']'.repeat(depth)}}`;

export const APPS_CASES: HostileCase[] = [
  // Paths and ids
  apps('GET /apps (no such resource)', raw({ path: '/apps' }), 404, 'not_found'),
  apps('app id of 101 characters', raw({ path: `/apps/${big(101, 'a')}/domains` }), 404, 'not_found'),
  apps('app id with a forbidden character', raw({ path: '/apps/bad!app/domains' }), 404, 'not_found'),
  apps(
    'app id with an encoded NUL',
    jsonReq('POST', '/apps/a%00b/domains', '{"hostname":"a.example"}'),
    404,
    'not_found',
  ),
  apps('app id with an encoded slash', raw({ path: '/apps/a%2Fb/domains' }), 404, 'not_found'),
  apps('domain id not a UUID', raw({ path: `${A}/domains/123` }), 404, 'not_found'),
  apps(
    'domain id: a UUID with braces',
    raw({ path: `${A}/domains/%7B${NO_SUCH_UUID}%7D` }),
    404,
    'not_found',
  ),
  apps(
    'DELETE of a domain that does not exist',
    raw({ method: 'DELETE', path: `${A}/domains/${NO_SUCH_UUID}` }),
    404,
    'not_found',
  ),
  apps(
    'DELETE of a worker that does not exist',
    raw({ method: 'DELETE', path: `${A}/workers/${NO_SUCH_UUID}` }),
    404,
    'not_found',
  ),
  apps(
    'PATCH of a worker that does not exist',
    jsonReq('PATCH', `${A}/workers/${NO_SUCH_UUID}`, '{"size":"large"}'),
    404,
    'not_found',
  ),
  apps('worker id with invalid UTF-8', raw({ path: `${A}/workers/%C3%28` }), 404, 'not_found'),
  // Methods
  apps(
    'PUT on the domain collection',
    jsonReq('PUT', `${A}/domains`, '{"hostname":"a.example"}'),
    405,
    'method_not_allowed',
  ),
  apps(
    'DELETE on the worker collection',
    raw({ method: 'DELETE', path: `${A}/workers` }),
    405,
    'method_not_allowed',
  ),
  apps(
    'POST on a domain item',
    jsonReq('POST', `${A}/domains/${NO_SUCH_UUID}`, '{"hostname":"a.example"}'),
    405,
    'method_not_allowed',
  ),
  // Content types
  apps(
    'POST domain without a Content-Type',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a.example"}', null),
    415,
    'unsupported_media_type',
  ),
  apps(
    'POST domain as a form',
    jsonReq('POST', `${A}/domains`, 'hostname=a.example', FORM_TYPE),
    415,
    'unsupported_media_type',
  ),
  apps(
    'POST worker as text/plain',
    jsonReq('POST', `${A}/workers`, '{"command":"run"}', 'text/plain'),
    415,
    'unsupported_media_type',
  ),
  apps(
    'POST worker as JSON in latin-1',
    jsonReq('POST', `${A}/workers`, '{"command":"run"}', `${JSON_TYPE}; charset=iso-8859-1`),
    415,
    'unsupported_media_type',
  ),
  apps(
    'lying Content-Type: JSON header, form body',
    jsonReq('POST', `${A}/domains`, 'hostname=a.example'),
    400,
    'bad_request',
  ),
  // Bodies
  apps('malformed JSON', jsonReq('POST', `${A}/domains`, '{"hostname":'), 400, 'bad_request'),
  apps('JSON array body', jsonReq('POST', `${A}/domains`, '[{"hostname":"a.example"}]'), 400, 'bad_request'),
  apps('JSON null body', jsonReq('POST', `${A}/workers`, 'null'), 400, 'bad_request'),
  apps('empty body', jsonReq('POST', `${A}/workers`, ''), 400, 'bad_request'),
  apps(
    'JSON with trailing garbage',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a.example"} x'),
    400,
    'bad_request',
  ),
  apps(
    'JSON with invalid UTF-8',
    jsonReq(
      'POST',
      `${A}/domains`,
      Buffer.from([...Buffer.from('{"hostname":"a'), 0xc3, 0x28, ...Buffer.from('.example"}')]),
    ),
    400,
    'bad_request',
  ),
  apps(
    'deeply nested JSON (20 000 levels)',
    jsonReq('POST', `${A}/domains`, nested(20_000)),
    422,
    'invalid_params',
  ),
  apps(
    'JSON over 64 KiB',
    jsonReq('POST', `${A}/workers`, `{"command":"${big(70_000)}"}`),
    413,
    'payload_too_large',
  ),
  apps(
    'chunked JSON over 64 KiB',
    chunked(
      'POST',
      `${A}/workers`,
      JSON_TYPE,
      Array.from({ length: 9 }, (_, i) => (i === 0 ? `{"command":"${big(8000)}` : big(8192))),
    ),
    413,
    'payload_too_large',
  ),
  apps(
    'huge JSON of many keys',
    jsonReq('POST', `${A}/domains`, `{${Array.from({ length: 5000 }, (_, i) => `"k${i}":1`).join(',')}}`),
    422,
    'invalid_params',
  ),
  // Fields
  apps('domain without hostname', jsonReq('POST', `${A}/domains`, '{}'), 422, 'invalid_params'),
  apps(
    'domain with an unknown field',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a.example","admin":true}'),
    422,
    'invalid_params',
  ),
  apps(
    'domain with a read-only id',
    jsonReq('POST', `${A}/domains`, `{"hostname":"a.example","id":"${NO_SUCH_UUID}"}`),
    422,
    'invalid_params',
  ),
  apps(
    'hostname duplicated, the last one invalid',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a.example","hostname":"-bad-"}'),
    422,
    'invalid_params',
  ),
  apps('hostname a number', jsonReq('POST', `${A}/domains`, '{"hostname":42}'), 422, 'invalid_params'),
  apps('hostname null', jsonReq('POST', `${A}/domains`, '{"hostname":null}'), 422, 'invalid_params'),
  apps('hostname empty', jsonReq('POST', `${A}/domains`, '{"hostname":""}'), 422, 'invalid_params'),
  apps(
    'hostname with a leading hyphen',
    jsonReq('POST', `${A}/domains`, '{"hostname":"-a.example"}'),
    422,
    'invalid_params',
  ),
  apps(
    'hostname with an empty label',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a..example"}'),
    422,
    'invalid_params',
  ),
  apps(
    'hostname an IPv4 address',
    jsonReq('POST', `${A}/domains`, '{"hostname":"127.0.0.1"}'),
    422,
    'invalid_params',
  ),
  apps(
    'hostname of 254 characters',
    jsonReq(
      'POST',
      `${A}/domains`,
      `{"hostname":"${Array.from({ length: 4 }, () => big(62, 'a')).join('.')}.abc"}`,
    ),
    422,
    'invalid_params',
  ),
  apps(
    'hostname with a label of 64 characters',
    jsonReq('POST', `${A}/domains`, `{"hostname":"${big(64, 'a')}.example"}`),
    422,
    'invalid_params',
  ),
  apps(
    'hostname with a KELVIN SIGN',
    jsonReq('POST', `${A}/domains`, '{"hostname":"\u212Aa.example"}'),
    422,
    'invalid_params',
  ),
  apps(
    'hostname with an XML/HTML payload',
    jsonReq('POST', `${A}/domains`, '{"hostname":"<script>]]>.example"}'),
    422,
    'invalid_params',
  ),
  apps(
    'hostname with a lone surrogate escape',
    jsonReq('POST', `${A}/domains`, '{"hostname":"a\\ud800.example"}'),
    422,
    'invalid_params',
  ),
  apps('worker without command', jsonReq('POST', `${A}/workers`, '{"size":"small"}'), 422, 'invalid_params'),
  apps(
    'worker with a blank command',
    jsonReq('POST', `${A}/workers`, '{"command":"  "}'),
    422,
    'invalid_params',
  ),
  apps(
    'worker command with a control character',
    jsonReq('POST', `${A}/workers`, '{"command":"run\\u001b[2J"}'),
    422,
    'invalid_params',
  ),
  apps(
    'worker command of 1001 characters',
    jsonReq('POST', `${A}/workers`, `{"command":"${big(1001)}"}`),
    422,
    'invalid_params',
  ),
  apps(
    'worker command an object',
    jsonReq('POST', `${A}/workers`, '{"command":{"$gt":""}}'),
    422,
    'invalid_params',
  ),
  apps(
    'worker with an unknown size',
    jsonReq('POST', `${A}/workers`, '{"command":"run","size":"huge"}'),
    422,
    'invalid_params',
  ),
  apps(
    'worker with a read-only state',
    jsonReq('POST', `${A}/workers`, '{"command":"run","state":"up"}'),
    422,
    'invalid_params',
  ),
  apps(
    'worker with __proto__',
    jsonReq('POST', `${A}/workers`, '{"command":"run","__proto__":{"admin":true}}'),
    422,
    'invalid_params',
  ),
];

const get = (path: string, host: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;
const upgrade = (method: string, path: string, protocol: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
const finding = (n: number, c: HostileCase, closes = false): HostileCase => ({
  ...c,
  part: 'http',
  finding: `issue 22, finding ${n}`,
  ...(closes ? { closes } : {}),
});

/**
 * Issue 22: the findings of the hostile-HTTP probe and what the fuzzer (fuzz-http.reliability.ts) found
 * with them, each with the answer it must get. Before the fix, the Host cases ended the process, the
 * Upgrade cases got no answer and held their socket, and the rest were served or echoed unescaped.
 */
export const ISSUE_22_CASES: HostileCase[] = [
  // 1. A Host the URL parser rejects: restify's getUrl() threw outside any handler and Node exited.
  finding(1, users('Host a%zz', get('/healthz', 'a%zz'), 400, 'invalid_host')),
  finding(1, users('Host with a space', get('/healthz', 'a b'), 400, 'invalid_host')),
  finding(1, users('Host [', get('/healthz', '['), 400, 'invalid_host')),
  finding(1, apps('Host ] (fuzz seed 22, case 3)', get('/apps/%00/workers', ']'), 400, 'invalid_host')),
  finding(1, users('Host with port 99999999', get('/readyz', 'a:99999999'), 400, 'invalid_host')),
  finding(1, users('Host [::1 (unclosed)', get(`${U}/1`, '[::1'), 400, 'invalid_host')),
  finding(1, users('Host with a percent and a port', get(U, '%zz:1'), 400, 'invalid_host')),
  finding(
    1,
    users(
      'absolute-form target with a bad host',
      get('http://a%zz/healthz', '127.0.0.1'),
      400,
      'bad_request',
    ),
  ),
  // 2. Upgrade: answered like any request (this service upgrades nothing), then the connection closes.
  finding(
    2,
    users(
      'Upgrade: websocket on a missing user',
      upgrade('GET', `${U}/424242`, 'websocket'),
      404,
      'not_found',
    ),
    true,
  ),
  finding(
    2,
    users('Upgrade: h2c on an invalid id', upgrade('GET', `${U}/1.0`, 'h2c'), 400, 'invalid_id'),
    true,
  ),
  finding(
    2,
    users(
      'Upgrade: TLS/1.0 on a PUT without a body (fuzz seed 22, case 16)',
      upgrade('PUT', U, 'TLS/1.0'),
      415,
      'unsupported_media_type',
    ),
    true,
  ),
  // 3. A Host that carries a path: it rerouted GET /healthz to the list of users.
  finding(
    3,
    users(
      'Host x/UserService/users? on /healthz',
      get('/healthz', 'x/UserService/users?'),
      400,
      'invalid_host',
    ),
  ),
  finding(3, users('Host x?y on a user', get(`${U}/1`, 'x?y'), 400, 'invalid_host')),
  finding(3, users('Host with userinfo a@b', get(`${U}/1`, 'a@b'), 400, 'invalid_host')),
  finding(
    3,
    users(
      'two Host headers',
      get('/healthz', '127.0.0.1', 'Host: x/UserService/users?\r\n'),
      400,
      'invalid_host',
    ),
  ),
  // 5. Form field names with control characters or U+FFFF: the error must stay well-formed XML.
  finding(
    5,
    users(
      'unknown field name with a control character',
      put('id=7001&name=a&profession=b&x%01y=1'),
      400,
      'unknown_field',
    ),
  ),
  finding(
    5,
    users(
      'unknown field name with U+FFFF',
      put('id=7001&name=a&profession=b&x%EF%BF%BF=1'),
      400,
      'unknown_field',
    ),
  ),
  finding(
    5,
    users(
      'unknown field name with ESC and a NUL',
      put('id=7001&name=a&profession=b&%1B%00=1'),
      400,
      'unknown_field',
    ),
  ),
  // 5. With no token: a name nobody serves here (DNS rebinding), a form posted by a page of another origin.
  finding(
    5,
    users('Host evil.example (not in ALLOWED_HOSTS)', get(`${U}/1`, 'evil.example'), 403, 'host_not_allowed'),
  ),
  finding(
    5,
    users(
      'a form POST from another origin',
      raw({
        method: 'POST',
        path: U,
        headers: { 'Content-Type': FORM_TYPE, Origin: 'http://evil.example' },
        body: 'id=1&name=x&profession=y',
      }),
      403,
      'cross_origin',
    ),
  ),
  finding(
    5,
    users(
      'a form PUT from an opaque origin (Origin: null)',
      raw({
        method: 'PUT',
        path: U,
        headers: { 'Content-Type': FORM_TYPE, Origin: 'null' },
        body: 'id=7002&name=x&profession=y',
      }),
      403,
      'cross_origin',
    ),
  ),
  finding(
    5,
    apps(
      'a JSON POST from another origin',
      raw({
        method: 'POST',
        path: '/apps/reliability-app/domains',
        headers: { 'Content-Type': JSON_TYPE, Origin: 'http://evil.example' },
        body: '{"hostname":"evil.example"}',
      }),
      403,
      'cross_origin',
    ),
  ),
];

export const ALL_CASES: HostileCase[] = [...USER_CASES, ...HTTP_CASES, ...APPS_CASES, ...ISSUE_22_CASES];

/** Things no error body may carry: stack frames, file paths, Redis or driver messages. */
export const LEAK =
  /\bat \S+ \(|node:internal|\/(work|tmp|home|usr|var|root)\/|\.(ts|js|mjs|cjs):\d|ECONN|EPIPE|ENOENT|ReplyError|WRONGTYPE|NOAUTH|WRONGPASS|ERR |ioredis|restify|TypeError|RangeError|SyntaxError|Unexpected token/;
