"""The bundle's recipe on each operating system, checked here on Linux with the
platform mocked (the builds themselves run on Windows and macOS runners only:
.github/workflows/bundle.yml): the files' names, that the recipe has no path or
command only Linux has, and where the app keeps the rules folder on each OS."""
from __future__ import annotations

import ast
import re
from pathlib import Path, PurePosixPath, PureWindowsPath

import platformdirs
import pytest
import yaml

from bundle.layout import NAME, kernel_mode, layout, system_of
from rulesbook.datapath import user_rules_dir
from tests.datapaths import REPO

PLATFORMS = {"linux": "linux", "win32": "windows", "cygwin": "windows", "darwin": "macos"}


@pytest.mark.parametrize("platform, system", PLATFORMS.items())
def test_each_platform_gets_its_system(platform, system):
    assert system_of(platform) == system


@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_app_and_the_command_line_are_two_files_on_every_file_system(platform):
    """Windows and macOS ignore case: Rulesbook.exe and rulesbook.exe would be one."""
    names = layout(platform)
    assert names.app != names.cli
    if system_of(platform) != "linux":
        assert names.app.lower() != names.cli.lower()
    assert names.app.startswith(NAME) and names.cli.startswith("rulesbook")
    windows = system_of(platform) == "windows"
    assert names.app.endswith(".exe") == windows == names.cli.endswith(".exe")
    assert names.archive_format == ("zip" if windows else "gztar")


def test_on_linux_the_command_is_rulesbook_as_the_docs_say():
    assert layout("linux")[1:3] == ("Rulesbook", "rulesbook")


def test_archive_names():
    assert layout("linux").archive_name("0.2.0", "x86_64") == \
        "Rulesbook-0.2.0-linux-x86_64.tar.gz"
    assert layout("win32").archive_name("0.2.0", "AMD64") == "Rulesbook-0.2.0-windows-amd64.zip"
    assert layout("darwin").archive_name("0.2.0", "arm64") == \
        "Rulesbook-0.2.0-macos-arm64.tar.gz"


def _recipe() -> str:
    """The Makefile's bundle recipe (the lines of the targets bundle and test-bundle)."""
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    lines: list[str] = []
    keep = False
    for line in text.splitlines():
        if re.match(r"^[A-Za-z_.-]+:", line):
            keep = line.split(":")[0] in ("bundle", "test-bundle")
        if keep:
            lines.append(line)
    return "\n".join(lines)


def test_the_make_recipe_runs_only_python():
    """`make bundle` on Windows and macOS: no shell command, no Linux path; the venv's
    folder (bin/ or Scripts/) comes from the one variable that knows it."""
    recipe = _recipe()
    commands = [line.strip() for line in recipe.splitlines() if line.startswith("\t")]
    assert commands, recipe
    for command in commands:
        assert command.startswith(("$(PY) ", "QT_QPA_PLATFORM=offscreen $(PY) ")) or \
            command.startswith("$(PY)"), command
    assert "/usr" not in recipe and "/tmp" not in recipe and ".venv/bin" not in recipe
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"ifeq \(\$\(OS\),Windows_NT\)\s*\nBIN\s*:?=\s*\$\(VENV\)/Scripts", makefile)


@pytest.mark.parametrize("name", ["rulesbook.spec", "build.py", "layout.py"])
def test_the_spec_and_the_build_script_name_no_os_path(name):
    """Paths are built with pathlib from the spec's own folder: no separator, drive or
    absolute path written in, no shell."""
    text = (REPO / "bundle" / name).read_text(encoding="utf-8")
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            value = node.value
            if "\n" in value or " " in value:
                continue  # prose, not a path
            assert not re.match(r"^(/|[A-Za-z]:\\|~)", value), (name, value)
            assert "\\" not in value, (name, value)
    assert "shell=True" not in text and "os.system" not in text


def test_the_ci_workflow_builds_and_tests_on_windows_and_macos():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "bundle.yml").read_text())
    job = next(iter(workflow["jobs"].values()))
    systems = job["strategy"]["matrix"]["os"]
    assert any(s.startswith("windows") for s in systems)
    assert any(s.startswith("macos") for s in systems)
    # runner images GitHub has retired: a job asking for one waits for a runner that never
    # comes (macos-13 went in December 2025)
    retired = {"macos-11", "macos-12", "macos-13", "windows-2016", "windows-2019",
               "ubuntu-18.04", "ubuntu-20.04"}
    assert not retired & set(systems), systems
    runs = " ".join(step.get("run", "") for step in job["steps"])
    assert "make bundle" in runs and "make test-bundle" in runs


# -- the rules folder on each OS (platformdirs, as user_rules_dir asks it; Qt's
# QStandardPaths, as the app asks it) ---------------------------------------------------

