"""Sharing through the git hosting associations already use (issue #28 attack 5,
Musts 1 and 5): ``git daemon``, ``git http-backend`` asking for a password behind
basic auth (as GitHub, GitLab and Gitea do), and ``rulesbook serve`` with tokens,
each a real server on 127.0.0.1, used through the real commands."""
from __future__ import annotations

import json
import os
import pty
import select
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from .conftest import bare_repo, log
from .servers import env, git_daemon, git_http_backend, rulesbook, rulesbook_serve

SECRET = "s3cret-Token_9"


class GitConfigs(NamedTuple):
    """Global git configurations a test runs the commands with."""

    store: Path  # a credential helper (``store``) keeping logins in ``credentials``
    credentials: Path
    no_helper: Path  # no helper: a login given is kept nowhere


@pytest.fixture
def configs(tmp_path) -> GitConfigs:
    credentials = tmp_path / "git-credentials"
    store = tmp_path / "gitconfig"
    store.write_text(f"[credential]\n\thelper = store --file {credentials.as_posix()}\n")
    no_helper = tmp_path / "gitconfig-empty"
    no_helper.write_text("")
    return GitConfigs(store, credentials, no_helper)


def ok(run):
    assert run.returncode == 0, run.stderr
    return run


def no_secret_anywhere(folder: Path, secret: str) -> None:
    """The password is in no file of the folder (its .git included)."""
    for path in folder.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_git_daemon_clone_and_sync(rb, tmp_path):
    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    with git_daemon(tmp_path / "base") as daemon:
        url = daemon + "shared.git"
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        # the first --remote of a folder that has no origin says it became one (found
        # by the #28 retest: only a replaced origin was said)
        first = ok(rulesbook("--data", secretary, "sync", "--remote", url))
        assert f"origin is now {url}" in first.stderr and "(it was" not in first.stderr, \
            first.stderr
        again = json.loads(ok(rulesbook("--data", secretary, "sync", "--json", "--remote",
                                        url)).stdout)
        assert again["origin_set"] is False and again["previous_origin"] is None
        ok(rulesbook("clone", url, member, "--quiet"))
        assert "up to date" in ok(rulesbook("--data", member, "sync")).stdout
        ok(rulesbook("--data", secretary, "member", "add", "Dana Daemon"))
        ok(rulesbook("--data", secretary, "sync", "--quiet"))
        synced = json.loads(ok(rulesbook("--data", member, "sync", "--json")).stdout)
        assert synced["fetched"] == 1 and synced["fast_forward"]
        assert log(member)[0].id == log(secretary)[0].id


def test_a_host_that_asks_for_a_password(tmp_path, configs):
    """Attack 5: `clone` without credentials printed "internal error
    (HTTPUnauthorized ...)"; with them in the URL, the password was stored in
    .git/config."""
    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    gitconfig, credentials, no_helper = configs
    with git_http_backend(tmp_path / "base", "secretary", SECRET) as host:
        url = host + "shared.git"
        hostport = url.split("://")[1].split("/")[0]
        secret_url = url.replace("http://", f"http://secretary:{SECRET}@")
        member = tmp_path / "member"
        secretary = tmp_path / "secretary"
        ok(rulesbook("init", secretary))
        # without a login, and no one to ask: one message naming the host
        refused = rulesbook("--data", secretary, "sync", "--remote", url,
                            GIT_CONFIG_GLOBAL=str(no_helper))
        assert refused.returncode == 2, refused.stderr
        message = refused.stderr.strip().splitlines()[-1]
        assert hostport in message
        assert "asks for a user name and a password or token" in message
        assert "internal error" not in refused.stderr and "Traceback" not in refused.stderr
        # the address's own scheme in the hint (found by the #28 retest: it said https
        # for an http address) ...
        assert f"(http://USER@{hostport}/...)" in message, message
        # ... and no hint to put in a user name the address already has
        named = rulesbook("--data", secretary, "sync", "--remote",
                          url.replace("http://", "http://secretary@"),
                          GIT_CONFIG_GLOBAL=str(no_helper))
        assert named.returncode == 2 and "asks for a user name" in named.stderr, named.stderr
        assert "USER@" not in named.stderr, named.stderr
        # a wrong password: refused, naming the host
        wrong = rulesbook("--data", secretary, "sync", "--remote",
                          url.replace("http://", "http://secretary:wrong@"),
                          GIT_CONFIG_GLOBAL=str(no_helper))
        assert wrong.returncode == 2 and hostport in wrong.stderr
        assert "refused the login" in wrong.stderr, wrong.stderr
        # the password in the address: used, printed and stored nowhere in the folder
        pushed = ok(rulesbook("--data", secretary, "sync", "--remote", secret_url,
                              GIT_CONFIG_GLOBAL=str(gitconfig)))
        assert SECRET not in pushed.stdout + pushed.stderr
        no_secret_anywhere(secretary, SECRET)
        assert SECRET in credentials.read_text()  # handed to git's credential helper
        where = json.loads(ok(rulesbook("--data", secretary, "where", "--json")).stdout)
        assert where["origin"] == url
        cloned = ok(rulesbook("clone", secret_url, member, GIT_CONFIG_GLOBAL=str(gitconfig)))
        assert SECRET not in cloned.stdout + cloned.stderr
        no_secret_anywhere(member, SECRET)
        # later syncs log in with what the helper keeps
        ok(rulesbook("--data", secretary, "member", "add", "Hana Host"))
        ok(rulesbook("--data", secretary, "sync", "--quiet", GIT_CONFIG_GLOBAL=str(gitconfig)))
        synced = ok(rulesbook("--data", member, "sync", "--json",
                              GIT_CONFIG_GLOBAL=str(gitconfig)))
        assert json.loads(synced.stdout)["fetched"] == 1
        assert log(member)[0].id == log(secretary)[0].id


