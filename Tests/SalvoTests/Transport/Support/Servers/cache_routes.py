"""A cacheable resource per key, served by loopback_server.py under /cache (standard library only).

    GET  /cache/<key>/resource?cc=C[&vary=V][&cookie=K][&delay=S]
                            {"n": requests so far, "version": v, "lang": Accept-Language}
                            with Cache-Control C (default "max-age=60"), ETag "v<version>",
                            Vary V and Set-Cookie K when given; 304 with the same fields when If-None-Match
                            names the current ETag; waits S seconds first when asked
                            cc=none sends no Cache-Control; age=A, expires=E and lm=L send Age,
                            Expires and Last-Modified as given; hop=1 adds Proxy-Authenticate,
                            Proxy-Authentication-Info and X-Hop with "Connection: X-Hop";
                            length304=N gives the 304 a Content-Length of N
    POST /cache/<key>/resource   changes the resource (the next version), 201
    POST /cache/<key>/config?fail=F   F = a status (e.g. 500) answered instead of the resource,
                            "drop" to close the connection without a response (the server gone),
                            or 0 to answer again
    GET  /cache/<key>/stats      {"requests": n, "conditional": m}: GETs of the resource, and those
                            that carried If-None-Match
"""

import json
import threading
import time

_lock = threading.Lock()
_state = {}


def _entry(key):
    return _state.setdefault(key, {"version": 1, "requests": 0, "conditional": 0, "fail": "0"})


def handle(handler, rest, query, delay_param):
    """Answers /cache/<key>/...; returns False for paths it does not serve."""
    if len(rest) != 2:
        return False
    key, leaf = rest
    if leaf == "stats":
        with _lock:
            entry = dict(_entry(key))
        handler.respond_json(200, {"requests": entry["requests"], "conditional": entry["conditional"]})
        return True
    if leaf == "config" and handler.command == "POST":
        with _lock:
            _entry(key)["fail"] = query.get("fail", "0")
        handler.respond_json(200, {"ok": True})
        return True
    if leaf != "resource":
        return False
    if handler.command == "POST":
        with _lock:
            _entry(key)["version"] += 1
        handler.respond_json(201, {"ok": True})
        return True
    delay = delay_param(query, "delay")
    with _lock:
        entry = _entry(key)
        entry["requests"] += 1
        conditional = handler.headers.get("If-None-Match")
        if conditional:
            entry["conditional"] += 1
        snapshot = dict(entry)
    if delay:
        time.sleep(delay)
    if snapshot["fail"] == "drop":
        handler.cut_connection()
        return True
    if snapshot["fail"] != "0":
        handler.respond_json(int(snapshot["fail"]), {"error": "failing on purpose"})
        return True
    etag = '"v%d"' % snapshot["version"]
    headers = [("ETag", etag)]
    if query.get("cc", "max-age=60") != "none":
        headers.append(("Cache-Control", query.get("cc", "max-age=60")))
    for name, field in (("age", "Age"), ("expires", "Expires"), ("lm", "Last-Modified")):
        if query.get(name):
            headers.append((field, query[name]))
    if query.get("hop") == "1":
        headers += [("Proxy-Authenticate", 'Basic realm="proxy"'), ("Proxy-Authentication-Info", 'nextnonce="n1"'),
                    ("Connection", "X-Hop"), ("X-Hop", "1")]
    if query.get("vary"):
        headers.append(("Vary", query["vary"]))
    if query.get("cookie"):
        headers.append(("Set-Cookie", query["cookie"]))
    if conditional == etag:
        if query.get("length304"):
            headers.append(("Content-Length", query["length304"]))
        handler.respond(304, headers=headers)
        return True
    body = {"n": snapshot["requests"], "version": snapshot["version"], "lang": handler.headers.get("Accept-Language")}
    handler.respond(200, json.dumps(body).encode(), headers=headers)
    return True
