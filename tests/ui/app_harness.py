"""Start a real app process and run a test script in it once its window is shown.

``python -m tests.ui.app_harness SCRIPT [app args…]`` runs ``ui.app.main`` (the
shipped entry point, unchanged) and, once the library is loaded and the window
shown, executes the Python file SCRIPT with ``app``, ``launcher`` and
``window`` in its globals. A script that raises ends the process with code 3
and the traceback on stderr. The shipped entry point has no such hook: only
this test module, which is not installed with the app, can run code in it.
"""
from __future__ import annotations

import sys
import traceback


def _runner(path: str):
    def run(app, launcher) -> None:
        try:
            with open(path, encoding="utf-8") as fh:
                code = compile(fh.read(), path, "exec")
            exec(code, {"__name__": "__rulesbook_test__", "app": app,  # noqa: S102
                        "launcher": launcher, "window": launcher.window})
        except BaseException:  # noqa: BLE001 - reported to the test, never a dialog
            traceback.print_exc()
            sys.stderr.flush()
            app.exit(3)

    return run


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m tests.ui.app_harness SCRIPT [app args…]", file=sys.stderr)
        return 2
    from ui.app import main as app_main

    return app_main(argv[1:], when_ready=_runner(argv[0]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
