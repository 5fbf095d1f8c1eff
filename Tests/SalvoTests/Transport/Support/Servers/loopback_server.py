#!/usr/bin/env python3
"""Salvo's loopback HTTP test server (Python 3 standard library only).

The Swift integration tests start one instance per test process through
LoopbackServer.swift and run in parallel against it, so every stateful route
takes a <key> path segment chosen by the test.

Usage:
    python3 loopback_server.py [--port N] [--verbose] [--no-stdin-watch]

Binds 127.0.0.1 only (port 0, the default, picks a free port), prints exactly
one line "PORT <n>" to stdout once listening and nothing else to stdout.
It exits when its stdin reaches EOF, so it dies with the test process that
holds the other end of the pipe; pass --no-stdin-watch when running it by hand:
    python3 Tests/SalvoTests/Transport/Support/Servers/loopback_server.py --port 8080 --no-stdin-watch

Routes (all methods unless noted; JSON bodies unless noted):
    GET /_count?path=P      {"count": n}: requests seen for raw path P (any route counts, query excluded)
    /echo, /echo/...        method, raw path, raw query, headers in order, body_base64, body
    /status/N               status N, {"status","error","message"}; ?empty=1 no body;
                            ?retry_after=S adds Retry-After; 204 and 304 never have a body
    /slow?delay=S           sleeps S seconds, then {"slept": S}
    /slow/KEY?delay=S       the same; its own path, so /_count says when this request arrived
    /drop                   promises 1000 bytes, sends 100, then closes the socket
    /hangup                 reads the request, then closes the socket without a byte of answer
    /garbage                reads the request, answers a line that is not HTTP, then closes the socket
    /coding?content=C       200 "plain body" labelled Content-Encoding C (not encoded)
    /coding?transfer=T      200 "plain body" labelled Transfer-Encoding T, ended by closing the socket
    /text, /html            text/plain "not json at all"; a small text/html page
    /gzip?n=N               {"words": "salvo salvo …"} (N words, default 50), sent gzip-encoded:
                            Content-Encoding: gzip and a Content-Length counting the encoded bytes
    /redirect?to=U&code=302 redirect to U (absolute URL or path)
    /cookie                 Set-Cookie: session=secret-cookie-value; Path=/
    /secret-body?status=N   status N (default 200), a JSON token reply: access_token
                            "body-secret-456", refresh_token "refresh-secret-789", expires_in 3600
    /bytes?n=N              N bytes of application/octet-stream
    /headers?name=value...  the query pairs become response headers; body {}
    /auth/<key>/protected   401 + WWW-Authenticate: Bearer unless "Authorization: Bearer <token>"
    POST /auth/<key>/refresh     rotates token-n to token-(n+1); ?delay=S sleeps first
    POST /auth/<key>/config?fail_refresh=1   makes refresh answer 500 (0 turns it back off);
                            fail_refresh=401 makes it answer 401 {"error": "invalid_grant", ...}
    GET /auth/<key>/stats   {"refreshes": n, "token": current}
    /flaky/<key>?failures=N&status=503[&retry_after=S]   N failures, then {"ok": true, "attempt": k}
    /list/<key>/pages?page=&per_page=[&first=0]   page numbers (first page 1, or 0)
    /list/<key>/offset?offset=&limit=
    /list/<key>/cursor?cursor=&limit=             next cursor in body and X-Next-Cursor
    /list/<key>/link?page=&per_page=[&link_style=relative][&next_host=h:p]   RFC 8288 Link header
        every list takes total= (default 95), fail_page=P&fail_times=T (500 the first T times)
        and delay_page=P&delay=S; P is the page number for pages and link, the
        1-based position (offset // limit + 1) for offset and cursor.
    /catalog/...            the demo's book catalogue: see catalog_routes.py
    /wire/...               the raw request line and header lines, and any CR/LF/NUL in them: see wire_routes.py
    /challenge/...          401/407 authentication challenges: see challenge_routes.py
    /redirects/...          redirect loops: see redirect_routes.py
    /empty/...              2xx with a Content-Type and no body: see empty_routes.py
    /relative/...           a paged list with page-relative next links: see relative_routes.py
    /stream/...             streamed bodies (HTTP/1.1 chunked or long): byte patterns at any pace,
                            text and NDJSON lines, Server-Sent Events with drops, Last-Event-ID
                            resumption and per-key stats: see stream_routes.py
    /cache/...              a cacheable resource per key with ETags, failures on demand and
                            request counts: see cache_routes.py
    /upload/...             multipart and raw uploads of any size, parsed and hashed as they stream
                            in, with per-key failures and stats: see upload_routes.py
Unknown routes answer 404, malformed parameters 400, never a crash.
"""

