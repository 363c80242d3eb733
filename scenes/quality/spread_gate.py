"""The typed-claim gate's half for descriptive claims: a caption that says weights "spread" (or "blend", "lean")
while the scene's weights are one-hot, or that they concentrate ("almost all", "mostly", "sharp") while they are
nearly uniform, was typed for the post's example, not computed from this one.

Each scene whose captions describe weights registers the weight maps those captions are about (SHOWN_WEIGHTS); a
claim is contradicted when every registered map contradicts it. A scene that describes weights without registering
any is a problem too, so a new descriptive caption cannot slip past the gate unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from attention_math import example_spec, examples
from attention_math.weight_spread import is_nearly_uniform, is_saturated

from scenes.kit.base import BeatRecord

#: Words claiming the weight is spread over several keys; contradicted when every map is one-hot on screen.
SPREAD_WORDS = re.compile(r"\b(spreads?|spread out|blend|leaning|leans)\b", re.IGNORECASE)
#: Words claiming the weight concentrates on one key; contradicted when every map is nearly uniform.
CONCENTRATED_WORDS = re.compile(r"\b(concentrat\w*|almost all|nearly all|mostly|one-hot|sharp\w*)\b", re.IGNORECASE)


def _saturation_maps(spec):
    sat = examples.build("saturation", spec)
    return [(c.unscaled_weights, False) for c in sat.cases] + [(c.scaled_weights, False) for c in sat.cases]


def _coffee_maps(spec):
    coffee = examples.build("coffee", spec)
    maps = [(coffee.weights, False), (coffee.additive_weights, False)]
    return maps + ([(coffee.illustrative_weights, False)] if coffee.illustrative_weights is not None else [])


def _learned_maps(spec):
    learned = examples.build("learned_alignment", spec)
    return [(learned.alignment, False), (learned.reorder_alignment, False), (learned.snapshot_alignments, False)]


#: scene id → the (weights, causal) maps its descriptive captions are about, computed for an example spec.
SHOWN_WEIGHTS: dict[str, Callable[[example_spec.ExampleSpec], list]] = {
    "weight_free": lambda spec: [(examples.build("rain", spec).weights, False), (examples.build("rain", spec).alpha, False)],
    "qkv_scale": lambda spec: [(examples.build("qkv", spec).weights, False)] + _saturation_maps(spec),
    "causal_triangle": lambda spec: [(examples.build("causal", spec).weights, True)],
    "dropout_weights": lambda spec: [(examples.build("dropout", spec).weights, True)],
    "head_split": lambda spec: [(examples.build("multihead", spec).weights, True)],
    "summary": lambda spec: [(examples.build("multihead", spec).weights, True)],
    "coffee_cafe": _coffee_maps,
    "soft_formula": _coffee_maps,
    "learned_alignment": _learned_maps,
}


def descriptive_claim_problems(scene_id: str, beats: list[BeatRecord], spec: example_spec.ExampleSpec) -> list[str]:
    """Captions whose "spreads"/"almost all" kind of claim every weight map of the scene contradicts."""
    said = [(record.name, text) for record in beats for text in record.captions + record.narration]
    spread = [(name, text) for name, text in said if SPREAD_WORDS.search(text)]
    concentrated = [(name, text) for name, text in said if CONCENTRATED_WORDS.search(text)]
    if not spread and not concentrated:
        return []
    if scene_id not in SHOWN_WEIGHTS:
        name, text = (spread + concentrated)[0]
        return [f"{scene_id} / beat {name}: the caption describes how weights spread but the gate knows no weights "
                f"of this scene (register them in spread_gate.SHOWN_WEIGHTS): {text[:80]!r}"]
    maps = SHOWN_WEIGHTS[scene_id](spec)
    problems = []
    if spread and all(is_saturated(w, causal) for w, causal in maps):
        problems += [f"{scene_id} / beat {name}: the caption says the weights spread "
                     f"({SPREAD_WORDS.search(text).group(1)!r}) but every row is one-hot for {spec.name!r}: "
                     f"{text[:80]!r}" for name, text in spread]
    if concentrated and all(is_nearly_uniform(w, causal) for w, causal in maps):
        problems += [f"{scene_id} / beat {name}: the caption says the weights concentrate "
                     f"({CONCENTRATED_WORDS.search(text).group(1)!r}) but every row is nearly uniform for "
                     f"{spec.name!r}: {text[:80]!r}" for name, text in concentrated]
    return problems
