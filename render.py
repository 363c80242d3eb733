"""Build the post's animated clips: `python render.py --help` (the code is in rendering/pipeline/cli.py)."""

import sys

from rendering.pipeline.cli import main

if __name__ == "__main__":
    sys.exit(main())
