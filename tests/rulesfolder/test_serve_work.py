"""The time ``rulesbook serve`` spends on its own work (checking a push before main
moves, making the pack a fetch asks for) is not the client's: the bound on how long
one request may take (``max_connection_seconds``) counts only the time spent waiting
on the client. A push whose check outlasted the bound was cut in the middle of the
server's answer, and the member read a broken connection, not whether main moved."""
from __future__ import annotations

import time

from .conftest import bare_repo
from .servers import git, rulesbook


def _ok(run):
    assert run.returncode == 0, run.stderr
    return run


def test_a_push_checked_longer_than_the_request_bound_is_answered(tmp_path, monkeypatch):
    from rulesbook.rulesfolder import serve_policy
    from rulesbook.rulesfolder.serve import ServeOptions, serving
    from rulesbook.rulesfolder.serve_auth import AccessList

    checking = serve_policy.refusal
    checked: list[float] = []

    def slow_check(*args):  # a large push's check, in seconds instead of minutes
        started = time.monotonic()
        time.sleep(4.0)
        found = checking(*args)
        checked.append(time.monotonic() - started)
        return found
    monkeypatch.setattr(serve_policy, "refusal", slow_check)
    bare = bare_repo(tmp_path / "srv.git")
    token = AccessList(bare).add("alice").token
    folder = tmp_path / "secretary"
    _ok(rulesbook("init", folder))
    with serving(bare, options=ServeOptions(max_connection_seconds=2.0)) as url:
        remote = url.replace("://", f"://alice:{token}@", 1)
        pushed = rulesbook("--data", folder, "sync", "--remote", remote)
        assert checked and checked[0] >= 4.0  # the check outlasted the bound
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        head = git("rev-parse", "HEAD", cwd=folder).stdout.strip()
        served = git("--git-dir", bare, "rev-parse", "refs/heads/main").stdout.strip()
        assert served == head  # main moved, and the member was told so
        # and the server still serves
        _ok(rulesbook("clone", remote, tmp_path / "member", "--quiet"))
