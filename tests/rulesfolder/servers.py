"""Real servers for the sharing tests, each on 127.0.0.1 and stopped by the test:
``rulesbook serve`` (a subprocess, with tokens), ``git daemon``, and ``git
http-backend`` behind a basic-auth WSGI wrapper. ``git`` is a test dependency:
without it these tests fail saying so (they never pass silently)."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

from tests.datapaths import REPO


def git_program() -> str:
    found = shutil.which("git")
    assert found, ("git is a test dependency of the sharing tests (install it: apt-get "
                   "install git); these tests cannot run without it")
    return found


def git_exec_path() -> Path:
    return Path(subprocess.run([git_program(), "--exec-path"], capture_output=True, text=True,
                               check=True).stdout.strip())


def env(**extra: str) -> dict[str, str]:
    """The environment of a subprocess: this checkout's rulesbook, git's user config
    and prompts kept out (the test's own config file, no terminal prompt)."""
    base = dict(os.environ, PYTHONPATH=str(REPO), GIT_TERMINAL_PROMPT="0")
    base.update(extra)
    return base


def rulesbook(*argv: object, timeout: float = 120, input: str | None = None,
              **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulesbook", *map(str, argv)], env=env(**extra),
                          capture_output=True, text=True, timeout=timeout, input=input,
                          stdin=None if input is not None else subprocess.DEVNULL)


def git(*argv: object, cwd: Path | None = None, check: bool = True,
        timeout: float = 120, **extra: str) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([git_program(), "-c", "user.name=Mallory", "-c", "user.email=m@x",
                          "-c", "protocol.version=0", *map(str, argv)], cwd=cwd,
                         env=env(**extra),
                         capture_output=True, text=True, timeout=timeout)
    if check:
        assert run.returncode == 0, (argv, run.stderr)
    return run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    url: str  # no credentials
    bare: Path
    tokens: dict[str, str]
    proc: subprocess.Popen[str]

    def with_token(self, member: str) -> str:
        scheme, rest = self.url.split("://", 1)
        return f"{scheme}://{member}:{self.tokens[member]}@{rest}"

    def peak_mb(self) -> int | None:
        """The most memory the server has held so far, in MB (None: it has ended)."""
        status = Path(f"/proc/{self.proc.pid}/status")
        if not status.exists():
            return None
        line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1]) // 1024


@dataclass(frozen=True)
class Pushed:
    """What ``git push`` of a bare repository's main to ``rulesbook serve`` did."""

    code: int
    stderr: str
    seconds: float
    server_peak_mb: int | None


def push_to_serve(served: Served, local: Path, member: str = "bob",
                  timeout: float = 300) -> Pushed:
    """``git push`` of ``local``'s main to ``served`` as ``member``, timed; printed."""
    started = time.monotonic()
    pushed = git("push", served.with_token(member), "main", cwd=local, check=False,
                 timeout=timeout)
    seconds = time.monotonic() - started
    peak = served.peak_mb()
    print(f"push: {seconds:.1f} s, server peak {peak} MB: {pushed.stderr.strip()[-400:]}")
    return Pushed(pushed.returncode, pushed.stderr, seconds, peak)


