#!/usr/bin/env node
// A small, independent implementation of SPEC.md (plain node:http, an in-memory store saved to a JSON
// file in the data folder) for the conformance suite's self-test. It shares no code with server/.
// `--defect NAME` switches on one deliberate defect (see DEFECTS in defects.mjs; `A,B` several, for the
// report tests that need a MUST and a SHOULD failure in one run); without it, the
// implementation is meant to pass every MUST and SHOULD rule, while choosing differently from the
// reference server wherever the spec is open (failure results answered 200, GET of an unknown id
// answered 204, list wrapper <userList>, no XML declaration, JSON Content-Type spelt differently,
// timestamps with a +00:00 offset).
//
// Usage: node server.mjs --port 8080 [--data DIR] [--defect NAME] [--shutdown-delay MS] [--ignore-sigterm 1]
//        [--lifetime MS] [--put-delay MS] [--write-delay MS] [--drop-reused-put N] [--no-apps 1]
// --shutdown-delay: after SIGTERM, keep serving for MS before closing (a slow graceful shutdown);
// --ignore-sigterm: ignore SIGTERM altogether (only SIGKILL stops it); --lifetime MS: exit after MS
// whatever happens (for a self-test case that leaves it where the suite cannot stop it); --put-delay MS:
// every PUT takes MS longer (an implementation too slow for the size rule's time); --write-delay MS: every
// request but GET, HEAD and OPTIONS takes MS longer (a slow but correct implementation);
// --drop-reused-put N: every Nth PUT that comes on a connection already used is not read, the connection
// closed: the transport race a client too busy to retire a kept-alive connection the server closed idle
// meets (the request goes out as the connection closes), made every N such PUTs; correct; --no-apps: no
// section B (every /apps path answers 404), as an implementation of section A only.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { COMPOUNDS, DEFECTS, EXCLUSIVE, SINGLES } from './defects.mjs';

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
// --defect a,b: one or several deliberate defects; a compound implementation (COMPOUNDS in defects.mjs)
// switches on several behaviours at once.
const defects = opts.defect ? opts.defect.split(',') : [];
for (const defect of defects)
  if (!(defect in DEFECTS) && !(defect in COMPOUNDS) && !(defect in SINGLES)) {
    console.error(
      `unknown defect ${defect}; one of: ${[...Object.keys(DEFECTS), ...Object.keys(COMPOUNDS), ...Object.keys(SINGLES)].join(', ')}`,
    );
    process.exit(2);
  }
for (const exclusive of EXCLUSIVE)
  if (exclusive.every((d) => defects.includes(d))) {
    console.error(`defects ${exclusive.join(' and ')} switch the same step: one at a time`);
    process.exit(2);
  }
const active = new Set(defects.flatMap((d) => (d in COMPOUNDS ? COMPOUNDS[d].behaviours : [d])));
const has = (name) => active.has(name);
const GRACE_MS = 300;

