#!/usr/bin/env python3
"""User Management service (section A: XML users, section B: JSON domains/workers).

Implementation 1. Standard library only.
Usage: python3 server.py --port PORT --data DIR [--no-defects]
"""
import argparse
import datetime
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
import uuid
from email.parser import BytesParser
from email.policy import HTTP as HTTP_POLICY
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit, unquote

DEFECTS = True

SUCCESS = b"<result>success</result>"
FAILURE = b"<result>failure</result>"
OPERATIONS = b"<operations>GET, PUT, POST, DELETE</operations>"
XML_TYPE = "application/xml; charset=utf-8"
JSON_TYPE = "application/json; charset=utf-8"
DEFAULT_USER = {"id": 1, "name": "Mahesh", "profession": "Teacher"}
WORKER_DELETE_DELAY = 0.3

INT_RE = re.compile(r"^[+-]?[0-9]+$")
HOST_RE = re.compile(
    r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$")
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def atomic_write_json(path, obj):
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(obj, ensure_ascii=False))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path):
    with open(path, "r", encoding="utf-8") as f:
        return json.loads(f.read())


class UserStore:
    """The user collection: DIR/users.json (a JSON array of users, the snapshot) plus
    DIR/users.journal (JSON lines: {"set": user} or {"del": id}) for the writes made since
    the snapshot; the journal is folded into the snapshot now and then."""

    def __init__(self, data_dir):
        self.path = os.path.join(data_dir, "users.json")
        self.journal_path = os.path.join(data_dir, "users.journal")
        self.lock = threading.Lock()
        self.mem = None          # id -> user (insertion ordered), None = no collection yet
        self.journal = None
        self.journal_lines = 0
        if not DEFECTS:
            self._recover()

    def _recover(self):
        try:
            users = read_json(self.path)
            self.mem = {u["id"]: u for u in users}
        except FileNotFoundError:
            self.mem = None
        try:
            with open(self.journal_path, "r", encoding="utf-8") as f:
                for line in f:
                    try:
                        op = json.loads(line)
                    except ValueError:
                        break  # a torn last line: that write never answered
                    if self.mem is None:
                        self.mem = {}
                    if "set" in op:
                        self.mem[op["set"]["id"]] = op["set"]
                    else:
                        self.mem.pop(op["del"], None)
        except FileNotFoundError:
            pass
        if self.mem is not None:
            self._compact()

    def _compact(self):
        atomic_write_json(self.path, list(self.mem.values()))
        if self.journal is not None:
            self.journal.close()
        self.journal = open(self.journal_path, "w", encoding="utf-8")
        self.journal_lines = 0

    def _log(self, op):
        self.journal.write(json.dumps(op, ensure_ascii=False) + "\n")
        self.journal.flush()
        self.journal_lines += 1
        if self.journal_lines > max(2000, len(self.mem)):
            self._compact()

    def _ensure(self):
        # SVC-10: a collection that does not exist yet is created holding the default user.
        if self.mem is None:
            self.mem = {DEFAULT_USER["id"]: dict(DEFAULT_USER)}
            self._compact()

    def _load_or_create_file(self):
        try:
            return read_json(self.path)
        except FileNotFoundError:
            users = [dict(DEFAULT_USER)]
            atomic_write_json(self.path, users)
            return users

    def read_all(self):
        if DEFECTS:
            return self._load_or_create_file()
        with self.lock:
            self._ensure()
            return list(self.mem.values())

    def get(self, uid):
        if DEFECTS:
            return next((u for u in self._load_or_create_file() if u["id"] == uid), None)
        with self.lock:
            self._ensure()
            return self.mem.get(uid)

    def put(self, user):
        """Add user when its id is free; True when added."""
        if DEFECTS:
            return self._rmw(lambda users: (False, False) if any(u["id"] == user["id"] for u in users)
                             else (users.append(user) or True, True))
        with self.lock:
            self._ensure()
            if user["id"] in self.mem:
                return False
            self.mem[user["id"]] = user
            self._log({"set": user})
            return True

    def post(self, user):
        """Replace the user with that id; True when it existed."""
        def fn(users):
            for i, u in enumerate(users):
                if u["id"] == user["id"]:
                    users[i] = user
                    return True, True
            return False, False
        if DEFECTS:
            return self._rmw(fn)
        with self.lock:
            self._ensure()
            if user["id"] not in self.mem:
                return False
            self.mem[user["id"]] = user
            self._log({"set": user})
            return True

    def delete(self, uid):
        """Remove the user with that id; True when it existed."""
        def fn(users):
            for i, u in enumerate(users):
                if u["id"] == uid:
                    del users[i]
                    return True, True
            return False, False
        if DEFECTS:
            found = self._rmw(fn)
            # DEFECT 1: deleting an id no user has answers success (and changes nothing).
            return True if not found else found
        with self.lock:
            self._ensure()
            if uid not in self.mem:
                return False
            del self.mem[uid]
            self._log({"del": uid})
            return True

    def _rmw(self, fn):
        # DEFECT 3: each write reads the whole file, changes it, sleeps 2 ms and writes the
        # whole file back, with no lock: concurrent writes lose each other's changes.
        users = self._load_or_create_file()
        changed, result = fn(users)
        time.sleep(0.002)
        if changed:
            atomic_write_json(self.path, users)
        return result


