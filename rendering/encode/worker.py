"""Render one clip in a process of its own: `python -m rendering.encode.worker JOB_JSON EVENTS_FD`.

A process per clip keeps scenes apart (a crash, a leaked global or manim's config cannot reach another clip) and
lets clips render in parallel. Everything is written inside the job's work folder; the parent moves finished
files into place. Events (JSON lines: started, frames, done, error) go to EVENTS_FD; manim's own output goes to
stderr, which the parent sends to a log file or, with --verbose, to the terminal.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path

from rendering.records import ChunkResult, WorkerJob
from rendering.qualities import manim_frame


class Events:
    """JSON lines to the parent; frame counts at most every 0.2 s."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._last_frames_at = 0.0

    def send(self, event: str, **fields) -> None:
        os.write(self.fd, (json.dumps({"event": event, **fields}) + "\n").encode())

    def frames(self, count: int) -> None:
        now = time.monotonic()
        if now - self._last_frames_at >= 0.2:
            self._last_frames_at = now
            self.send("frames", frames=count)


def _die_with_parent() -> None:
    """If render.py is killed outright, do not render on as an orphan (Linux prctl PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def manim_settings(job: WorkerJob, work: Path) -> dict:
    """manim config for this clip: all of manim's files inside the work folder, no cache, fixed seed."""
    verbose = job.verbose
    return {
        "quality": job.quality.manim_name,
        "format": "mp4",
        "media_dir": str(work / "manim"),
        "video_dir": str(work / "manim" / "video"),
        "images_dir": str(work / "manim" / "images"),
        # Typst/Pango caches are per clip: manim writes them in place, so a shared cache could be read half-written
        # by a parallel render or left truncated by an interrupted one.
        "tex_dir": str(work / "manim" / "tex"),
        "text_dir": str(work / "manim" / "text"),
        "output_file": "clip",
        "disable_caching": True,  # every frame is drawn, so the frame tap sees the whole movie
        "log_to_file": False,
        "verbosity": "INFO" if verbose else "WARNING",
        "progress_bar": "display" if verbose else "none",
        "preview": False,
        "show_in_file_browser": False,
        # After "quality" (which sets manim's pixel size): a portrait or square clip's pixels and frame units.
        **manim_frame(job.quality),
    }


def _scene_class(job: WorkerJob):
    from manim import Scene

    module = importlib.import_module(job.module)
    scene_class = getattr(module, job.class_name, None)
    if not (isinstance(scene_class, type) and issubclass(scene_class, Scene)):
        raise LookupError(f"{job.module} has no Scene class {job.class_name}")
    return scene_class


def _window(job: WorkerJob, events: Events):
    """The job's frames: the whole clip, or one chunk of it (a lead chunk's cut is reported to the parent as a
    "cut" event)."""
    from rendering.encode.frame_window import Window, WindowedRender

    chunk = job.window
    if chunk is None:
        return WindowedRender(Window())
    return WindowedRender(Window(chunk.start, chunk.stop), run_to_end=chunk.run_to_end,
                          cut_file=chunk.cut_file, on_cut=lambda stop: events.send("cut", stop=stop))


def _timeline(windowed) -> list[list[int]]:
    """Each animation's [frames, 1 if a static wait else 0]: what a later run plans its chunks with."""
    return [[record.frames, int(record.static)] for record in windowed.timeline]


def render(job: WorkerJob, events: Events) -> dict:
    """The whole clip (every format, captions, poster, soundtrack: a ClipResult's dict), or with job.window one
    chunk of it (then a ChunkResult's dict)."""
    out = Path(job.work_dir) / "out"
    out.mkdir(parents=True, exist_ok=True)
    # A chunk encodes the mp4 (and the webm) of its frames; the parent joins them. A whole clip always makes the
    # mp4: its facts are read from it, and the gif is made from it. A measuring pass encodes nothing.
    name = "chunk" if job.window is not None else "clip"
    videos = {"mp4": out / f"{name}.mp4", **({"webm": out / f"{name}.webm"} if "webm" in job.formats else {})}
    if job.window is not None and job.window.measures_only:
        videos = {}
    # A narrated clip's picture is encoded first, silent; the soundtrack is muxed in once the speech is placed.
    drawn = {fmt: path.with_name(f"silent.{fmt}") for fmt, path in videos.items()} if job.narration else videos
    scene, windowed, sink, cues = _draw(job, events, drawn)
    events.send("frames", frames=sink.frames)
    beats = _beats(scene, job.quality.fps, windowed.position)
    if job.window is not None:
        return _chunk_result(windowed, sink, videos, cues, out, beats).to_dict()
    return _whole_clip(job, scene, windowed, sink, drawn, videos, cues, beats)


