/**
 * The benchmark's baseline: the user service's hot paths on bare `node:http` + `ioredis`, with no
 * framework and no XML library. It issues the same Redis commands as server/src/users/store.ts and
 * keeps the same data (HGETALL / HGET; the create and delete scripts, which also keep the id index and
 * write a new version token, sent by SHA1; WATCH + MULTI/EXEC on a per-user guard key over dedicated
 * pooled connections, with the token; the initialisation script once) and writes the same response
 * bytes; updates of one id are combined per process and conflicts retried with the same bounded
 * backoff as the server (docs/concurrency.md), so the difference to the reference server is the cost of the framework and the rendering.
 *
 * It is deliberately small and separate from the server (from server/src it imports only the Redis key
 * names and the users' Lua, server/src/users/keys.ts, users/scripts.ts and apps/keys.ts, which are plain constants), runs
 * with Node's own type stripping (`node bench/baseline.ts`), and only covers what the benchmark
 * sends: it is not a second implementation of the spec (no 400/415/413 handling beyond the minimum).
 *
 * Env: PORT (required), HOST (127.0.0.1), REDIS_URL (required).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';
import { APP_KEYS, REMOVAL_GROUP } from '../server/src/apps/keys.ts';
import { XML_DECLARATION } from '../server/src/http/xml.ts';
import { USER_KEYS } from '../server/src/users/keys.ts';
import { RESULT_FAILURE, RESULT_SUCCESS } from '../server/src/users/render.ts';
import { USER_SCRIPTS } from '../server/src/users/scripts.ts';

const REDIS_URL = process.env.REDIS_URL;
const PORT = Number(process.env.PORT);
const HOST = process.env.HOST || '127.0.0.1';
if (!REDIS_URL || !Number.isInteger(PORT)) throw new Error('baseline: set REDIS_URL and PORT');

const USERS = USER_KEYS.users;
const GUARD_TTL_MS = 60_000;
const { initialise: INITIALISE_SCRIPT, create: CREATE_SCRIPT, delete: DELETE_SCRIPT } = USER_SCRIPTS;
/** Version tokens as the server writes them: unique across processes. */
const VERSION_PREFIX = randomUUID();
let changes = 0;
const nextVersion = () => `${VERSION_PREFIX}:${++changes}`;
const DEFAULT_USER_JSON = JSON.stringify({ name: 'Mahesh', profession: 'Teacher' });

const redisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 2000,
  lazyConnect: true,
};
const redis = new Redis(REDIS_URL, { ...redisOptions, enableAutoPipelining: true });
await redis.connect();
// The user scripts by SHA1 (ioredis sends EVALSHA, and EVAL once when Redis answers NOSCRIPT), as the server does.
redis.defineCommand('createUser', { numberOfKeys: 3, lua: CREATE_SCRIPT });
redis.defineCommand('deleteUser', { numberOfKeys: 4, lua: DELETE_SCRIPT });
const scripts = redis as unknown as {
  createUser(
    users: string,
    ids: string,
    version: string,
    id: string,
    json: string,
    token: string,
  ): Promise<number>;
  deleteUser(
    users: string,
    guard: string,
    ids: string,
    version: string,
    id: string,
    ttl: number,
    token: string,
  ): Promise<number>;
};

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
  await redis.eval(
    INITIALISE_SCRIPT,
    4,
    USER_KEYS.initialised,
    USERS,
    USER_KEYS.ids,
    USER_KEYS.version,
    '1',
    DEFAULT_USER_JSON,
    nextVersion(),
  );
  initialised = true;
}

