/**
 * A grammar of raw HTTP/1.x requests for the process-level fuzzer (fuzz-http.reliability.ts): request
 * lines, header names and values (Host, Upgrade, Connection, Expect, Transfer-Encoding, Content-Length,
 * Authorization, Content-Type, Request-Id, Origin, duplicates, odd bytes) and bodies. A case is a pure
 * function of (seed, index), so any case can be replayed alone (FUZZ_SEED, FUZZ_CASE).
 */
import { FORM_TYPE, formBody } from '../../../../testing/form.ts';

/** mulberry32: a small, fast, seedable PRNG; good enough to pick grammar branches. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
type Choice<T> = T | ((rng: Rng) => T);
const pick = <T>(rng: Rng, items: readonly Choice<T>[]): T => {
  const item = items[Math.floor(rng() * items.length)] as Choice<T>;
  return typeof item === 'function' ? (item as (rng: Rng) => T)(rng) : item;
};
/** `[weight, choice]` pairs. */
const weighted = <T>(rng: Rng, items: ReadonlyArray<readonly [number, Choice<T>]>): T => {
  const total = items.reduce((sum, [w]) => sum + w, 0);
  let at = rng() * total;
  for (const [w, item] of items) {
    at -= w;
    if (at < 0) return typeof item === 'function' ? (item as (rng: Rng) => T)(rng) : item;
  }
  const last = items[items.length - 1]?.[1] as Choice<T>;
  return typeof last === 'function' ? (last as (rng: Rng) => T)(rng) : last;
};
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const chance = (rng: Rng, p: number) => rng() < p;
/** Bytes a header value or a path should not hold, and some that may. */
const oddByte = (rng: Rng) =>
  pick(rng, ['\x00', '\x01', '\x7f', '\x80', '\xff', '\t', ' ', '%', '"', '\\', '<', '&', '\u00e9', '\x0b']);
const oddText = (rng: Rng, max: number) =>
  Array.from({ length: int(rng, 1, max) }, () =>
    chance(rng, 0.4) ? oddByte(rng) : String.fromCharCode(int(rng, 0x21, 0x7e)),
  ).join('');

const methods: ReadonlyArray<readonly [number, Choice<string>]> = [
  [8, 'GET'],
  [3, 'HEAD'],
  [5, 'PUT'],
  [5, 'POST'],
  [3, 'DELETE'],
  [2, 'OPTIONS'],
  [1, 'PATCH'],
  [1, 'TRACE'],
  [1, 'CONNECT'],
  [1, (rng) => pick(rng, ['FOO', 'get', 'G ET', 'PRI', 'M-SEARCH', 'PROPFIND', ''])],
];

const targets: ReadonlyArray<readonly [number, Choice<string>]> = [
  [4, '/healthz'],
  [2, '/readyz'],
  [6, '/UserService/users'],
  [
    5,
    (rng) =>
      `/UserService/users/${pick(rng, ['1', '2', '-7', '007', '2147483648', '0x1', '%zz', '1.0', ''])}`,
  ],
  [3, (rng) => `/apps/${pick(rng, ['a', 'fuzz-app', '%00', '..'])}/${pick(rng, ['domains', 'workers'])}`],
  [1, '*'],
  [1, '//evil.example/UserService/users'],
  [1, (rng) => `http://${pick(rng, ['127.0.0.1', 'localhost', 'a%zz', 'x'])}/UserService/users`],
  [1, (rng) => `/UserService/users?${oddText(rng, 20)}`],
  [1, (rng) => `/${oddText(rng, 30)}`],
  [1, (rng) => `/UserService/users/${'9'.repeat(int(rng, 100, 9000))}`],
];

const versions: ReadonlyArray<readonly [number, Choice<string>]> = [
  [20, 'HTTP/1.1'],
  [3, 'HTTP/1.0'],
  [1, (rng) => pick(rng, ['HTTP/2.0', 'HTTP/1.2', 'HTTP/0.9', 'HTTP/1.1 x', 'http/1.1', ''])],
];

