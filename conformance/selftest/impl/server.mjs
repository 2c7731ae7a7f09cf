#!/usr/bin/env node
// A small, independent implementation of SPEC.md (plain node:http, an in-memory store saved to a JSON
// file in the data folder) for the conformance suite's self-test. It shares no code with server/.
// `--defect NAME` switches on exactly one deliberate defect (see DEFECTS in defects.mjs); without it, the
// implementation is meant to pass every MUST and SHOULD rule, while choosing differently from the
// reference server wherever the spec is open (failure results answered 200, GET of an unknown id
// answered 204, list wrapper <userList>, no XML declaration, JSON Content-Type spelt differently,
// timestamps with a +00:00 offset).
//
// Usage: node server.mjs --port 8080 [--data DIR] [--defect NAME] [--shutdown-delay MS] [--ignore-sigterm 1]
//        [--lifetime MS] [--put-delay MS]
// --shutdown-delay: after SIGTERM, keep serving for MS before closing (a slow graceful shutdown);
// --ignore-sigterm: ignore SIGTERM altogether (only SIGKILL stops it); --lifetime MS: exit after MS
// whatever happens (for a self-test case that leaves it where the suite cannot stop it); --put-delay MS:
// every PUT takes MS longer (an implementation too slow for the size rule's time).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { DEFECTS } from './defects.mjs';

function args() {
  const out = {
    port: Number(process.env.PORT || 8080),
    data: process.env.DATA_DIR || '',
    defect: process.env.DEFECT || '',
  };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  return out;
}

const opts = args();
const defect = opts.defect;
if (defect && !(defect in DEFECTS)) {
  console.error(`unknown defect ${defect}; one of: ${Object.keys(DEFECTS).join(', ')}`);
  process.exit(2);
}
const has = (name) => defect === name;
const GRACE_MS = 300;

// --- user store: in memory, every change appended to a log in the data folder (one JSON line per
// change: a user stored, or {"del": id}), replayed at start. Appending keeps a write O(1) however many
// users there are (the size rules create 10,000).
const file = opts.data && !has('no-persistence') ? path.join(opts.data, 'users.log') : '';
/** In creation order: a Map keeps the order of insertion, and a user deleted and created again goes last. */
/** @type {Map<string, {id: string, name: string, profession: string}> | undefined} */
let users;
function apply(entry) {
  if (entry.del !== undefined) users.delete(entry.del);
  else users.set(entry.id, entry);
}
function load() {
  if (users) return users;
  users = new Map();
  if (file && fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line) apply(JSON.parse(line));
  } else {
    if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!has('no-default-user')) change({ id: '1', name: 'Ada', profession: 'Analyst' });
    else if (file) fs.writeFileSync(file, '');
  }
  return users;
}
/** Applies a change and logs it (a deletion that empties the collection is not logged with empty-not-saved). */
function change(entry) {
  apply(entry);
  if (!file || (has('empty-not-saved') && entry.del !== undefined && users.size === 0)) return;
  fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- representations
const esc = (text) =>
  has('unescaped-xml')
    ? text
    : text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
const field = (name, value) => (value === undefined ? '' : `<${name}>${esc(value)}</${name}>`);
const userXml = (u) =>
  `<user><id>${u.id}</id>${field('name', u.name)}${field('profession', u.profession)}</user>`;
const resultXml = (ok) => `<result>${ok ? 'success' : 'failure'}</result>`;

function send(res, status, type, body, headers = {}) {
  const bytes = Buffer.from(body, has('latin1-output') ? 'latin1' : 'utf8');
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.length, ...headers });
  res.end(bytes);
}
const xmlType = () => (has('xml-text-plain') ? 'text/plain' : 'application/xml');
const sendXml = (res, status, body, headers) => send(res, status, xmlType(), body, headers);
const failureStatus = () => (has('failure-500') ? 500 : 200);
const sendResult = (res, ok) => sendXml(res, ok ? 200 : failureStatus(), resultXml(ok));
const sendJson = (res, status, value) =>
  send(
    res,
    status,
    has('json-no-charset') ? 'application/json' : 'application/json; charset=UTF-8',
    JSON.stringify(value),
  );

function parseForm(text) {
  const fields = {};
  for (const part of text.split('&')) {
    if (!part) continue;
    const [k, v = ''] = part.split(/=(.*)/s);
    const decode = (s) => decodeURIComponent(has('form-plus-literal') ? s : s.replace(/\+/g, ' '));
    fields[decode(k)] = decode(v);
  }
  return fields;
}

