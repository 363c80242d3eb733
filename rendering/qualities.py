"""The qualities and output formats render.py knows, and the parsing of the user's choices.

Kept free of manim so the CLI can validate its arguments (and answer "up to date") without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scenes import frame
from scenes.frame import ASPECTS, DEFAULT_ASPECT
from rendering.languages import DEFAULT_LANGUAGE, LANGUAGES


@dataclass(frozen=True)
class Quality:
    """One render quality: our name for it, manim's name, and the frame size and rate it produces."""

    name: str
    manim_name: str  # key of manim.constants.QUALITIES
    width: int
    height: int
    fps: int
    aspect: str = DEFAULT_ASPECT  # width x height are this aspect's (scenes/frame.py); landscape is the table's
    language: str = DEFAULT_LANGUAGE  # the language the clip's captions and narration speak (render.py --language)

    @property
    def label(self) -> str:
        """"480p15"; a portrait or square frame by its pixel size ("480x854, 15 fps"): 854p would mislead."""
        return f"{self.height}p{self.fps}" if self.landscape else f"{self.width}x{self.height}, {self.fps} fps"

    @property
    def landscape(self) -> bool:
        return self.aspect == DEFAULT_ASPECT

    @property
    def english(self) -> bool:
        return self.language == DEFAULT_LANGUAGE

    @property
    def folder(self) -> str:
        """Where its clips go under clips/ and film/: "low" for landscape English (as always), "low/portrait" beside
        it; another language one level further in, "low/fr" and "low/portrait/fr" (outdir.py)."""
        folder = self.name if self.landscape else f"{self.name}/{self.aspect}"
        return folder if self.english else f"{folder}/{self.language}"

    @property
    def tag(self) -> str:
        """The quality's name in a job's label: "low", "low/portrait", or "low/fr"."""
        return self.folder


QUALITIES: dict[str, Quality] = {
    q.name: q
    for q in (
        Quality("low", "low_quality", 854, 480, 15),
        Quality("medium", "medium_quality", 1280, 720, 30),
        Quality("high", "high_quality", 1920, 1080, 60),
        Quality("1440p", "production_quality", 2560, 1440, 60),
        Quality("4k", "fourk_quality", 3840, 2160, 60),
    )
}
DEFAULT_QUALITY = "low"  # the quick preview a plain `python render.py` gives

FORMATS: tuple[str, ...] = ("mp4", "webm", "gif", "png")  # png = the poster frame
DEFAULT_FORMATS: tuple[str, ...] = ("mp4", "webm", "png")  # what the blog page embeds
CAPTIONS = "vtt"  # written whenever a scene has subcaptions; not a format one asks for

GIF_MAX_FPS = 30  # browsers stretch GIF frame delays under 2/100 s, so 60 fps GIFs would play slowly


def _split(values: list[str] | None, kind: str, option: str, valid: tuple[str, ...]) -> list[str]:
    """Accept both `--x a b`, `--x a,b` and repeated flags; ValueError for an empty name anywhere.

    Not given at all (None) means the default; given but empty (`-q ''`, `-q ,`, `-f ' '`, `-q low,`) is a typo
    or an unset shell variable, and silently rendering the defaults would hide it.
    """
    items: list[str] = []
    for value in values or []:
        parts = [part.strip().lower() for part in value.split(",")]
        if not all(parts):
            raise ValueError(f"empty {kind} in {option} {value!r}; valid: {', '.join(valid)}")
        items.extend(parts)
    return items


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def parse_qualities(values: list[str] | None) -> list[Quality]:
    """Quality names → Quality objects, in the order given; ValueError names the valid choices."""
    names = _dedupe(_split(values, "quality", "--quality", tuple(QUALITIES))) or [DEFAULT_QUALITY]
    unknown = [name for name in names if name not in QUALITIES]
    if unknown:
        raise ValueError(f"unknown quality {unknown[0]!r}; valid: {', '.join(QUALITIES)}")
    return [QUALITIES[name] for name in names]


def framed(quality: Quality, aspect: str) -> Quality:
    """`quality` in the frame of `aspect`: portrait 480x854 at low, square 480x480 (scenes/frame.py's rule)."""
    base = QUALITIES[quality.name]
    width, height = frame.pixel_size(aspect, base.width, base.height)
    return replace(base, width=width, height=height, aspect=aspect)


def spoken(quality: Quality, language: str) -> Quality:
    """`quality` (in its frame) with its captions and narration in `language`."""
    return replace(quality, language=language)


def manim_frame(quality: Quality) -> dict:
    """The manim config keys that give `quality` its aspect's pixels and frame units ({} for landscape)."""
    base = QUALITIES[quality.name]
    return frame.manim_frame(quality.aspect, base.width, base.height)


def parse_aspects(values: list[str] | None) -> list[str]:
    """Aspect names, in our canonical order (landscape first); ValueError names the valid choices."""
    names = _dedupe(_split(values, "aspect", "--aspect", ASPECTS)) or [DEFAULT_ASPECT]
    unknown = [name for name in names if name not in ASPECTS]
    if unknown:
        raise ValueError(f"unknown aspect {unknown[0]!r}; valid: {', '.join(ASPECTS)}")
    return [name for name in ASPECTS if name in names]


def parse_languages(values: list[str] | None) -> list[str]:
    """Language codes, in our canonical order (English first); ValueError names the valid choices."""
    names = _dedupe(_split(values, "language", "--language", LANGUAGES)) or [DEFAULT_LANGUAGE]
    unknown = [name for name in names if name not in LANGUAGES]
    if unknown:
        raise ValueError(f"unknown language {unknown[0]!r}; valid: {', '.join(LANGUAGES)}")
    return [name for name in LANGUAGES if name in names]


def parse_formats(values: list[str] | None) -> list[str]:
    """Format names, in our canonical order; ValueError names the valid choices."""
    names = _dedupe(_split(values, "format", "--format", FORMATS)) or list(DEFAULT_FORMATS)
    unknown = [name for name in names if name not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format {unknown[0]!r}; valid: {', '.join(FORMATS)}")
    return [name for name in FORMATS if name in names]
