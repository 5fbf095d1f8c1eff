"""Wire checks for Salvo's fuzz and injection tests, served by loopback_server.py under /wire.

    /wire/...   any method: {"request_line", "headers": [[name, value]], "problems": [text]}
                where problems lists every CR, LF or NUL found inside the request line or a header
                name or value, every header name that is not an HTTP token, and a request line
                that is not "<token> <target> HTTP/1.1". An empty list means the wire was clean.
"""

import re

TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
REQUEST_LINE = re.compile(r"^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP/1\.[01]$")
FORBIDDEN = ("\r", "\n", "\0")


def handle(handler):
    """Answers /wire/...: reports the raw request line and header lines and what is wrong with them."""
    raw = handler.raw_requestline.decode("latin-1")
    line = raw[:-2] if raw.endswith("\r\n") else raw.rstrip("\n")
    problems = []
    if any(c in line for c in FORBIDDEN) or not REQUEST_LINE.match(line):
        problems.append(f"request line {line!r} is not '<token> <target> HTTP/1.1'")
    headers = []
    for name, value in handler.headers.raw_items():
        headers.append([name, value])
        if not TOKEN.match(name):
            problems.append(f"header name {name!r} is not a token")
        if any(c in value for c in FORBIDDEN):
            problems.append(f"header {name!r} value {value!r} holds CR, LF or NUL")
    for defect in getattr(handler.headers, "defects", []):
        problems.append(f"header block defect: {defect!r}")
    handler.respond_json(200, {"request_line": line, "headers": headers, "problems": problems})
    return True