/** Host values: mostly what a client sends, then what the URL parser refuses or what smuggles a path. */
const hosts = (port: number): ReadonlyArray<readonly [number, Choice<string>]> => [
  [10, '127.0.0.1'],
  [4, `127.0.0.1:${port}`],
  [3, `localhost:${port}`],
  [1, '[::1]'],
  [2, (rng) => pick(rng, ['a%zz', 'a b', '[', 'a:99999999', ']', '[::1', 'a%', '%zz:1'])],
  [1, (rng) => pick(rng, ['x/UserService/users?', 'x/apps/a/domains#', 'x?y', 'a@b', 'a\\b'])],
  [1, (rng) => pick(rng, ['', ' ', 'evil.example', 'localhost.', 'LOCALHOST', '127.0.0.1:0', 'a:'])],
  [1, (rng) => oddText(rng, 12)],
];

interface Header {
  name: string;
  value: string;
}

/** One request in the making: its method and the bytes it became. */
export interface FuzzRequest {
  method: string;
  bytes: Buffer;
}

export interface FuzzCase {
  index: number;
  requests: FuzzRequest[];
  /** All requests, back to back (pipelined when there are several). */
  bytes: Buffer;
  /** Short description for reports. */
  summary: string;
}

function formText(rng: Rng): string {
  return weighted(rng, [
    [
      5,
      (r) =>
        formBody(
          { id: int(r, -5, 60), name: `fuzz${int(r, 0, 99)}`, profession: `p${int(r, 0, 9)}` },
          { encode: 'none' },
        ),
    ],
    [
      2,
      (r) => formBody({ id: int(r, -5, 60), name: oddText(r, 8), profession: 'x' }, { encode: 'component' }),
    ],
    [1, (r) => `id=1&name=a&profession=b&${oddText(r, 6)}=1`],
    [1, ''],
    [1, (r) => oddText(r, 40)],
  ]);
}

function body(rng: Rng, method: string): { text: string; type: string | undefined } {
  const withBody = method === 'PUT' || method === 'POST' ? chance(rng, 0.9) : chance(rng, 0.1);
  if (!withBody) return { text: '', type: chance(rng, 0.1) ? FORM_TYPE : undefined };
  return weighted<{ text: string; type: string | undefined }>(rng, [
    [6, (r) => ({ text: formText(r), type: FORM_TYPE })],
    [
      2,
      (r) => ({
        text: pick(r, ['{"hostname":"a.example"}', '{"command":"run"}', '{}', '[', '{"__proto__":{}}']),
        type: 'application/json',
      }),
    ],
    [
      1,
      (r) => ({
        text: oddText(r, 30),
        type: pick(r, ['text/plain', `${FORM_TYPE}; charset=latin1`, 'multipart/form-data', oddText(r, 10)]),
      }),
    ],
    [1, (r) => ({ text: formText(r), type: undefined })],
  ]);
}

function chunked(rng: Rng, text: string): string {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const n = int(rng, 1, Math.max(1, rest.length));
    parts.push(`${Buffer.byteLength(rest.slice(0, n), 'latin1').toString(16)}\r\n${rest.slice(0, n)}\r\n`);
    rest = rest.slice(n);
  }
  const end = weighted(rng, [
    [8, '0\r\n\r\n'],
    [1, '0\r\nX-Trailer: y\r\n\r\n'],
    [1, (r) => pick(r, ['', 'zz\r\n', '0\r\n', 'fffffffffffffffff\r\n'])],
  ]);
  return parts.join('') + end;
}

