"""The demo's book catalogue, served by loopback_server.py under /catalog (standard library only).

    GET /catalog/books?page=N&per_page=K   {"items": [book], "page", "per_page", "total", "total_pages"}
    GET /catalog/books/<id>                a book, or 404 {"message": ...}
    GET /catalog/search?q=TEXT             {"items": [book]}; empty q -> 422 {"message": ...}
    GET /catalog/favourites                {"items": [book]} with "Authorization: Bearer demo-token",
                                           else 401 {"message": ...}
    GET /catalog/updates?count=N&interval=S   text/event-stream "live updates": N events (default 5),
                                           S seconds apart (default 0.3), each with an id;
                                           "event: stock" {"id", "title", "inStock"} or
                                           "event: price" {"id", "title", "price"}; a keep-alive
                                           comment first; "retry: 2000"
    POST /catalog/books/<id>/cover         multipart/form-data with an "image" file part and a
                                           "caption" field: {"id", "caption", "fileName",
                                           "contentType", "bytes"}; 404 for an unknown book, 422
                                           without an image
A book is {"id": n, "title": ..., "author": ..., "year": ...}.
"""

import base64
import json
import time

import upload_routes

DEMO_TOKEN = "demo-token"
_UPDATES = [("stock", 8, {"inStock": False}), ("price", 19, {"price": 7.99}), ("stock", 8, {"inStock": True}),
            ("price", 1, {"price": 4.50}), ("price", 33, {"price": 12.00})]

_CLASSICS = [
    ("Pride and Prejudice", "Jane Austen", 1813), ("Moby-Dick", "Herman Melville", 1851),
    ("Frankenstein", "Mary Shelley", 1818), ("Jane Eyre", "Charlotte Brontë", 1847),
    ("Wuthering Heights", "Emily Brontë", 1847), ("Great Expectations", "Charles Dickens", 1861),
    ("Middlemarch", "George Eliot", 1871), ("Anna Karenina", "Leo Tolstoy", 1878),
    ("Crime and Punishment", "Fyodor Dostoevsky", 1866), ("Madame Bovary", "Gustave Flaubert", 1857),
    ("The Count of Monte Cristo", "Alexandre Dumas", 1844), ("Les Misérables", "Victor Hugo", 1862),
    ("Don Quixote", "Miguel de Cervantes", 1605), ("Dracula", "Bram Stoker", 1897),
    ("The Picture of Dorian Gray", "Oscar Wilde", 1890), ("Little Women", "Louisa May Alcott", 1868),
    ("The Scarlet Letter", "Nathaniel Hawthorne", 1850), ("Walden", "Henry David Thoreau", 1854),
    ("Treasure Island", "Robert Louis Stevenson", 1883), ("Heart of Darkness", "Joseph Conrad", 1899),
    ("The Time Machine", "H. G. Wells", 1895), ("Twenty Thousand Leagues", "Jules Verne", 1870),
    ("Alice in Wonderland", "Lewis Carroll", 1865), ("The Odyssey", "Homer", -700),
    ("War and Peace", "Leo Tolstoy", 1869), ("Emma", "Jane Austen", 1815),
    ("Persuasion", "Jane Austen", 1817), ("Bleak House", "Charles Dickens", 1853),
    ("David Copperfield", "Charles Dickens", 1850), ("The Brothers Karamazov", "Fyodor Dostoevsky", 1880),
    ("Ulysses", "James Joyce", 1922), ("Dubliners", "James Joyce", 1914),
    ("The Jungle Book", "Rudyard Kipling", 1894), ("Kim", "Rudyard Kipling", 1901),
    ("The Hound of the Baskervilles", "Arthur Conan Doyle", 1902), ("A Study in Scarlet", "Arthur Conan Doyle", 1887),
    ("Sense and Sensibility", "Jane Austen", 1811), ("Northanger Abbey", "Jane Austen", 1817),
    ("The Invisible Man", "H. G. Wells", 1897), ("The War of the Worlds", "H. G. Wells", 1898),
    ("Around the World in Eighty Days", "Jules Verne", 1872), ("Robinson Crusoe", "Daniel Defoe", 1719),
    ("Gulliver's Travels", "Jonathan Swift", 1726), ("Tom Sawyer", "Mark Twain", 1876),
    ("Huckleberry Finn", "Mark Twain", 1884), ("The Call of the Wild", "Jack London", 1903),
    ("White Fang", "Jack London", 1906),
]

