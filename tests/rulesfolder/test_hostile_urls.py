"""A member given a hostile remote address (issue #28, attack tester's round 2): a
host that ssh or a proxy command would read as an option, and a server whose ref
advertisement never ends. Each through the real command; one readable message,
exit 2, nothing run."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .servers import free_port

#: each address's host is an ssh option that would run ``touch MARKER``
HOSTILE = ("ssh://-oProxyCommand=touch${{IFS}}{marker}/p",
           "ssh://git@-oProxyCommand=touch${{IFS}}{marker}/p",
           "git@-oProxyCommand=touch${{IFS}}{marker}:path",
           "git://-oProxyCommand=touch${{IFS}}{marker}/p")


@pytest.mark.parametrize("form", HOSTILE)
def test_a_host_that_is_an_ssh_option_is_refused_by_clone_and_sync(rb, tmp_path, form):
    marker = tmp_path / "ran"
    url = form.format(marker=marker)
    result = rb("clone", url, tmp_path / "u1")
    assert result.code == 2, result.err
    assert "is not a host name" in result.err and "internal error" not in result.err
    assert len(result.err.strip().splitlines()) <= 2  # "Fetching from", the error
    folder = tmp_path / "folder"
    assert rb("init", folder).code == 0
    result = rb("--data", folder, "sync", "--remote", url)
    assert result.code == 2, result.err
    assert "is not a host name" in result.err and "internal error" not in result.err
    assert not marker.exists()


#: the most a refused advertisement may cost (the issue: 2.5 GB in 45 s)
MAX_RSS_MB = 100
BOMB = Path(__file__).with_name("ref_bomb.py")


@pytest.fixture(params=["http", "git", "ssh"])
def bomb_url(request) -> Iterator[str]:
    """A remote that keeps sending ref lines, on each transport."""
    if request.param == "ssh":  # what the ssh command writes is what sshd would send
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("GIT_SSH_COMMAND", f"{sys.executable} {BOMB}")
            yield "ssh://git@bomb.example/shared.git"
        return
    port = free_port()
    server = subprocess.Popen([sys.executable, str(BOMB), request.param, str(port)])
    try:
        for _ in range(100):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"{request.param}://127.0.0.1:{port}/shared.git"
    finally:
        server.kill()
        server.wait(timeout=30)


def test_an_endless_list_of_refs_is_refused_at_once_by_clone_and_sync(rb, tmp_path,
                                                                       bomb_url):
    from .test_hostile_remote import measured

    code, seconds, rss, err = measured("clone", bomb_url, tmp_path / "u1")
    assert code == 2, err
    assert "list of branches and tags of more than" in err, err
    assert "internal error" not in err and rss < MAX_RSS_MB, (rss, err)
    assert not (tmp_path / "u1").exists()
    folder = tmp_path / "folder"
    assert rb("init", folder).code == 0
    code, seconds, rss, err = measured("--data", folder, "sync", "--remote", bomb_url)
    assert code == 2, err
    assert "list of branches and tags of more than" in err, err
    assert "internal error" not in err and rss < MAX_RSS_MB, (rss, err)


#: (an address, what the message must say of it); {port}: a port no one listens on
UNREACHABLE = (
    ("http://127.0.0.1:{port}/shared.git", "cannot reach 127.0.0.1:{port} (connection refused"),
    ("https://127.0.0.1:{port}/shared.git", "cannot reach 127.0.0.1:{port} (connection refused"),
    ("git://127.0.0.1:{port}/shared.git", "cannot reach 127.0.0.1:{port} (connection refused"),
    ("http://no-such-host.invalid/shared.git", "cannot reach no-such-host.invalid:80 (no "
                                               "computer of that name was found"),
)


@pytest.mark.parametrize("url, said", UNREACHABLE)
def test_a_server_that_cannot_be_reached_is_named_plainly(rb, tmp_path, url, said):
    """Found by the #28 tester: a refused connection or an unknown host over http
    printed urllib3's "Max retries exceeded with url ..."."""
    port = free_port()
    url, said = url.format(port=port), said.format(port=port)
    folder = tmp_path / "folder"
    assert rb("init", folder).code == 0
    for run in (rb("clone", url, tmp_path / "new"), rb("--data", folder, "sync", "--remote", url)):
        assert run.code == 2, run.err
        assert said in run.err, run.err
        for raw in ("Max retries", "Errno", "Connection(", "Pool(", "internal error"):
            assert raw not in run.err, run.err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/shared.git", "svn://host/repo",
                                 "gopher://host:70/x"])
def test_an_address_of_an_unsupported_kind_is_said_to_be_one(rb, tmp_path, url):
    """Found by the #28 tester: an ftp:// address was reported as an ssh host ("ssh:
    Could not resolve hostname ftp")."""
    folder = tmp_path / "folder"
    assert rb("init", folder).code == 0
    scheme = url.split("://")[0]
    for run in (rb("clone", url, tmp_path / "new"), rb("--data", folder, "sync", "--remote", url)):
        assert run.code == 2, run.err
        assert f"{scheme}://" in run.err and "not supported" in run.err, run.err
        for kind in ("http://", "https://", "git://", "ssh://", "user@host:path", "path"):
            assert kind in run.err, run.err
        assert "ssh:" not in run.err.replace("ssh://", ""), run.err
    assert not (tmp_path / "new").exists()
