"""The layout engine's picture tests (scenes.kit.compose): given a frame and content, the form chosen, its rung
and its smallest text; the preference order on synthetic content in the three frames."""

from __future__ import annotations

import pytest
from manim import tempconfig

from scenes import frame
from scenes.kit import compose, layout, typography
from scenes.kit.forms import flow_forms
from scenes.kit.numbers import Source
from scenes.kit.products import DotProducts, encoder_scoring_forms
from scenes.kit.headless import resolution_480p


def in_frame(aspect: str):
    return tempconfig(resolution_480p(aspect))


def scoring_tokens() -> list[str]:
    return list(Source("coffee").get("tokens"))


def plan_for(aspect: str, forms_of):
    with in_frame(aspect):
        made, plan = compose.compose(forms_of())
        return made, plan, compose.smallest_number(plan.whole), layout.body()


def test_the_post_scoring_reads_worked_side_by_side_in_landscape():
    _, plan, _, body = plan_for("landscape", lambda: encoder_scoring_forms(Source("coffee"), scoring_tokens()))
    assert (plan.form, plan.rung) == ("side by side", compose.WORKED)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6


def test_the_post_scoring_in_portrait_goes_to_the_camera_with_words_by_the_scores():
    """3 × 3 stacked at the floor is still wider than a phone's body: the camera form made for close-ups."""
    _, plan, number, body = plan_for("portrait", lambda: encoder_scoring_forms(Source("coffee"), scoring_tokens()))
    assert plan.rung == compose.CAMERA and plan.form == "stacked, words by the scores"
    assert number * (1 + 1e-6) >= typography.MIN_FONT_SIZE, "built at the floor, not shrunk under it"
    assert plan.whole.width > body.width or plan.whole.height > body.height


def test_a_small_product_stacks_in_portrait_with_its_numbers():
    """q = W_q s for the post's 3 × 3 W_q: stacked, the portrait body's own flow, numbers at the floor or more."""
    def forms():
        return flow_forms(lambda stacked: DotProducts(Source("coffee"), matrix="W_q", vector="s_decoder",
                                                      products="q_terms", result="q", stacked=stacked))
    _, plan, number, body = plan_for("portrait", forms)
    assert plan.form == "stacked" and plan.rung in (compose.WORKED, compose.FLOOR)
    assert number >= typography.MIN_FONT_SIZE * (1 - 1e-6)
    assert plan.whole.width <= body.width + 1e-6 and plan.whole.height <= body.height + 1e-6


@pytest.mark.parametrize("aspect", frame.ASPECTS)
def test_the_first_form_that_reads_best_wins(aspect):
    built = []

    def form(name, scale):
        def build():
            built.append(name)
            return DotProducts(Source("coffee"), matrix="H", vector="q", products="score_terms", result="scores",
                               stacked=layout.is_tall()).scale(scale)
        return compose.Form(name, build)

    with in_frame(aspect):
        _, plan = compose.compose([form("tiny", 0.01), form("plain", 1.0), form("never", 1.0)])
    assert plan.form == "plain" and plan.rung != compose.CAMERA, "a form at the floor beats one under it"
    if plan.rung == compose.WORKED:
        assert built == ["tiny", "plain"], "a form after one that reads worked is not built"
    else:  # at the floor only: a later form might read worked, so it is built, and the first at the floor kept
        assert built == ["tiny", "plain", "never"]


def test_a_wide_product_goes_to_the_camera_at_the_floor():
    """The wide example's 8 words × 6 wide scoring cannot read whole in a phone's body: camera, at the floor."""
    import os
    from attention_math import example_spec
    from tests.conftest import ROOT

    os.environ[example_spec.EXAMPLE_ENV_VAR] = str(ROOT / "examples" / "wide.toml")
    try:
        source = Source("coffee")
        assert source.shape("H") == (8, 6)
        _, plan, number, _ = plan_for("portrait", lambda: encoder_scoring_forms(source, list(source.get("tokens"))))
    finally:
        del os.environ[example_spec.EXAMPLE_ENV_VAR]
    assert plan.rung == compose.CAMERA
    assert typography.MIN_FONT_SIZE * (1 - 1e-6) <= number <= typography.MIN_FONT_SIZE * 1.1


def test_compose_needs_a_form():
    with pytest.raises(ValueError, match="at least one form"):
        compose.compose([])
