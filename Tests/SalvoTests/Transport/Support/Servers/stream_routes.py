"""Streamed bodies, served by loopback_server.py under /stream (standard library only).

Every byte body follows one pattern, so a client can check any range of it: byte i of the
whole body is i % 251 (251 is prime, so block and chunk boundaries never line up with it).
Chunked responses use HTTP/1.1 Transfer-Encoding: chunked and keep the connection alive.

    /stream/chunked?chunks=N&size=S[&delay=D]       N chunks of S bytes, D seconds between chunks
    /stream/bytes?n=N[&chunked=1]                   N bytes (up to 8 GiB) written in 1 MiB blocks,
                                                    Content-Length unless chunked=1 (then one
                                                    chunk per block); for throughput benchmarks
    /stream/file?n=N[&key=K][&cut_after=C][&changes=1][&shrink_to=M][&delay=D]
                                                    a downloadable file of N pattern bytes with
                                                    Content-Length, a strong ETag, Last-Modified and
                                                    Accept-Ranges: bytes. Honours "Range: bytes=S-"
                                                    and "bytes=S-E" (206 with Content-Range; 416
                                                    with "bytes */N" past the end) and If-Range (an
                                                    ETag or date that no longer matches gets the
                                                    whole file, 200). D seconds after each 64 KiB.
                                                    With key=K, the server counts K's requests:
                                                    cut_after=C  the first request gets the head
                                                                 with its full Content-Length, C
                                                                 bytes, then a closed connection (a
                                                                 server dying mid-download, a
                                                                 Content-Length that lies); without
                                                                 a key every request is cut
                                                    changes=1    the ETag changes with every
                                                                 request (a file replaced meanwhile)
                                                    shrink_to=M  requests after the first see a file
                                                                 of M bytes under the same ETag
    GET /stream/file/stats?key=K                    {"requests": [{"range", "if_range", "status"}]}:
                                                    K's requests so far, headers as sent or null
    /stream/drip?n=N&interval=S[&chunked=1]         N bytes one at a time, S seconds apart
    /stream/drip/<key>?...                          the same; its own path for /_count
    /stream/lines?count=N[&format=ndjson][&ending=lf|crlf|cr][&delay=D]
                                                    chunked text: "line i" for i = 1...N, or with
                                                    format=ndjson the JSON object {"n": i} per line
                                                    (application/x-ndjson); D seconds between lines
    /stream/sse/<key>?count=N[&retry=MS][&drop_after=K][&end=204][&delay=D]
                                                    chunked text/event-stream of events i = 1...N:
                                                    "id: i" on every one, "event: tick" when i % 3 == 0,
                                                    data the JSON {"n": i} (split over two data lines
                                                    when i % 4 == 0), a comment line before it when
                                                    i % 5 == 0; "retry: MS" as a block of its own
                                                    first; D seconds between events.
                                                    Last-Event-ID: i resumes after event i.
                                                    drop_after=K: the key's first connection sends K
                                                    events and the start of the next ("id: K+1",
                                                    "data: cut", no blank line), then closes the
                                                    socket without ending the chunked body.
                                                    drop_each=K: every connection sends K events, then
                                                    (after D seconds) closes the socket without ending the chunked body
                                                    (a connection that worked, then dropped), until
                                                    event N, which ends its connection cleanly.
                                                    end=204: once a connection has sent event N, later
                                                    connections for the key answer 204 No Content.
                                                    silent_after=K: the key's first connection sends K
                                                    events, then not a byte for SILENCE_SECONDS (the
                                                    socket stays open), then closes: a stream that
                                                    went quiet, for a client's idle timeout.
    hold=KEY (on /stream/lines and /stream/sse/<key>): after the first line or event, wait (at most
                                                    10 s) until GET /stream/release/KEY, so a test
                                                    can see the first part arrive while the server
                                                    still holds the rest, however slow the machine
    GET /stream/release/<key>                       lets a held stream go on: 204, or 409 when the
                                                    hold had already run out (the client was too late)
    GET /stream/sse/<key>/stats                     {"connections": n, "last_event_ids": [header or
                                                    null, one per connection], "completed": bool}
    /stream/sse-bad/<case>[?n=N]                    chunked text/event-stream, one chunk per line,
                                                    that a client must survive or refuse clearly:
                                                    malformed  odd lines between good events (see
                                                               BAD_EVENT_STREAMS)
                                                    cut        two events, then the start of a third
                                                               (no blank line), then a clean end
                                                    utf8       events whose data holds invalid UTF-8
                                                    long-line  "data: " and N bytes of "a" (default
                                                               4 MiB) in 64 KiB chunks, no line break
"""

