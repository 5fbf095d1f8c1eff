"""A loopback WebSocket server for SalvoWebSocket's integration tests, on Python's `websockets`.

Binds 127.0.0.1 on an ephemeral port, prints the port on the first line of stdout, and serves
until stdin closes. Each path is one scenario; /last-close sends the close code the server
received on the previous connection, so a test can check what the client sent.
"""
import asyncio
import http
import sys
from urllib.parse import urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

last_close = {"code": None}
busy = {"count": 0}
# /flood's outcome: how many messages it sent before a send stayed blocked, or all of them.
flood = {"done": None, "event": None}


def route(request):
    """The scenario: the request's path without its query (`/echo?access_token=…` is /echo)."""
    return urlsplit(request.path).path


def process_request(connection, request):
    """/auth refuses the handshake with 401 unless it carries `Authorization: Bearer fresh`
    (a stale token is refused before the upgrade; the renewed one is accepted)."""
    if route(request) == "/auth" and request.headers.get("Authorization") != "Bearer fresh":
        return connection.respond(http.HTTPStatus.UNAUTHORIZED, "token expired\n")
    if route(request) == "/refuse-big":
        return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "z" * (1 << 20))
    if route(request) == "/busy-once":
        # 503 to every other handshake: the first of a pair is refused, the retry accepted.
        busy["count"] += 1
        if busy["count"] % 2 == 1:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "busy\n")
    if route(request) == "/deflate-echo":
        # Counts the bytes read off the socket from here on (before the 101 goes, so no frame
        # escapes the count): /deflate-echo reports them.
        connection.wire_bytes = 0
        data_received = connection.data_received

        def counting(data):
            connection.wire_bytes += len(data)
            data_received(data)

        connection.data_received = counting
    return None


async def handler(ws):
    path = route(ws.request)
    try:
        if path == "/echo":
            async for message in ws:
                await ws.send(message)
        elif path in ("/headers", "/auth", "/busy-once"):
            await ws.send(ws.request.headers.get("Authorization", "none"))
            await ws.wait_closed()
        elif path == "/close":
            await ws.close(4001, "bye")
        elif path == "/ping":
            pong = await ws.ping(b"salvo")
            await asyncio.wait_for(pong, 10)
            await ws.send("pong received")
            await ws.wait_closed()
        elif path == "/big":
            chunk = b"x" * (1 << 20)
            await ws.send((chunk for _ in range(16)))
            await ws.wait_closed()
        elif path == "/many":
            for index in range(1000):
                await ws.send(str(index))
            await ws.close(1000)
        elif path == "/deflate":
            extensions = [extension.name for extension in ws.protocol.extensions]
            await ws.send(",".join(extensions) or "none")
            await ws.send("a" * 100_000)
            await ws.wait_closed()
        elif path == "/deflate-echo":
            # Echoes each message; "wire?" answers with the bytes the client has sent on the
            # socket so far (frames as they travelled, compressed or not) and the extensions.
            async for message in ws:
                if message == "wire?":
                    extensions = ",".join(extension.name for extension in ws.protocol.extensions) or "none"
                    await ws.send(f"{ws.wire_bytes} {extensions}")
                else:
                    await ws.send(message)
        elif path == "/bad-utf8":
            await ws.send(b"\xff\xfe\xfd", text=True)
            await ws.wait_closed()
        elif path == "/oversize":
            await ws.send("y" * 2048)
            await ws.wait_closed()
        elif path == "/oversize-fragments":
            await ws.send(("z" * 1000 for _ in range(3)))
            await ws.wait_closed()
        elif path == "/drop":
            await ws.send("one")
            await asyncio.sleep(0.05)
            ws.transport.abort()
        elif path == "/close-then-drop":
            # A close frame (4002, "gone") written raw, then the TCP connection dropped at once,
            # without waiting for the client's answer: as Autobahn's fuzzing server does.
            ws.transport.write(b"\x88\x06\x0f\xa2gone")
            await asyncio.sleep(0.05)
            ws.transport.abort()
        elif path == "/flood":
            # 4,000 messages of 16 KiB (64 MiB) as fast as the client takes them. A send that
            # stays blocked for 2 s means the client stopped reading: record how many went.
            flood["done"] = None
            payload = "f" * (16 << 10)
            sent = 0
            try:
                for _ in range(4000):
                    await asyncio.wait_for(ws.send(payload), 2)
                    sent += 1
                flood["done"] = f"all {sent}"
            except asyncio.TimeoutError:
                flood["done"] = f"blocked after {sent}"
            flood["event"].set()
            await ws.wait_closed()
        elif path == "/flood-result":
            await flood["event"].wait()
            flood["event"].clear()
            await ws.send(flood["done"])
            await ws.wait_closed()
        elif path == "/codeless-close":
            # A close frame with no status code (the peer's code is then 1005), then the
            # closing handshake as usual.
            ws.transport.write(b"\x88\x00")
            await asyncio.sleep(0.2)
            ws.transport.close()
        elif path in ("/fin", "/fin-later"):
            # The TCP connection closed cleanly (FIN), without a close frame: at once after the
            # handshake, or once the client had time to set the connection up.
            await ws.send("one")
            if path == "/fin-later":
                await asyncio.sleep(0.1)
            ws.transport.close()
        elif path == "/last-close":
            await ws.send(str(last_close["code"]))
            await ws.wait_closed()
        else:
            await ws.close(4004, "no such scenario")
    except ConnectionClosed:
        pass
    finally:
        if path != "/last-close" and ws.close_code is not None:
            last_close["code"] = ws.close_code
        elif path != "/last-close":
            await ws.wait_closed()
            last_close["code"] = ws.close_code


async def main():
    flood["event"] = asyncio.Event()
    async with serve(handler, "127.0.0.1", 0, max_size=None, ping_interval=None, process_request=process_request) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)


asyncio.run(main())
