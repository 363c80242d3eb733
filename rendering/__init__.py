"""render.py's code, by stage: pipeline/ (what to render, where, and installing it), encode/ (one clip's frames
into files), narration/ (the voice and the soundtrack), site/ (the page and the deck); the small modules here
(qualities, atomic writes, output folders, records) are shared by all of them."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent  # rendering/: the modules whose code decides a clip's bytes are hashed
REPO_ROOT = PACKAGE_DIR.parent
