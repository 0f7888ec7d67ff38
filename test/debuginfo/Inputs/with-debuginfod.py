#!/usr/bin/env python3
"""Runs a command against a debuginfod server started for it, and stops the
server afterwards, whatever happens (lit runs RUN lines in a shell, which
would leave a server started in the background running on failure).

usage: with-debuginfod.py MODE [options] -- COMMAND [ARG...]

MODE:
  --serve DIR     a real `debuginfod -F DIR` (elfutils), on a free port of
                  127.0.0.1; waits until it serves --wait's build-id
  --down          nothing listens on the port
  --junk          a small HTTP server whose /buildid/<id>/debuginfo is junk
  --truncated F   the same, sending the first half of file F
  --short F       the same, announcing F's length and closing after half
  --file F        the same, sending all of file F (whatever the build-id)
options:
  --wait HEX      (--serve) the build-id to wait for (repeatable)
  --cache DIR     the client's cache (DEBUGINFOD_CACHE_PATH); default: a
                  fresh directory under the current one
  --log FILE      where the server's output goes (default: discarded)

The command runs with DEBUGINFOD_URLS naming the server, the cache set,
DEBUGINFOD_TIMEOUT=10 and proxies off for 127.0.0.1; its exit status is
this script's.
"""
import http.server
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, build_ids, server, deadline=60):
    """Polls until the server answers 200 for every build-id."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    pending = list(build_ids)
    end = time.time() + deadline
    while pending:
        if server.poll() is not None:
            sys.exit("debuginfod exited with status %d before serving"
                     % server.returncode)
        if time.time() > end:
            sys.exit("debuginfod did not serve %s within %d s"
                     % (pending[0], deadline))
        try:
            with opener.open("%s/buildid/%s/debuginfo" % (url, pending[0]),
                             timeout=5) as r:
                if r.status == 200:
                    pending.pop(0)
                    continue
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.1)


class FakeServer(http.server.BaseHTTPRequestHandler):
    """Answers every /buildid/ request with what `body` gives."""
    body = None  # (declared length, bytes sent)

    def do_GET(self):
        if not self.path.startswith("/buildid/"):
            self.send_error(404)
            return
        length, data = self.body()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


def start_fake(port, body):
    FakeServer.body = staticmethod(body)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), FakeServer)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit(__doc__)
    split = args.index("--")
    opts, command = args[:split], args[split + 1:]
    mode = opts.pop(0)
    serve_dir = truncate_file = None
    if mode in ("--serve", "--truncated", "--short", "--file"):
        serve_dir = truncate_file = opts.pop(0)
    waits, cache, log = [], None, os.devnull
    while opts:
        flag, value = opts.pop(0), opts.pop(0)
        if flag == "--wait":
            waits.append(value)
        elif flag == "--cache":
            cache = value
        elif flag == "--log":
            log = value
        else:
            sys.exit("unknown option " + flag)
    if cache is None:
        cache = tempfile.mkdtemp(prefix="debuginfod-cache-", dir=".")

    port = free_port()
    url = "http://127.0.0.1:%d" % port
    env = dict(os.environ)
    for proxy in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                  "all_proxy", "ALL_PROXY"):
        env.pop(proxy, None)
    env.update(no_proxy="127.0.0.1", NO_PROXY="127.0.0.1")
    # The server must not see the client's settings: DEBUGINFOD_URLS would
    # make it forward what it lacks to itself.
    server_env = {k: v for k, v in env.items()
                  if not k.startswith("DEBUGINFOD_")}
    env.update(DEBUGINFOD_URLS=url, DEBUGINFOD_CACHE_PATH=cache,
               DEBUGINFOD_TIMEOUT="10")

    server = httpd = None
    workdir = tempfile.mkdtemp(prefix="debuginfod-db-", dir=".")
    try:
        if mode == "--serve":
            with open(log, "w") as out:
                server = subprocess.Popen(
                    ["debuginfod", "-F", "-p", str(port), "-c", "1", "-t",
                     "0", "-g", "0", "-d",
                     os.path.join(workdir, "db.sqlite"), serve_dir],
                    stdout=out, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, env=server_env)
            wait_for(url, waits, server)
        elif mode == "--junk":
            junk = b"<html>not an ELF file</html>\n" * 10
            httpd = start_fake(port, lambda: (len(junk), junk))
        elif mode in ("--truncated", "--short", "--file"):
            with open(truncate_file, "rb") as f:
                data = f.read()
            sent = data if mode == "--file" else data[: len(data) // 2]
            declared = len(data) if mode == "--short" else len(sent)
            httpd = start_fake(port, lambda: (declared, sent))
        elif mode != "--down":
            sys.exit("unknown mode " + mode)
        return subprocess.run(command, env=env).returncode
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()


if __name__ == "__main__":
    sys.exit(main())