def _as_windows(monkeypatch, home: Path) -> Path:
    """platformdirs as on Windows; what Qt's GenericDataLocation is there (Qt's table:
    ``C:/Users/<USER>/AppData/Local``)."""
    from platformdirs.windows import Windows

    local = home / "AppData" / "Local"
    monkeypatch.setenv("LOCALAPPDATA", str(local))
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    monkeypatch.setattr(platformdirs, "PlatformDirs", Windows)
    monkeypatch.setattr("platformdirs.windows.get_win_folder",
                        lambda csidl: str(local) if csidl == "CSIDL_LOCAL_APPDATA" else "")
    return local


def _as_macos(monkeypatch, home: Path) -> Path:
    """platformdirs as on macOS; Qt's GenericDataLocation there: ``~/Library/Application
    Support``."""
    from platformdirs.macos import MacOS

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)  # a Mac has none (platformdirs reads it)
    monkeypatch.setattr(platformdirs, "PlatformDirs", MacOS)
    return home / "Library" / "Application Support"


def _as_linux(monkeypatch, home: Path) -> Path:
    """platformdirs as on Linux; Qt's GenericDataLocation there: ``~/.local/share``."""
    from platformdirs.unix import Unix

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(platformdirs, "PlatformDirs", Unix)
    return home / ".local" / "share"


def test_the_rules_folder_on_windows(monkeypatch, tmp_path):
    local = _as_windows(monkeypatch, tmp_path)
    # %LOCALAPPDATA%\APCA\Rulesbook\rules: not roaming (a repository is not for roaming)
    assert user_rules_dir() == local / "APCA" / "Rulesbook" / "rules"


def test_the_rules_folder_on_macos(monkeypatch, tmp_path):
    _as_macos(monkeypatch, tmp_path)
    assert user_rules_dir() == tmp_path / "Library" / "Application Support" / "Rulesbook" / \
        "rules"


def test_the_rules_folder_on_linux(monkeypatch, tmp_path):
    _as_linux(monkeypatch, tmp_path)
    assert user_rules_dir() == tmp_path / ".local" / "share" / "Rulesbook" / "rules"


class _QtLocations:
    """QStandardPaths as on another OS: the GenericDataLocation of Qt's table there."""

    def __init__(self, generic_data: Path) -> None:
        from PySide6.QtCore import QStandardPaths

        self.StandardLocation = QStandardPaths.StandardLocation
        self.generic_data = generic_data

    def writableLocation(self, location):  # noqa: N802 - Qt's name
        assert location == self.StandardLocation.GenericDataLocation, location
        return self.generic_data.as_posix()  # Qt answers with forward slashes everywhere


@pytest.mark.parametrize("platform, as_os", [("win32", _as_windows), ("darwin", _as_macos),
                                             ("linux", _as_linux)])
def test_the_app_and_the_command_line_choose_one_rules_folder_on_each_os(
        monkeypatch, tmp_path, platform, as_os):
    """The app asks Qt (ui/folder.py), the command line platformdirs: on Windows Qt's
    folder has no organisation in it, so the app adds APCA as platformdirs does."""
    import ui.folder

    generic_data = as_os(monkeypatch, tmp_path)
    monkeypatch.setattr(ui.folder, "QStandardPaths", _QtLocations(generic_data))
    monkeypatch.setattr("sys.platform", platform)
    assert ui.folder.app_rules_dir() == user_rules_dir()


def test_paths_the_bundle_test_expects_are_built_per_os():
    """The bundle test finds the executables by layout(), so that the workflow's
    Windows job looks for Rulesbook.exe in Rulesbook\\ (checked as a Windows path)."""
    win = layout("win32")
    assert str(PureWindowsPath("dist", NAME, win.cli)) == r"dist\Rulesbook\rulesbook-cli.exe"
    assert str(PurePosixPath("dist", NAME, layout("linux").app)) == "dist/Rulesbook/Rulesbook"
    assert Path(REPO / "bundle" / "entry_app.py").is_file()


@pytest.mark.parametrize(("asked", "mode"), [(None, "aot"), ("aot", "aot"), ("jit", "jit"),
                                             ("1", "jit"), ("0", "none"), (" None ", "none")])
def test_the_kernel_is_compiled_ahead_of_time_unless_asked_otherwise(asked, mode):
    environ = {} if asked is None else {"RULESBOOK_BUNDLE_KERNEL": asked}
    assert kernel_mode(environ) == mode


def test_an_unknown_kernel_mode_stops_the_build():
    with pytest.raises(SystemExit, match="RULESBOOK_BUNDLE_KERNEL='numba'"):
        kernel_mode({"RULESBOOK_BUNDLE_KERNEL": "numba"})
