"""Which renderings the page plays: one player per clip (a rendering per quality, narrated where there is one),
starting at the best quality up to 1080p, and the film to show at the top. A clip rendered in portrait too
(render.py --aspect portrait) carries that rendering per quality, which the page plays on a narrow or upright
screen; square clips are for others to embed, not played here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rendering.site.manifest_check import QUALITIES, check_clip, check_film, is_described, is_narrated

DEFAULT_QUALITY_CEILING = "high"  # start players at the best quality up to 1080p; 1440p/4k only on request


def default_quality(variants: list[Mapping]) -> Mapping:
    """The best quality up to DEFAULT_QUALITY_CEILING (variants lowest first), else the lowest there is."""
    ceiling = QUALITIES.index(DEFAULT_QUALITY_CEILING)
    allowed = [v for v in variants if QUALITIES.index(v["quality"]) <= ceiling]
    return allowed[-1] if allowed else variants[0]


@dataclass(frozen=True)
class Player:
    """One scene on the page: one rendering per quality, lowest first, narrated where that quality has one."""

    id: str
    title: str
    section: str
    order: int
    variants: tuple[Mapping, ...]
    portraits: Mapping[str, Mapping] = None  # quality -> its portrait rendering, where one was made
    described: tuple[Mapping, ...] = ()  # its described renderings (render.py --describe), lowest quality first

    def portrait_of(self, variant: Mapping) -> Mapping | None:
        return (self.portraits or {}).get(variant["quality"])

    @property
    def default(self) -> Mapping:
        return default_quality(list(self.variants))

    @property
    def transcript(self) -> list[Mapping]:
        """The narration's text, beat by beat (the same at every quality), with the audio descriptions where the
        clip was described; empty for a silent-only clip."""
        if self.described:
            return list(self.described[0].get("transcript", []))
        narrated = [v for v in self.variants if is_narrated(v)]
        preferred = self.default if is_narrated(self.default) else (narrated[0] if narrated else None)
        return list(preferred.get("transcript", [])) if preferred is not None else []


def group_players(manifest: Mapping) -> list[Player]:
    """One player per clip id, in registry order; ValueError for a manifest that breaks the schema."""
    if not isinstance(manifest, Mapping) or manifest.get("version") != 1:
        raise ValueError("manifest must be a dict with \"version\": 1")
    clips = manifest.get("clips")
    if not isinstance(clips, list):
        raise ValueError("manifest[\"clips\"] must be a list")
    by_id: dict[str, list[Mapping]] = {}
    for clip in clips:
        check_clip(clip)
        by_id.setdefault(clip["id"], []).append(clip)
    players = []
    for clip_id, entries in by_id.items():
        first = entries[0]
        keys = [(f"{e['quality']} (described)" if is_described(e) else f"{e['quality']} (narrated)"
                 if is_narrated(e) else e["quality"])
                + ("" if _aspect(e) == "landscape" else f" {_aspect(e)}") for e in entries]
        if len(set(keys)) != len(keys):
            raise ValueError(f"clip {clip_id!r} lists a quality twice: {keys}")
        for other in entries[1:]:
            for key in ("title", "section", "order"):
                if other[key] != first[key]:
                    raise ValueError(f"clip {clip_id!r}: entries disagree on {key!r}")
        voiced = [e for e in entries if not is_described(e)]
        variants = _by_quality(e for e in voiced if _aspect(e) == "landscape")
        portraits = _by_quality(e for e in voiced if _aspect(e) == "portrait")
        described = _by_quality(e for e in entries if is_described(e) and _aspect(e) == "landscape")
        if not variants:  # rendered in portrait (or square) only: that is what it plays
            variants = portraits or _by_quality(e for e in voiced if _aspect(e) == "square")
            portraits = []
            described = []
        players.append(Player(clip_id, first["title"], first["section"], int(first["order"]), tuple(variants),
                              {v["quality"]: v for v in portraits}, tuple(described)))
    players.sort(key=lambda p: p.order)
    return players


def _aspect(entry: Mapping) -> str:
    return entry.get("aspect", "landscape")  # entries from before there were aspects are landscape


def _by_quality(entries) -> list[Mapping]:
    """One rendering per quality, lowest first; the narrated rendering of a quality wins over the silent one."""
    by_quality: dict[str, Mapping] = {}
    for entry in entries:
        if entry["quality"] not in by_quality or is_narrated(entry):
            by_quality[entry["quality"]] = entry
    return sorted(by_quality.values(), key=lambda v: QUALITIES.index(v["quality"]))


def choose_film(manifest: Mapping) -> Mapping | None:
    """The film the page shows: narrated if any film is, at the default quality; None when the manifest has
    none (manifests from before films lack the key). ValueError for a film that breaks the schema."""
    films = manifest.get("films", [])
    if not isinstance(films, list):
        raise ValueError("manifest[\"films\"] must be a list")
    for film in films:
        check_film(film)
    films = [film for film in films if _aspect(film) == "landscape"] or films  # the page's film is landscape
    if not films:
        return None
    narrated = [film for film in films if is_narrated(film)]
    candidates = sorted(narrated or films, key=lambda film: QUALITIES.index(film["quality"]))
    return default_quality(candidates)