import argparse
import base64
import gzip
import json
import math
import os
import re
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, unquote, urlencode

sys.dont_write_bytecode = True  # keep __pycache__ out of the Swift test target
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_routes  # noqa: E402  (the demo's book catalogue, /catalog/...)
import wire_routes  # noqa: E402  (raw request line and header checks, /wire/...)
import challenge_routes  # noqa: E402  (401/407 challenges, /challenge/...)
import redirect_routes  # noqa: E402  (redirect loops, /redirects/...)
import empty_routes  # noqa: E402  (2xx with a Content-Type and no body, /empty/...)
import relative_routes  # noqa: E402  (a list with page-relative next links, /relative/...)
import stream_routes  # noqa: E402  (chunked and long bodies, lines, Server-Sent Events, /stream/...)
import cache_routes  # noqa: E402  (a cacheable resource with ETags and failures, /cache/...)
import upload_routes  # noqa: E402  (multipart and raw uploads read as they stream in, /upload/...)

MAX_BODY = 64 * 1024 * 1024
MAX_DELAY = 120.0
DEFAULT_TOTAL = 95
DEFAULT_PAGE_SIZE = 10
HEADER_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
FRAMING_HEADERS = {"content-length", "transfer-encoding", "connection"}


class BadRequest(Exception):
    """A malformed parameter or body: answered with 400 and a JSON error."""


