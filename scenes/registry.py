"""The list of clips: id, title, the post section each illustrates, and its order.

Pure data, no manim import, so render.py and the blog page can read it without rendering anything.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SceneSpec:
    """One clip: where its code lives and where it belongs in the post."""

    id: str
    title: str
    section: str  # the post's section heading, verbatim, where the clip is embedded
    module: str  # dotted module path, e.g. "scenes.coffee_cafe"
    class_name: str
    order: int

    @property
    def path(self) -> str:
        """The scene file, relative to the repository root."""
        return self.module.replace(".", "/") + ".py"


SCENES: tuple[SceneSpec, ...] = (
    SceneSpec("teacher_forcing", "Training vs generating", "Training vs generating (same model, different inputs)",
              "scenes.teacher_forcing", "TeacherForcingScene", 1),
    SceneSpec("bottleneck", "The bottleneck", "The bottleneck, with a picture",
              "scenes.bottleneck", "BottleneckScene", 2),
    SceneSpec("coffee_cafe", "Scoring every encoder vector",
              "Soft attention: use every encoder vector, not one summary",
              "scenes.coffee_cafe", "CoffeeCafeScene", 3),
    SceneSpec("learned_alignment", "A learned alignment",
              "Soft attention: use every encoder vector, not one summary",
              "scenes.learned_alignment", "LearnedAlignmentScene", 4),
    SceneSpec("soft_formula", "Soft attention in one formula", "Soft attention in one formula",
              "scenes.soft_formula", "SoftFormulaScene", 5),
    SceneSpec("weight_free", "Self-attention with no weights", "Simplified self-attention (no trainable weights)",
              "scenes.weight_free", "WeightFreeScene", 6),
    SceneSpec("qkv_scale", "Queries, keys, values and the √dₖ scale",
              "Adding trainable weights: queries, keys, values",
              "scenes.qkv_scale", "QKVScaleScene", 7),
    SceneSpec("causal_triangle", "The causal triangle", "Causal attention: hide the future",
              "scenes.causal_triangle", "CausalTriangleScene", 8),
    SceneSpec("dropout_weights", "Dropout on the attention weights", "Dropout on attention weights",
              "scenes.dropout_weights", "DropoutWeightsScene", 9),
    SceneSpec("head_split", "Splitting into heads and back", "From one head to many",
              "scenes.head_split", "HeadSplitScene", 10),
    SceneSpec("learned_heads", "What trained heads attend to", "From one head to many",
              "scenes.learned_heads", "LearnedHeadsScene", 11),
    SceneSpec("summary", "Putting the pieces together", "Putting the pieces together",
              "scenes.summary", "SummaryScene", 12),
)


def scene_ids() -> list[str]:
    return [spec.id for spec in SCENES]


def get(scene_id: str) -> SceneSpec:
    """Look a scene up by id; KeyError names the valid ids."""
    for spec in SCENES:
        if spec.id == scene_id:
            return spec
    raise KeyError(f"unknown scene id {scene_id!r}; valid: {', '.join(scene_ids())}")