@contextlib.contextmanager
def rulesbook_serve(bare: Path, members: tuple[str, ...] = ("alice", "bob"), *extra: str,
                    create: bool = True) -> Iterator[Served]:
    """``rulesbook serve BARE`` in a subprocess, with a token for each member."""
    if create:
        made = rulesbook("serve", bare, "--create", "--add-member", members[0], "--json")
        assert made.returncode == 0, made.stderr
        tokens = {members[0]: json.loads(made.stdout)["token"]}
        members = members[1:]
    else:
        tokens = {}
    for member in members:
        made = rulesbook("serve", bare, "--add-member", member, "--json")
        assert made.returncode == 0, made.stderr
        tokens[member] = json.loads(made.stdout)["token"]
    proc = subprocess.Popen([sys.executable, "-m", "rulesbook", "serve", str(bare), "--port", "0",
                             *extra], env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving "), line + (proc.stderr.read() if proc.stderr else "")
        yield Served(line.split(" at ")[1].split()[0], bare, tokens, proc)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


@contextlib.contextmanager
def git_daemon(base: Path) -> Iterator[str]:
    """``git daemon`` serving the bare repositories under ``base`` (pushes allowed);
    yields ``git://127.0.0.1:PORT/``."""
    port = free_port()
    proc = subprocess.Popen([git_program(), "daemon", "--reuseaddr", "--listen=127.0.0.1",
                             f"--port={port}", f"--base-path={base}", "--export-all",
                             "--enable=receive-pack", "--informative-errors", str(base)],
                            env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else "git daemon died"
            assert time.monotonic() < deadline, "git daemon did not start"
            time.sleep(0.1)
        yield f"git://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if proc.stderr:
            proc.stderr.close()


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _http_backend_app(base: Path, user: str, password: str):
    """``git http-backend`` as CGI behind HTTP basic auth, as a WSGI application (the
    way GitHub, GitLab and Gitea ask for a password or token)."""
    backend = str(git_exec_path() / "git-http-backend")
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def app(environ, start_response):
        if environ.get("HTTP_AUTHORIZATION") != expected:
            start_response("401 Unauthorized", [("WWW-Authenticate", 'Basic realm="git"'),
                                                ("Content-Type", "text/plain")])
            return [b"authentication required\n"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        cgi_env = {k: v for k, v in environ.items() if isinstance(v, str)}
        cgi_env.update(GIT_PROJECT_ROOT=str(base), GIT_HTTP_EXPORT_ALL="1",
                       REMOTE_USER=user, PATH=os.environ.get("PATH", ""))
        out = subprocess.run([backend], input=body, env=cgi_env, capture_output=True,
                             timeout=120).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        if not _:
            head, _, payload = out.partition(b"\n\n")
        status = "200 OK"
        headers = []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = value.strip()
            elif name:
                headers.append((name.strip(), value.strip()))
        start_response(status, headers)
        return [payload]
    return app


@contextlib.contextmanager
def git_http_backend(base: Path, user: str, password: str) -> Iterator[str]:
    """``git http-backend`` for the bare repositories under ``base``, asking for
    ``user``/``password``; yields ``http://127.0.0.1:PORT/``."""
    server = make_server("127.0.0.1", 0, _http_backend_app(base, user, password),
                         handler_class=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class SshServer:
    url: str  # ssh://git@127.0.0.1:PORT/
    alias: str  # a host name the ssh config file knows: ``ALIAS:shared.git``
    ssh_command: str  # GIT_SSH_COMMAND for the clients


@contextlib.contextmanager
def ssh_server(base: Path, workdir: Path) -> Iterator[SshServer]:
    """An SSH server (asyncssh, on a thread of its own) that lets in one throwaway key
    and runs ``git-upload-pack`` / ``git-receive-pack`` for the bare repositories under
    ``base``, as a git host's SSH does; the clients use the system's ``ssh`` with that
    key, the server's host key in a known_hosts file and strict checking."""
    import asyncio
    import shlex

    import asyncssh

    git = git_program()
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    client_key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = workdir / "id_ed25519"
    client_key.write_private_key(str(key_file))
    key_file.chmod(0o600)
    authorized = asyncssh.import_authorized_keys(
        client_key.export_public_key().decode())

    async def run_git(process: asyncssh.SSHServerProcess) -> None:
        argv = shlex.split(process.command or "")
        if len(argv) != 2 or argv[0] not in ("git-upload-pack", "git-receive-pack"):
            process.stderr.write(f"only git is served here, not {process.command!r}\n".encode())
            process.exit(1)
            return
        target = (base / argv[1].lstrip("/")).resolve()
        if base.resolve() not in target.parents:
            process.exit(1)
            return
        child = await asyncio.create_subprocess_exec(
            git, argv[0].removeprefix("git-"), str(target), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env())
        assert child.stdin and child.stdout and child.stderr

        async def to_git() -> None:
            while data := await process.stdin.read(65536):
                child.stdin.write(data)
                await child.stdin.drain()
            child.stdin.close()

        async def from_git(source, sink) -> None:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()

        feeding = asyncio.ensure_future(to_git())
        await asyncio.gather(from_git(child.stdout, process.stdout),
                             from_git(child.stderr, process.stderr))
        code = await child.wait()
        feeding.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, ConnectionError):
            await feeding
        process.exit(code)

    class Server(asyncssh.SSHServer):
        def begin_auth(self, username: str) -> bool:
            return True

        def public_key_auth_supported(self) -> bool:
            return True

        def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
            return authorized.validate(key, "127.0.0.1", "127.0.0.1") is not None

    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, object] = {}

    async def start() -> None:
        server = await asyncssh.create_server(Server, "127.0.0.1", 0, server_host_keys=[host_key],
                                              process_factory=run_git, encoding=None)
        holder["server"] = server
        holder["port"] = server.sockets[0].getsockname()[1]
        started.set()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert started.wait(60), "the SSH test server did not start"
    port = holder["port"]
    known_hosts = workdir / "known_hosts"
    known_hosts.write_text(f"[127.0.0.1]:{port} "
                           f"{host_key.export_public_key().decode().strip()}\n")
    config = workdir / "ssh_config"
    config.write_text(f"Host apca-test\n  HostName 127.0.0.1\n  Port {port}\n  User git\n"
                      f"Host *\n  IdentityFile {key_file}\n  IdentitiesOnly yes\n"
                      f"  UserKnownHostsFile {known_hosts}\n  StrictHostKeyChecking yes\n"
                      f"  HostKeyAlias [127.0.0.1]:{port}\n  BatchMode yes\n")
    try:
        yield SshServer(f"ssh://git@127.0.0.1:{port}/", "apca-test", f"ssh -F {config}")
    finally:
        async def stop() -> None:
            server = holder["server"]
            server.close()  # type: ignore[attr-defined]
            await server.wait_closed()  # type: ignore[attr-defined]

        asyncio.run_coroutine_threadsafe(stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


@contextlib.contextmanager
def hostile_git_server(bare: Path, pack: bytes) -> Iterator[str]:
    """A ``git://`` server (dulwich's, in a thread) advertising ``bare``'s refs and
    answering every fetch with ``pack``, whatever was asked: a hostile host sending
    a pack git would never make (a thin pack against objects the member lacks).
    Yields ``git://127.0.0.1:PORT/``."""
    from unittest import mock

    import dulwich.server as server

    def crafted(write, *_args, **_kwargs) -> None:
        write(pack)

    from dulwich.repo import Repo

    with Repo(str(bare)) as repo, \
            mock.patch.object(server, "write_pack_from_container", crafted):
        tcp = server.TCPGitServer(server.DictBackend({b"/": repo}), "127.0.0.1", 0)
        thread = threading.Thread(target=tcp.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"git://127.0.0.1:{tcp.server_address[1]}/"
        finally:
            tcp.shutdown()
            tcp.server_close()
            thread.join(timeout=30)
