"""Run every ``bench/bench_*.py`` module's ``main()`` in turn."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    status = 0
    for path in sorted(HERE.glob("bench_*.py")):
        print(f"== {path.stem} ==", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        status |= int(module.main() or 0)
        print(flush=True)
    return status


if __name__ == "__main__":
    from usage import exit_on_help  # bench/usage.py: this script's folder is on sys.path

    exit_on_help(__doc__)
    sys.exit(main())
