"""Successful responses without a body, served by loopback_server.py under /empty (standard library only).

    /empty/<status>[?type=T]   status 200-299 with Content-Type T (default "text/html; charset=utf-8",
                               what httpbin's /status/204 sends) and no body: Content-Length: 0,
                               except 204, which carries no Content-Length (RFC 9110 section 8.6)
"""


def handle(handler, rest, query):
    """Answers /empty/<status>; returns False for paths it does not serve."""
    if len(rest) != 1 or not rest[0].isdigit() or not 200 <= int(rest[0]) <= 299:
        return False
    status = int(rest[0])
    handler.send_response(status)
    handler.send_header("Content-Type", query.get("type", "text/html; charset=utf-8"))
    if status != 204:
        handler.send_header("Content-Length", "0")
    handler.end_headers()
    return True
