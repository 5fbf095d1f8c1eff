"""Redirect chains, served by loopback_server.py under /redirects (standard library only).

    /redirects/loop?code=N     redirects to itself with status N (default 302), forever
"""


def handle(handler, rest, query, int_param):
    """Answers /redirects/...; returns False for paths it does not serve."""
    if rest == ["loop"]:
        code = int_param(query, "code", default=302, minimum=300, maximum=399)
        handler.respond_json(code, {"redirect": "loop"}, [("Location", handler.path)])
        return True
    return False