def _draw(job: WorkerJob, events: Events, videos: dict):
    """Play the scene under manim with our frame sink attached: (scene, its windowed render, the sink, cues)."""
    from manim import config, tempconfig

    from scenes.speed import install_speed_patches

    from rendering.encode.captions import Cue
    from rendering.encode.framesink import FrameSink

    install_speed_patches()
    settings = manim_settings(job, Path(job.work_dir))
    if config.seed is None:
        settings["seed"] = 0  # scenes that draw random numbers without seeding still render the same twice
    with tempconfig(settings):
        scene = _scene_class(job)()
        if job.narration is not None:
            from rendering.narration.soundtrack import make_narrator

            scene.narrator = make_narrator(job.narration)
            scene.describes = bool(job.narration.get("describe"))
        windowed = _window(job, events)
        windowed.attach(scene)
        events.send("started")
        quality = job.quality
        sink = FrameSink(width=quality.width, height=quality.height, fps=quality.fps, videos=videos,
                         on_frames=events.frames, owns_animation_end=windowed.last_frame_inside,
                         beats_started=lambda: len(getattr(scene, "beat_log", ())))
        sink.attach(scene.renderer.file_writer)
        try:
            scene.render()
        except BaseException:
            sink.abort()
            raise
        sink.finish()
        if windowed.position == 0:
            raise RuntimeError("the scene played no animations, so there is no video")
        writer = scene.renderer.file_writer
        cues = [Cue(sub.start.total_seconds(), sub.end.total_seconds(), sub.content) for sub in writer.subcaptions]
    return scene, windowed, sink, cues


def _whole_clip(job: WorkerJob, scene, windowed, sink, drawn: dict, videos: dict, cues: list, beats: list) -> dict:
    """A whole clip's files (the soundtrack muxed in, the gif and poster made) and the result the parent installs
    (a ClipResult's dict: the "done" event's fields)."""
    from rendering.encode.media import finish_clip, gif_from_video, probe, save_poster

    out = Path(job.work_dir) / "out"
    if beats and sink.key_frames != [beat.first_frame for beat in beats]:
        raise RuntimeError(f"key frames at {sink.key_frames} but the beats start at "
                           f"{[beat.first_frame for beat in beats]}")
    narrated = {}
    if job.narration is not None:
        from rendering.narration.soundtrack import add_soundtrack, transcript

        # A plain manim Scene (no beats, nothing said) gets a silent track; an AttentionScene's beats all speak.
        spoken = getattr(scene, "spoken", [])
        narrated["audio"] = add_soundtrack(spoken, drawn, videos, frames=sink.frames, fps=job.quality.fps)
        narrated["transcript"] = tuple(transcript(getattr(scene, "beat_log", []), spoken))
        descriptions = getattr(scene, "description_cues", [])
        if descriptions:
            from rendering.encode.captions import Cue, to_webvtt

            (out / "clip.descriptions.vtt").write_text(to_webvtt([Cue(*cue) for cue in descriptions]),
                                                        encoding="utf-8")
    mp4 = videos["mp4"]
    facts = probe(mp4)
    if facts.frames != sink.frames:
        raise RuntimeError(f"the mp4 has {facts.frames} frames but {sink.frames} were drawn")
    if "gif" in job.formats:
        gif_from_video(mp4, out / "clip.gif")
    if "png" in job.formats:
        poster = sink.poster()
        if poster is None:
            raise RuntimeError("no frame to make a poster from")
        save_poster(poster, out / "clip.png")
    return finish_clip(out, list(job.formats), facts, cues, timeline=tuple(map(tuple, _timeline(windowed))),
                       beats=tuple(beats), flashes=sink.flashes.worst, **narrated).to_dict()


