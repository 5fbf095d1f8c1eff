"""Uploads, served by loopback_server.py under /upload (standard library only).

These routes read the request body themselves, as it arrives (Content-Length or HTTP/1.1
chunked), hashing it on the way: a body of any size is never held in memory, and a body that
ends before its length or its last chunk is reported as truncated (400), never as complete.

Every part, and every raw body, also reports "is_pattern": whether byte i of its content is
i % 251 (the pattern of stream_routes.py), so a test checks a large file without hashing it.
A request may pause the reading to let a test change the file mid-upload: stall_after=N reads
N body bytes, then sleeps stall=S seconds (default 2) before reading the rest. close_after=N
reads about N body bytes, records the attempt as incomplete and closes the connection without an
answer: a server that dies mid-upload.

    POST /upload/multipart/<key>[?failures=N&status=S&token=T]
        parses multipart/form-data by splitting on the boundary while the body streams in
        (the cgi module is gone in Python 3.13; email.parser needs the whole body) and answers
        {"attempt", "content_type", "content_length", "transfer_encoding", "boundary",
         "received", "sha256", "parts": [{"headers": [[name, value]...], "disposition",
         "name", "filename", "content_type", "length", "sha256", "body_base64" (parts up to
         4096 bytes only)}], "preamble", "epilogue"}
        the first N requests for <key> read the whole body and answer status S (default 503)
        with the same JSON, so a test sees what each attempt sent; with token=T, a request
        without "Authorization: Bearer T" reads the whole body and answers 401 with
        WWW-Authenticate: Bearer.
    POST|PUT /upload/raw/<key>[?failures=N&status=S&token=T]
        {"attempt", "content_type", "content_length", "transfer_encoding", "received", "sha256", "is_pattern",
         "spread_ms"}: spread_ms is the time from the first body bytes read to the last, so a test
        sees whether a body was sent while it was made (a body made whole first arrives at once)
    GET /upload/stats/<key>
        {"attempts": [{"received", "sha256", "complete"}...]}: one entry per request for <key>
"""

import base64
import hashlib
import json
import re
import threading
import time

READ_SIZE = 1024 * 1024
SMALL_PART = 4096

_lock = threading.Lock()
_attempts = {}  # key -> [{"received", "sha256", "complete"}]


class Truncated(Exception):
    """The body ended before its Content-Length or its last chunk."""


class ClosedByServer(Exception):
    """close_after=N: the route hangs up mid-body."""


def handle(handler, rest, query, int_param):
    """Answers /upload/<rest>, reading the body itself; returns False for paths it does not serve."""
    if len(rest) == 2 and rest[0] == "stats" and handler.command == "GET":
        with _lock:
            attempts = list(_attempts.get(rest[1], []))
        handler.respond_json(200, {"attempts": attempts})
        return True
    if len(rest) != 2 or rest[0] not in ("multipart", "raw"):
        return False
    kind, key = rest
    failures = int_param(query, "failures", default=0, minimum=0)
    status = int_param(query, "status", default=503, minimum=200, maximum=599)
    stall_after = int_param(query, "stall_after", default=-1, minimum=-1)
    stall = float(query.get("stall") or 2)
    close_after = int_param(query, "close_after", default=-1, minimum=-1)
    hasher = hashlib.sha256()
    pattern = PatternCheck()
    received = 0
    arrivals = []  # monotonic times of the first and the latest body bytes

    def chunks():
        nonlocal received
        for chunk in body_chunks(handler):
            now = time.monotonic()
            arrivals[:] = [arrivals[0] if arrivals else now, now]
            if 0 <= stall_after and received <= stall_after < received + len(chunk):
                time.sleep(min(stall, 30))
            received += len(chunk)
            hasher.update(chunk)
            if 0 <= close_after <= received:
                raise ClosedByServer()
            yield chunk

    report = {
        "content_type": handler.headers.get("Content-Type"),
        "content_length": handler.headers.get("Content-Length"),
        "transfer_encoding": handler.headers.get("Transfer-Encoding"),
    }
    complete = True
    try:
        if kind == "multipart":
            report.update(parse_multipart(handler.headers.get("Content-Type") or "", chunks()))
        else:
            for chunk in chunks():
                pattern.feed(chunk)
            report["is_pattern"] = pattern.holds
    except Truncated as error:
        complete = False
        report["error"] = str(error)
    except ClosedByServer:
        with _lock:
            _attempts.setdefault(key, []).append({"received": received, "sha256": hasher.hexdigest(), "complete": False})
        handler.cut_connection()
        return True
    except ValueError as error:  # a malformed form: the body was still read to its end
        for _ in chunks():
            pass
        report["error"] = str(error)
    with _lock:
        attempts = _attempts.setdefault(key, [])
        attempts.append({"received": received, "sha256": hasher.hexdigest(), "complete": complete})
        attempt = len(attempts)
    report.update({"attempt": attempt, "received": received, "sha256": hasher.hexdigest(),
                   "spread_ms": round((arrivals[-1] - arrivals[0]) * 1000) if arrivals else 0})
    if not complete:
        handler.close_connection = True
        handler.respond_json(400, report)
    elif "error" in report:
        handler.respond_json(400, report)
    elif query.get("token") and handler.headers.get("Authorization") != "Bearer " + query["token"]:
        handler.respond_json(401, report, [("WWW-Authenticate", "Bearer")])
    elif attempt <= failures:
        handler.respond_json(status, report)
    else:
        handler.respond_json(200, report)
    return True


