"""``rulesbook serve`` against request bodies meant to exhaust it (issue #28, the
tester's round 2), each through a real server: a push of a million ref commands
(serve reached 482 MB), fetch negotiations that inflate from a few MB of gzip to
gigabytes of ``have`` lines (members got 503 for 15 minutes), and malformed bodies
(a 500 and a traceback on serve's stderr). Each is refused early, with a reason,
on one log line, and members are served right after."""
from __future__ import annotations

import base64
import http.client
import threading
import time
import zlib
from collections.abc import Iterator

from rulesbook.rulesfolder.serve_bodies import MAX_COMMANDS

from .servers import Served, rulesbook, rulesbook_serve
from .test_serve import shared_folder

ZERO = "0" * 40
#: the most serve may grow to while refusing (the issue: 482 MB)
MAX_SERVE_MB = 150


def pkt(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % (len(data) + 4) + data


def post(served: Served, service: str, body: Iterator[bytes] | bytes,
         headers: dict[str, str], member: str | None = "alice") -> tuple[int, bytes]:
    host, port = served.url.split("://", 1)[1].strip("/").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    conn.putrequest("POST", f"/{service}")
    if member:
        token = base64.b64encode(f"{member}:{served.tokens[member]}".encode()).decode()
        conn.putheader("Authorization", f"Basic {token}")
    conn.putheader("Content-Type", f"application/x-{service}-request")
    for name, value in headers.items():
        conn.putheader(name, value)
    conn.endheaders()
    try:
        if isinstance(body, bytes):
            conn.send(body)
        else:
            for piece in body:
                conn.send(piece)
    except OSError:
        pass  # the server refused and closed: its answer may still be read
    try:
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def chunked(pieces: Iterator[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield b"%x\r\n" % len(piece) + piece + b"\r\n"
    yield b"0\r\n\r\n"


def stderr_of(served: Served) -> str:
    served.proc.send_signal(2)
    served.proc.wait(timeout=30)
    assert served.proc.stderr is not None
    return served.proc.stderr.read()


def test_a_push_of_a_million_ref_commands_is_refused_at_once(tmp_path):
    def commands() -> Iterator[bytes]:
        first = pkt(f"{ZERO} {'1' * 40} refs/heads/main\0report-status\n")
        yield first
        for start in range(0, 1_000_000, 10_000):
            yield b"".join(pkt(f"{ZERO} {'1' * 40} refs/heads/b{n}\n")
                           for n in range(start, start + 10_000))

    with rulesbook_serve(tmp_path / "shared.git") as served:
        shared_folder(tmp_path, served)
        started = time.monotonic()
        status, text = post(served, "git-receive-pack", chunked(commands()),
                            {"Transfer-Encoding": "chunked"})
        seconds = time.monotonic() - started
        peak = served.peak_mb()
        err = stderr_of(served)
    assert status == 413, (status, text)
    assert f"at most {MAX_COMMANDS} refs".encode() in text, text
    assert peak < MAX_SERVE_MB, peak
    assert "Traceback" not in err and err.count("refused a push") == 1, err
    print(f"refused in {seconds:.1f} s, serve's peak {peak} MB")


def have_bomb(inflated_mb: int) -> bytes:
    """A gzip body of ``want`` and ``have`` lines inflating to ``inflated_mb`` MB."""
    lines = b"".join(pkt(f"have {n:040x}\n") for n in range(20_000))  # 1 MB
    deflate = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out = [deflate.compress(pkt(f"want {'1' * 40} multi_ack_detailed\n") + b"0000")]
    out += [deflate.compress(lines) for _ in range(inflated_mb)]
    return b"".join(out) + deflate.flush()


def test_gzip_negotiations_that_inflate_to_gigabytes_do_not_keep_members_out(tmp_path):
    body = have_bomb(512)  # 512 MB of have lines, about 1.5 MB of gzip
    with rulesbook_serve(tmp_path / "shared.git", ("alice", "bob"),
                         "--public-read") as served:
        shared_folder(tmp_path, served)
        statuses: list[int] = []
        started = time.monotonic()

        def attack() -> None:
            statuses.append(post(served, "git-upload-pack", body,
                                 {"Content-Encoding": "gzip",
                                  "Content-Length": str(len(body))}, member=None)[0])
        threads = [threading.Thread(target=attack) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        attacked = time.monotonic() - started
        clone = rulesbook("clone", served.with_token("bob"), tmp_path / "bob", "--quiet",
                          timeout=120)
        served_after = time.monotonic() - started - attacked
        peak = served.peak_mb()
        err = stderr_of(served)
    assert statuses == [413] * 8, statuses
    assert clone.returncode == 0, clone.stderr
    assert peak < MAX_SERVE_MB, peak
    assert "Traceback" not in err and err.count("refused a fetch") == 8, err
    print(f"8 bombs refused in {attacked:.1f} s, then a clone in {served_after:.1f} s, "
          f"serve's peak {peak} MB")


def test_malformed_bodies_are_a_400_and_one_log_line(tmp_path):
    with rulesbook_serve(tmp_path / "shared.git") as served:
        shared_folder(tmp_path, served)
        empty_chunked = post(served, "git-upload-pack", b"0\r\n\r\n",
                             {"Transfer-Encoding": "chunked"})
        garbage = post(served, "git-upload-pack", b"\x1f\x8b" + b"not gzip at all" * 10,
                       {"Content-Encoding": "gzip", "Content-Length": "152"})
        garbage_push = post(served, "git-receive-pack", b"garbage!" * 10,
                            {"Content-Encoding": "gzip", "Content-Length": "80"})
        no_side_band = post(served, "git-upload-pack",  # git's clients always ask for it
                            pkt(f"want {'1' * 40} multi_ack\n") + b"0000" + pkt("done\n"),
                            {"Content-Length": "73"})
        err = stderr_of(served)
    assert [r[0] for r in (empty_chunked, garbage, garbage_push)] == [400] * 3, \
        err + str((empty_chunked, garbage, garbage_push))
    assert no_side_band[0] != 500, no_side_band  # dulwich has answered 200 by then
    assert b"gzip" in garbage[1] and b"empty" in empty_chunked[1]
    assert "Traceback" not in err, err
    assert len([line for line in err.splitlines() if "refused" in line]) == 4, err
