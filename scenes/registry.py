"""The list of clips: id, title, the post section each illustrates, and its order.

Pure data, no manim import, so render.py and the blog page can read it without rendering anything.
"""

from __future__ import annotations

from dataclasses import dataclass


def N_(message: str) -> str:
    """A title or section marked as a message (scenes.kit.translation's `N_`, kept here so the registry imports no
    manim): the text itself; where it is shown, it is translated into the language of the run."""
    return message


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
    SceneSpec("teacher_forcing", N_("Training vs generating"),
              N_("Training vs generating (same model, different inputs)"),
              "scenes.teacher_forcing", "TeacherForcingScene", 1),
    SceneSpec("bottleneck", N_("The bottleneck"), N_("The bottleneck, with a picture"),
              "scenes.bottleneck", "BottleneckScene", 2),
    SceneSpec("coffee_cafe", N_("Scoring every encoder vector"),
              N_("Soft attention: use every encoder vector, not one summary"),
              "scenes.coffee_cafe", "CoffeeCafeScene", 3),
    SceneSpec("learned_alignment", N_("A learned alignment"),
              N_("Soft attention: use every encoder vector, not one summary"),
              "scenes.learned_alignment", "LearnedAlignmentScene", 4),
    SceneSpec("soft_formula", N_("Soft attention in one formula"), N_("Soft attention in one formula"),
              "scenes.soft_formula", "SoftFormulaScene", 5),
    SceneSpec("weight_free", N_("Self-attention with no weights"),
              N_("Simplified self-attention (no trainable weights)"),
              "scenes.weight_free", "WeightFreeScene", 6),
    SceneSpec("qkv_scale", N_("Queries, keys, values and the √dₖ scale"),
              N_("Adding trainable weights: queries, keys, values"),
              "scenes.qkv_scale", "QKVScaleScene", 7),
    SceneSpec("causal_triangle", N_("The causal triangle"), N_("Causal attention: hide the future"),
              "scenes.causal_triangle", "CausalTriangleScene", 8),
    SceneSpec("dropout_weights", N_("Dropout on the attention weights"), N_("Dropout on attention weights"),
              "scenes.dropout_weights", "DropoutWeightsScene", 9),
    SceneSpec("head_split", N_("Splitting into heads and back"), N_("From one head to many"),
              "scenes.head_split", "HeadSplitScene", 10),
    SceneSpec("learned_heads", N_("What trained heads attend to"), N_("From one head to many"),
              "scenes.learned_heads", "LearnedHeadsScene", 11),
    SceneSpec("summary", N_("Putting the pieces together"), N_("Putting the pieces together"),
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
