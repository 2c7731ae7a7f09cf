#!/usr/bin/env python3
"""Independent implementation of docs/SPEC.md (User Management service), stdlib only.

Usage: stale-updates.py --port N --data DIR [--no-defects]

Store: an append-only journal DIR/users.log (one JSON line per change), replayed and
compacted at start-up. The collection "exists" once the journal exists.
Contains three deliberate defects (marked '# DEFECT n:'), switched off by --no-defects.
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote

DEFECTS = True
LOCK = threading.RLock()
ID_RE = re.compile(r'^-?[0-9]{1,18}$')
# characters XML 1.0 cannot carry
XML_BAD = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]')
XML_CT = 'application/xml; charset=utf-8'
JSON_CT = 'application/json; charset=utf-8'
OPERATIONS = b'<operations>GET, PUT, POST, DELETE</operations>'
SUCCESS = b'<result>success</result>'
FAILURE = b'<result>failure</result>'


class Store:
    def __init__(self, path):
        self.path = path
        self.log = os.path.join(path, 'users.log')
        self.apps_file = os.path.join(path, 'apps.json')
        os.makedirs(path, exist_ok=True)
        self.users = None  # list of dicts, insertion order; None = no collection yet
        self.fh = None
        if os.path.exists(self.log):
            users = []
            with open(self.log, encoding='utf-8') as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue  # torn last line
                    self._apply(users, rec)
            self.users = users
            self._compact()
        self.apps = {}
        if os.path.exists(self.apps_file):
            with open(self.apps_file, encoding='utf-8') as f:
                self.apps = json.load(f)

    @staticmethod
    def _apply(users, rec):
        op = rec.get('op')
        if op == 'put':
            users.append(rec['user'])
        elif op == 'post':
            for i, u in enumerate(users):
                if u['id'] == rec['user']['id']:
                    users[i] = rec['user']
        elif op == 'del':
            users[:] = [u for u in users if u['id'] != rec['id']]

    def _compact(self):
        tmp = self.log + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(json.dumps({'op': 'init'}) + '\n')
            for u in self.users:
                f.write(json.dumps({'op': 'put', 'user': u}) + '\n')
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.log)

    def _append(self, rec):
        if self.fh is None:
            self.fh = open(self.log, 'a', encoding='utf-8')
        self.fh.write(json.dumps(rec) + '\n')
        self.fh.flush()

    def ensure(self):
        """SVC-10: no collection yet -> create it holding the default user."""
        if self.users is None:
            self.users = [{'id': 1, 'name': 'Mahesh', 'profession': 'Teacher'}]
            self._compact()
        return self.users

    def find(self, uid):
        for u in self.ensure():
            if u['id'] == uid:
                return u
        return None

    def put(self, user):
        if self.find(user['id']) is not None:
            return False
        self.users.append(user)
        self._append({'op': 'put', 'user': user})
        return True

    def post(self, user):
        if self.find(user['id']) is None:
            return False
        if DEFECTS:
            # DEFECT 1: POST of an existing id answers success but never writes the new record.
            return True
        for i, u in enumerate(self.users):
            if u['id'] == user['id']:
                self.users[i] = user
        self._append({'op': 'post', 'user': user})
        return True

    def delete(self, uid):
        if self.find(uid) is None:
            return False
        victim = uid
        if DEFECTS:
            # DEFECT 2: off-by-one: removes the user listed right after {userid} (when there is one).
            idx = next(i for i, u in enumerate(self.users) if u['id'] == uid)
            if idx + 1 < len(self.users):
                victim = self.users[idx + 1]['id']
        self.users[:] = [u for u in self.users if u['id'] != victim]
        self._append({'op': 'del', 'id': victim})
        return True

    def save_apps(self):
        tmp = self.apps_file + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f:
            json.dump(self.apps, f)
        os.replace(tmp, self.apps_file)


STORE = None


def esc(s):
    return (s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
            .replace('\r', '&#13;'))


def user_xml(u):
    return '<user><id>%d</id><name>%s</name><profession>%s</profession></user>' % (
        u['id'], esc(u['name']), esc(u['profession']))


def now_iso():
    return datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'


HOST_RE = re.compile(r'^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$')


class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'outsider-impl/1'

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing
    def read_body(self):
        te = self.headers.get('Transfer-Encoding', '')
        if 'chunked' in te.lower():
            chunks = []
            while True:
                line = self.rfile.readline().strip()
                size = int(line.split(b';')[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b'\r\n', b'\n', b''):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b''.join(chunks)
        n = int(self.headers.get('Content-Length') or 0)
        return self.rfile.read(n) if n > 0 else b''

    def send(self, status, body=b'', ctype=None, head=False, extra=None):
        self.send_response(status)
        if ctype:
            self.send_header('Content-Type', ctype)
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)

    def json(self, status, obj):
        self.send(status, json.dumps(obj).encode('utf-8'), JSON_CT)

    def result(self, ok):
        self.send(200, SUCCESS if ok else FAILURE, XML_CT)

    def route(self):
        path = self.path.split('?', 1)[0]
        return [unquote(p) for p in path.split('/') if p != ''] if path.startswith('/') else None

    # ---- dispatch
    def handle_any(self, method):
        try:
            body = self.read_body() if method not in ('GET', 'HEAD') or self.headers.get('Content-Length') else b''
        except Exception:
            self.send(400, b'', extra={'Connection': 'close'})
            self.close_connection = True
            return
        parts = self.route()
        if parts and parts[0] == 'UserService' and len(parts) >= 2 and parts[1] == 'users' and len(parts) <= 3:
            return self.users(method, parts[2:], body)
        if parts and parts[0] == 'apps' and len(parts) in (3, 4) and parts[2] in ('domains', 'workers'):
            return self.apps(method, parts[1], parts[2], parts[3] if len(parts) == 4 else None, body)
        self.send(404, b'Not Found', 'text/plain; charset=utf-8', head=(method == 'HEAD'))

    # ---- section A
    def parse_form(self, body):
        ctype = (self.headers.get('Content-Type') or '').split(';')[0].strip().lower()
        if ctype != 'application/x-www-form-urlencoded':
            return None
        try:
            pairs = parse_qsl(body.decode('utf-8'), keep_blank_values=True, strict_parsing=bool(body),
                              errors='strict')
        except (ValueError, UnicodeDecodeError):
            return None
        form = {}
        for k, v in pairs:
            if k in form:
                return None
            form[k] = v
        if not all(k in form for k in ('id', 'name', 'profession')):
            return None
        if not ID_RE.match(form['id']):
            return None
        uid = int(form['id'])
        if not -2**63 <= uid < 2**63:
            return None
        if XML_BAD.search(form['name']) or XML_BAD.search(form['profession']):
            return None
        return {'id': uid, 'name': form['name'], 'profession': form['profession']}

    def users(self, method, rest, body):
        head = method == 'HEAD'
        if method == 'OPTIONS':
            return self.send(200, OPERATIONS, XML_CT, extra={'Allow': 'GET, HEAD, PUT, POST, DELETE, OPTIONS'})
        if not rest:
            if method in ('GET', 'HEAD'):
                with LOCK:
                    users = list(STORE.ensure())
                xml = '<users>' + ''.join(user_xml(u) for u in users) + '</users>'
                return self.send(200, xml.encode('utf-8'), XML_CT, head=head)
            if method in ('PUT', 'POST'):
                user = self.parse_form(body)
                if user is None:
                    return self.send(400, FAILURE, XML_CT)
                with LOCK:
                    ok = STORE.put(user) if method == 'PUT' else STORE.post(user)
                return self.result(ok)
            return self.send(405, b'', extra={'Allow': 'GET, HEAD, PUT, POST, OPTIONS'})
        sid = rest[0]
        if not ID_RE.match(sid):
            return self.send(404, b'', head=head)
        uid = int(sid)
        if method in ('GET', 'HEAD'):
            with LOCK:
                u = STORE.find(uid)
            if u is None:
                return self.send(404, b'', head=head)
            return self.send(200, user_xml(u).encode('utf-8'), XML_CT, head=head)
        if method == 'DELETE':
            with LOCK:
                ok = STORE.delete(uid)
            return self.result(ok)
        return self.send(405, b'', extra={'Allow': 'GET, HEAD, DELETE, OPTIONS'})

    # ---- section B
    def apps(self, method, app, kind, rid, body):
        if method == 'HEAD':
            return self.send(405, b'')
        data = None
        if method in ('POST', 'PUT', 'PATCH'):
            try:
                data = json.loads(body.decode('utf-8')) if body else {}
            except (ValueError, UnicodeDecodeError):
                return self.json(400, {'error': 'invalid JSON'})
            if not isinstance(data, dict):
                return self.json(400, {'error': 'expected a JSON object'})
        with LOCK:
            coll = STORE.apps.setdefault(app, {'domains': {}, 'workers': {}})[kind]
            if rid is None:
                if method == 'GET':
                    items = [r for r in coll.values() if not r.get('_deleting')]
                    return self.json(200, [self.visible(r) for r in items])
                if method == 'POST':
                    ts = now_iso()
                    rec = {'id': str(uuid.uuid4()), 'created_at': ts, 'updated_at': ts}
                    if kind == 'domains':
                        h = data.get('hostname')
                        if not isinstance(h, str) or not HOST_RE.match(h):
                            return self.json(422, {'error': 'hostname must be a host name'})
                        rec['hostname'] = h
                    else:
                        c = data.get('command', '')
                        if not isinstance(c, str):
                            return self.json(422, {'error': 'command must be a string'})
                        rec['command'] = c
                        rec['state'] = 'up'
                    coll[rec['id']] = rec
                    STORE.save_apps()
                    return self.json(201, self.visible(rec))
                return self.json(405, {'error': 'method not allowed'})
            rec = coll.get(rid)
            if rec is None or (rec.get('_deleting') and method != 'GET'):
                return self.json(404, {'error': 'not found'})
            if method == 'GET':
                return self.json(200, self.visible(rec))
            if method in ('PUT', 'PATCH'):
                if kind == 'domains':
                    h = data.get('hostname', rec['hostname'] if method == 'PATCH' else None)
                    if not isinstance(h, str) or not HOST_RE.match(h):
                        return self.json(422, {'error': 'hostname must be a host name'})
                    rec['hostname'] = h
                else:
                    c = data.get('command', rec['command'] if method == 'PATCH' else '')
                    if not isinstance(c, str):
                        return self.json(422, {'error': 'command must be a string'})
                    rec['command'] = c
                rec['updated_at'] = now_iso()
                STORE.save_apps()
                return self.json(200, self.visible(rec))
            if method == 'DELETE':
                if kind == 'domains':
                    del coll[rid]
                    STORE.save_apps()
                    if DEFECTS:
                        # DEFECT 3: the domain is removed, but the 200 answer carries {} instead of the domain.
                        return self.json(200, {})
                    return self.json(200, self.visible(rec))
                # workers: accepted, removed asynchronously (B-5, B-6)
                rec['_deleting'] = True
                rec['state'] = 'stopping'
                STORE.save_apps()
                threading.Timer(0.3, self.finish_worker_delete, (app, rid)).start()
                return self.json(202, {})
            return self.json(405, {'error': 'method not allowed'})

    @staticmethod
    def finish_worker_delete(app, rid):
        with LOCK:
            STORE.apps.get(app, {}).get('workers', {}).pop(rid, None)
            STORE.save_apps()

    @staticmethod
    def visible(rec):
        return {k: v for k, v in rec.items() if not k.startswith('_')}

    def do_GET(self): self.handle_any('GET')
    def do_HEAD(self): self.handle_any('HEAD')
    def do_PUT(self): self.handle_any('PUT')
    def do_POST(self): self.handle_any('POST')
    def do_DELETE(self): self.handle_any('DELETE')
    def do_OPTIONS(self): self.handle_any('OPTIONS')
    def do_PATCH(self): self.handle_any('PATCH')


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default backlog is 5: fifty new connections at once (USR-SIZE-01's batches) overflow
    # it, and a connection whose SYN is dropped several times waits past the suite's 15 s.
    request_queue_size = 256


def main():
    global STORE, DEFECTS
    ap = argparse.ArgumentParser()
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--data', required=True)
    ap.add_argument('--host', default='127.0.0.1')
    ap.add_argument('--no-defects', action='store_true')
    a = ap.parse_args()
    DEFECTS = not a.no_defects
    data = a.data
    if data.endswith('.json'):  # README example passes {data}/users.json: use its folder
        data = os.path.dirname(data) or '.'
    # finish pending asynchronous worker deletions from a previous run
    STORE = Store(data)
    for app in STORE.apps.values():
        for rid in [k for k, r in app.get('workers', {}).items() if r.get('_deleting')]:
            del app['workers'][rid]
    srv = Server((a.host, a.port), Handler)

    def stop(*_):
        raise SystemExit(0)
    signal.signal(signal.SIGTERM, stop)
    try:
        srv.serve_forever(poll_interval=0.1)
    except (SystemExit, KeyboardInterrupt):
        pass
    finally:
        srv.server_close()
        with LOCK:
            if STORE.fh:
                STORE.fh.flush()
                os.fsync(STORE.fh.fileno())


if __name__ == '__main__':
    main()