// --- user store: in memory, every change appended to a log in the data folder (one JSON line per
// change: a user stored, or {"del": id}), replayed at start. Appending keeps a write O(1) however many
// users there are (the size rules create 10,000).
const file = opts.data && !has('no-persistence') ? path.join(opts.data, 'users.log') : '';
/** In creation order: a Map keeps the order of insertion, and a user deleted and created again goes last. */
/** @type {Map<string, {id: string, name: string, profession: string}> | undefined} */
let users;
/** put-adds-duplicate-id: users stored beside the first with the same id, by id, listed after all others. */
const twins = new Map();
function apply(entry) {
  if (entry.twin) twins.set(entry.twin.id, [...(twins.get(entry.twin.id) ?? []), entry.twin]);
  else if (entry.del !== undefined) {
    users.delete(entry.del);
    twins.delete(entry.del);
  } else users.set(entry.id, entry);
}
function load() {
  if (users) return users;
  users = new Map();
  if (file && fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line) apply(JSON.parse(line));
  } else {
    if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!has('no-default-user')) {
      change({ id: '1', name: 'Ada', profession: 'Analyst' });
      if (has('two-default-users')) change({ id: '2', name: 'Bob', profession: 'Builder' });
    } else if (file) fs.writeFileSync(file, '');
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
        .replace(/'/g, '&apos;')
        // A raw CR reaches a reader as LF (XML 1.0 section 2.11): written as a reference, it stays a CR.
        .replace(/\r/g, '&#13;');
const field = (name, value) => (value === undefined ? '' : `<${name}>${esc(value)}</${name}>`);
const userXml = (u) =>
  `<user><id>${u.id}</id>${field('name', u.name)}${field('profession', u.profession)}</user>`;
const resultXml = (ok) =>
  `${has('result-declaration') ? '<?xml version="1.0" encoding="UTF-8"?>' : ''}<result>${ok ? (has('success-misspelt') ? 'succes' : 'success') : 'failure'}</result>`;

function send(res, status, type, body, headers = {}) {
  const bytes = Buffer.from(body, has('latin1-output') ? 'latin1' : 'utf8');
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': bytes.length, ...headers });
  res.end(bytes);
}
const xmlType = () => (has('xml-text-plain') ? 'text/plain' : 'application/xml');
const sendXml = (res, status, body, headers) =>
  has('json-everywhere')
    ? send(res, status, 'application/json', JSON.stringify(jsonOfXml(body)), headers)
    : send(res, status, xmlType(), body, headers);
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
  if (has('put-without-id-as-0') && fields.id === undefined && fields.name !== undefined)
    return { id: '0', name: fields.name, profession: fields.profession };
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
/**
 * stale-list: the list answer rendered last, served again for 60 s whatever changed meanwhile (long enough
 * that a read right after a change meets it however loaded the machine: it was 2 s).
 */
let listCache;
/**
 * write-busy-500, store-broken-by-race: each write takes WRITE_MS; one that arrives while another is under
 * way answers 500 and changes nothing: for that moment only (write-busy-500), or leaving the store broken,
 * every later request of the users answered 500 (store-broken-by-race).
 */
const WRITE_MS = 20;
let writesUnderWay = 0;
let storeBroken = false;
async function handleUsers(req, res, id) {
  if (has('store-broken-by-race') && storeBroken) return send(res, 500, 'text/plain', 'store unreadable');
  if (!(has('write-busy-500') || has('store-broken-by-race')) || READS.has(req.method))
    return handleUsersAlone(req, res, id);
  const overlapped = writesUnderWay > 0;
  writesUnderWay++;
  try {
    await sleep(WRITE_MS);
    if (!overlapped) return await handleUsersAlone(req, res, id);
    if (has('store-broken-by-race')) storeBroken = true;
    return send(res, 500, 'text/plain', 'concurrent write');
  } finally {
    writesUnderWay--;
  }
}
async function handleUsersAlone(req, res, id) {
  const store = has('whole-state-rewrite') ? await readWhole() : load();
  const change = (entry) => save(store, entry);
  if (pendingRemoval !== undefined && !READS.has(req.method)) {
    const { key, removed } = pendingRemoval;
    pendingRemoval = undefined;
    if (store.has(key)) {
      await change({ del: key });
      await afterDelete(store, key, removed);
    }
  }
  if (has('default-user-recreated') && store.size === 0 && (req.method === 'GET' || req.method === 'HEAD')) {
    await change({ id: '1', name: 'Ada', profession: 'Analyst' });
  }
  if (id === undefined) {
    switch (req.method) {
      case 'GET':
      case 'HEAD': {
        let listed = [...store.keys()];
        if (has('list-shows-deleted'))
          listed = [...listed, ...[...tombstones.keys()].filter((k) => !store.has(k))];
        if (has('list-misses-long-ids')) listed = listed.filter((k) => k.replace('-', '').length < 10);
        if (has('list-omits-non-ascii'))
          listed = listed.filter((k) => {
            const user = store.get(k) ?? tombstones.get(k);
            return /^\p{ASCII}*$/u.test(`${user.name}${user.profession}`);
          });
        // list-one-per-name: the list keyed by name, so of users sharing one only the first written shows.
        if (has('list-one-per-name')) {
          const names = new Set();
          listed = listed.filter((k) => {
            const { name } = store.get(k) ?? tombstones.get(k);
            return !names.has(name) && names.add(name);
          });
        }
        if (has('list-paged')) listed = listed.slice(0, 100);
        if (has('list-capped-1000')) listed = listed.slice(0, 1000);
        const body =
          has('stale-list') && listCache && Date.now() - listCache.at < 60_000
            ? listCache.body
            : has('list-stale-after-post') && listKept !== undefined
              ? listKept
              : `<userList>${[...listed.map((k) => store.get(k) ?? tombstones.get(k)), ...[...twins.values()].flat()].map(userXml).join('')}</userList>`;
        if (has('list-stale-after-post')) listKept = body;
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
        if (req.method === 'HEAD' && has('head-404')) {
          res.writeHead(404);
          return res.end();
        }
        return sendXml(res, 200, body);
      }
      case 'OPTIONS':
        return sendXml(
          res,
          200,
          `<operations>${has('options-wrong-body') ? 'GET, POST' : 'GET, PUT, POST, DELETE'}</operations>${has('operations-newline') ? '\n' : ''}`,
          {
            Allow: 'GET, HEAD, PUT, POST, OPTIONS',
          },
        );
      case 'PUT':
      case 'POST': {
        if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
          return sendXml(res, 415, '<error>form expected</error>');
        }
        const verb = has('verbs-swapped') ? (req.method === 'PUT' ? 'POST' : 'PUT') : req.method;
        if (req.method === 'PUT' && has('put-500'))
          return send(res, 500, 'text/plain', 'NullPointerException');
        const user = userFromForm(parseForm(await readBody(req)));
        if (!user) return sendXml(res, 400, '<error>id (integer), name and profession expected</error>');
        if (verb === 'PUT') {
          if (opts['put-delay']) await sleep(Number(opts['put-delay']));
          const same = store.get(user.id);
          if (has('put-equal-success') && same?.name === user.name && same?.profession === user.profession)
            return sendResult(res, true);
          if (has('write-lost-racing-create')) return sendResult(res, await createFromCopy(store, user));
          // put-adds-duplicate-id: "already there?" asks for an equal user, not for one with that id.
          if (has('put-adds-duplicate-id') && store.has(user.id)) {
            const equal = (u) => u.name === user.name && u.profession === user.profession;
            if ([store.get(user.id), ...(twins.get(user.id) ?? [])].some(equal))
              return sendResult(res, false);
            await change({ twin: user });
            return sendResult(res, true);
          }
          if (store.has(user.id) && !has('put-overwrites')) return sendResult(res, false);
          if (has('deleted-id-reserved') && tombstones.has(user.id)) return sendResult(res, false);
          if (
            has('identity-by-fields') &&
            [...store.values()].some((u) => u.name === user.name && u.profession === user.profession)
          )
            return sendResult(res, false);
          if (has('put-success-not-stored')) return sendResult(res, true);
          if (has('put-not-atomic')) await sleep(250);
          byIdCache.delete(user.id);
          listKept = undefined;
          await change(revived(user));
          return sendResult(res, !has('create-answers-failure'));
        }
        const current = has('first-user-equality') ? store.values().next().value : store.get(user.id);
        if (!current && !has('post-creates')) return sendResult(res, false);
        if (has('default-user-fixed') && user.id === '1') return sendResult(res, true);
        // post-same-values-failure: the answer counts the users changed, as an SQL UPDATE its rows.
        if (
          has('post-same-values-failure') &&
          current?.name === user.name &&
          current?.profession === user.profession
        )
          return sendResult(res, false);
        // An empty collection has no first user: post-creates, beside it, creates (no crash of the two together).
        if (has('first-user-equality') && current) await change({ ...user, id: current.id });
        else if (has('post-keeps-old')) await change(current);
        else await change(has('post-partial') && current ? { ...current, name: user.name } : user);
        return sendResult(res, true);
      }
      default:
        return sendXml(res, 405, '<error>method not allowed</error>', {
          Allow: 'GET, HEAD, PUT, POST, OPTIONS',
        });
    }
  }
  const written = readsAsWritten(req.method) ? String(id).trim() : canonicalId(id);
  if (written === undefined) return sendXml(res, 404, '<error>no such user</error>');
  const key =
    has('first-user-equality') && req.method === 'DELETE' ? (store.keys().next().value ?? written) : written;
  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      if (!store.has(key) && has('get-creates')) await change({ id: key, name: '', profession: '' });
      // get-serves-first-user: any id that exists is answered with the first user of the list.
      let user =
        has('get-serves-first-user') && store.has(key) ? store.values().next().value : store.get(key);
      // get-stale-after-post: the user as first read by id, while it is held (a POST does not renew it).
      if (user && has('get-stale-after-post')) {
        user = byIdCache.get(key) ?? user;
        byIdCache.set(key, user);
      }
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
      if (existed) {
        byIdCache.delete(key);
        listKept = undefined;
      }
      if (existed && has('delete-not-atomic')) await sleep(250);
      if (existed && has('delete-applies-late')) pendingRemoval = { key, removed: partial };
      else if (existed) {
        await change({ del: key });
        await afterDelete(store, key, partial);
      }
      return sendResult(res, existed || has('delete-unknown-success'));
    }
    default:
      return sendXml(res, 405, '<error>method not allowed</error>', { Allow: 'GET, HEAD, DELETE' });
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** get-stale-after-post: users as GET by id first served them; a PUT that stores or a DELETE that removes the id drops one, a POST does not. */
const byIdCache = new Map();
/** list-stale-after-post: the list's body as last answered; a PUT that stores or a DELETE that removes drops it, a POST does not. */
let listKept;
/**
 * delete-applies-late: a DELETE of an existing id answers success and leaves the user; the removal is made
 * when the next write of the users (any PUT, POST or DELETE, of any id) arrives, before that write.
 */