def body_chunks(handler):
    """The request body in pieces of at most READ_SIZE bytes, from Content-Length or chunked framing."""
    encoding = (handler.headers.get("Transfer-Encoding") or "").lower()
    rfile = handler.rfile
    if "chunked" in encoding:
        while True:
            line = rfile.readline(65537)
            if not line:
                raise Truncated("chunked body ended before its last chunk")
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise Truncated(f"invalid chunk size line {line[:40]!r}")
            if size == 0:
                while rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass
                return
            while size:
                piece = rfile.read(min(size, READ_SIZE))
                if not piece:
                    raise Truncated("chunked body ended inside a chunk")
                size -= len(piece)
                yield piece
            rfile.readline(65537)
        return
    length = handler.headers.get("Content-Length")
    left = int(length) if length and length.isdigit() else 0
    while left:
        piece = rfile.read(min(left, READ_SIZE))
        if not piece:
            raise Truncated(f"body ended {left} bytes before its Content-Length")
        left -= len(piece)
        yield piece


def parse_multipart(content_type, chunks):
    """Splits a multipart body on its boundary as it streams in, hashing each part's content."""
    match = re.search(r'boundary=(?:"([^"]+)"|([^;\s]+))', content_type)
    if not content_type.lower().startswith("multipart/form-data") or not match:
        raise ValueError(f"not multipart/form-data with a boundary: {content_type!r}")
    boundary = (match.group(1) or match.group(2)).encode("latin-1")
    # With CRLF put in front, every delimiter, the first one too, is CRLF "--" boundary.
    delimiter = b"\r\n--" + boundary
    buffer = b"\r\n"
    parts = []
    part = None
    preamble = 0  # bytes before the first delimiter, the CRLF put in front included
    state = "preamble"
    source = iter(chunks)
    exhausted = False

    def more():
        nonlocal buffer, exhausted
        try:
            buffer += next(source)
        except StopIteration:
            exhausted = True

    while True:
        if state in ("preamble", "content"):
            found = buffer.find(delimiter)
            if found < 0:
                keep = len(delimiter) - 1
                if len(buffer) > keep:
                    if state == "content":
                        feed(part, buffer[:-keep])
                    else:
                        preamble += len(buffer) - keep
                    buffer = buffer[-keep:]
                if exhausted:
                    raise Truncated("multipart body ended before its closing delimiter")
                more()
                continue
            if state == "content":
                feed(part, buffer[:found])
                parts.append(finish(part))
            else:
                preamble += found
            buffer = buffer[found + len(delimiter):]
            state = "after-delimiter"
        if state == "after-delimiter":
            while len(buffer) < 2 and not exhausted:
                more()
            if buffer.startswith(b"--"):
                epilogue = buffer[2:]
                while not exhausted:
                    more()
                    epilogue = buffer[2:]
                return {"boundary": boundary.decode("latin-1"), "parts": parts,
                        "preamble": max(0, preamble - 2), "epilogue": epilogue.decode("latin-1")}
            if not buffer.startswith(b"\r\n"):
                raise ValueError("a delimiter is not followed by CRLF or --")
            buffer = buffer[2:]
            state = "headers"
        if state == "headers":
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                if exhausted:
                    raise Truncated("multipart body ended inside a part's headers")
                if len(buffer) > 65536:
                    raise ValueError("a part's headers are longer than 64 KiB")
                more()
                continue
            part = new_part(buffer[:end])
            buffer = buffer[end + 4:]
            state = "content"


def new_part(header_bytes):
    headers = []
    for line in header_bytes.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if not colon:
            raise ValueError(f"a part header line has no colon: {line[:60]!r}")
        headers.append([name.decode("utf-8", "replace"), value.strip().decode("utf-8", "replace")])
    disposition = next((value for name, value in headers if name.lower() == "content-disposition"), None)
    content_type = next((value for name, value in headers if name.lower() == "content-type"), None)
    return {
        "headers": headers,
        "disposition": disposition,
        "name": disposition_parameter(disposition, "name"),
        "filename": disposition_parameter(disposition, "filename"),
        "content_type": content_type,
        "length": 0,
        "hasher": hashlib.sha256(),
        "small": bytearray(),
        "pattern": PatternCheck(),
    }


def disposition_parameter(disposition, parameter):
    """A quoted parameter exactly as sent (no unescaping), or None."""
    if disposition is None:
        return None
    match = re.search(r';\s*' + parameter + r'="([^"]*)"', disposition)
    return match.group(1) if match else None


def feed(part, data):
    if not data:
        return
    part["length"] += len(data)
    part["hasher"].update(data)
    part["pattern"].feed(data)
    if len(part["small"]) <= SMALL_PART:
        part["small"] += data[:SMALL_PART + 1 - len(part["small"])]


def finish(part):
    small = part.pop("small")
    part["sha256"] = part.pop("hasher").hexdigest()
    part["is_pattern"] = part.pop("pattern").holds
    if part["length"] <= SMALL_PART:
        part["body_base64"] = base64.b64encode(bytes(small)).decode()
    return part


PRIME = 251
_PATTERN = bytes(range(PRIME)) * (READ_SIZE // PRIME + 2)


class PatternCheck:
    """Whether bytes fed in order so far are the pattern: byte i is i % 251."""

    def __init__(self):
        self.offset = 0
        self.holds = True

    def feed(self, data):
        view = memoryview(data)
        while self.holds and view:
            start = self.offset % PRIME
            piece = view[:READ_SIZE]
            self.holds = piece == _PATTERN[start:start + len(piece)]
            self.offset += len(piece)
            view = view[len(piece):]