@pytest.mark.parametrize("user", ["me@example.org", "al ice"])
def test_a_user_name_written_with_percent_escapes_logs_in_again(tmp_path, configs, user):
    """A user name that a URL must escape (an e-mail address: me%40example.org):
    `clone` worked and the helper kept the login, but every later sync asked the
    helper for the escaped name, found nothing and was refused (the #28 re-test)."""
    from urllib.parse import quote

    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    gitconfig = str(configs.store)
    with git_http_backend(tmp_path / "base", user, SECRET) as host:
        url = host + "shared.git"
        login_url = url.replace("http://", f"http://{quote(user, safe='')}:{SECRET}@")
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        ok(rulesbook("--data", secretary, "sync", "--quiet", "--remote", login_url,
                     GIT_CONFIG_GLOBAL=gitconfig))
        ok(rulesbook("clone", login_url, member, "--quiet", GIT_CONFIG_GLOBAL=gitconfig))
        ok(rulesbook("--data", secretary, "member", "add", "Pat Percent"))
        ok(rulesbook("--data", secretary, "sync", "--quiet", GIT_CONFIG_GLOBAL=gitconfig))
        synced = ok(rulesbook("--data", member, "sync", "--json", GIT_CONFIG_GLOBAL=gitconfig))
        assert json.loads(synced.stdout)["fetched"] == 1
        no_secret_anywhere(member, SECRET)
        # the same address with another user name: said so, not "now X (it was X)"
        renamed = ok(rulesbook("--data", member, "sync", "--remote",
                               url.replace("http://", f"http://{quote(user, safe='')}@"),
                               GIT_CONFIG_GLOBAL=gitconfig))
        assert "origin is now" not in renamed.stderr, renamed.stderr
        moved = ok(rulesbook("--data", member, "sync", "--remote", url,
                             GIT_CONFIG_GLOBAL=gitconfig))
        assert f"origin is still {url}, with another user name" in moved.stderr, moved.stderr