let pendingRemoval;
// --- Defects that no hand-written rule names (issue 33): the explorer (EXP-SEQ-01, and the explore command's concurrent rounds) must
// find them. Each is one switch of DEFECTS in defects.mjs; nothing here runs without its --defect.
/** read-id-as-written: GET and HEAD by id look the id up as the path writes it (007 is not 7). */
const readsAsWritten = (method) => has('read-id-as-written') && (method === 'GET' || method === 'HEAD');
/** Every deleted user's last record (list-shows-deleted, deleted-id-reserved read it; held in memory only). */
const tombstones = new Map();
/** deleted-user-revived: a deleted user's record, brought back by a later PUT of its id. */
const deleted = new Map();
async function afterDelete(store, key, removed) {
  tombstones.set(key, removed);
  if (has('deleted-user-revived')) deleted.set(key, removed);
  // delete-hits-plus-1000: the user with id N+1000 goes too.
  const neighbour = String(Number(key) + 1000);
  if (has('delete-hits-plus-1000') && store.has(neighbour)) await change({ del: neighbour });
}
/** A PUT stores the deleted record of its id, if any, instead of the form's fields (deleted-user-revived). */
function revived(user) {
  const old = has('deleted-user-revived') ? deleted.get(user.id) : undefined;
  deleted.delete(user.id);
  return old ?? user;
}
/**
 * write-lost-racing-create: a PUT copies the whole collection, pauses, then writes the copy back with
 * the new user: a change to another user made meanwhile is lost (the existence check is made after the
 * pause, so that PUTs of one id still exclude each other).
 */
