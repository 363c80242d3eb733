"""render.py's run: check the request, decide what is out of date, render it, install it, write the page, report.

Exit status: 0 all clips rendered or up to date; 1 a clip failed (the others still render); 2 bad input (unknown
scene, quality or format, unwritable output directory), with nothing written; 130 interrupted (Ctrl-C).
The up-to-date path imports neither manim nor PyAV: only the registry, file hashes and the manifest.
The options are in parser.py, the up-to-date decision in plan.py, the running of tasks in runner.py.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rendering import REPO_ROOT, outdir
from rendering.pipeline import example_file as example_files
from rendering.pipeline.install import Installer
from rendering.pipeline.jobs import FAILED, INTERRUPTED, Outcome
from rendering.pipeline.manifest import Manifest
from rendering.pipeline.parser import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, build_parser
from rendering.pipeline.plan import plan
from rendering.pipeline.scene_list import load_registry, select
from rendering.qualities import (ASPECTS, LANGUAGES, QUALITIES, framed, parse_aspects, parse_formats,
                                 parse_languages, parse_qualities, spoken)


def _usage_error(message: str) -> int:
    sys.stderr.write(f"render.py: error: {message}\n")
    return EXIT_USAGE


def _print_list(registry) -> None:
    rows = [("id", "title", "post section")] + [(s.id, s.title, s.section) for s in registry.scenes]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for scene_id, title, section in rows:
        print(f"{scene_id:<{widths[0]}}  {title:<{widths[1]}}  {section}")


def _narration_settings(args) -> dict | None:
    """The voice for --narrate, checked before anything is written (ValueError: one line, exit 2)."""
    if args.voice is not None and not args.narrate:
        raise ValueError("--voice only applies with --narrate")
    if getattr(args, "describe", False) and not args.narrate:
        raise ValueError("--describe needs --narrate: the descriptions are spoken by the narration's voice")
    if not args.narrate:
        return None
    # names the missing extra or program, or the bad voice file; imports no piper
    from rendering.narration.voices import FRENCH_VOICE_REFUSAL, resolve_language_voice

    languages = parse_languages(args.language)
    if args.voice is not None and "fr" in languages:  # before the English voice's file is checked
        raise ValueError(FRENCH_VOICE_REFUSAL)
    voices = {language: resolve_language_voice(language, args.voice) for language in languages}
    return {"voice": str(voices["en"].model) if args.voice is not None else None,
            "cache_dir": os.environ.get("NARRATION_CACHE_DIR"), "voices": voices,
            "describe": bool(getattr(args, "describe", False))}


def _cluster_backend(args, root: Path, registry: str):
    """The Dask backend for --cluster, connected; None for a local render (which never imports Dask)."""
    tls = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if args.cluster is None:
        if any(value is not None for value in tls):
            raise ValueError("--tls-ca-file, --tls-cert and --tls-key only apply with --cluster tls://HOST:PORT")
        return None
    from rendering.pipeline.cluster import DaskBackend, cluster_security, parse_cluster

    spec = parse_cluster(args.cluster)
    return DaskBackend(spec, root, registry, cluster_security(spec, *tls))


def _videos_for(option: str, formats: list[str]) -> list[str]:
    """The video formats asked for, which --film and --slides need at least one of (`option`: "--film joins")."""
    videos = [fmt for fmt in formats if fmt in ("mp4", "webm")]
    if not videos:
        raise ValueError(f"{option} videos: add mp4 or webm to --format (got {','.join(formats)})")
    return videos


def _film_formats(args, formats: list[str]) -> list[str]:
    return _videos_for("--film joins", formats) if args.film else []


def _slide_formats(args, formats: list[str]) -> list[str]:
    if not args.slides:
        return []
    videos = _videos_for("--slides cuts", formats)
    if "mp4" in videos:
        import importlib.util

        if importlib.util.find_spec("pptx") is None:
            raise ValueError("--slides makes deck.pptx with python-pptx: install the slides extra "
                             "(pip install -e '.[slides]'; ./dev.sh does)")
    return videos


@dataclass
class Request:
    """A checked request: what to render, how, and where (everything that can be refused is refused before)."""

    args: object  # the parsed options (force, verbose, jobs)
    root: Path
    registry: object
    example: object  # example_file.ChosenExample
    specs: list
    qualities: list  # every quality in every aspect and language asked for (qualities.framed, qualities.spoken):
    # a clip per (scene, quality)
    formats: list[str]
    film_formats: list[str]
    slide_formats: list[str]
    narration: dict | None
    out_dir: Path
    backend: object | None  # the Dask backend, connected; None to render here


def _check(args, root: Path, registry, example) -> Request:
    """Every refusal of bad input happens here (ValueError, exit 2), before anything is written."""
    formats = parse_formats(args.format)
    languages = parse_languages(args.language)
    for language in languages:
        _check_catalog(language)
    qualities = [spoken(framed(quality, aspect), language) for quality in parse_qualities(args.quality)
                 for aspect in parse_aspects(args.aspect) for language in languages]
    request = Request(
        args, root, registry, example, select(registry, args.scenes), qualities, formats,
        _film_formats(args, formats), _slide_formats(args, formats), _narration_settings(args),
        Path(args.out).absolute() if args.out else example_files.default_out(root / "media", example), None)
    outdir.check_writable(request.out_dir)
    request.backend = _cluster_backend(args, root, registry.module)
    return request


def _check_catalog(language: str) -> None:
    """A language other than English needs the message catalog the workers compile (ValueError naming it, exit 2)."""
    from rendering.languages import catalog

    path = catalog(language)
    if language != LANGUAGES[0] and not path.is_file():
        raise ValueError(f"no message catalog for {language!r}: {path.relative_to(REPO_ROOT).as_posix()} not found")


def compile_catalogs(qualities) -> None:
    """Compile each other language's catalog once, here, before the workers start (each would otherwise compile
    it at the same moment); a worker still compiles a stale one itself (a cluster worker on another machine has
    its own project)."""
    from rendering.languages import compile_catalog

    for language in dict.fromkeys(quality.language for quality in qualities):
        compile_catalog(language)


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
        request = _check(args, root, registry, example)
    except ValueError as error:
        return _usage_error(str(error))
    return _render(request, started)


def _render(request: Request, started: float) -> int:
    """Take the output folder's lock, bring its clips, films, decks, manifest and page up to date, report."""
    from rendering.pipeline.report import make_console, summary

    console = make_console()
    try:
        lock = outdir.OutputLock(request.out_dir).__enter__()
    except ValueError as error:
        if request.backend is not None:
            request.backend.close()
        return _usage_error(str(error))
    try:
        outcomes, interrupted, bad_input, page_error = _build(request, lock, console)
    except KeyboardInterrupt:  # Ctrl-C outside the render loop (e.g. while hashing): nothing half-written
        console.print("interrupted", style="yellow")
        return EXIT_INTERRUPTED
    finally:
        if request.backend is not None:  # not handed to a runner (which closes it)
            request.backend.close()
        lock.__exit__(None, None, None)

    order = {spec.id: i for i, spec in enumerate(request.registry.scenes)}
    outcomes.sort(key=lambda o: (order.get(o.scene_id, len(order)), list(QUALITIES).index(o.quality),
                                 ASPECTS.index(o.aspect), LANGUAGES.index(o.language), o.narrated, o.described))
    summary(console, outcomes, time.monotonic() - started)
    if bad_input is not None:
        return _usage_error(f"{bad_input.label}: {bad_input.error}")
    if interrupted:
        console.print("interrupted: finished clips were kept; nothing partial was written", style="yellow")
        return EXIT_INTERRUPTED
    if any(o.status in (FAILED, INTERRUPTED) for o in outcomes) or page_error:
        return EXIT_FAILED
    return EXIT_OK