// ---- rendering: the exact bytes of the server (declaration, no whitespace, & < > and CR escaped) ----
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
  location?: string,
): void {
  const sent = req.headers['request-id'];
  const headers: Record<string, string | number> = {
    'Request-Id': typeof sent === 'string' && ECHOABLE_REQUEST_ID.test(sent) ? sent : randomUUID(),
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  };
  if (location) headers.Location = location;
  res.writeHead(status, headers);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function readText(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(req));
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
  const body =
    children === '' ? `${XML_DECLARATION}<users/>` : `${XML_DECLARATION}<users>${children}</users>`;
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
      `${XML_DECLARATION}<error><code>not_found</code><message>${message}</message></error>`,
    );
  }
  send(req, res, 200, XML, XML_DECLARATION + userElement(id, value));
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
  if (id === undefined || !name || !profession) return send(req, res, 400, XML, RESULT_FAILURE);
  const json = JSON.stringify({ name, profession });
  await ensureInitialised();
  if (create) {
    const ok =
      (await scripts.createUser(USERS, USER_KEYS.ids, USER_KEYS.version, id, json, nextVersion())) === 1;
    return send(req, res, ok ? 200 : 409, XML, ok ? RESULT_SUCCESS : RESULT_FAILURE);
  }
  const outcome = await submitUpdate(id, json);
  const ok = outcome === 'replaced';
  send(req, res, outcome === 'busy' ? 503 : ok ? 200 : 404, XML, ok ? RESULT_SUCCESS : RESULT_FAILURE);
}

type UpdateOutcome = 'missing' | 'replaced' | 'busy';

/** One check-and-replace transaction: WATCH guard, HEXISTS, MULTI HSET INCR PEXPIRE EXEC. */
async function replaceIfExists(id: string, json: string): Promise<UpdateOutcome | 'conflict'> {
  const guard = USER_KEYS.guard(Number(id));
  const conn = await acquire();
  try {
    await conn.watch(guard);
    if (!(await conn.hexists(USERS, id))) {
      await conn.unwatch();
      return 'missing';
    }
    const result = await conn
      .multi()
      .hset(USERS, id, json)
      .incr(guard)
      .pexpire(guard, GUARD_TTL_MS)
      .set(USER_KEYS.version, nextVersion())
      .exec();
    return result === null ? 'conflict' : 'replaced';
  } finally {
    release(conn);
  }
}

/** Retries on conflict with exponential backoff and full jitter (2 ms doubling to 64 ms) for up to 2 s. */
async function replaceWithRetry(id: string, json: string): Promise<UpdateOutcome> {
  const deadline = Date.now() + 2000;
  for (let conflicts = 0; ; conflicts++) {
    const outcome = await replaceIfExists(id, json);
    if (outcome !== 'conflict') return outcome;
    const pause = Math.random() * Math.min(64, 2 * 2 ** conflicts);
    if (Date.now() + pause > deadline) return 'busy';
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Per id, one transaction at a time; the updates that arrive meanwhile wait together and the next
 * transaction writes the last of them, its outcome answering all of them.
 */
const running = new Map<string, Promise<unknown>>();
const nextBatch = new Map<string, { jsons: string[]; outcome: Promise<UpdateOutcome> }>();
function submitUpdate(id: string, json: string): Promise<UpdateOutcome> {
  const open = nextBatch.get(id);
  if (open) {
    open.jsons.push(json);
    return open.outcome;
  }
  const jsons = [json];
  const start = () => {
    if (nextBatch.get(id) === batch) nextBatch.delete(id);
    return replaceWithRetry(id, jsons[jsons.length - 1] as string);
  };
  const previous = running.get(id);
  const batch = { jsons, outcome: undefined as unknown as Promise<UpdateOutcome> };
  nextBatch.set(id, batch);
  batch.outcome = previous ? previous.then(start) : start();
  const tail = batch.outcome.catch(() => {});
  running.set(id, tail);
  tail.then(() => {
    if (running.get(id) === tail) running.delete(id);
  });
  return batch.outcome;
}

async function deleteUser(req: http.IncomingMessage, res: http.ServerResponse, id: string): Promise<void> {
  await ensureInitialised();
  const guard = USER_KEYS.guard(Number(id));
  const removed = await scripts.deleteUser(
    USERS,
    guard,
    USER_KEYS.ids,
    USER_KEYS.version,
    id,
    GUARD_TTL_MS,
    nextVersion(),
  );
  const ok = removed === 1;
  send(req, res, ok ? 200 : 404, XML, ok ? RESULT_SUCCESS : RESULT_FAILURE);
}

// ---- JSON resources under /apps: domains (create, delete) and workers (create, delete 202 + removal job) ----
// Same scripts and keys as server/src/apps/*/store.ts.
const DOMAIN_CREATE_SCRIPT = `
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1`;
const DOMAIN_DELETE_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return false end
local hostname = cjson.decode(current).hostname
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], hostname) == ARGV[1] then redis.call('HDEL', KEYS[2], hostname) end
return current`;
const WORKER_STOP_SCRIPT = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'missing' end
if current ~= ARGV[2] then return 'stale' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('XADD', KEYS[2], '*', 'app', ARGV[4], 'worker', ARGV[1], 'due', ARGV[5])
return 'ok'`;
const WORKER_COMPLETE_SCRIPT = `
local removed = 0
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and cjson.decode(current).state == 'stopping' then removed = redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('XACK', KEYS[2], ARGV[2], ARGV[3])
redis.call('XDEL', KEYS[2], ARGV[3])
return removed`;
const REMOVALS = APP_KEYS.removals;
const STOP_GRACE_MS = Number(process.env.WORKER_STOP_GRACE_MS || 1000);
const APP = /^\/apps\/([A-Za-z0-9._-]{1,100})\/(domains|workers)(?:\/([0-9a-f-]{36}))?\/?$/;
const NOT_FOUND = '{"id":"not_found","message":"no such resource"}';

