"""The bundle's app (``Rulesbook``)."""
import sys

from ui.app import main

if __name__ == "__main__":
    sys.exit(main())