async function createFromCopy(store, user) {
  const copy = new Map(store);
  await sleep(30);
  if (store.has(user.id)) return false;
  store.clear();
  for (const [k, v] of copy) store.set(k, v);
  await change(user);
  return true;
}

// --- compound implementations (issue 32): behaviours only the COMPOUNDS of defects.mjs switch on.

/** Saves a change: to the append log, or (whole-state-rewrite) the whole state to the data file. */
async function save(store, entry) {
  if (!has('whole-state-rewrite')) return change(entry);
  if (entry.del !== undefined) store.delete(entry.del);
  else store.set(entry.id, entry);
  // As the tutorial does: rewrite the whole file per write, with nothing ordering concurrent writers.
  await sleep(5);
  // whole-file-untorn: written aside, then renamed over the file, so concurrent writers lose each
  // other's changes but no reader ever sees a part of a file; without it, overlapping writes can
  // leave the file unreadable for good.
  if (has('whole-file-untorn')) {
    fs.writeFileSync(`${wholeFile()}.next`, JSON.stringify([...store.values()]));
    fs.renameSync(`${wholeFile()}.next`, wholeFile());
  } else await fs.promises.writeFile(wholeFile(), JSON.stringify([...store.values()]));
}

const wholeFile = () => path.join(opts.data || '.', 'users.json');

/** whole-state-rewrite: every request reads the whole file (and a file that does not parse fails it). */
async function readWhole() {
  const at = wholeFile();
  if (!fs.existsSync(at)) {
    await fs.promises.mkdir(path.dirname(at), { recursive: true });
    await fs.promises.writeFile(at, JSON.stringify([{ id: '1', name: 'Ada', profession: 'Analyst' }]));
  }
  const list = JSON.parse(await fs.promises.readFile(at, 'utf8'));
  return new Map(list.map((u) => [u.id, u]));
}

/** json-everywhere: the XML answers of this implementation, as JSON. */
function jsonOfXml(xml) {
  const un = (t) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const user = (x) => {
    const out = {};
    for (const [, k, v] of x.matchAll(/<(id|name|profession)>([\s\S]*?)<\/\1>/g)) out[k] = un(v);
    return out;
  };
  const root = /^<(\w+)>/.exec(xml)?.[1];
  if (root === 'userList') return [...xml.matchAll(/<user>[\s\S]*?<\/user>/g)].map((m) => user(m[0]));
  if (root === 'user') return user(xml);
  const text = /^<\w+>([\s\S]*)<\/\w+>$/.exec(xml)?.[1] ?? '';
  return { [root ?? 'error']: un(text) };
}

const answered = new WeakSet(); // the connections that carried a request
let reusedPuts = 0;
/** Whether `--drop-reused-put` drops this request (see the usage above). */
function dropsReusedPut(req) {
  const reused = answered.has(req.socket);
  answered.add(req.socket);
  return (
    Boolean(opts['drop-reused-put']) &&
    reused &&
    req.method === 'PUT' &&
    ++reusedPuts % Number(opts['drop-reused-put']) === 0
  );
}

const server = http.createServer(async (req, res) => {
  if (dropsReusedPut(req)) return req.socket.destroy();
  try {
    if (opts['write-delay'] && !READS.has(req.method)) await sleep(Number(opts['write-delay']));
    const url = new URL(req.url, 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'UserService' && parts[1] === 'users' && parts.length <= 3)
      return await handleUsers(req, res, parts[2]);
    if (parts[0] === 'apps' && !opts['no-apps'] && parts.length >= 3 && parts.length <= 4)
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