const notFound = (kind: string, id: string) =>
  JSON.stringify({ id: 'not_found', message: `no ${kind} has the id ${id} in this app` });
const later = (previous: string) => new Date(Math.max(Date.now(), Date.parse(previous) + 1)).toISOString();

async function apps(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  match: RegExpExecArray,
): Promise<void> {
  const [, appId, kind, id] = match as unknown as [string, string, string, string | undefined];
  const method = req.method;
  const hashKey = APP_KEYS[kind as 'domains' | 'workers'](appId);
  if (kind === 'domains' && method === 'POST' && !id) {
    const hostname = String((JSON.parse(await readText(req)) as { hostname: string }).hostname).toLowerCase();
    const now = new Date().toISOString();
    const domainId = randomUUID();
    const stored = JSON.stringify({ hostname, created_at: now, updated_at: now });
    const added = await redis.eval(
      DOMAIN_CREATE_SCRIPT,
      2,
      hashKey,
      APP_KEYS.hostnames(appId),
      domainId,
      hostname,
      stored,
    );
    if (added !== 1) return send(req, res, 409, JSON_TYPE, '{"id":"conflict","message":"hostname taken"}');
    const body = JSON.stringify({ id: domainId, hostname, created_at: now, updated_at: now });
    return send(req, res, 201, JSON_TYPE, body, `/apps/${appId}/domains/${domainId}`);
  }
  if (kind === 'domains' && method === 'DELETE' && id) {
    const removed = await redis.eval(DOMAIN_DELETE_SCRIPT, 2, hashKey, APP_KEYS.hostnames(appId), id);
    if (typeof removed !== 'string') return send(req, res, 404, JSON_TYPE, notFound('domain', id));
    const stored = JSON.parse(removed) as { hostname: string; created_at: string; updated_at: string };
    const body = JSON.stringify({
      id,
      hostname: stored.hostname,
      created_at: stored.created_at,
      updated_at: stored.updated_at,
    });
    return send(req, res, 200, JSON_TYPE, body);
  }
  if (kind === 'workers' && method === 'POST' && !id) {
    const input = JSON.parse(await readText(req)) as { command: string; size?: string };
    const now = new Date().toISOString();
    const workerId = randomUUID();
    const worker = {
      command: input.command,
      size: input.size ?? 'standard',
      state: 'up',
      created_at: now,
      updated_at: now,
    };
    await redis.hset(hashKey, workerId, JSON.stringify(worker));
    return send(
      req,
      res,
      201,
      JSON_TYPE,
      JSON.stringify({ id: workerId, ...worker }),
      `/apps/${appId}/workers/${workerId}`,
    );
  }
  if (kind === 'workers' && method === 'DELETE' && id) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const expected = await redis.hget(hashKey, id);
      if (expected === null) return send(req, res, 404, JSON_TYPE, notFound('worker', id));
      const current = JSON.parse(expected) as { state: string; updated_at: string };
      if (current.state === 'stopping') return send(req, res, 202, JSON_TYPE, '{}');
      const next = JSON.stringify({ ...current, state: 'stopping', updated_at: later(current.updated_at) });
      const due = String(Date.now() + STOP_GRACE_MS);
      const outcome = await redis.eval(
        WORKER_STOP_SCRIPT,
        2,
        hashKey,
        REMOVALS,
        id,
        expected,
        next,
        appId,
        due,
      );
      if (outcome === 'ok') return send(req, res, 202, JSON_TYPE, '{}');
      if (outcome === 'missing') return send(req, res, 404, JSON_TYPE, notFound('worker', id));
    }
    return send(req, res, 503, JSON_TYPE, '{"id":"service_unavailable","message":"busy"}');
  }
  send(req, res, 404, JSON_TYPE, NOT_FOUND);
}

