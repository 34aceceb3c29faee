"""Build the self-contained bundle for this computer (``make bundle``).

``python bundle/build.py`` runs PyInstaller on ``bundle/rulesbook.spec`` (in
the Python that runs this script: the project's venv), then packs the folder
into ``dist/Rulesbook-<version>-<system>-<machine>.tar.gz`` (``.zip`` on
Windows) and prints the folder's size and the archive's. With the
default RULESBOOK_BUNDLE_KERNEL (``aot``) the gap search's kernel is first
compiled ahead of time (``bundle/aot.py``: numba.pycc, which needs a C
compiler) and shipped instead of numba and llvmlite. Only Python, numba and
PyInstaller are used, no shell command, so the same recipe runs on Linux,
Windows and macOS.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from layout import AOT_BUILD, BUILD, DIST, NAME, ROOT, bundle_dir, kernel_mode, layout  # noqa: E402


def folder_size(folder: Path) -> int:
    """Bytes of the files under ``folder`` (links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def megabytes(n: int) -> str:
    return f"{n / 1e6:.0f} MB"


def compile_kernel() -> None:
    """The gap kernel compiled ahead of time into AOT_BUILD (bundle/aot.py, in a
    Python of its own: it sets numba up for pycc), which the spec ships."""
    subprocess.run([sys.executable, str(HERE / "aot.py"), str(AOT_BUILD)], cwd=ROOT, check=True)


def build() -> Path:
    began = time.perf_counter()
    if kernel_mode() == "aot":
        compile_kernel()
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
                    "--log-level", "WARN", "--distpath", str(DIST), "--workpath", str(BUILD),
                    str(HERE / "rulesbook.spec")], cwd=ROOT, check=True)
    folder = bundle_dir()
    for name in (layout().app, layout().cli):
        if not (folder / name).is_file():
            raise SystemExit(f"the bundle has no {name} in {folder}")
    built = time.perf_counter() - began
    print(f"bundle: {folder} ({megabytes(folder_size(folder))} unpacked, built in {built:.0f} s)")
    return folder


def pack(folder: Path) -> Path:
    """The archive a user downloads: the folder ``Rulesbook/`` inside it."""
    sys.path.insert(0, str(ROOT))
    from rulesbook.version import version

    target = layout()
    name = target.archive_name(version())
    for old in DIST.glob(f"{NAME}-*{target.archive_suffix}"):
        old.unlink()
    archive = DIST / name
    if target.archive_format == "gztar":
        import tarfile

        # level 6 (gzip's own default), not tarfile's 9: the 443 MB folder packs to
        # 172 MB in about 20 s, against 171 MB in several minutes at 9 (this machine)
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(folder, arcname=NAME)
            app = DIST / f"{NAME}.app"  # macOS: the app as Finder opens it, beside
            if target.system == "macos" and app.is_dir():
                tar.add(app, arcname=app.name)
    else:
        base = DIST / name[: -len(target.archive_suffix)]
        archive = Path(shutil.make_archive(str(base), target.archive_format, root_dir=DIST,
                                           base_dir=NAME))
    print(f"archive: {archive} ({megabytes(archive.stat().st_size)})")
    return archive


def main() -> int:
    os.environ.setdefault("PYTHONHASHSEED", "0")  # the same bundle from the same sources
    pack(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