import json
import threading
import time

PRIME = 251
BLOCK = 1024 * 1024
MAX_BYTES = 8 * 1024 * 1024 * 1024
MAX_CHUNK = 16 * 1024 * 1024
MAX_COUNT = 1_000_000
# Enough pattern for a block starting at any phase of the 251-byte cycle.
_PATTERN = memoryview(bytes(range(PRIME)) * (BLOCK // PRIME + 2))

_lock = threading.Lock()
_sse = {}  # key -> {"connections", "last_event_ids", "completed"}
_gates = {}  # hold key -> threading.Event, set by /stream/release/<key>
_expired = set()  # hold keys whose wait ran out before a release
_file_requests = {}  # key -> [{"range", "if_range", "status"}], one per /stream/file request
FILE_LAST_MODIFIED = "Mon, 02 Nov 2026 10:00:00 GMT"
FILE_PIECE = 64 * 1024
HOLD_SECONDS = 10
SILENCE_SECONDS = 10


def pattern(offset, size):
    """Bytes offset ..< offset + size of the pattern body (size at most BLOCK)."""
    start = offset % PRIME
    return _PATTERN[start:start + size]


def handle(handler, rest, query, int_param, delay_param):
    """Answers /stream/<rest>; returns False for paths it does not serve."""
    if rest == ["chunked"]:
        count = int_param(query, "chunks", minimum=0, maximum=MAX_COUNT)
        size = int_param(query, "size", minimum=1, maximum=MAX_CHUNK)
        if count * size > MAX_BYTES:
            handler.respond_json(400, {"error": f"chunks * size must be <= {MAX_BYTES}"})
            return True
        send_pattern(handler, count * size, size, delay_param(query, "delay"), chunked=True)
    elif rest == ["bytes"]:
        total = int_param(query, "n", minimum=0, maximum=MAX_BYTES)
        send_pattern(handler, total, BLOCK, 0.0, chunked=query.get("chunked") == "1")
    elif rest == ["file"]:
        send_file(handler, query, int_param, delay_param)
    elif rest == ["file", "stats"]:
        with _lock:
            handler.respond_json(200, {"requests": list(_file_requests.get(query.get("key", ""), []))})
    elif rest == ["drip"] or (len(rest) == 2 and rest[0] == "drip"):
        total = int_param(query, "n", minimum=0, maximum=10_000)
        send_pattern(handler, total, 1, delay_param(query, "interval"), chunked=query.get("chunked") == "1")
    elif rest == ["lines"]:
        send_lines(handler, query, int_param, delay_param)
    elif len(rest) == 2 and rest[0] == "sse":
        send_events(handler, rest[1], query, int_param, delay_param)
    elif len(rest) == 2 and rest[0] == "release":
        _gate(rest[1]).set()
        with _lock:
            expired = rest[1] in _expired
        if expired:
            handler.respond_json(409, {"error": f"the hold {rest[1]!r} ran out before this release"})
        else:
            handler.respond(204)
    elif len(rest) == 2 and rest[0] == "sse-bad":
        send_bad_events(handler, rest[1], query, int_param)
    elif len(rest) == 3 and rest[0] == "sse" and rest[2] == "stats":
        with _lock:
            entry = _sse_entry(rest[1])
            stats = {"connections": entry["connections"], "last_event_ids": list(entry["last_event_ids"]),
                     "completed": entry["completed"]}
        handler.respond_json(200, stats)
    else:
        return False
    return True


# --- Framing

def begin(handler, content_type, length=None, headers=()):
    """Sends a 200 head: Content-Length when length is given, else Transfer-Encoding: chunked."""
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    if length is None:
        handler.send_header("Transfer-Encoding", "chunked")
    else:
        handler.send_header("Content-Length", str(length))
    for name, value in headers:
        handler.send_header(name, value)
    if handler.close_connection:
        handler.send_header("Connection", "close")
    handler.end_headers()


def write_chunk(handler, data):
    """Sends data now as one chunk (an empty piece is skipped: it would end the body)."""
    if data:
        handler.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")


def end(handler, chunked):
    if chunked:
        handler.wfile.write(b"0\r\n\r\n")
    handler.wfile.flush()


# --- Routes

def send_pattern(handler, total, piece, delay, chunked):
    begin(handler, "application/octet-stream", None if chunked else total)
    if handler.command == "HEAD":
        return
    offset = 0
    while offset < total:
        if offset and delay:
            time.sleep(delay)
        size = min(piece, total - offset)
        for start in range(0, size, BLOCK):  # a chunk larger than BLOCK goes out in several writes
            part = min(BLOCK, size - start)
            if chunked and start == 0:
                handler.wfile.write(b"%x\r\n" % size)
            handler.wfile.write(pattern(offset + start, part))
        if chunked:
            handler.wfile.write(b"\r\n")
        offset += size
    end(handler, chunked)


def send_file(handler, query, int_param, delay_param):
    total = int_param(query, "n", minimum=0, maximum=MAX_BYTES)
    cut_after = int_param(query, "cut_after", minimum=0, maximum=MAX_BYTES) if "cut_after" in query else None
    shrink_to = int_param(query, "shrink_to", minimum=0, maximum=MAX_BYTES) if "shrink_to" in query else None
    delay = delay_param(query, "delay")
    key = query.get("key", "")
    asked = handler.headers.get("Range")
    if_range = handler.headers.get("If-Range")
    with _lock:
        requests = _file_requests.setdefault(key, [])
        number = len(requests) + 1
        entry = {"range": asked, "if_range": if_range, "status": None}
        requests.append(entry)
    version = f"pattern-{total}" + (f"-v{number}" if query.get("changes") == "1" else "")
    if key and number > 1:
        cut_after = None
        if shrink_to is not None:
            total = shrink_to
    etag = f'"{version}"'
    start, stop, status = 0, total, 200
    if asked and (if_range is None or if_range in (etag, FILE_LAST_MODIFIED)):
        parsed = parse_range(asked, total)
        if parsed is None:
            status = 416
        else:
            start, stop, status = parsed[0], parsed[1], 206
    with _lock:
        entry["status"] = status
    headers = [("ETag", etag), ("Last-Modified", FILE_LAST_MODIFIED), ("Accept-Ranges", "bytes")]
    if status == 416:
        handler.respond(416, b"", content_type="application/octet-stream", headers=headers + [("Content-Range", f"bytes */{total}")])
        return
    handler.send_response(status)
    handler.send_header("Content-Type", "application/octet-stream")
    handler.send_header("Content-Length", str(stop - start))
    if status == 206:
        handler.send_header("Content-Range", f"bytes {start}-{stop - 1}/{total}")
    for name, value in headers:
        handler.send_header(name, value)
    if cut_after is not None or handler.close_connection:
        handler.send_header("Connection", "close")
        handler.close_connection = True
    handler.end_headers()
    if handler.command == "HEAD":
        return
    offset, limit = start, stop if cut_after is None else min(stop, start + cut_after)
    while offset < limit:
        size = min(FILE_PIECE, limit - offset)
        handler.wfile.write(pattern(offset, size))
        offset += size
        if delay and offset < limit:
            handler.wfile.flush()
            time.sleep(delay)
    if cut_after is not None:
        handler.cut_connection()
    else:
        handler.wfile.flush()


def parse_range(header, total):
    """(start, stop) for one "bytes=S-" or "bytes=S-E" range within total bytes, else None."""
    unit, _, spec = header.partition("=")
    first, dash, last = spec.strip().partition("-")
    if unit.strip() != "bytes" or not dash or not first.isdigit() or (last and not last.isdigit()):
        return None
    start = int(first)
    stop = min(total, int(last) + 1) if last else total
    if start >= total or stop <= start:
        return None
    return start, stop


def send_lines(handler, query, int_param, delay_param):
    count = int_param(query, "count", minimum=0, maximum=MAX_COUNT)
    ndjson = query.get("format") == "ndjson"
    endings = {"lf": b"\n", "crlf": b"\r\n", "cr": b"\r"}
    ending = endings.get(query.get("ending", "lf"))
    if ending is None:
        handler.respond_json(400, {"error": "ending must be lf, crlf or cr"})
        return
    delay = delay_param(query, "delay")
    begin(handler, "application/x-ndjson" if ndjson else "text/plain; charset=utf-8")
    batch = []
    for number in range(1, count + 1):
        line = json.dumps({"n": number}) if ndjson else f"line {number}"
        batch.append(line.encode() + ending)
        is_held = number == 1 and count > 1 and query.get("hold")
        if delay or len(batch) == 1000 or is_held:
            write_chunk(handler, b"".join(batch))
            batch = []
            if is_held:
                hold(handler, query)
            if delay and number < count:
                time.sleep(delay)
    write_chunk(handler, b"".join(batch))
    end(handler, chunked=True)


def _gate(key):
    with _lock:
        return _gates.setdefault(key, threading.Event())


def hold(handler, query):
    """With hold=KEY, waits until /stream/release/KEY (at most HOLD_SECONDS)."""
    key = query.get("hold")
    if key:
        handler.wfile.flush()
        if not _gate(key).wait(HOLD_SECONDS):
            with _lock:
                _expired.add(key)


def _sse_entry(key):
    """The key's record; call with the lock held."""
    entry = _sse.get(key)
    if entry is None:
        entry = {"connections": 0, "last_event_ids": [], "completed": False}
        _sse[key] = entry
    return entry


def event_block(number):
    lines = []
    if number % 5 == 0:
        lines.append(f": comment before event {number}")
    lines.append(f"id: {number}")
    if number % 3 == 0:
        lines.append("event: tick")
    if number % 4 == 0:
        lines += [f'data: {{"n": {number},', 'data: "split": true}']
    else:
        lines.append(f'data: {{"n": {number}}}')
    return ("\n".join(lines) + "\n\n").encode()


def send_events(handler, key, query, int_param, delay_param):
    count = int_param(query, "count", default=10, minimum=0, maximum=MAX_COUNT)
    retry = int_param(query, "retry", default=-1, minimum=0) if query.get("retry") else None
    drop_after = int_param(query, "drop_after", default=-1, minimum=0) if query.get("drop_after") else None
    silent_after = int_param(query, "silent_after", default=-1, minimum=0) if query.get("silent_after") else None
    drop_each = int_param(query, "drop_each", default=-1, minimum=1) if query.get("drop_each") else None
    delay = delay_param(query, "delay")
    last_id = handler.headers.get("Last-Event-ID")
    with _lock:
        entry = _sse_entry(key)
        entry["connections"] += 1
        entry["last_event_ids"].append(last_id)
        first_connection = entry["connections"] == 1
        finished = entry["completed"]
    if finished and query.get("end") == "204":
        handler.respond(204)
        return
    try:
        start = int(last_id) + 1 if last_id else 1
    except ValueError:
        start = 1
    begin(handler, "text/event-stream; charset=utf-8", headers=[("Cache-Control", "no-cache")])
    if retry is not None:
        write_chunk(handler, f"retry: {retry}\n\n".encode())
    sent = 0
    for number in range(max(start, 1), count + 1):
        if first_connection and drop_after is not None and sent == drop_after:
            write_chunk(handler, f"id: {number}\ndata: cut".encode())
            handler.cut_connection()
            return
        if first_connection and silent_after is not None and sent == silent_after:
            handler.wfile.flush()
            time.sleep(SILENCE_SECONDS)
            handler.cut_connection()
            return
        if sent and delay:
            time.sleep(delay)
        if drop_each is not None and sent == drop_each:
            handler.cut_connection()
            return
        write_chunk(handler, event_block(number))
        sent += 1
        if sent == 1 and number < count:
            hold(handler, query)
    with _lock:
        entry["completed"] = True
    end(handler, chunked=True)


# Bodies for /stream/sse-bad/<case>, one chunk per item.
BAD_EVENT_STREAMS = {
    "malformed": [
        b"\xef\xbb\xbfdata: first\n\n",              # a BOM before the first field
        b"data\n\n",                                    # a field without a colon: data ""
        b"event: ignored\nid: 7\n\n",                   # no data: nothing dispatched, id kept
        b"Data: wrong case\nunknown: field\n:comment\ndata:no space\n\n",
        b"retry: soon\nretry: 12a\nid: 8\x009\ndata:  two spaces\n\n",
        b"event\ndata: after an empty event field\n\n",
    ],
    "cut": [b"id: 1\ndata: one\n\n", b"id: 2\ndata: two\n\n", b"id: 3\ndata: never dispatched\n"],
    "utf8": [b"data: caf\xc3\xa9 \xff\xfe end\n\n", b"data: split \xc3", b"\xa9 ok\n\n"],
}


def send_bad_events(handler, case, query, int_param):
    if case == "long-line":
        size = int_param(query, "n", default=4 * 1024 * 1024, minimum=0, maximum=MAX_BYTES)
        begin(handler, "text/event-stream")
        write_chunk(handler, b"data: ")
        piece = b"a" * (64 * 1024)
        sent = 0
        try:
            while sent < size:
                part = piece[:min(len(piece), size - sent)]
                write_chunk(handler, part)
                sent += len(part)
            end(handler, chunked=True)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client refused the line and hung up, as it should
        return
    chunks = BAD_EVENT_STREAMS.get(case)
    if chunks is None:
        handler.respond_json(404, {"error": f"no bad event stream {case!r}"})
        return
    begin(handler, "text/event-stream")
    for chunk in chunks:
        write_chunk(handler, chunk)
        handler.wfile.flush()
    end(handler, chunked=True)
