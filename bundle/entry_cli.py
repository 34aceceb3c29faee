"""The bundle's command line (``rulesbook``; ``rulesbook-cli`` on Windows and macOS)."""
import sys

from rulesbook.cli import main

if __name__ == "__main__":
    sys.exit(main())
