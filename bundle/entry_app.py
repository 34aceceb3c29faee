"""The bundle's app (``Rulesbook``)."""
import multiprocessing
import sys

from ui.app import main

if __name__ == "__main__":
    # the game list's defect scan runs in a process of its own: in the bundle that
    # process is this program again, and this call turns it into the worker
    multiprocessing.freeze_support()
    sys.exit(main())