def _build(request: Request, lock, console) -> tuple[list[Outcome], bool, Outcome | None, bool]:
    """The outcomes, whether Ctrl-C stopped the clips, the first clip refused for its input, whether the page
    failed."""
    out_dir, args, narrated = request.out_dir, request.args, request.narration is not None
    manifest, warning = Manifest.load(out_dir)
    if warning:
        console.print(f"warning: {warning}", markup=False, style="yellow")
    manifest.prune({spec.id for spec in request.registry.scenes})
    if request.example.text is not None:
        manifest.example = {"name": request.example.spec.name, "description": request.example.spec.description}
    jobs, outcomes = plan(request.specs, request.qualities, request.formats, root=request.root,
                          registry_path=request.registry.path, manifest=manifest, out_dir=out_dir,
                          force=args.force, narration=request.narration, example=request.example.text)
    from rendering.site import page

    installer = Installer(out_dir, manifest, page.embed_snippet)
    interrupted = False
    if jobs:
        rendered, interrupted = _render_jobs(request, jobs, installer, lock, console)
        outcomes += rendered
    bad_input = next((o for o in outcomes if o.bad_input), None)
    if request.film_formats and not interrupted and bad_input is None:
        from rendering.pipeline.film_install import make_films

        outcomes += make_films(manifest, out_dir, request.specs, request.qualities, request.film_formats,
                               narrated=narrated, work_root=lock.work_root(), force=args.force)
    if request.slide_formats and not interrupted and bad_input is None:
        from rendering.site.slides import make_decks

        outcomes += make_decks(manifest, out_dir, request.specs, request.qualities, request.slide_formats,
                               narrated=narrated, work_root=lock.work_root(), force=args.force,
                               described=bool(request.narration and request.narration.get("describe")))
    # After Ctrl-C only the (fast) manifest is written: stopping should not wait for the page to be built.
    page_error = _finish_outputs(installer, page, console, write_page=not interrupted)
    return outcomes, interrupted, bad_input, page_error


def _render_jobs(request: Request, jobs, installer: Installer, lock, console) -> tuple[list[Outcome], bool]:
    from rendering.pipeline.report import PlainReporter, RichReporter
    from rendering.pipeline.runner import Runner

    args, out_dir = request.args, request.out_dir
    compile_catalogs(job.quality for job in jobs)
    backend, request.backend = request.backend, None  # the runner closes it
    fancy = console.is_terminal and not args.verbose
    reporter = RichReporter(console) if fancy else PlainReporter(console)
    runner = Runner(parallel=backend.slots if backend is not None else args.jobs, work_root=lock.work_root(),
                    root=request.root, logs_dir=out_dir / outdir.LOGS, verbose=args.verbose, reporter=reporter,
                    install=installer, backend=backend, always_split=args.split == "always")
    with reporter:
        if fancy:
            for job in sorted(jobs, key=lambda j: -j.cost()):
                reporter.add(job)
        try:
            return runner.run(jobs)
        finally:
            if args.trace:
                Path(args.trace).write_text(json.dumps(runner.trace, indent=1) + "\n", encoding="utf-8")


def _finish_outputs(installer: Installer, page, console, write_page: bool = True) -> bool:
    """Refresh every entry's embed snippet, write the manifest, then the page. Returns True if the page failed."""
    manifest, out_dir = installer.manifest, installer.out_dir
    installer.refresh_embeds()
    manifest.write()
    if not write_page:
        console.print("note: index.html not updated (interrupted)", style="dim")
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
