"""A member given a hostile remote address (issue #28, attack tester's round 2): a
host that ssh or a proxy command would read as an option, and a server whose ref
advertisement never ends. Each through the real command; one readable message,
exit 2, nothing run."""
from __future__ import annotations

import pytest

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