class AppStore:
    """Domains and workers of every app, kept in DIR/apps.json."""

    def __init__(self, data_dir):
        self.path = os.path.join(data_dir, "apps.json")
        self.lock = threading.RLock()
        with self.lock:
            state = self._load()
            # A worker whose asynchronous deletion was accepted before a stop is removed now.
            changed = False
            for app in state["apps"].values():
                for wid in [w for w, v in app["workers"].items() if v.get("_deleting")]:
                    del app["workers"][wid]
                    changed = True
            if changed:
                atomic_write_json(self.path, state)

    def _load(self):
        try:
            return read_json(self.path)
        except FileNotFoundError:
            return {"apps": {}}

    def _app(self, state, app_id, create=False):
        app = state["apps"].get(app_id)
        if app is None:
            app = {"domains": {}, "workers": {}}
            if create:
                state["apps"][app_id] = app
        return app

    def read(self, fn):
        with self.lock:
            return fn(self._load())

    def write(self, fn):
        with self.lock:
            state = self._load()
            changed, result = fn(state)
            if changed:
                atomic_write_json(self.path, state)
            return result

    def schedule_worker_removal(self, app_id, worker_id):
        def remove():
            def fn(state):
                app = state["apps"].get(app_id)
                if app and worker_id in app["workers"]:
                    del app["workers"][worker_id]
                    return True, None
                return False, None
            self.write(fn)
        t = threading.Timer(WORKER_DELETE_DELAY, remove)
        t.daemon = True
        t.start()


def xml_escape(text):
    if DEFECTS:
        # DEFECT 2: '&', '<' and '>' are written into the XML as they are.
        return text.replace("\r", "&#13;")
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\r", "&#13;"))


def user_xml(u):
    return ("<user><id>%d</id><name>%s</name><profession>%s</profession></user>"
            % (u["id"], xml_escape(u["name"]), xml_escape(u["profession"])))


def users_doc(users):
    body = '<?xml version="1.0" encoding="UTF-8"?><users>' + "".join(user_xml(u) for u in users) + "</users>"
    return body.encode("utf-8")


def user_doc(u):
    return ('<?xml version="1.0" encoding="UTF-8"?>' + user_xml(u)).encode("utf-8")


def parse_int(s):
    if s is None or not INT_RE.match(s):
        return None
    return int(s)


