#!/usr/bin/env python3
"""User Management service, implementation 2 (standard library only).

State: one JSON document DIR/state.json = {"users": [...] | absent, "apps": {...}},
guarded by one lock and written atomically (temp file + os.replace).
Usage: python3 server.py --port PORT --data DIR [--no-defects]
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit, unquote

RESULT_OK = b"<result>success</result>"
RESULT_FAIL = b"<result>failure</result>"
OPS = b"<operations>GET, PUT, POST, DELETE</operations>"
JSON_CT = "application/json; charset=utf-8"
DEFAULT_USER = {"id": 1, "name": "Mahesh", "profession": "Teacher"}
ASYNC_DELETE_SECONDS = 0.25

_INT = re.compile(r"[+-]?\d+\Z", re.ASCII)
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")


class Config:
    defects = True


def xml_ct():
    if Config.defects:
        # DEFECT 2: every XML answer is labelled text/plain instead of application/xml.
        return "text/plain; charset=utf-8"
    return "application/xml; charset=utf-8"


def stamp():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def esc(s):
    out = []
    for ch in s:
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == "\r":
            out.append("&#13;")
        else:
            out.append(ch)
    return "".join(out)


def render_user(u):
    return "<user><id>{}</id><name>{}</name><profession>{}</profession></user>".format(
        u["id"], esc(u["name"]), esc(u["profession"]))


def valid_hostname(h):
    if not isinstance(h, str) or not h or len(h) > 253:
        return False
    labels = h[:-1].split(".") if h.endswith(".") else h.split(".")
    return all(_HOST_LABEL.match(l) for l in labels)


class State:
    """Snapshot DIR/state.json plus journal DIR/users.log (JSON lines of user changes since
    the snapshot). The caller of every method but __init__ holds self.lock."""

    def __init__(self, folder):
        os.makedirs(folder, exist_ok=True)
        self.file = os.path.join(folder, "state.json")
        self.tmp = os.path.join(folder, "state.json.tmp")
        self.logfile = os.path.join(folder, "users.log")
        self.lock = threading.Lock()
        self.log = None
        self.log_count = 0
        try:
            with open(self.file, encoding="utf-8") as f:
                doc = json.loads(f.read())
        except FileNotFoundError:
            doc = {"apps": {}}
        self.apps = doc["apps"]
        self.user_map = None if "users" not in doc else {u["id"]: u for u in doc["users"]}
        try:
            with open(self.logfile, encoding="utf-8") as f:
                for line in f:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        break
                    if self.user_map is None:
                        self.user_map = {}
                    if entry[0] == "set":
                        self.user_map[entry[1]["id"]] = entry[1]
                    else:
                        self.user_map.pop(entry[1], None)
        except FileNotFoundError:
            pass
        # Deletions accepted (202) before a stop are carried out now.
        for app in self.apps.values():
            for wid in [k for k, w in app.get("workers", {}).items() if w.get("_pending_delete")]:
                del app["workers"][wid]
        self.save()

    def save(self):
        doc = {"apps": self.apps}
        if self.user_map is not None:
            doc["users"] = list(self.user_map.values())
        with open(self.tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, ensure_ascii=False))
        os.replace(self.tmp, self.file)
        if self.log is not None:
            self.log.close()
        self.log = open(self.logfile, "w", encoding="utf-8")
        self.log_count = 0

    def record(self, entry):
        self.log.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self.log.flush()
        self.log_count += 1
        if self.log_count > max(2000, len(self.user_map)):
            self.save()

    def users(self):
        if self.user_map is None:
            self.user_map = {DEFAULT_USER["id"]: dict(DEFAULT_USER)}
            self.save()
        return self.user_map

    def set_user(self, user):
        self.users()[user["id"]] = user
        self.record(["set", user])

    def del_user(self, uid):
        del self.users()[uid]
        self.record(["del", uid])

    def app(self, app_id):
        return self.apps.setdefault(app_id, {"domains": {}, "workers": {}})


def public(resource):
    return {k: v for k, v in resource.items() if not k.startswith("_")}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16  # one write per answer (headers + body)
    disable_nagle_algorithm = True
    server_version = "UserService-py2"

    def log_message(self, *a):
        pass

    @property
    def state(self):
        return self.server.state

    def body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            data = b""
            while True:
                n = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if n == 0:
                    while self.rfile.readline().strip():
                        pass
                    return data
                data += self.rfile.read(n)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or "0")
        return self.rfile.read(length) if length else b""

    def answer(self, code, payload=b"", ctype=None, headers=(), with_body=True):
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if with_body and payload:
            self.wfile.write(payload)

    def xml(self, code, payload, **kw):
        self.answer(code, payload, xml_ct(), **kw)

    def json(self, code, obj):
        self.answer(code, json.dumps(obj, ensure_ascii=False).encode("utf-8"), JSON_CT)

    def handle_any(self):
        raw = self.body()
        segs = [unquote(s) for s in urlsplit(self.path).path.split("/") if s != ""]
        m = self.command
        try:
            if segs[:2] == ["UserService", "users"]:
                self.user_service(m, segs[2:], raw)
            elif len(segs) in (3, 4) and segs[0] == "apps" and segs[2] in ("domains", "workers"):
                self.app_service(m, segs[1], segs[2], segs[3] if len(segs) == 4 else None, raw)
            else:
                self.answer(404, b"Not Found", "text/plain; charset=utf-8", with_body=m != "HEAD")
        except Exception as e:  # pragma: no cover
            print("internal error:", repr(e), file=sys.stderr)
            self.answer(500, b"Internal Server Error", "text/plain; charset=utf-8")

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_OPTIONS = do_PATCH = handle_any

    # ------------------------------------------------------------ section A
    def parse_form(self, raw):
        try:
            pairs = parse_qsl(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
        except (UnicodeDecodeError, ValueError):
            return None
        form = {}
        for k, v in pairs:
            form.setdefault(k, v)
        if not {"id", "name", "profession"} <= form.keys() or not _INT.match(form["id"]):
            return None
        return {"id": int(form["id"]), "name": form["name"], "profession": form["profession"]}

    def user_service(self, m, rest, raw):
        if m == "OPTIONS":
            return self.xml(200, OPS, headers=[("Allow", "GET, HEAD, PUT, POST, DELETE, OPTIONS")])
        if not rest:
            if m in ("GET", "HEAD"):
                with self.state.lock:
                    listing = list(self.state.users().values())
                doc = ('<?xml version="1.0" encoding="UTF-8"?><users>'
                       + "".join(render_user(u) for u in listing) + "</users>").encode("utf-8")
                # DEFECT 3: HEAD of the list also sends the body after the headers.
                return self.xml(200, doc, with_body=(m == "GET" or Config.defects))
            if m == "PUT":
                user = self.parse_form(raw)
                if user is None:
                    return self.xml(400, RESULT_FAIL)
                with self.state.lock:
                    if user["id"] in self.state.users():
                        return self.xml(200, RESULT_FAIL)
                    self.state.set_user(user)
                return self.xml(200, RESULT_OK)
            if m == "POST":
                user = self.parse_form(raw)
                if user is None:
                    return self.xml(400, RESULT_FAIL)
                with self.state.lock:
                    if user["id"] in self.state.users():
                        self.state.set_user(user)
                        return self.xml(200, RESULT_OK)
                    if Config.defects:
                        # DEFECT 1: updating an unknown id creates the user and answers success.
                        self.state.set_user(user)
                        return self.xml(200, RESULT_OK)
                return self.xml(200, RESULT_FAIL)
            return self.answer(405, headers=[("Allow", "GET, HEAD, PUT, POST, OPTIONS")])
        if len(rest) != 1 or not _INT.match(rest[0]):
            return self.answer(404, with_body=False)
        uid = int(rest[0])
        if m in ("GET", "HEAD"):
            with self.state.lock:
                found = self.state.users().get(uid)
            if found is None:
                return self.answer(404)
            doc = ('<?xml version="1.0" encoding="UTF-8"?>' + render_user(found)).encode("utf-8")
            return self.xml(200, doc, with_body=(m == "GET"))
        if m == "DELETE":
            with self.state.lock:
                if uid in self.state.users():
                    self.state.del_user(uid)
                    return self.xml(200, RESULT_OK)
            return self.xml(200, RESULT_FAIL)
        return self.answer(405, headers=[("Allow", "GET, HEAD, DELETE, OPTIONS")])

    # ------------------------------------------------------------ section B
    def json_input(self, raw):
        if not raw.strip():
            return {}
        if (self.headers.get("Content-Type") or "").lower().startswith("application/x-www-form-urlencoded"):
            try:
                return dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
            except (UnicodeDecodeError, ValueError):
                return None
        try:
            val = json.loads(raw)
        except ValueError:
            return None
        return val if isinstance(val, dict) else None

    def not_found(self, what):
        self.json(404, {"id": "not_found", "message": "%s not found" % what})

    def app_service(self, m, app_id, kind, rid, raw):
        head = m == "HEAD"
        if head:
            m = "GET"
        st = self.state
        what = kind[:-1]
        if m == "GET":
            with st.lock:
                app = st.apps.get(app_id, {"domains": {}, "workers": {}})
                if rid is None:
                    out = [public(r) for r in app[kind].values()]
                else:
                    r = app[kind].get(rid)
                    out = public(r) if r else None
            if out is None:
                return self.not_found(what)
            return self.answer(200, json.dumps(out, ensure_ascii=False).encode("utf-8"), JSON_CT,
                               with_body=not head)
        if m == "DELETE" and rid is not None:
            with st.lock:
                coll = st.apps.get(app_id, {}).get(kind, {})
                r = coll.get(rid)
                if r is None:
                    return self.not_found(what)
                if kind == "domains":
                    del coll[rid]
                    st.save()
                    return self.json(200, public(r))
                r["_pending_delete"] = True
                st.save()
            t = threading.Timer(ASYNC_DELETE_SECONDS, self.server.finish_worker_delete, (app_id, rid))
            t.daemon = True
            t.start()
            return self.json(202, {})
        if m in ("POST", "PUT", "PATCH"):
            data = self.json_input(raw)
            if data is None:
                return self.json(400, {"id": "bad_request", "message": "body must be a JSON object"})
            fields = {k: v for k, v in data.items()
                      if k not in ("id", "created_at", "updated_at") and not k.startswith("_")}
            if kind == "domains" and "hostname" in fields and not valid_hostname(fields["hostname"]):
                return self.json(422, {"id": "invalid_params", "message": "hostname is not a host name"})
            if m == "POST" and rid is None:
                if kind == "domains" and "hostname" not in fields:
                    return self.json(422, {"id": "invalid_params", "message": "hostname is required"})
                now = stamp()
                if kind == "domains":
                    fields = {"hostname": fields["hostname"]}
                res = dict(fields, id=str(uuid.uuid4()), created_at=now, updated_at=now)
                with st.lock:
                    st.app(app_id)[kind][res["id"]] = res
                    st.save()
                return self.json(201, public(res))
            if m in ("PUT", "PATCH") and rid is not None:
                with st.lock:
                    cur = st.apps.get(app_id, {}).get(kind, {}).get(rid)
                    if cur is None:
                        return self.not_found(what)
                    if kind == "domains":
                        if m == "PUT" and "hostname" not in fields:
                            return self.json(422, {"id": "invalid_params", "message": "hostname is required"})
                        fields = {k: v for k, v in fields.items() if k == "hostname"}
                    if m == "PUT" and kind == "workers":
                        new = {k: v for k, v in cur.items() if k in ("id", "created_at") or k.startswith("_")}
                    else:
                        new = dict(cur)
                    new.update(fields)
                    new["updated_at"] = stamp()
                    st.app(app_id)[kind][rid] = new
                    st.save()
                return self.json(200, public(new))
        return self.json(405, {"id": "method_not_allowed", "message": "method not allowed"})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def finish_worker_delete(self, app_id, rid):
        with self.state.lock:
            workers = self.state.apps.get(app_id, {}).get("workers", {})
            if rid in workers:
                del workers[rid]
                self.state.save()


def main():
    ap = argparse.ArgumentParser(description="User Management service (implementation 2)")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--no-defects", action="store_true", help="turn the deliberate defects off")
    a = ap.parse_args()
    Config.defects = not a.no_defects
    server = Server(("127.0.0.1", a.port), Handler)
    server.state = State(a.data)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
