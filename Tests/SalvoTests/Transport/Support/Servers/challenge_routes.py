"""Authentication challenges, served by loopback_server.py under /challenge (standard library only).

Linux URLSession (swift-corelibs-foundation before #5457) never completed a 401 that carries a
WWW-Authenticate challenge it can parse; these routes reproduce it for Basic, Digest and 407.

    /challenge/basic[?accept=T]    401 + WWW-Authenticate: Basic realm="salvo", {"error": "unauthorized"};
                                   200 {"ok": true} when "Authorization: Bearer T" is sent
    /challenge/digest[?accept=T]   the same with a Digest challenge
    /challenge/proxy               407 + Proxy-Authenticate: Basic realm="salvo-proxy"
"""

CHALLENGES = {
    "basic": (401, "WWW-Authenticate", 'Basic realm="salvo"'),
    "digest": (401, "WWW-Authenticate",
               'Digest realm="salvo", qop="auth", nonce="6b8f2e6c9d1a", opaque="5ccc069c403ebaf9", algorithm=MD5'),
    "proxy": (407, "Proxy-Authenticate", 'Basic realm="salvo-proxy"'),
}


def handle(handler, rest, query):
    """Answers /challenge/<kind>; returns False for paths it does not serve."""
    if len(rest) != 1 or rest[0] not in CHALLENGES:
        return False
    status, header, challenge = CHALLENGES[rest[0]]
    accepted = query.get("accept")
    if accepted and handler.headers.get("Authorization") == f"Bearer {accepted}":
        handler.respond_json(200, {"ok": True})
        return True
    handler.respond_json(status, {"error": "unauthorized"}, [(header, challenge)])
    return True
