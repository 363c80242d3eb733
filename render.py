"""Build the post's animated clips: `python render.py --help` (the code is in rendering/cli.py)."""

import sys

from rendering.cli import main

if __name__ == "__main__":
    sys.exit(main())