def _beats(scene, fps: int, frames: int) -> list:
    """The clip's beats as frame spans (rendering/encode/beats.py); [] for a scene without beats, or a measuring pass."""
    from rendering.encode.beats import beat_spans

    log = getattr(scene, "beat_log", [])
    return beat_spans(log, fps, frames) if log and frames else []


def _chunk_result(windowed, sink, videos: dict, cues: list, out: Path, beats: list) -> ChunkResult:
    """A chunk's encoded frames, its bid for the poster, and (from the chunk that ran to the end) the clip's
    length, captions and timeline: everything the parent needs to join the chunks into the clip."""
    from rendering.encode.media import save_poster

    files = {fmt: str(path) for fmt, path in videos.items() if sink.frames}
    for path in videos.values():
        if not sink.frames:
            path.unlink(missing_ok=True)  # nothing of the clip fell in this window (a plan from stale lengths)
    candidate = sink.poster_candidate()
    if candidate is not None:
        save_poster(candidate, out / "candidate.png")
        files["candidate"] = str(out / "candidate.png")
    if not windowed.run_to_end:
        return ChunkResult(sink.frames, files, flashes=sink.flashes.worst)
    # The last chunk, or a lead chunk that was never cut: the whole clip.
    last = sink.last_frame()
    if last is not None:
        save_poster(last, out / "last.png")
        files["last"] = str(out / "last.png")
    return ChunkResult(sink.frames, files, windowed.position, tuple(map(tuple, _timeline(windowed))),
                       tuple((cue.start, cue.end, cue.text) for cue in cues), tuple(windowed.play_seconds),
                       tuple(beats), sink.flashes.worst)


def _is_bad_input(error: BaseException) -> bool:
    """Errors that the render's input caused (a beat with nothing to narrate, an unusable voice): exit 2, not 1."""
    from scenes.kit.base import BeatWithoutNarration

    from rendering.narration.voice import VoiceError

    return isinstance(error, (BeatWithoutNarration, VoiceError))


def use_example(job: WorkerJob) -> None:
    """Compute the clip from the job's example: its TOML text travels in the job (so a Dask worker on another
    machine needs no copy of the user's file) and is written beside the job for attention_math to read."""
    if job.example is None:
        return
    from attention_math.example_spec import EXAMPLE_ENV_VAR

    path = Path(job.work_dir) / "example.toml"
    path.write_text(job.example, encoding="utf-8")
    os.environ[EXAMPLE_ENV_VAR] = str(path)


def use_language(job: WorkerJob) -> None:
    """Run the storyboard in the job's language: ATTENTION_LANGUAGE, which scenes.kit.translation reads, set for
    every job (English too, so a language in the parent's environment never leaks into a clip), and another
    language's catalog compiled first, so the scene finds its .mo (a no-op when the .mo is already fresh)."""
    from rendering.languages import LANGUAGE_ENV_VAR, compile_catalog

    compile_catalog(job.quality.language)
    os.environ[LANGUAGE_ENV_VAR] = job.quality.language


def main(argv: list[str]) -> int:
    job = WorkerJob.from_dict(json.loads(Path(argv[0]).read_text(encoding="utf-8")))
    events = Events(int(argv[1]))
    _die_with_parent()
    use_example(job)
    try:
        use_language(job)
        result = render(job, events)
    except KeyboardInterrupt:
        return 130
    except BaseException as error:  # reported to the parent, which carries on with the other clips
        traceback.print_exc()
        bad_input = _is_bad_input(error)
        message = str(error).strip() if bad_input else f"{type(error).__name__}: {error}".strip()
        events.send("error", message=message.splitlines()[0] if message else type(error).__name__,
                    traceback=traceback.format_exc(), bad_input=bad_input)
        return 1
    events.send("done", **result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
