"""Logging in to a git host: the user name and password (or access token) an HTTP(S)
remote asks for, kept where the user's other passwords are, never in a file of the
rules folder.

- A remote's address is stored and printed without its password
  (:func:`without_password`); a password given in it is handed to the keeper below
  and used for this sync.
- When the server answers 401, the keeper is asked first (``git credential fill``:
  the helpers git is set up with, such as the OS keychain, Git Credential Manager,
  ``store`` or ``cache``, when git has one; else :mod:`keyring` when it is
  installed), then the user
  (``ask``: the CLI reads them with :func:`getpass.getpass` on a terminal, the app
  shows a dialog). A login that worked is given to the keeper (``git credential
  approve``), one that was refused is taken back (``reject``).
- Where neither keeps it, :func:`how_login_is_kept` says so and how to set up a
  helper (the CLI prints it after a clone or sync given a login).
- A login refused, or asked for where no one can answer, is one message naming the
  host (:class:`LoginRefused`), never "internal error".

SSH remotes log in with the system's ``ssh`` (its keys, its agent, its
``known_hosts``; ``GIT_SSH_COMMAND`` as git reads it); ``git://`` has no login.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

from .errors import RulesFolderError

_T = TypeVar("_T")


@dataclass(frozen=True)
class Login:
    username: str
    password: str


@dataclass(frozen=True)
class LoginRequest:
    """What the user is asked for a login with: the host, the user name when the
    address gives one, and how the login typed will be remembered (so the dialog or
    the terminal can say it before the user types a password)."""

    host: str
    user: str | None
    keeping: Keeping


#: asks the user for a login -> a login, or None when the user gives none
#: (cancelled, or nobody to ask)
Ask = Callable[[LoginRequest], "Login | None"]


class LoginRefused(RulesFolderError):
    """The server asks for a login, and none was given or the one given was refused."""


def split_login(url: str) -> tuple[str, str | None, str | None]:
    """(the URL without user name or password, the user name, the password)."""
    if "://" not in url:
        return url, None, None
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, None, None
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    from urllib.parse import unquote

    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), \
        user, password


def without_password(url: str) -> str:
    """The address as it is stored in the folder's config and printed: the user name
    kept (so that the keeper finds the right login), the password never."""
    bare, user, password = split_login(url)
    if password is None:
        return url
    if user is None:
        return bare
    scheme, rest = bare.split("://", 1)
    from urllib.parse import quote

    return f"{scheme}://{quote(user, safe='')}@{rest}"


def _user_of(url: str) -> str | None:
    """The user name a URL gives, as the user typed it (``me%40example.org`` in the
    URL is ``me@example.org``)."""
    return split_login(url)[1]


def host_of(url: str) -> str:
    parts = urlsplit(url) if "://" in url else None
    if parts is None:
        return url.split(":", 1)[0]
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname \
        else url


def is_http(url: str) -> bool:
    return url.lower().startswith(("http://", "https://"))


# -- the keeper: git's credential helpers, else keyring --------------------------------

def _git() -> str | None:
    return shutil.which("git")


def _credential_text(url: str, login: Login | None = None) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    lines = [f"protocol={parts.scheme}", f"host={host}"]
    path = parts.path.strip("/")
    if path:
        lines.append(f"path={path}")
    user = login.username if login else _user_of(url)
    if user:
        lines.append(f"username={user}")
    if login:
        lines.append(f"password={login.password}")
    return "\n".join(lines) + "\n\n"


def _run_git_credential(action: str, text: str) -> str | None:
    git = _git()
    if git is None:
        return None
    # git never prompts itself: asking is ours (getpass or the app's dialog)
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="", SSH_ASKPASS="")
    env.pop("DISPLAY", None)
    try:
        run = subprocess.run([git, "credential", action], input=text, capture_output=True,
                             text=True, env=env, timeout=60, stdin=None)
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout if run.returncode == 0 else None


def _keyring() -> object | None:
    try:
        import keyring  # type: ignore[import-not-found,unused-ignore]
        from keyring.backends import fail  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    if isinstance(keyring.get_keyring(), fail.Keyring):
        return None
    found: object = keyring
    return found


def _keyring_service(url: str) -> str:
    return f"rulesbook:{host_of(url)}"


def git_helper(url: str) -> str | None:
    """The credential helper git is set up with for ``url`` (``store``, ``cache``,
    ``osxkeychain``, ``manager``...; None: git is not installed or has none, so that
    ``git credential approve`` would keep nothing)."""
    git = _git()
    if git is None:
        return None
    try:
        run = subprocess.run([git, "config", "--get-urlmatch", "credential.helper",
                              without_password(url)], capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return (run.stdout.strip() or None) if run.returncode == 0 else None


def stored_login(url: str) -> Login | None:
    """The login the keeper holds for ``url`` (None: none)."""
    if git_helper(url) is not None:
        out = _run_git_credential("fill", _credential_text(url))
        if out:
            found = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
            if found.get("username") is not None and found.get("password") is not None:
                return Login(found["username"], found["password"])
        return None
    keyring = _keyring()
    user = _user_of(url)
    if keyring is not None and user:
        password = keyring.get_password(_keyring_service(url), user)  # type: ignore[attr-defined]
        if password is not None:
            return Login(user, str(password))
    return None


def keep_login(url: str, login: Login, worked: bool) -> None:
    """Tell the keeper a login worked (store it) or was refused (forget it)."""
    if git_helper(url) is not None:
        _run_git_credential("approve" if worked else "reject", _credential_text(url, login))
        return
    keyring = _keyring()
    if keyring is None:
        return
    service = _keyring_service(url)
    try:
        if worked:
            keyring.set_password(service, login.username, login.password)  # type: ignore[attr-defined]
        else:
            keyring.delete_password(service, login.username)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a keychain that fails only loses the convenience
        pass


@dataclass(frozen=True)
class Keeping:
    """How a login given now (in the address, or typed) is remembered."""

    kept: bool
    text: str  # one sentence (or two) a member can act on


def how_login_is_kept(url: str) -> Keeping:
    """Where a login for ``url`` is kept for the next sync: git's credential helper,
    else the system keychain (:mod:`keyring`), else nowhere (and how to set one up).
    Never in the rules folder: its address is stored without the password."""
    host = host_of(url)
    helper = git_helper(url)
    if helper is not None:
        return Keeping(True, f"the login for {host} is kept by git's credential helper "
                             f"({helper}); later syncs use it")
    if _keyring() is not None:
        return Keeping(True, f"the login for {host} is kept in the system keychain; later "
                             f"syncs use it")
    why = "git has no credential helper" if _git() is not None else "git is not installed"
    return Keeping(False, (
        f"warning: the login for {host} is not remembered ({why}, and it is never "
        f"written into the rules folder), so each later sync asks for it again, and fails "
        f"where no one can answer. To keep it, set up a credential helper, e.g. `git "
        f"config --global credential.helper store` (a plain file, ~/.git-credentials), "
        f"`cache` (in memory for 15 minutes) or the system's keychain (`osxkeychain` on "
        f"macOS, `manager` on Windows, `libsecret` on Linux)"))


# -- one operation, logged in ----------------------------------------------------------

def _unauthorized(exc: BaseException) -> bool:
    from dulwich.client import HTTPUnauthorized

    return isinstance(exc, HTTPUnauthorized)


def refused_message(url: str, tried: bool) -> str:
    host = host_of(url)
    if tried:
        return (f"{host} refused the login: the server asks for a user name and a password "
                f"or token, and the ones given were not accepted (a host such as GitHub or "
                f"GitLab takes an access token in place of the password)")
    ways = ["run the command on a terminal to be asked for them", "give them to git's "
            "credential helper"]
    if split_login(url)[1] is None:  # no user name in the address yet
        scheme = url.split("://", 1)[0] if "://" in url else "https"
        ways.append(f"put the user name in the address ({scheme}://USER@{host}/...)")
    return (f"{host}: the server asks for a user name and a password or token; "
            + ", ".join(ways[:-1]) + " or " + ways[-1])


#: the logins that worked in this process, by address (a sync fetches, then pushes:
#: the user is asked once even when no keeper stores the login)
_WORKED: dict[str, Login] = {}


def forget_logins() -> None:
    """Forget the logins this process used (the next one asks the keeper again)."""
    _WORKED.clear()


def logged_in(url: str, run: Callable[[Login | None], _T], ask: Ask | None = None) -> _T:
    """``run(login)`` against ``url``: first with the login in the address (or one
    that worked in this process, or none), then, when the server asks for one, with
    the keeper's, then with the user's."""
    bare, user, password = split_login(url)
    first = Login(user or "", password) if password is not None else \
        _WORKED.get(without_password(url))
    try:
        result = run(first)
    except Exception as exc:
        if not is_http(url) or not _unauthorized(exc):
            raise
        if first is not None:
            _WORKED.pop(without_password(url), None)
            keep_login(without_password(url), first, worked=False)
    else:
        if first is not None and password is not None:
            _WORKED[without_password(url)] = first
            keep_login(without_password(url), first, worked=True)
        return result
    tried = first is not None
    candidates: list[Callable[[], Login | None]] = [
        lambda: stored_login(without_password(url))]
    if ask is not None:
        candidates.append(lambda: ask(LoginRequest(host_of(url), user,
                                                   how_login_is_kept(url))))
    for candidate in candidates:
        login = candidate()
        if login is None or (first is not None and login == first):
            continue
        tried = True
        try:
            result = run(login)
        except Exception as exc:
            if not _unauthorized(exc):
                raise
            keep_login(without_password(url), login, worked=False)
            continue
        _WORKED[without_password(url)] = login
        keep_login(without_password(url), login, worked=True)
        return result
    raise LoginRefused(refused_message(url, tried))


def terminal_ask(request: LoginRequest) -> Login | None:
    """The CLI's :data:`Ask`: on a terminal, the user name (unless known) and the
    password or token, read with :func:`getpass.getpass`; None without a terminal."""
    import getpass
    import sys

    if not sys.stdin or not sys.stdin.isatty():
        return None
    host, user = request.host, request.user
    try:
        print(f"{host} asks for a login (a host such as GitHub or GitLab takes an access "
              f"token as the password)", file=sys.stderr)
        name = user or input(f"User name for {host}: ").strip()
        secret = getpass.getpass(f"Password or token for {name}@{host}: ")
    except (EOFError, KeyboardInterrupt):
        return None
    return Login(name, secret) if name and secret else None