class State:
    """Everything the routes remember, behind one lock (handlers run on many threads)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}        # raw path -> requests seen
        self.auth = {}          # key -> {"token", "refreshes", "fail_refresh"}
        self.flaky = {}         # key -> requests seen
        self.page_failures = {} # (key, strategy, page) -> failures served

    def count_request(self, path):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1

    def request_count(self, path):
        with self.lock:
            return self.counts.get(path, 0)

    def auth_entry(self, key):
        """Returns the auth record for key; call with the lock held."""
        entry = self.auth.get(key)
        if entry is None:
            entry = {"token": "token-1", "refreshes": 0, "fail_refresh": 0}
            self.auth[key] = entry
        return entry

    def next_flaky_attempt(self, key):
        with self.lock:
            attempt = self.flaky.get(key, 0) + 1
            self.flaky[key] = attempt
            return attempt

    def should_fail_page(self, key, strategy, page, times):
        with self.lock:
            served = self.page_failures.get((key, strategy, page), 0)
            if served >= times:
                return False
            self.page_failures[(key, strategy, page)] = served + 1
            return True


STATE = State()


# Query helpers: the raw query is kept for /echo; routes read decoded values.

def query_dict(raw_query):
    return dict(parse_qsl(raw_query, keep_blank_values=True))


def int_param(query, name, default=None, minimum=None, maximum=None):
    raw = query.get(name)
    if raw is None or raw == "":
        if default is None:
            raise BadRequest(f"missing query parameter '{name}'")
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"query parameter '{name}' must be an integer, got {raw!r}")
    if minimum is not None and value < minimum:
        raise BadRequest(f"query parameter '{name}' must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise BadRequest(f"query parameter '{name}' must be <= {maximum}, got {value}")
    return value


def delay_param(query, name):
    raw = query.get(name)
    if raw is None or raw == "":
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        raise BadRequest(f"query parameter '{name}' must be a number, got {raw!r}")
    if not (0.0 <= value <= MAX_DELAY):
        raise BadRequest(f"query parameter '{name}' must be between 0 and {MAX_DELAY:g}")
    return value


def number_json(value):
    """Keeps 2 as 2 and 0.25 as 0.25 in JSON."""
    return int(value) if float(value).is_integer() else value


def items_for(start, count, total):
    """Items with ids start+1 ... (1-based ids), clipped to total."""
    end = min(start + count, total)
    return [{"id": i, "name": f"Item {i}"} for i in range(start + 1, end + 1)]


def encode_cursor(offset):
    return base64.urlsafe_b64encode(f"salvo:{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor):
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        text = base64.urlsafe_b64decode(padded.encode()).decode()
        prefix, _, number = text.partition(":")
        offset = int(number)
        if prefix != "salvo" or offset < 0:
            raise ValueError
        return offset
    except (ValueError, UnicodeError):
        raise BadRequest(f"invalid cursor {cursor!r}")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "SalvoLoopback/1"
    # Headers and body go out in two writes; with Nagle on, the client's delayed ACK
    # stalls every keep-alive response by ~40 ms.
    disable_nagle_algorithm = True
    verbose = False

    def version_string(self):
        return self.server_version

    # Any method reaches route(); BaseHTTPRequestHandler looks up do_<METHOD>.
    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.route
        raise AttributeError(name)

    def log_message(self, format, *args):
        if self.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    # --- Plumbing

    def split_target(self):
        """Raw path (still percent-encoded) and raw query of the request target."""
        target = self.path
        if "://" in target.split("?", 1)[0]:  # absolute-form target
            rest = target.split("://", 1)[1]
            slash = rest.find("/")
            target = rest[slash:] if slash >= 0 else "/"
        path, _, query = target.partition("?")
        path = path.split("#", 1)[0]
        return path, query

    def read_body(self):
        encoding = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in encoding:
            return self.read_chunked_body()
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            size = int(length)
        except ValueError:
            raise BadRequest(f"invalid Content-Length {length!r}")
        if size < 0 or size > MAX_BODY:
            raise BadRequest(f"unsupported Content-Length {size}")
        body = self.rfile.read(size)
        if len(body) != size:
            raise BadRequest("request body shorter than its Content-Length")
        return body

    def read_chunked_body(self):
        chunks = []
        received = 0
        while True:
            line = self.rfile.readline(65537)
            if not line:
                raise BadRequest("chunked body ended early")
            size_text = line.split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise BadRequest(f"invalid chunk size {size_text.decode('latin-1')!r}")
            if size == 0:
                break
            received += size
            if received > MAX_BODY:
                raise BadRequest("chunked body too large")
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                raise BadRequest("chunk shorter than its size")
            chunks.append(chunk)
            self.rfile.readline(65537)  # CRLF after the chunk data
        while True:  # trailers, up to the blank line
            line = self.rfile.readline(65537)
            if line in (b"\r\n", b"\n", b""):
                break
        return b"".join(chunks)

    def respond(self, status, body=b"", content_type="application/json", headers=()):
        """Sends a complete response; Content-Length always, except where HTTP forbids a body."""
        self.send_response(status)
        overridden = {name.lower() for name, _ in headers}
        if status in (204, 304) or 100 <= status < 200:
            body = b""
        else:
            if content_type and "content-type" not in overridden:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def cut_connection(self):
        """Closes the socket mid-response, the way a dying server or a cut network would."""
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()

    def respond_json(self, status, payload, headers=()):
        body = json.dumps(payload).encode()
        self.respond(status, body, "application/json", headers)

    def send_error(self, code, message=None, explain=None):
        """JSON instead of the default HTML page (malformed request lines, oversized headers)."""
        self.close_connection = True
        try:
            body = json.dumps({"status": code, "error": message or "bad request"}).encode()
            self.send_response(code, message)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD" and code >= 200 and code not in (204, 304):
                self.wfile.write(body)
        except OSError:
            pass

    # --- Dispatch

    def route(self):
        path, raw_query = self.split_target()
        STATE.count_request(path)
        if path.startswith("/upload/"):
            return self.route_upload(path, raw_query)
        try:
            body = self.read_body()
        except BadRequest as error:
            self.close_connection = True  # the rest of the stream can't be trusted
            self.respond_json(400, {"error": str(error)})
            return
        query = query_dict(raw_query)
        segments = [unquote(part) for part in path.split("/")[1:]]
        try:
            self.dispatch(path, raw_query, query, segments, body)
        except BadRequest as error:
            self.respond_json(400, {"error": str(error)})
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # never let a bug take the server down
            self.close_connection = True
            self._headers_buffer = []  # drop a half-built response
            try:
                self.respond_json(500, {"error": f"server error: {error!r}"})
            except OSError:
                pass

    def route_upload(self, path, raw_query):
        """Upload routes read the body themselves, as it arrives, so it is never held whole."""
        segments = [unquote(part) for part in path.split("/")[1:]]
        try:
            if not upload_routes.handle(self, segments[1:], query_dict(raw_query), int_param):
                self.close_connection = True  # the unread body can't be skipped safely
                self.respond_json(404, {"error": "not found", "path": path})
        except BadRequest as error:
            self.close_connection = True
            self.respond_json(400, {"error": str(error)})
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # never let a bug take the server down
            self.close_connection = True
            self._headers_buffer = []
            try:
                self.respond_json(500, {"error": f"server error: {error!r}"})
            except OSError:
                pass

    def dispatch(self, path, raw_query, query, segments, body):
        head = segments[0] if segments else ""
        rest = segments[1:]
        if head == "echo":
            return self.echo(path, raw_query, body)
        if head == "_count" and not rest:
            return self.count(query)
        if head == "status" and len(rest) == 1:
            return self.status(rest[0], query)
        if head == "slow" and len(rest) <= 1:
            return self.slow(query)
        if head == "coding" and not rest:
            return self.coding(query)
        if head == "drop" and not rest:
            return self.drop()
        if head == "hangup" and not rest:
            return self.cut_connection()
        if head == "garbage" and not rest:
            self.wfile.write(b"THIS IS NOT HTTP\r\n\r\n")
            return self.cut_connection()
        if head == "text" and not rest:
            return self.respond(200, b"not json at all", "text/plain; charset=utf-8")
        if head == "gzip" and not rest:
            words = int_param(query, "n", default=50, minimum=0, maximum=100_000)
            body = json.dumps({"words": " ".join(["salvo"] * words)}).encode()
            return self.respond(200, gzip.compress(body, mtime=0), "application/json", [("Content-Encoding", "gzip")])
        if head == "html" and not rest:
            page = b"<!doctype html>\n<html><head><title>Salvo</title></head><body><p>Not JSON.</p></body></html>\n"
            return self.respond(200, page, "text/html; charset=utf-8")
        if head == "redirect" and not rest:
            return self.redirect(query)
        if head == "cookie" and not rest:
            return self.respond_json(200, {"ok": True}, [("Set-Cookie", "session=secret-cookie-value; Path=/")])
        if head == "secret-body" and not rest:
            status = int_param(query, "status", 200, 200, 599)
            return self.respond_json(status, {"access_token": "body-secret-456", "refresh_token": "refresh-secret-789", "expires_in": 3600})
        if head == "bytes" and not rest:
            return self.byte_stream(query)
        if head == "headers" and not rest:
            return self.echo_headers(raw_query)
        if head == "auth" and len(rest) == 2:
            return self.auth(rest[0], rest[1], query)
        if head == "flaky" and len(rest) == 1:
            return self.flaky(rest[0], query)
        if head == "list" and len(rest) == 2:
            return self.paged_list(rest[0], rest[1], path, query)
        if head == "catalog" and catalog_routes.handle(self, rest, query, int_param, body):
            return None
        if head == "wire" and wire_routes.handle(self):
            return None
        if head == "challenge" and challenge_routes.handle(self, rest, query):
            return None
        if head == "redirects" and redirect_routes.handle(self, rest, query, int_param):
            return None
        if head == "empty" and empty_routes.handle(self, rest, query):
            return None
        if head == "relative" and relative_routes.handle(self, rest, query, int_param):
            return None
        if head == "cache" and cache_routes.handle(self, rest, query, delay_param):
            return None
        if head == "stream" and stream_routes.handle(self, rest, query, int_param, delay_param):
            return None
        self.respond_json(404, {"error": "not found", "path": path})

    # --- Simple routes

    def echo(self, path, raw_query, body):
        self.respond_json(200, {
            "method": self.command,
            "path": path,
            "query": raw_query,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body_base64": base64.b64encode(body).decode(),
            "body": body.decode("utf-8", errors="replace"),
        })

    def count(self, query):
        if "path" not in query:
            raise BadRequest("missing query parameter 'path'")
        self.respond_json(200, {"count": STATE.request_count(query["path"])})

    def status(self, raw_status, query):
        try:
            status = int(raw_status)
        except ValueError:
            raise BadRequest(f"status must be an integer, got {raw_status!r}")
        if not (200 <= status <= 599):
            raise BadRequest(f"status must be between 200 and 599, got {status}")
        headers = []
        if query.get("retry_after"):
            headers.append(("Retry-After", query["retry_after"]))
        if query.get("empty") in ("1", "true"):
            return self.respond(status, b"", None, headers)
        phrase = self.responses.get(status, ("Status",))[0]
        self.respond_json(status, {"status": status, "error": f"status {status}", "message": phrase}, headers)

    def slow(self, query):
        delay = delay_param(query, "delay")
        time.sleep(delay)
        self.respond_json(200, {"slept": number_json(delay)})

    def coding(self, query):
        """A body labelled with a coding no client knows, sent as plain text."""
        body = b"plain body"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        if query.get("transfer"):
            # RFC 9112 section 6.3: a response whose last transfer coding is not chunked ends at close.
            self.send_header("Transfer-Encoding", query["transfer"])
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Encoding", query.get("content", "x-unknown"))
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def drop(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"x" * 100)
        self.cut_connection()

    def redirect(self, query):
        target = query.get("to")
        if not target:
            raise BadRequest("missing query parameter 'to'")
        code = int_param(query, "code", default=302, minimum=300, maximum=399)
        self.respond_json(code, {"redirect": target}, [("Location", target)])

    def byte_stream(self, query):
        count = int_param(query, "n", minimum=0, maximum=MAX_BODY)
        pattern = bytes(range(256))
        body = (pattern * (count // 256 + 1))[:count]
        self.respond(200, body, "application/octet-stream")

    def echo_headers(self, raw_query):
        headers = []
        for name, value in parse_qsl(raw_query, keep_blank_values=True):
            if not HEADER_TOKEN.match(name):
                raise BadRequest(f"invalid header name {name!r}")
            if any(c in value for c in "\r\n\0") or not value.isascii():
                raise BadRequest(f"invalid value for header {name!r} (ASCII without CR, LF or NUL)")
            if name.lower() in FRAMING_HEADERS:
                raise BadRequest(f"header {name!r} would break the response framing")
            headers.append((name, value))
        self.respond_json(200, {}, headers)

    # --- Auth and flaky

    def auth(self, key, action, query):
        if action == "protected":
            with STATE.lock:
                token = STATE.auth_entry(key)["token"]
            if self.headers.get("Authorization") != f"Bearer {token}":
                return self.respond_json(401, {"error": "unauthorized"}, [("WWW-Authenticate", "Bearer")])
            return self.respond_json(200, {"ok": True, "token": token})
        if action == "refresh":
            if self.command != "POST":
                return self.respond_json(405, {"error": "use POST"}, [("Allow", "POST")])
            time.sleep(delay_param(query, "delay"))
            with STATE.lock:
                entry = STATE.auth_entry(key)
                failed = entry["fail_refresh"]  # 0, or the status a refresh answers with
                if not failed:
                    entry["refreshes"] += 1
                    entry["token"] = f"token-{entry['refreshes'] + 1}"
                    token = entry["token"]
            if failed == 401:
                return self.respond_json(401, {"error": "invalid_grant", "error_description": "the refresh token has expired"})
            if failed:
                return self.respond_json(500, {"error": "refresh failed"})
            return self.respond_json(200, {"token": token})
        if action == "config":
            if self.command != "POST":
                return self.respond_json(405, {"error": "use POST"}, [("Allow", "POST")])
            with STATE.lock:
                entry = STATE.auth_entry(key)
                if "fail_refresh" in query:
                    value = query["fail_refresh"]
                    entry["fail_refresh"] = 401 if value == "401" else 500 if value in ("1", "true") else 0
                fail_refresh = entry["fail_refresh"]
            return self.respond_json(200, {"fail_refresh": fail_refresh})
        if action == "stats":
            with STATE.lock:
                entry = STATE.auth_entry(key)
                stats = {"refreshes": entry["refreshes"], "token": entry["token"]}
            return self.respond_json(200, stats)
        self.respond_json(404, {"error": "not found", "path": self.split_target()[0]})

    def flaky(self, key, query):
        failures = int_param(query, "failures", default=1, minimum=0)
        status = int_param(query, "status", default=503, minimum=200, maximum=599)
        attempt = STATE.next_flaky_attempt(key)
        if attempt <= failures:
            headers = [("Retry-After", query["retry_after"])] if query.get("retry_after") else []
            return self.respond_json(status, {"status": status, "error": f"status {status}", "attempt": attempt}, headers)
        self.respond_json(200, {"ok": True, "attempt": attempt})

    # --- Paged lists

    def paged_list(self, key, strategy, path, query):
        total = int_param(query, "total", default=DEFAULT_TOTAL, minimum=0)
        if strategy == "pages":
            first = int_param(query, "first", default=1, minimum=0, maximum=1)
            page = int_param(query, "page", default=first, minimum=first)
            per_page = int_param(query, "per_page", default=DEFAULT_PAGE_SIZE, minimum=1)
            if self.page_fails_or_waits(key, strategy, page, query):
                return
            start = (page - first) * per_page
            return self.respond_json(200, {
                "items": items_for(start, per_page, total),
                "page": page, "per_page": per_page, "total": total,
                "total_pages": math.ceil(total / per_page),
            })
        if strategy == "offset":
            offset = int_param(query, "offset", default=0, minimum=0)
            limit = int_param(query, "limit", default=DEFAULT_PAGE_SIZE, minimum=1)
            if self.page_fails_or_waits(key, strategy, offset // limit + 1, query):
                return
            return self.respond_json(200, {
                "items": items_for(offset, limit, total),
                "offset": offset, "limit": limit, "total": total,
            })
        if strategy == "cursor":
            cursor = query.get("cursor")
            offset = decode_cursor(cursor) if cursor else 0
            limit = int_param(query, "limit", default=DEFAULT_PAGE_SIZE, minimum=1)
            if self.page_fails_or_waits(key, strategy, offset // limit + 1, query):
                return
            next_offset = offset + limit
            next_cursor = encode_cursor(next_offset) if next_offset < total else None
            headers = [("X-Next-Cursor", next_cursor)] if next_cursor else []
            return self.respond_json(200, {
                "items": items_for(offset, limit, total), "next_cursor": next_cursor,
            }, headers)
        if strategy == "link":
            page = int_param(query, "page", default=1, minimum=1)
            per_page = int_param(query, "per_page", default=DEFAULT_PAGE_SIZE, minimum=1)
            if self.page_fails_or_waits(key, strategy, page, query):
                return
            links = self.link_header(path, query, page, per_page, total)
            items = items_for((page - 1) * per_page, per_page, total)
            return self.respond_json(200, items, [("Link", links)])
        self.respond_json(404, {"error": "not found", "path": path})

    def page_fails_or_waits(self, key, strategy, page, query):
        """Applies fail_page/fail_times and delay_page/delay; True when it already answered."""
        if "fail_page" in query:
            fail_page = int_param(query, "fail_page")
            fail_times = int_param(query, "fail_times", default=1, minimum=0)
            if page == fail_page and STATE.should_fail_page(key, strategy, page, fail_times):
                self.respond_json(500, {"status": 500, "error": "status 500", "page": page})
                return True
        if "delay_page" in query:
            delay_page = int_param(query, "delay_page")
            delay = delay_param(query, "delay")
            if page == delay_page:
                time.sleep(delay)
        return False

    def link_header(self, path, query, page, per_page, total):
        style = query.get("link_style", "absolute")
        if style not in ("absolute", "relative"):
            raise BadRequest("link_style must be 'absolute' or 'relative'")
        host = self.headers.get("Host") or "%s:%d" % self.server.server_address[:2]
        next_host = query.get("next_host")
        kept = {name: value for name, value in query.items()
                if name not in ("page", "per_page", "next_host")}
        last = max(1, math.ceil(total / per_page))

        def url(target_page, target_host=None):
            target = path + "?" + urlencode({"page": target_page, "per_page": per_page, **kept})
            if target_host:
                return f"http://{target_host}{target}"
            return target if style == "relative" else f"http://{host}{target}"

        links = []
        if page < last:
            links.append(f'<{url(page + 1, next_host)}>; rel="next"')
        if page > 1:
            links.append(f'<{url(min(page - 1, last))}>; rel="prev"')
        links.append(f'<{url(1)}>; rel="first"')
        links.append(f'<{url(last)}>; rel="last"')
        return ", ".join(links)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Parallel tests open many connections at once; the default backlog of 5 makes
    # the kernel drop SYNs, which costs a 1 s retransmit per dropped connection.
    request_queue_size = 256
    verbose = False

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if self.verbose or not isinstance(error, (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)  # traceback to stderr


def exit_when_stdin_closes():
    """The test process holds our stdin pipe; EOF means it is gone."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    sys.stderr.flush()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description="Salvo loopback HTTP test server (127.0.0.1 only).")
    parser.add_argument("--port", type=int, default=0, help="port to bind, 0 (default) for a free one")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    parser.add_argument("--no-stdin-watch", action="store_true",
                        help="keep running when stdin closes (for running by hand)")
    args = parser.parse_args()
    # Foundation's Process spawns us from a Dispatch worker thread, whose blocked signal
    # mask we inherit; without this SIGTERM and SIGINT would not reach us.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())

    Handler.verbose = args.verbose
    Server.verbose = args.verbose
    try:
        server = Server(("127.0.0.1", args.port), Handler)
    except OSError as error:
        sys.stderr.write(f"loopback_server: cannot bind 127.0.0.1:{args.port}: {error}\n")
        sys.exit(1)
    if not args.no_stdin_watch:
        threading.Thread(target=exit_when_stdin_closes, name="stdin-watch", daemon=True).start()

    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