function oneRequest(rng: Rng, port: number): FuzzRequest {
  const method = weighted(rng, methods);
  const target = weighted(rng, targets);
  const version = weighted(rng, versions);
  const headers: Header[] = [];
  const add = (name: string, value: string) => headers.push({ name, value });

  if (!chance(rng, 0.03)) add(pick(rng, ['Host', 'Host', 'host', 'HOST']), weighted(rng, hosts(port)));
  if (chance(rng, 0.04)) add('Host', weighted(rng, hosts(port))); // a second one
  if (chance(rng, 0.08)) {
    add('Connection', pick(rng, ['Upgrade', 'upgrade', 'Upgrade, close', 'keep-alive, Upgrade']));
    add('Upgrade', pick(rng, ['websocket', 'h2c', 'WebSocket', 'TLS/1.0', oddText(rng, 8)]));
    if (chance(rng, 0.5)) add('Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ==');
  } else if (chance(rng, 0.05)) add('Upgrade', pick(rng, ['websocket', 'h2c']));
  if (chance(rng, 0.15))
    add('Connection', pick(rng, ['close', 'keep-alive', 'close, close', oddText(rng, 6)]));
  if (chance(rng, 0.06))
    add('Expect', pick(rng, ['100-continue', '100-Continue', 'nothing', oddText(rng, 6)]));
  if (chance(rng, 0.08))
    add('Authorization', pick(rng, ['Bearer x', 'bearer ', 'Basic YTpi', oddText(rng, 20)]));
  if (chance(rng, 0.06)) add('Request-Id', pick(rng, ['abc', 'x'.repeat(200), oddText(rng, 20)]));
  if (chance(rng, 0.06))
    add('Origin', pick(rng, ['null', 'http://evil.example', `http://127.0.0.1:${port}`, oddText(rng, 10)]));
  if (chance(rng, 0.05)) add(oddText(rng, 8), oddText(rng, 12)); // a header of odd bytes
  if (chance(rng, 0.02)) add('X-Folded', 'a\r\n b'); // obsolete line folding

  const { text, type } = body(rng, method);
  if (type !== undefined) add('Content-Type', type);
  if (chance(rng, 0.03)) add('Content-Type', 'text/plain');
  const encoding = chance(rng, 0.1)
    ? pick(rng, ['chunked', 'chunked', 'gzip', 'chunked, chunked', 'identity', 'gzip, chunked', ' chunked'])
    : undefined;
  let payload = text;
  if (encoding !== undefined) {
    add('Transfer-Encoding', encoding);
    if (encoding.trim().endsWith('chunked')) payload = chunked(rng, text);
  }
  const realLength = Buffer.byteLength(payload, 'latin1');
  const length = weighted<string | undefined>(rng, [
    [10, encoding === undefined && payload !== '' ? String(realLength) : undefined],
    [1, String(realLength)],
    [
      1,
      (r) =>
        pick(r, [
          String(realLength + 5),
          String(Math.max(0, realLength - 3)),
          '-1',
          'abc',
          '99999999999',
          ' 1',
          '0x10',
        ]),
    ],
    [1, undefined],
  ]);
  if (length !== undefined) add('Content-Length', length);
  if (chance(rng, 0.03)) add('Content-Length', String(realLength + 1)); // a conflicting second one
  if (chance(rng, 0.5)) add('Connection', 'close');

  const line = `${method} ${target} ${version}`.replace(/ +$/, chance(rng, 0.5) ? '' : ' ');
  const eol = chance(rng, 0.03) ? '\n' : '\r\n';
  const head = `${line}${eol}${headers.map((h) => `${h.name}: ${h.value}${eol}`).join('')}${eol}`;
  return { method, bytes: Buffer.from(head + payload, 'latin1') };
}

/** The case at `index` of the stream `seed`. */
export function fuzzCase(seed: number, index: number, port: number): FuzzCase {
  const rng = prng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const count = chance(rng, 0.1) ? int(rng, 2, 3) : 1;
  const requests = Array.from({ length: count }, () => oneRequest(rng, port));
  const bytes = Buffer.concat(requests.map((r) => r.bytes));
  const firstLine = bytes.toString('latin1').split(/\r?\n/)[0] ?? '';
  return { index, requests, bytes, summary: `${count}× ${JSON.stringify(firstLine.slice(0, 80))}` };
}
