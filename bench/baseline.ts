/**
 * The benchmark's baseline: the user service's hot paths on bare `node:http` + `ioredis`, with no
 * framework and no XML library. It issues the same Redis commands as server/src/users/store.ts
 * (HGETALL / HGET / HSETNX, WATCH + MULTI/EXEC on a per-user guard key over dedicated pooled
 * connections, MULTI/EXEC for delete, the initialisation script once) and writes the same response
 * bytes, so the difference to the reference server is the cost of the framework and the rendering.
 *
 * It is deliberately small and separate from the server (it imports nothing from server/src), runs
 * with Node's own type stripping (`node bench/baseline.ts`), and only covers what the benchmark
 * sends: it is not a second implementation of the spec (no 400/415/413 handling beyond the minimum).
 *
 * Env: PORT (required), HOST (127.0.0.1), REDIS_URL (required).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';

const REDIS_URL = process.env.REDIS_URL;
const PORT = Number(process.env.PORT);
const HOST = process.env.HOST || '127.0.0.1';
if (!REDIS_URL || !Number.isInteger(PORT)) throw new Error('baseline: set REDIS_URL and PORT');

const USERS = '{usersvc}:users';
const INITIALISED = '{usersvc}:initialised';
const GUARD_TTL_MS = 60_000;
const INITIALISE_SCRIPT = `
if redis.call('SET', KEYS[1], '1', 'NX') then
  redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
end
return 1`;
const DEFAULT_USER_JSON = JSON.stringify({ name: 'Mahesh', profession: 'Teacher' });

const redisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 2000,
  lazyConnect: true,
};
const redis = new Redis(REDIS_URL, { ...redisOptions, enableAutoPipelining: true });
await redis.connect();

/** Dedicated connections for WATCH transactions (same size as the server's pool). */
const POOL_SIZE = 8;
const idle: Redis[] = [];
const waiting: Array<(conn: Redis) => void> = [];
let opened = 0;
async function acquire(): Promise<Redis> {
  const conn = idle.pop();
  if (conn) return conn;
  if (opened < POOL_SIZE) {
    opened++;
    const fresh = new Redis(REDIS_URL as string, redisOptions);
    await fresh.connect();
    return fresh;
  }
  return new Promise((resolve) => waiting.push(resolve));
}
function release(conn: Redis): void {
  const next = waiting.shift();
  if (next) next(conn);
  else idle.push(conn);
}

let initialised = false;
async function ensureInitialised(): Promise<void> {
  if (initialised) return;
  await redis.eval(INITIALISE_SCRIPT, 2, INITIALISED, USERS, '1', DEFAULT_USER_JSON);
  initialised = true;
}

// ---- rendering: the exact bytes of the server (declaration, no whitespace, & < > and CR escaped) ----
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const SUCCESS = `${DECLARATION}<result>success</result>`;
const FAILURE = `${DECLARATION}<result>failure</result>`;
const NEEDS_ESCAPE = /[&<>\r]/;
function esc(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}
function userElement(id: string, json: string): string {
  const stored = JSON.parse(json) as { name: string; profession: string };
  return `<user><id>${id}</id><name>${esc(stored.name)}</name><profession>${esc(stored.profession)}</profession></user>`;
}