class BadRequest(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16  # one write per answer (headers + body)
    disable_nagle_algorithm = True
    server_version = "UserService-py1"

    def log_message(self, fmt, *args):
        pass

    # ---- plumbing -------------------------------------------------------
    def read_body(self):
        te = self.headers.get("Transfer-Encoding", "")
        if "chunked" in te.lower():
            chunks = []
            while True:
                line = self.rfile.readline()
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n > 0 else b""

    def send(self, status, body=b"", ctype=None, extra=None, head=False):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)

    def send_json(self, status, obj):
        self.send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), JSON_TYPE)

    def json_error(self, status, code, message):
        self.send_json(status, {"id": code, "message": message})

    def path_parts(self):
        path = urlsplit(self.path).path
        parts = [unquote(p) for p in path.split("/")]
        if parts and parts[0] == "":
            parts = parts[1:]
        if parts and parts[-1] == "":
            parts = parts[:-1]
        return parts

    def form(self, body):
        ctype = self.headers.get("Content-Type", "")
        if ctype.lower().startswith("multipart/form-data"):
            msg = BytesParser(policy=HTTP_POLICY).parsebytes(
                b"Content-Type: " + ctype.encode("latin-1") + b"\r\n\r\n" + body)
            fields = {}
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if name is not None and name not in fields:
                    payload = part.get_payload(decode=True) or b""
                    fields[name] = payload.decode("utf-8", "replace")
            return fields
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest()
        qs = parse_qs(text, keep_blank_values=True, encoding="utf-8", errors="strict")
        return {k: v[0] for k, v in qs.items()}

    def dispatch(self, method):
        try:
            parts = self.path_parts()
            if len(parts) >= 2 and parts[0] == "UserService" and parts[1] == "users":
                return self.users(method, parts[2:])
            if len(parts) >= 3 and parts[0] == "apps" and parts[2] in ("domains", "workers"):
                return self.apps(method, parts[1], parts[2], parts[3:])
            if method == "HEAD":
                return self.send(404, head=True)
            self.send(404, b"not found", "text/plain; charset=utf-8")
        except BadRequest:
            self.send(400, FAILURE, XML_TYPE)
        except Exception as e:  # pragma: no cover
            sys.stderr.write("error: %r\n" % (e,))
            self.send(500, b"internal error", "text/plain; charset=utf-8")

    do_GET = lambda self: self.dispatch("GET")
    do_HEAD = lambda self: self.dispatch("HEAD")
    do_PUT = lambda self: self.dispatch("PUT")
    do_POST = lambda self: self.dispatch("POST")
    do_DELETE = lambda self: self.dispatch("DELETE")
    do_OPTIONS = lambda self: self.dispatch("OPTIONS")
    do_PATCH = lambda self: self.dispatch("PATCH")

    # ---- section A ------------------------------------------------------
    def users(self, method, rest):
        store = self.server.users
        body = self.read_body()
        if method == "OPTIONS":
            return self.send(200, OPERATIONS, XML_TYPE,
                             {"Allow": "GET, HEAD, PUT, POST, DELETE, OPTIONS"})
        if not rest:
            if method in ("GET", "HEAD"):
                return self.send(200, users_doc(store.read_all()), XML_TYPE, head=(method == "HEAD"))
            if method in ("PUT", "POST"):
                f = self.form(body)
                uid = parse_int(f.get("id"))
                name, prof = f.get("name"), f.get("profession")
                if uid is None or name is None or prof is None:
                    return self.send(400, FAILURE, XML_TYPE)
                new = {"id": uid, "name": name, "profession": prof}
                ok = store.put(new) if method == "PUT" else store.post(new)
                return self.send(200, SUCCESS if ok else FAILURE, XML_TYPE)
            return self.send(405, b"", None, {"Allow": "GET, HEAD, PUT, POST, OPTIONS"})
        if len(rest) != 1:
            return self.send(404, b"", None, head=(method == "HEAD"))
        uid = parse_int(rest[0])
        if method in ("GET", "HEAD"):
            if uid is None:
                return self.send(404, b"", None, head=(method == "HEAD"))
            u = store.get(uid)
            if u is not None:
                return self.send(200, user_doc(u), XML_TYPE, head=(method == "HEAD"))
            return self.send(404, b"", None, head=(method == "HEAD"))
        if method == "DELETE":
            if uid is None:
                return self.send(404, FAILURE, XML_TYPE)

            ok = store.delete(uid)
            return self.send(200, SUCCESS if ok else FAILURE, XML_TYPE)
        return self.send(405, b"", None, {"Allow": "GET, HEAD, DELETE, OPTIONS"})

    # ---- section B ------------------------------------------------------
    def json_body(self, body):
        if not body.strip():
            return {}
        ctype = self.headers.get("Content-Type", "").lower()
        if ctype.startswith("application/x-www-form-urlencoded"):
            return self.form(body)
        try:
            obj = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None
        return obj if isinstance(obj, dict) else None

    def apps(self, method, app_id, kind, rest):
        store = self.server.apps
        body = self.read_body()
        head = method == "HEAD"
        if method == "HEAD":
            method = "GET"
        if len(rest) > 1:
            return self.json_error(404, "not_found", "no such resource")
        coll = kind  # "domains" or "workers"

        def visible(r):
            return {k: v for k, v in r.items() if not k.startswith("_")}

        if not rest:
            if method == "GET":
                items = store.read(lambda s: [visible(r) for r in
                                              store._app(s, app_id)[coll].values()])
                items.sort(key=lambda r: r.get("created_at", ""))
                data = json.dumps(items, ensure_ascii=False).encode("utf-8")
                return self.send(200, data, JSON_TYPE, head=head)
            if method == "POST":
                data = self.json_body(body)
                if data is None:
                    return self.json_error(400, "bad_request", "body must be a JSON object")
                res, err = self.new_resource(coll, data, str(uuid.uuid4()))
                if err:
                    return self.json_error(422, "invalid_params", err)

                def create(state):
                    store._app(state, app_id, True)[coll][res["id"]] = res
                    return True, res
                store.write(create)
                return self.send_json(201, visible(res))
            return self.json_error(405, "method_not_allowed", "method not allowed")

        rid = rest[0]
        if method == "GET":
            r = store.read(lambda s: store._app(s, app_id)[coll].get(rid))
            if r is None:
                return self.json_error(404, "not_found", "no such %s" % coll[:-1])
            data = json.dumps(visible(r), ensure_ascii=False).encode("utf-8")
            return self.send(200, data, JSON_TYPE, head=head)
        if method in ("PUT", "PATCH"):
            data = self.json_body(body)
            if data is None:
                return self.json_error(400, "bad_request", "body must be a JSON object")

            def update(state):
                app = store._app(state, app_id, True)
                cur = app[coll].get(rid)
                if cur is None:
                    if method == "PATCH" or not UUID_RE.match(rid):
                        return False, (404, None, None)
                    res, err = self.new_resource(coll, data, rid.lower())
                    if err:
                        return False, (422, None, err)
                    app[coll][rid] = res
                    return True, (201, res, None)
                res, err = self.updated_resource(coll, cur, data, method == "PUT")
                if err:
                    return False, (422, None, err)
                app[coll][rid] = res
                return True, (200, res, None)
            status, res, err = store.write(update)
            if status == 404:
                return self.json_error(404, "not_found", "no such %s" % coll[:-1])
            if status == 422:
                return self.json_error(422, "invalid_params", err)
            return self.send_json(status, visible(res))
        if method == "DELETE":
            if coll == "domains":
                def delete(state):
                    app = store._app(state, app_id)
                    return (True, app["domains"].pop(rid)) if rid in app["domains"] else (False, None)
                res = store.write(delete)
                if res is None:
                    return self.json_error(404, "not_found", "no such domain")
                return self.send_json(200, visible(res))

            def accept(state):
                app = store._app(state, app_id)
                w = app["workers"].get(rid)
                if w is None:
                    return False, False
                w["_deleting"] = True
                return True, True
            if not store.write(accept):
                return self.json_error(404, "not_found", "no such worker")
            store.schedule_worker_removal(app_id, rid)
            return self.send_json(202, {})
        return self.json_error(405, "method_not_allowed", "method not allowed")

    @staticmethod
    def new_resource(coll, data, rid):
        ts = now_iso()
        if coll == "domains":
            host = data.get("hostname")
            if not isinstance(host, str) or not HOST_RE.match(host):
                return None, "hostname must be a host name"
            return {"id": rid, "hostname": host, "created_at": ts, "updated_at": ts}, None
        res = {k: v for k, v in data.items()
               if k not in ("id", "created_at", "updated_at") and not k.startswith("_")}
        res.update({"id": rid, "created_at": ts, "updated_at": ts})
        return res, None

    @staticmethod
    def updated_resource(coll, cur, data, replace):
        res = dict(cur)
        if coll == "domains":
            if "hostname" in data or replace:
                host = data.get("hostname")
                if not isinstance(host, str) or not HOST_RE.match(host):
                    return None, "hostname must be a host name"
                res["hostname"] = host
        else:
            if replace:
                res = {k: v for k, v in cur.items() if k in ("id", "created_at") or k.startswith("_")}
            for k, v in data.items():
                if k not in ("id", "created_at", "updated_at") and not k.startswith("_"):
                    res[k] = v
        res["updated_at"] = now_iso()
        return res, None


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


def main():
    global DEFECTS
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--no-defects", action="store_true")
    args = ap.parse_args()
    DEFECTS = not args.no_defects
    os.makedirs(args.data, exist_ok=True)
    srv = Server(("127.0.0.1", args.port), Handler)
    srv.users = UserStore(args.data)
    srv.apps = AppStore(args.data)

    def on_term(signum, frame):
        threading.Thread(target=srv.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
