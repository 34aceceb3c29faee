"""A hostile remote whose list of refs never ends (issue #28: a clone reached 2.5 GB
in 45 s), as a program: ``ref_bomb.py http PORT`` and ``ref_bomb.py git PORT`` serve
it on 127.0.0.1 (smart HTTP, ``git://``); ``ref_bomb.py HOST COMMAND`` writes it on
stdout, as ``GIT_SSH_COMMAND`` (what an ssh server sends is the same stream). It stops
after :data:`TOTAL` bytes, so that a client without a bound ends (and fails its
memory bound) instead of running for ever."""
from __future__ import annotations

import http.server
import socketserver
import sys
from collections.abc import Callable

HEAD = "1" * 40
TOTAL = 300 * 1024 * 1024


def pkt(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % (len(data) + 4) + data


def bomb(write: Callable[[bytes], object]) -> None:
    write(pkt(f"{HEAD} HEAD\0multi_ack_detailed side-band-64k ofs-delta "
              f"symref=HEAD:refs/heads/main\n") + pkt(f"{HEAD} refs/heads/main\n"))
    sent, n = 0, 0
    try:
        while sent < TOTAL:
            chunk = b"".join(pkt(f"{HEAD} refs/tags/{'x' * 900}{n + i}\n") for i in range(1000))
            n += 1000
            write(chunk)
            sent += len(chunk)
    except OSError:  # the client hung up: it refused the list
        pass


class Http(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "application/x-git-upload-pack-advertisement")
        self.end_headers()
        self.wfile.write(pkt("# service=git-upload-pack\n") + b"0000")
        bomb(self.wfile.write)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class Git(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        self.request.recv(4096)  # "git-upload-pack /path\0host=...\0"
        bomb(self.wfile.write)


class Threading(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    if sys.argv[1] in ("http", "git"):
        handler = Http if sys.argv[1] == "http" else Git
        Threading(("127.0.0.1", int(sys.argv[2])), handler).serve_forever()
    else:
        bomb(sys.stdout.buffer.write)
