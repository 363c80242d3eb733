"""What one run has to do: a Job per (scene, quality) to render, and the Outcome of each clip."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rendering.qualities import Quality

GUESSED_SECONDS = 60.0  # the video length planned for a clip never rendered here (a typical clip's)

RENDERED, UP_TO_DATE, FAILED, INTERRUPTED, NOT_STARTED = "rendered", "up to date", "failed", "interrupted", "not started"


@dataclass
class Job:
    spec: object  # SceneSpec
    quality: Quality
    formats: list[str]
    input_hash: str
    expected_seconds: float | None = None  # video length from the last render, for the progress bar
    narration: dict | None = None  # narrated clip: {"voice": model path or None, "cache_dir": ...}; None = silent
    timeline: list | None = None  # [frames, static] per animation, from the last render: where chunks may split
    timeline_fps: float | None = None  # the frame rate that timeline was counted at
    example: str | None = None  # the example file's text (TOML) the clip is computed from; None = the post's

    @property
    def narrated(self) -> bool:
        return self.narration is not None

    @property
    def described(self) -> bool:
        """A described clip: narrated, and the voice also says what the frame shows (render.py --describe)."""
        return self.narrated and bool(self.narration.get("describe"))

    @property
    def voice(self) -> str:
        return "described" if self.described else "narrated" if self.narrated else ""

    @property
    def key(self) -> str:
        return f"{self.spec.id}@{self.quality.tag}" + (f"+{self.voice}" if self.voice else "")

    @property
    def name(self) -> str:
        """For work folders and logs."""
        aspect = "" if self.quality.landscape else f"-{self.quality.aspect}"
        language = "" if self.quality.english else f"-{self.quality.language}"
        return f"{self.spec.id}-{self.quality.name}{aspect}{language}" + (f"-{self.voice}" if self.voice else "")

    @property
    def expected_frames(self) -> int | None:
        return None if self.expected_seconds is None else round(self.expected_seconds * self.quality.fps)

    @property
    def splittable(self) -> bool:
        """Chunks are for silent clips: a narrated one would place (and synthesise) all its speech in every chunk."""
        return not self.narrated

    def animations(self) -> list | None:
        """The last render's timeline at this job's frame rate (schedule.Animation list), or None."""
        if not self.timeline or not self.timeline_fps:
            return None
        from rendering.pipeline.schedule import timeline_at

        return timeline_at(self.timeline, self.timeline_fps, self.quality.fps)

    def model(self):
        """What rendering it costs (schedule.RenderModel), from its timeline's length or the last render's."""
        from rendering.pipeline.schedule import RenderModel

        q, animations = self.quality, self.animations()
        seconds = (sum(a.frames for a in animations) / q.fps if animations
                   else (self.expected_seconds or GUESSED_SECONDS))
        return RenderModel.for_quality(q.width, q.height, seconds)

    def cost(self) -> float:
        """Work estimate in drawn 1080p-frame equivalents, so the longest work starts first and parallel runs
        finish together."""
        from rendering.pipeline.schedule import clip_cost

        q = self.quality
        animations = self.animations()
        frames = clip_cost(animations) if animations else (self.expected_seconds or GUESSED_SECONDS) * q.fps
        return frames * q.width * q.height / (1920 * 1080)


@dataclass
class Outcome:
    scene_id: str
    quality: str
    status: str
    seconds: float = 0.0
    bytes: int = 0
    error: str | None = None
    log: Path | None = None
    files: dict = field(default_factory=dict)
    narrated: bool = False
    bad_input: bool = False  # the clip could not be made because of what it was given (exit 2), not a crash
    aspect: str = "landscape"
    described: bool = False
    language: str = "en"

    @property
    def label(self) -> str:
        aspect = "" if self.aspect == "landscape" else f"/{self.aspect}"
        language = "" if self.language == "en" else f"/{self.language}"
        voice = "+described" if self.described else "+narrated" if self.narrated else ""
        return f"{self.scene_id}@{self.quality}{aspect}{language}{voice}"
