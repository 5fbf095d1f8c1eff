#!/usr/bin/env python3
"""httpbin (PyPI `httpbin`) served by gunicorn on 127.0.0.1, for Salvo's interop tests.

Run it with the Python of a virtualenv that has httpbin and gunicorn (`.ci/run` makes
`.build-httpbin-venv/` from `.ci/httpbin-requirements.txt`); HTTPBinServer.swift starts one
instance per test process.

Usage:
    .build-httpbin-venv/bin/python httpbin_server.py [--port N] [--no-stdin-watch]

Binds 127.0.0.1 only (port 0, the default, picks a free port) and prints exactly one line
"PORT <n>" to stdout once gunicorn listens, nothing else to stdout. It exits when its stdin
reaches EOF, so it dies with the test process holding the other end of the pipe; pass
--no-stdin-watch when running it by hand:
    .build-httpbin-venv/bin/python Tests/SalvoTests/Transport/Support/Servers/httpbin_server.py --port 8081 --no-stdin-watch
"""

import argparse
import os
import signal
import sys
import threading
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the Swift test target

# Parallel tests keep slow requests (/delay, /drip) in flight while others run: enough threads
# that none queues behind them. gthread parks idle keep-alive connections without a thread.
WORKERS = 2
THREADS = 16
# Longer than a test run's pauses between requests, so a pooled connection is rarely closed
# by the server just as the client reuses it.
KEEPALIVE_SECONDS = 30


class BytesChunks:
    """The response body of `app` with bytearray chunks handed to gunicorn as bytes.

    httpbin's /bytes sets a bytearray as the body, which Werkzeug 3 passes through and
    gunicorn refuses ("is not a byte"), ending the response after its headers. Nothing else changes:
    chunks pass one by one (so /drip still drips) and close() reaches the original body.
    """

    def __init__(self, body):
        self.body = body

    def __iter__(self):
        for chunk in self.body:
            yield bytes(chunk) if isinstance(chunk, bytearray) else chunk

    def close(self):
        close = getattr(self.body, "close", None)
        if close is not None:
            close()


def stop_when_stdin_closes():
    """The test process holds our stdin pipe; EOF means it is gone, so stop gunicorn."""
    # os.read, not sys.stdin: workers forked while this thread blocks would inherit the
    # buffered reader's lock held, and abort at exit trying to take it.
    try:
        while os.read(0, 4096):
            pass
    except (OSError, ValueError):
        pass
    os.kill(os.getpid(), signal.SIGINT)  # the arbiter's quick shutdown stops the workers too
    time.sleep(5)
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description="httpbin under gunicorn, 127.0.0.1 only.")
    parser.add_argument("--port", type=int, default=0, help="port to bind, 0 (default) for a free one")
    parser.add_argument("--no-stdin-watch", action="store_true",
                        help="keep running when stdin closes (for running by hand)")
    args = parser.parse_args()
    # Foundation's Process spawns us from a Dispatch worker thread, whose blocked signal mask we
    # inherit; gunicorn's arbiter runs on signals (SIGCHLD, SIGINT), so unblock them all.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, set())

    try:
        from gunicorn.app.base import BaseApplication
        from httpbin import app as httpbin_app
    except ImportError as error:
        sys.stderr.write(f"httpbin_server: {error}; install with: pip install -r .ci/httpbin-requirements.txt\n")
        sys.exit(3)

    def when_ready(arbiter):
        port = arbiter.LISTENERS[0].getsockname()[1]
        if not args.no_stdin_watch:
            threading.Thread(target=stop_when_stdin_closes, name="stdin-watch", daemon=True).start()
        sys.stdout.write(f"PORT {port}\n")
        sys.stdout.flush()

    options = {
        "bind": f"127.0.0.1:{args.port}",
        "workers": WORKERS,
        "worker_class": "gthread",
        "threads": THREADS,
        "keepalive": KEEPALIVE_SECONDS,
        "graceful_timeout": 2,
        "loglevel": "warning",
        "when_ready": when_ready,
    }

    class HTTPBin(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self):
            return lambda environ, start_response: BytesChunks(httpbin_app(environ, start_response))

    HTTPBin().run()


if __name__ == "__main__":
    main()
