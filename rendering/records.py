"""The records that cross a boundary between stages — a process, a machine, a file — as frozen dataclasses.

Each is turned into its JSON-able dict (`to_dict`) and read back (`from_dict`) here and nowhere else:
- `WorkerJob`: what the runner (local processes or a Dask task) asks a render worker to do (job.json);
- `ChunkResult`: what a worker hands back for a chunk of a clip or a measuring pass (its "done" event);
- `Beat`: one beat of a clip as a span of whole frames (encode/beats.py), in the results and the manifest;
- `ClipResult` (with its `MadeFile`s): a finished clip in its work folder, made whole by a worker or joined from
  chunks (encode/assemble.py), that the installer moves into media/;
- `ClipEntry`: one clip in manifest.json, the schema the page, the film and the slides read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rendering.qualities import Quality


WORKER_MODULE = "rendering.encode.worker"  # `python -m WORKER_MODULE JOB_JSON EVENTS_FD` runs a WorkerJob


@dataclass(frozen=True)
class WindowSpec:
    """The frames a task draws: [start, stop) of the clip (stop None: to the end; stop 0: none, a measuring pass).
    `run_to_end` plays the storyboard to its end (for the clip's length, captions and timeline); a lead chunk
    watches `cut_file` for the frame it is told to stop at."""

    start: int = 0
    stop: int | None = None
    run_to_end: bool = True
    cut_file: str | None = None

    @property
    def measures_only(self) -> bool:
        return self.stop == 0

    def to_dict(self) -> dict:
        data = {"start": self.start, "stop": self.stop, "run_to_end": self.run_to_end}
        if self.cut_file is not None:
            data["cut_file"] = self.cut_file
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> WindowSpec:
        return cls(int(data["start"]), None if data["stop"] is None else int(data["stop"]), bool(data["run_to_end"]),
                   data.get("cut_file"))


@dataclass(frozen=True)
class ProjectCheck:
    """What a Dask worker checks its own project against before it renders: the client's input hash of the clip."""

    input_hash: str
    registry: str
    quality: str

    def to_dict(self) -> dict:
        return {"input_hash": self.input_hash, "registry": self.registry, "quality": self.quality}


@dataclass(frozen=True)
class WorkerJob:
    """One task for `python -m rendering.encode.worker`: the scene, the quality and formats, and where to work."""

    scene_id: str
    module: str
    class_name: str
    quality: Quality
    formats: tuple[str, ...]
    work_dir: str
    verbose: bool = False
    narration: Mapping | None = None  # {"voice": model path or None, "cache_dir": ...}; None = a silent clip
    task: str = ""  # the task's name (clip, chunk or measuring pass), shown in a worker machine's `ps`
    example: str | None = None  # the example file's text the clip is computed from; None = the post's
    window: WindowSpec | None = None  # None: the whole clip
    project: ProjectCheck | None = None  # on a cluster: what the worker's own project must hash to

    def at(self, work_dir: str) -> WorkerJob:
        """The same job, working in another folder (a Dask worker's scratch folder)."""
        return replace(self, work_dir=work_dir)

    def to_dict(self) -> dict:
        q = self.quality
        data = {
            "scene_id": self.scene_id, "module": self.module, "class_name": self.class_name,
            "quality": {"name": q.name, "manim_name": q.manim_name, "width": q.width, "height": q.height,
                        "fps": q.fps, **({} if q.landscape else {"aspect": q.aspect}),
                        **({} if q.english else {"language": q.language})},
            "formats": list(self.formats), "work_dir": self.work_dir, "verbose": self.verbose,
            "narration": None if self.narration is None else dict(self.narration), "task": self.task,
            "example": self.example,
        }
        if self.window is not None:
            data["window"] = self.window.to_dict()
        if self.project is not None:
            data["project"] = self.project.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> WorkerJob:
        window, project = data.get("window"), data.get("project")
        return cls(data["scene_id"], data["module"], data["class_name"], Quality(**data["quality"]),
                   tuple(data["formats"]), data["work_dir"], bool(data.get("verbose", False)), data.get("narration"),
                   data.get("task", ""), data.get("example"),
                   None if window is None else WindowSpec.from_dict(window),
                   None if project is None else ProjectCheck(**project))


@dataclass(frozen=True)
class Beat:
    """One beat as a span of whole frames [first_frame, first_frame + frames) and of seconds [start, end)."""

    beat: str
    first_frame: int
    caption: str
    captions: tuple[str, ...]
    narration: str
    frames: int
    start: float
    end: float

    def to_dict(self) -> dict:  # the manifest's key order
        return {"beat": self.beat, "first_frame": self.first_frame, "caption": self.caption,
                "captions": list(self.captions), "narration": self.narration, "frames": self.frames,
                "start": self.start, "end": self.end}

    @classmethod
    def from_dict(cls, data: Mapping) -> Beat:
        return cls(data["beat"], int(data["first_frame"]), data["caption"], tuple(data["captions"]),
                   data["narration"], int(data["frames"]), data["start"], data["end"])


@dataclass(frozen=True)
class ChunkResult:
    """A chunk's encoded frames and its bid for the poster; from the chunk that ran the scene to its end (or a
    measuring pass) also the clip's length, captions, timeline and beats: what joining the chunks needs."""

    frames: int
    files: Mapping[str, str] = field(default_factory=dict)  # "mp4", "webm", "candidate", "last" -> path
    clip_frames: int | None = None  # set only by a task that ran to the end
    timeline: tuple[tuple[int, int], ...] = ()  # (frames, 1 if a static wait else 0) per animation
    cues: tuple[tuple[float, float, str], ...] = ()
    play_seconds: tuple[float, ...] = ()
    beats: tuple[Beat, ...] = ()
    flashes: int = 0  # the most flashes in any one second of its frames (rendering/encode/flashes.py)

    @property
    def ran_to_end(self) -> bool:
        return self.clip_frames is not None

    def to_dict(self) -> dict:
        data = {"frames": self.frames, "files": dict(self.files), "flashes": self.flashes}
        if self.ran_to_end:
            data.update(clip_frames=self.clip_frames, timeline=[list(step) for step in self.timeline],
                        cues=[list(cue) for cue in self.cues], play_seconds=list(self.play_seconds),
                        beats=[beat.to_dict() for beat in self.beats])
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> ChunkResult:
        flashes = int(data.get("flashes", 0))
        if "clip_frames" not in data:
            return cls(int(data["frames"]), dict(data["files"]), flashes=flashes)
        return cls(int(data["frames"]), dict(data["files"]), int(data["clip_frames"]),
                   tuple((int(frames), int(static)) for frames, static in data["timeline"]),
                   tuple((start, end, text) for start, end, text in data["cues"]), tuple(data["play_seconds"]),
                   tuple(Beat.from_dict(beat) for beat in data.get("beats", [])), flashes)


@dataclass(frozen=True)
class MadeFile:
    """One file of a finished clip, still in the work folder: where it is, its size and its hash."""

    tmp: str
    bytes: int
    sha256: str

    def to_dict(self) -> dict:
        return {"tmp": self.tmp, "bytes": self.bytes, "sha256": self.sha256}

    @classmethod
    def from_dict(cls, data: Mapping) -> MadeFile:
        return cls(str(data["tmp"]), int(data["bytes"]), str(data["sha256"]))


@dataclass(frozen=True)
class ClipResult:
    """A finished clip in its work folder (a whole render's "done" event, or the chunks joined): its video facts,
    its files, and what the manifest entry records of it (timeline, beats; a narrated clip's audio and text)."""

    width: int
    height: int
    fps: float
    frames: int
    duration: float
    files: Mapping[str, MadeFile]  # "mp4"|"webm"|"gif"|"png"|"vtt"
    timeline: tuple[tuple[int, int], ...] = ()  # (frames, 1 if a static wait else 0) per animation
    beats: tuple[Beat, ...] = ()
    chunks: int = 1  # how many chunks it was joined from
    audio: Mapping | None = None  # a narrated clip's soundtrack facts
    transcript: tuple[Mapping, ...] | None = None  # a narrated clip's text, beat by beat: {"beat", "start", "end", "text", "speech"}
    flashes: int | None = None  # the most flashes in any one second (WCAG 2.3.1: at most 3); None: not metered

    def to_dict(self) -> dict:
        data = {"width": self.width, "height": self.height, "fps": self.fps, "frames": self.frames,
                "duration": self.duration, "files": {ext: made.to_dict() for ext, made in self.files.items()},
                "timeline": [list(step) for step in self.timeline], "chunks": self.chunks,
                "beats": [beat.to_dict() for beat in self.beats]}
        if self.audio is not None:
            data["audio"] = dict(self.audio)
        if self.transcript is not None:
            data["transcript"] = [dict(line) for line in self.transcript]
        if self.flashes is not None:
            data["flashes"] = self.flashes
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> ClipResult:
        transcript = data.get("transcript")
        return cls(int(data["width"]), int(data["height"]), data["fps"], int(data["frames"]), data["duration"],
                   {ext: MadeFile.from_dict(info) for ext, info in data["files"].items()},
                   tuple((int(frames), int(static)) for frames, static in data.get("timeline", [])),
                   tuple(Beat.from_dict(beat) for beat in data.get("beats", [])), int(data.get("chunks", 1)),
                   data.get("audio"), None if transcript is None else tuple(transcript), data.get("flashes"))


@dataclass(frozen=True)
class ClipEntry:
    """One clip in manifest.json (pipeline/manifest.py keeps the list; site/ and the film read it)."""

    id: str
    title: str
    section: str
    order: int
    quality: str
    resolution: tuple[int, int]
    fps: float
    duration: float
    frames: int
    input_hash: str
    files: Mapping[str, Mapping]  # "mp4"|"webm"|"gif"|"png"|"vtt" -> {"path", "bytes", "sha256"}
    embed: str = ""  # the page's <video> snippet; "" for a clip it cannot embed
    narrated: bool = False
    timeline: tuple | None = None  # [frames, static] per animation: how a later run splits the clip
    beats: tuple[Beat, ...] = ()  # the key's presence says the clip has a key frame at every beat start
    audio: Mapping | None = None  # a narrated clip's soundtrack facts
    transcript: tuple | None = None  # a narrated clip's text, beat by beat
    aspect: str = "landscape"  # the frame's shape (scenes/frame.py); written only when not landscape
    described: bool = False  # a narrated clip whose voice also says what is shown; written only when true
    flashes: int | None = None  # the most flashes in any one second of the clip (WCAG 2.3.1: at most 3)
    language: str = "en"  # the language its captions and narration speak (render.py --language)

    #: What every consumer may count on (the page refuses an entry without them).
    REQUIRED = ("id", "title", "section", "order", "quality", "resolution", "fps", "duration", "files")

    def to_dict(self) -> dict:
        data = {
            "id": self.id, "title": self.title, "section": self.section, "order": self.order,
            "quality": self.quality, "resolution": list(self.resolution), "fps": self.fps,
            "duration": self.duration, "frames": self.frames, "input_hash": self.input_hash,
            "files": {ext: dict(info) for ext, info in self.files.items()}, "embed": self.embed,
            "narrated": self.narrated, "language": self.language,
        }
        if self.aspect != "landscape":  # landscape entries keep the form they had before there were aspects
            data["aspect"] = self.aspect
        if self.described:
            data["described"] = True
        if self.flashes is not None:
            data["most_flashes_in_a_second"] = self.flashes
        if self.timeline:
            data["timeline"] = [list(step) for step in self.timeline]
        data["beats"] = [beat.to_dict() for beat in self.beats]
        if self.narrated:
            data["audio"] = dict(self.audio or {})
            data["transcript"] = list(self.transcript or [])
        return data