function canonicalId(raw) {
  const text = String(raw ?? '').trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return undefined;
  return has('id-as-text') ? text : String(Number(text));
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function userFromForm(fields) {
  const id = canonicalId(fields.id);
  if (
    has('partial-user-kept') &&
    id !== undefined &&
    (fields.name !== undefined || fields.profession !== undefined)
  )
    return { id, name: fields.name, profession: fields.profession };
  if (id === undefined || typeof fields.name !== 'string' || typeof fields.profession !== 'string')
    return undefined;
  if (has('text-trimmed')) return { id, name: fields.name.trim(), profession: fields.profession.trim() };
  return { id, name: fields.name, profession: fields.profession };
}

// --- JSON resources
const apps = new Map();
const appOf = (name) => {
  if (!apps.has(name)) apps.set(name, { domains: new Map(), workers: new Map() });
  return apps.get(name);
};
const now = () => {
  const d = new Date();
  if (has('local-time')) {
    const p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }
  return d.toISOString().replace('Z', '+00:00');
};

/** domain-delete-race-202: the domains whose DELETE is under way. */
const removing = new WeakSet();
async function handleApps(req, res, parts) {
  const [, appName, kind, id] = parts;
  if (kind !== 'domains' && kind !== 'workers') return sendJson(res, 404, { id: 'not_found' });
  const app = appOf(appName);
  const store = app[kind];
  const json = async () => {
    try {
      return JSON.parse((await readBody(req)) || 'null');
    } catch {
      return undefined;
    }
  };
  if (id === undefined) {
    if (req.method === 'GET') return sendJson(res, 200, [...store.values()]);
    if (req.method !== 'POST') return sendJson(res, 405, { id: 'method_not_allowed' });
    const body = await json();
    const field = kind === 'domains' ? 'hostname' : 'command';
    if (!body || typeof body[field] !== 'string') return sendJson(res, 422, { id: 'invalid_params', field });
    const t = now();
    const item =
      kind === 'domains'
        ? { id: randomUUID(), hostname: body.hostname.toLowerCase(), created_at: t, updated_at: t }
        : { id: randomUUID(), command: body.command, state: 'up', created_at: t, updated_at: t };
    store.set(item.id, item);
    return sendJson(res, 201, item);
  }
  const item = store.get(id);
  if (!item) return sendJson(res, 404, { id: 'not_found' });
  if (req.method === 'GET') return sendJson(res, 200, item);
  if (req.method === 'PATCH' && kind === 'domains') {
    const body = await json();
    if (!body || typeof body.hostname !== 'string')
      return sendJson(res, 422, { id: 'invalid_params', field: 'hostname' });
    await sleep(has('domain-patch-race-partial') ? 250 : 2);
    const changed = { hostname: body.hostname.toLowerCase(), updated_at: now() };
    // A PATCH that writes the changed fields and reads back what is stored: after a concurrent DELETE, only those.
    if (has('domain-patch-race-partial') && !store.has(id)) return sendJson(res, 200, changed);
    Object.assign(item, changed);
    return sendJson(res, 200, item);
  }
  if (req.method === 'DELETE' && kind === 'domains' && has('domain-delete-race-202')) {
    if (removing.has(item)) return sendJson(res, 202, item);
    removing.add(item);
    await sleep(250);
    store.delete(id);
    return sendJson(res, 200, item);
  }
  if (req.method === 'DELETE' && kind === 'domains') {
    if (!has('domain-delete-keeps')) store.delete(id);
    if (has('domain-delete-empty')) return sendJson(res, 200, {});
    if (has('domain-delete-partial')) return sendJson(res, 200, { id: item.id });
    return sendJson(res, 200, item);
  }
  if (req.method === 'DELETE' && kind === 'workers') {
    if (item.state !== 'stopping') {
      item.state = 'stopping';
      item.updated_at = now();
      if (!has('worker-never-removed')) setTimeout(() => store.delete(id), GRACE_MS);
    } else if (has('worker-delete-again-200')) return sendJson(res, 200, item);
    if (has('worker-delete-200')) return sendJson(res, 200, {});
    if (has('worker-delete-body')) return sendJson(res, 202, item);
    return sendJson(res, 202, {});
  }
  return sendJson(res, 405, { id: 'method_not_allowed' });
}

// --- users
/** stale-list: the list answer rendered last, served again for 2 s whatever changed meanwhile. */
let listCache;
async function handleUsers(req, res, id) {
  const store = load();
  if (has('default-user-recreated') && store.size === 0 && (req.method === 'GET' || req.method === 'HEAD')) {
    change({ id: '1', name: 'Ada', profession: 'Analyst' });
  }
  if (id === undefined) {
    switch (req.method) {
      case 'GET':
      case 'HEAD': {
        let listed = [...store.keys()];
        if (has('list-misses-long-ids')) listed = listed.filter((k) => k.replace('-', '').length < 10);
        if (has('list-paged')) listed = listed.slice(0, 100);
        if (has('list-capped-1000')) listed = listed.slice(0, 1000);
        const body =
          has('stale-list') && listCache && Date.now() - listCache.at < 2000
            ? listCache.body
            : `<userList>${listed.map((k) => userXml(store.get(k))).join('')}</userList>`;
        if (has('stale-list') && (!listCache || listCache.body !== body))
          listCache = { at: Date.now(), body };
        if (req.method === 'HEAD' && has('head-with-body')) {
          const bytes = Buffer.from(body);
          req.socket.end(
            `HTTP/1.1 200 OK\r\nContent-Type: ${xmlType()}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n${body}`,
          );
          return;
        }
        if (req.method === 'HEAD' && has('head-other-headers')) return send(res, 200, 'text/html', body);
        return sendXml(res, 200, body);
      }
      case 'OPTIONS':
        return sendXml(
          res,
          200,
          `<operations>${has('options-wrong-body') ? 'GET, POST' : 'GET, PUT, POST, DELETE'}</operations>`,
          {
            Allow: 'GET, HEAD, PUT, POST, OPTIONS',
          },
        );
      case 'PUT':
      case 'POST': {
        if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
          return sendXml(res, 415, '<error>form expected</error>');
        }
        if (req.method === 'PUT' && has('put-500'))
          return send(res, 500, 'text/plain', 'NullPointerException');
        const user = userFromForm(parseForm(await readBody(req)));
        if (!user) return sendXml(res, 400, '<error>id (integer), name and profession expected</error>');
        if (req.method === 'PUT') {
          if (opts['put-delay']) await sleep(Number(opts['put-delay']));
          const same = store.get(user.id);
          if (has('put-equal-success') && same?.name === user.name && same?.profession === user.profession)
            return sendResult(res, true);
          if (store.has(user.id) && !has('put-overwrites')) return sendResult(res, false);
          if (has('put-not-atomic')) await sleep(250);
          change(user);
          return sendResult(res, true);
        }
        const current = store.get(user.id);
        if (!current && !has('post-creates')) return sendResult(res, false);
        if (has('default-user-fixed') && user.id === '1') return sendResult(res, true);
        change(has('post-partial') && current ? { ...current, name: user.name } : user);
        return sendResult(res, true);
      }
      default:
        return sendXml(res, 405, '<error>method not allowed</error>', {
          Allow: 'GET, HEAD, PUT, POST, OPTIONS',
        });
    }
  }
  const key = canonicalId(id);
  if (key === undefined) return sendXml(res, 404, '<error>no such user</error>');
  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      if (!store.has(key) && has('get-creates')) change({ id: key, name: '', profession: '' });
      const user = store.get(key);
      if (!user) {
        res.writeHead(204);
        return res.end();
      }
      return sendXml(res, 200, userXml(user));
    }
    case 'DELETE': {
      const partial = store.get(key);
      if (partial && (partial.name === undefined || partial.profession === undefined))
        return send(res, 500, 'text/plain', 'NullPointerException');
      const existed = store.has(key);
      if (existed && has('delete-not-atomic')) await sleep(250);
      if (existed) change({ del: key });
      return sendResult(res, existed || has('delete-unknown-success'));
    }
    default:
      return sendXml(res, 405, '<error>method not allowed</error>', { Allow: 'GET, HEAD, DELETE' });
  }
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'UserService' && parts[1] === 'users' && parts.length <= 3)
      return await handleUsers(req, res, parts[2]);
    if (parts[0] === 'apps' && parts.length >= 3 && parts.length <= 4)
      return await handleApps(req, res, parts);
    return send(res, 404, 'text/plain', 'not found');
  } catch (err) {
    if (!res.headersSent) send(res, 500, 'text/plain', String(err));
  }
});
server.listen(Number(opts.port), '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
const delay = Number(opts['shutdown-delay'] || 0);
process.on('SIGTERM', () => {
  if (opts['ignore-sigterm']) return;
  // A slow graceful shutdown: the port keeps answering for `delay` ms after the signal.
  setTimeout(stop, delay);
});
process.on('SIGINT', stop);
if (opts.lifetime) setTimeout(() => process.exit(0), Number(opts.lifetime)).unref();