/** The removal consumer: XREADGROUP on its own blocking connection, each job carried out at its due time. */
const blocking = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
let stopping = false;
let held = 0;
async function removalLoop(): Promise<void> {
  await blocking.connect();
  const consumer = `baseline-${process.pid}`;
  while (!stopping) {
    try {
      if (held >= 100) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      await redis.xgroup('CREATE', REMOVALS, REMOVAL_GROUP, '0', 'MKSTREAM').catch(() => {});
      const reply = (await blocking.xreadgroup(
        'GROUP',
        REMOVAL_GROUP,
        consumer,
        'COUNT',
        100 - held,
        'BLOCK',
        2000,
        'STREAMS',
        REMOVALS,
        '>',
      )) as Array<[string, Array<[string, string[]]>]> | null;
      for (const [, entries] of reply ?? []) {
        for (const [jobId, fields] of entries) {
          const job = new Map<string, string>();
          for (let i = 0; i + 1 < fields.length; i += 2)
            job.set(fields[i] as string, fields[i + 1] as string);
          held++;
          setTimeout(
            () => {
              const key = APP_KEYS.workers(job.get('app') as string);
              redis
                .eval(
                  WORKER_COMPLETE_SCRIPT,
                  2,
                  key,
                  REMOVALS,
                  job.get('worker') as string,
                  REMOVAL_GROUP,
                  jobId,
                )
                .catch(() => {})
                .finally(() => held--);
            },
            Math.max(0, Number(job.get('due')) - Date.now()),
          );
        }
      }
    } catch {
      if (!stopping) await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
removalLoop().catch(() => {});

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
    if (id === undefined) return send(req, res, 400, XML, RESULT_FAILURE);
    if (method === 'GET' || method === 'HEAD') return getUser(req, res, id);
    if (method === 'DELETE') return deleteUser(req, res, id);
  }
  const app = APP.exec(path);
  if (app) return apps(req, res, app);
  send(req, res, 404, JSON_TYPE, NOT_FOUND);
}

const server = http.createServer((req, res) => {
  route(req, res).catch((err: unknown) => {
    console.error(err);
    if (!res.headersSent) send(req, res, 500, XML, RESULT_FAILURE);
    else res.destroy();
  });
});
server.keepAliveTimeout = 5_000;
server.listen(PORT, HOST, () => console.log(`baseline listening on http://${HOST}:${PORT}`));

const stop = () => {
  stopping = true;
  blocking.disconnect();
  server.close();
  server.closeAllConnections();
  redis.disconnect();
  for (const conn of idle) conn.disconnect();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