def _on_terminal(argv: list[str], answers: list[tuple[bytes, bytes]], extra: dict[str, str],
                 timeout: float = 120) -> tuple[int, bytes]:
    """Run ``argv`` on a pseudo-terminal, answering each prompt; (exit code, output)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is the pty
        os.execve(argv[0], argv, env(**extra))
    output = b""
    pending = list(answers)  # each prompt answered once: asked again, the run hangs
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                output += data
            if pending and pending[0][0] in output:
                os.write(fd, pending.pop(0)[1] + b"\n")
        else:
            os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), output


def test_the_command_line_asks_for_a_login_on_a_terminal(tmp_path, configs):
    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    no_helper = configs.no_helper
    with git_http_backend(tmp_path / "base", "secretary", SECRET) as host:
        url = host + "shared.git"
        secretary = tmp_path / "secretary"
        ok(rulesbook("init", secretary))
        code, output = _on_terminal(
            [sys.executable, "-m", "rulesbook", "--data", str(secretary), "sync", "--remote",
             url], [(b"User name for", b"secretary"), (b"Password or token for", SECRET.encode())],
            {"GIT_CONFIG_GLOBAL": str(no_helper)})
        assert code == 0, output.decode(errors="replace")
        assert SECRET.encode() not in output  # not echoed
        no_secret_anywhere(secretary, SECRET)
        assert log(tmp_path / "base" / "shared.git")[0].id == log(secretary)[0].id


def test_rulesbook_serve_with_tokens_clone_and_sync(tmp_path, configs):
    gitconfig = configs.store
    with rulesbook_serve(tmp_path / "srv.git") as served:
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        ok(rulesbook("--data", secretary, "sync", "--quiet", "--remote",
                     served.with_token("alice"), GIT_CONFIG_GLOBAL=str(gitconfig)))
        no_secret_anywhere(secretary, served.tokens["alice"])
        refused = rulesbook("clone", served.url, tmp_path / "outsider",
                            GIT_CONFIG_GLOBAL=str(tmp_path / "none"))
        assert refused.returncode == 2
        assert "asks for a user name and a password or token" in refused.stderr
        ok(rulesbook("clone", served.with_token("bob"), member, "--quiet",
                     GIT_CONFIG_GLOBAL=str(gitconfig)))
        no_secret_anywhere(member, served.tokens["bob"])
        assert "up to date" in ok(rulesbook("--data", member, "sync",
                                            GIT_CONFIG_GLOBAL=str(gitconfig))).stdout
        ok(rulesbook("--data", secretary, "member", "add", "Sam Served"))
        ok(rulesbook("--data", secretary, "sync", "--quiet", GIT_CONFIG_GLOBAL=str(gitconfig)))
        synced = ok(rulesbook("--data", member, "sync", "--json",
                              GIT_CONFIG_GLOBAL=str(gitconfig)))
        assert json.loads(synced.stdout)["fetched"] == 1


def test_sync_remote_url_becomes_the_origin_and_says_so(rb, tmp_path):
    """Attack 6: `sync --remote URL` on a clone with an origin did not remember it; the
    next plain `sync` went to the old server."""
    old, new = bare_repo(tmp_path / "old.git"), bare_repo(tmp_path / "new.git")
    folder = tmp_path / "folder"
    assert rb("init", folder).code == 0
    assert rb("--data", folder, "sync", "--quiet", "--remote", old).code == 0
    moved = rb("--data", folder, "sync", "--remote", new)
    assert moved.code == 0, moved.err
    assert f"origin is now {new} (it was {old})" in moved.err
    assert moved.err.count("origin is now") == 1, moved.err  # was printed twice
    assert rb("--data", folder, "member", "add", "Olga Origin").code == 0
    assert rb("--data", folder, "sync", "--quiet").code == 0
    assert log(new)[0].id == log(folder)[0].id != log(old)[0].id
    where = rb("--data", folder, "where")
    assert where.out.strip() == str(folder) and f"origin: {new}" in where.err
    assert json.loads(rb("--data", folder, "where", "--json").out)["origin"] == str(new)


def test_a_token_given_without_a_credential_helper_is_said_to_be_lost(tmp_path, configs):
    """Found by the #28 tester: `clone` and `sync --remote` given a token in the
    address, where git has no credential helper, kept it nowhere and said nothing:
    the next sync failed asking for a login. Now they say plainly that it is not
    remembered and how to set a helper up (even with --quiet), and never store it in
    .git/config; with a helper, they say which one keeps it."""
    gitconfig, credentials, no_helper = configs
    bare_env = {"GIT_CONFIG_GLOBAL": str(no_helper), "GIT_CONFIG_NOSYSTEM": "1",
                "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    with rulesbook_serve(tmp_path / "srv.git") as served:
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        shared = ok(rulesbook("--data", secretary, "sync", "--quiet", "--remote",
                              served.with_token("alice"), **bare_env))
        assert "not remembered" in shared.stderr, shared.stderr
        assert "git config --global credential.helper" in shared.stderr
        no_secret_anywhere(secretary, served.tokens["alice"])
        cloned = ok(rulesbook("clone", served.with_token("bob"), member, **bare_env))
        assert "not remembered" in cloned.stderr and "credential.helper" in cloned.stderr, \
            cloned.stderr
        assert served.tokens["bob"] not in cloned.stdout + cloned.stderr
        no_secret_anywhere(member, served.tokens["bob"])
        assert served.tokens["bob"] not in (member / ".git" / "config").read_text()
        # as said: the next sync has no login, and no one to ask
        lost = rulesbook("--data", member, "sync", **bare_env)
        assert lost.returncode == 2, lost.stderr
        assert "asks for a user name and a password or token" in lost.stderr
        # with a helper, the member is told which one keeps it
        again = ok(rulesbook("clone", served.with_token("bob"), tmp_path / "kept",
                             GIT_CONFIG_GLOBAL=str(gitconfig), GIT_CONFIG_NOSYSTEM="1"))
        assert "kept by git's credential helper (store" in again.stderr, again.stderr
        assert "not remembered" not in again.stderr
        assert served.tokens["bob"] in credentials.read_text()


def test_ssh_remotes_with_the_system_ssh(tmp_path):
    """Attack 5: SSH remotes, which the docs said work, were never tried. Both forms:
    ``ssh://user@host:port/path`` and ``host:path`` (an alias of the ssh config)."""
    from .servers import ssh_server

    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    keys = tmp_path / "ssh"
    keys.mkdir()
    with ssh_server(tmp_path / "base", keys) as server:
        ssh = {"GIT_SSH_COMMAND": server.ssh_command}
        secretary, member = tmp_path / "secretary", tmp_path / "member"
        ok(rulesbook("init", secretary))
        ok(rulesbook("--data", secretary, "sync", "--quiet", "--remote",
                     server.url + "shared.git", **ssh))
        ok(rulesbook("clone", f"{server.alias}:shared.git", member, "--quiet", **ssh))
        assert "up to date" in ok(rulesbook("--data", member, "sync", **ssh)).stdout
        ok(rulesbook("--data", secretary, "member", "add", "Sid Secure"))
        ok(rulesbook("--data", secretary, "sync", "--quiet", **ssh))
        synced = ok(rulesbook("--data", member, "sync", "--json", **ssh))
        assert json.loads(synced.stdout)["fetched"] == 1
        assert log(member)[0].id == log(secretary)[0].id == log(
            tmp_path / "base" / "shared.git")[0].id
        # a server whose host key is not the one known: refused, one message
        empty = keys / "known_hosts_empty"
        empty.write_text("")
        stranger = rulesbook("clone", server.url + "shared.git", tmp_path / "x",
                             GIT_SSH_COMMAND=server.ssh_command.replace(
                                 "ssh -F", f"ssh -o UserKnownHostsFile={empty} -F"))
        assert stranger.returncode == 2, stranger.stderr
        assert "Traceback" not in stderr_of(stranger) and "internal error" not in stderr_of(stranger)
        assert not (tmp_path / "x").exists()