// ---- HTTP ----
const XML = 'application/xml; charset=utf-8';
const JSON_TYPE = 'application/json;charset=utf-8';
const ECHOABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string,
): void {
  const sent = req.headers['request-id'];
  res.writeHead(status, {
    'Request-Id': typeof sent === 'string' && ECHOABLE_REQUEST_ID.test(sent) ? sent : randomUUID(),
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function canonicalId(raw: string | null): string | undefined {
  if (raw === null || !/^-?[0-9]{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id < -2147483648 || id > 2147483647 ? undefined : String(id === 0 ? 0 : id);
}

async function listUsers(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  await ensureInitialised();
  const all = await redis.hgetall(USERS);
  const ids = Object.keys(all).sort((a, b) => Number(a) - Number(b));
  let children = '';
  for (const id of ids) children += userElement(id, all[id] as string);
  const body = children === '' ? `${DECLARATION}<users/>` : `${DECLARATION}<users>${children}</users>`;
  send(req, res, 200, XML, body);
}

async function getUser(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
  await ensureInitialised();
  const value = await redis.hget(USERS, id);
  if (value === null) {
    const message = `no user has the id ${id}`;
    return send(
      req,
      res,
      404,
      XML,
      `${DECLARATION}<error><code>not_found</code><message>${message}</message></error>`,
    );
  }
  send(req, res, 200, XML, DECLARATION + userElement(id, value));
}

async function writeUser(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  create: boolean,
): Promise<void> {
  const form = await readForm(req);
  const id = canonicalId(form.get('id'));
  const name = form.get('name');
  const profession = form.get('profession');
  if (id === undefined || !name || !profession) return send(req, res, 400, XML, FAILURE);
  const json = JSON.stringify({ name, profession });
  await ensureInitialised();
  if (create) {
    const ok = (await redis.hsetnx(USERS, id, json)) === 1;
    return send(req, res, ok ? 200 : 409, XML, ok ? SUCCESS : FAILURE);
  }
  const guard = `{usersvc}:guard:${id}`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const conn = await acquire();
    let outcome: 'missing' | 'conflict' | 'replaced';
    try {
      await conn.watch(guard);
      if (!(await conn.hexists(USERS, id))) {
        await conn.unwatch();
        outcome = 'missing';
      } else {
        const result = await conn
          .multi()
          .hset(USERS, id, json)
          .incr(guard)
          .pexpire(guard, GUARD_TTL_MS)
          .exec();
        outcome = result === null ? 'conflict' : 'replaced';
      }
    } finally {
      release(conn);
    }
    if (outcome !== 'conflict') {
      const ok = outcome === 'replaced';
      return send(req, res, ok ? 200 : 404, XML, ok ? SUCCESS : FAILURE);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * (attempt + 1)));
  }
  send(req, res, 503, XML, FAILURE);
}

async function deleteUser(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
  await ensureInitialised();
  const guard = `{usersvc}:guard:${id}`;
  const result = await redis.multi().hdel(USERS, id).incr(guard).pexpire(guard, GUARD_TTL_MS).exec();
  const ok = result?.[0]?.[1] === 1;
  send(req, res, ok ? 200 : 404, XML, ok ? SUCCESS : FAILURE);
}

const ITEM = /^\/UserService\/users\/([^/]+)\/?$/;
const COLLECTION = /^\/UserService\/users\/?$/;

async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';
  if (COLLECTION.test(path)) {
    if (method === 'GET' || method === 'HEAD') return listUsers(req, res);
    if (method === 'PUT') return writeUser(req, res, true);
    if (method === 'POST') return writeUser(req, res, false);
  }
  const item = ITEM.exec(path);
  if (item) {
    const id = canonicalId(decodeURIComponent(item[1] as string));
    if (id === undefined) return send(req, res, 400, XML, FAILURE);
    if (method === 'GET' || method === 'HEAD') return getUser(req, res, id);
    if (method === 'DELETE') return deleteUser(req, res, id);
  }
  send(req, res, 404, JSON_TYPE, '{"id":"not_found","message":"no such resource"}');
}

const server = http.createServer((req, res) => {
  route(req, res).catch((err: unknown) => {
    console.error(err);
    if (!res.headersSent) send(req, res, 500, XML, FAILURE);
    else res.destroy();
  });
});
server.keepAliveTimeout = 5_000;
server.listen(PORT, HOST, () => console.log(`baseline listening on http://${HOST}:${PORT}`));

const stop = () => {
  server.close();
  server.closeAllConnections();
  redis.disconnect();
  for (const conn of idle) conn.disconnect();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
