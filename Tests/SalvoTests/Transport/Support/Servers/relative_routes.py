"""A paged list whose next links are relative to the page's own URL, served by loopback_server.py
under /relative (standard library only). Reached through /redirect, it shows whether a client
resolves such a link against the URL the response came from, as it must, or the one it asked for.

    /relative/<key>/items?page=N&pages=M   a JSON array of 3 items ({"id", "name"}) for page N
                                           (default 1) of M (default 3), with
                                           Link: <items?page=N+1&pages=M>; rel="next" before the last
"""

PAGE_SIZE = 3


def handle(handler, rest, query, int_param):
    """Answers /relative/<key>/items; returns False for paths it does not serve."""
    if len(rest) != 2 or rest[1] != "items":
        return False
    pages = int_param(query, "pages", default=3, minimum=1, maximum=1000)
    page = int_param(query, "page", default=1, minimum=1, maximum=pages)
    start = (page - 1) * PAGE_SIZE
    items = [{"id": i, "name": f"Item {i}"} for i in range(start + 1, start + PAGE_SIZE + 1)]
    headers = [("Link", f'<items?page={page + 1}&pages={pages}>; rel="next"')] if page < pages else []
    handler.respond_json(200, items, headers)
    return True