BOOKS = [{"id": i + 1, "title": t, "author": a, "year": y} for i, (t, a, y) in enumerate(_CLASSICS)]
FAVOURITES = [1, 8, 19, 33]


def handle(handler, rest, query, int_param, body=b""):
    """Answers /catalog/<rest>; returns False when the route is not the catalogue's."""
    if rest == ["books"]:
        page = int_param(query, "page", default=1, minimum=1)
        per_page = int_param(query, "per_page", default=10, minimum=1, maximum=100)
        start = (page - 1) * per_page
        total_pages = (len(BOOKS) + per_page - 1) // per_page
        handler.respond_json(200, {"items": BOOKS[start:start + per_page], "page": page,
                                   "per_page": per_page, "total": len(BOOKS), "total_pages": total_pages})
    elif len(rest) == 2 and rest[0] == "books":
        book = next((b for b in BOOKS if str(b["id"]) == rest[1]), None)
        if book is None:
            handler.respond_json(404, {"message": f"No book with id {rest[1]} in the catalogue."})
        else:
            handler.respond_json(200, book)
    elif len(rest) == 3 and rest[0] == "books" and rest[2] == "cover" and handler.command == "POST":
        receive_cover(handler, rest[1], body)
    elif rest == ["search"]:
        text = query.get("q", "").strip().lower()
        if not text:
            handler.respond_json(422, {"message": "Search text must not be empty."})
        else:
            found = [b for b in BOOKS if text in b["title"].lower() or text in b["author"].lower()]
            handler.respond_json(200, {"items": found})
    elif rest == ["updates"]:
        send_updates(handler, int_param(query, "count", default=5, minimum=0, maximum=1000),
                     float(query.get("interval", "0.3") or 0.3))
    elif rest == ["favourites"]:
        if handler.headers.get("Authorization") != f"Bearer {DEMO_TOKEN}":
            handler.respond_json(401, {"message": "Sign in to see your favourites."},
                                 [("WWW-Authenticate", "Bearer")])
        else:
            handler.respond_json(200, {"items": [b for b in BOOKS if b["id"] in FAVOURITES]})
    else:
        return False
    return True


def receive_cover(handler, book_id, body):
    """Parses a cover upload (the server has read the body) and says what arrived."""
    try:
        form = upload_routes.parse_multipart(handler.headers.get("Content-Type") or "", [body])
    except (ValueError, upload_routes.Truncated) as error:
        handler.close_connection = True
        handler.respond_json(400, {"message": f"Not a cover upload: {error}"})
        return
    if not any(str(b["id"]) == book_id for b in BOOKS):
        handler.respond_json(404, {"message": f"No book with id {book_id} in the catalogue."})
        return
    image = next((p for p in form["parts"] if p["name"] == "image" and p["filename"]), None)
    if image is None:
        handler.respond_json(422, {"message": "A cover needs an image file part named \"image\"."})
        return
    caption = next((p for p in form["parts"] if p["name"] == "caption"), None)
    caption_text = base64_text(caption) if caption else ""
    handler.respond_json(200, {"id": int(book_id), "caption": caption_text, "fileName": image["filename"],
                               "contentType": image["content_type"], "bytes": image["length"]})


def base64_text(part):
    return base64.b64decode(part.get("body_base64") or "").decode("utf-8", "replace")


def send_updates(handler, count, interval):
    """A chunked Server-Sent Events stream of catalogue changes."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Cache-Control", "no-cache")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()

    def chunk(text):
        data = text.encode()
        handler.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
        handler.wfile.flush()

    chunk(": live updates\nretry: 2000\n\n")
    for number in range(1, count + 1):
        kind, book_id, change = _UPDATES[(number - 1) % len(_UPDATES)]
        title = next(b["title"] for b in BOOKS if b["id"] == book_id)
        time.sleep(max(0.0, min(interval, 5.0)))
        chunk(f"id: {number}\nevent: {kind}\ndata: {json.dumps({'id': book_id, 'title': title, **change})}\n\n")
    handler.wfile.write(b"0\r\n\r\n")