def stderr_of(run) -> str:
    return run.stderr


def test_where_keeps_the_user_name_of_an_ssh_remote(tmp_path):
    """Found by the #28 tester: `where` printed ssh://git@host:2222/path without
    `git@`, the user the ssh host needs. Only a password is left out of an ssh address
    (of an http one the whole login, which may be a token alone)."""
    from rulesbook.rulesfolder.transport import shown

    from .servers import ssh_server

    (tmp_path / "base").mkdir()
    bare_repo(tmp_path / "base" / "shared.git")
    keys = tmp_path / "ssh"
    keys.mkdir()
    with ssh_server(tmp_path / "base", keys) as server:
        url = server.url + "shared.git"
        assert url.startswith("ssh://git@127.0.0.1:")
        secretary = tmp_path / "secretary"
        ok(rulesbook("init", secretary))
        synced = ok(rulesbook("--data", secretary, "sync", "--remote", url,
                              GIT_SSH_COMMAND=server.ssh_command))
        assert f"synced with {url}" in synced.stdout, synced.stdout
    where = ok(rulesbook("--data", secretary, "where"))
    assert f"origin: {url}" in where.stderr, where.stderr
    assert json.loads(ok(rulesbook("--data", secretary, "where", "--json")).stdout)[
        "origin"] == url
    assert shown("ssh://git:secret@host:2222/path") == "ssh://git@host:2222/path"
    assert shown("https://alice:token@host/x.git") == "https://host/x.git"
    assert shown("https://ghp_token@host/x.git") == "https://host/x.git"
