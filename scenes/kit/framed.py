"""The kit's row-by-row products for a composition too large to read whole: the camera follows the work.

`dot_every_row` and `scale_every_row` + `add_rows` (scenes.kit.products) assume the composition fits the body
legibly. When it does not (eight words of width-6 vectors, eleven rows), a scene builds it at a legible size with
`close_up.build_legible` and calls these instead: the whole is shown first from afar (shaded cells stand in for the
numbers), the camera moves in on the first row, where its products travel and collapse at a legible size, then
pulls back to the whole, where the remaining rows are worked as shaded cells. `frame_part` ends a beat on the part
the caption talks about (the top score, the context vector), its numbers legible again.

Every move carries only the `pinned` mobjects (the step's formula) along, so they stay still on screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from manim import Animation, Create, FadeIn, Mobject, Scene, VGroup

from . import camera, close_up, layout, palette
from .products import DotProducts, ShownProduct, WeightedRows, add_rows, row_times_vector, settle

#: How many rows are worked in close-up before the camera pulls back to the whole.
CLOSE_ROWS = 1
#: A row worked from afar goes quicker: the close-up has shown how.
AFAR_RUN_TIME = 0.5


def move_to_shot(scene: Scene, shot: camera.Shot, within: Mobject, pinned: Sequence[Mobject], *animations,
                 run_time: float = 1.0) -> None:
    """Move the camera to `shot`, `within` taking the state that shot shows, `pinned` still on screen."""
    scene.play(*camera.move_camera(scene, shot, pinned=list(pinned)), *close_up.shot_state(scene, shot, within),
               *animations, run_time=run_time)


def _row_shot(candidates: Sequence[Mobject]) -> camera.Shot:
    """The shot on the first candidate that fits the body at the frame's own scale or closer (the last one
    otherwise): a whole row when it fits, else the part of it where the products arrive."""
    body = layout.body()
    for mob in candidates:
        if mob.width <= body.width - 2 * camera.FRAMING_MARGIN and mob.height <= body.height - 2 * camera.FRAMING_MARGIN:
            return camera.shot_on(mob)
    return camera.shot_on(candidates[-1])


def show_whole(scene: Scene, whole: Mobject, pinned: Sequence[Mobject], *introductions: Animation,
               run_time: float = 1.2) -> camera.Shot:
    """Pull the camera out until all of `whole` fits the body (its numbers shaded, its small texts hidden), then
    play `introductions` (the FadeIns of the parts); returns the whole's shot."""
    shot = camera.shot_on_all(whole)
    close_up.apply_shot_state(shot, whole)
    scene.play(*camera.move_camera(scene, shot, pinned=list(pinned)), run_time=0.8)
    if introductions:
        scene.play(*introductions, run_time=run_time)
    return shot


def dot_every_row(scene: Scene, comp: DotProducts, whole: Mobject, pinned: Sequence[Mobject], *,
                  labels: Sequence[Mobject] = (), color=palette.KEY, with_first_products: Iterable[Animation] = (),
                  with_first_sum: Iterable[Animation] = (), run_time: float = 1.2) -> list[ShownProduct]:
    """products.dot_every_row under a camera: row 0 (and up to CLOSE_ROWS) in close-up, with its label
    (`labels[i]`, a word) when given; then the whole, where the other rows are worked as shaded cells."""
    shown: list[ShownProduct] = []
    whole_shot = camera.shot_on_all(whole)
    for i in range(comp.matrix.rows):
        row, products, result = comp.row(i)
        if i < CLOSE_ROWS:
            extra = [labels[i]] if i < len(labels) else []
            shot = _row_shot([VGroup(comp.vector, row, products, result, *extra),
                              VGroup(comp.vector, products, result, *extra),
                              VGroup(comp.vector, products, result)])
            move_to_shot(scene, shot, whole, pinned)
        elif i == CLOSE_ROWS:
            move_to_shot(scene, whole_shot, whole, pinned)
        shown.append(row_times_vector(
            scene, row, comp.vector.body, products, result, color=color, box=shown[-1].box if shown else None,
            with_products=with_first_products if i == 0 else (), with_sum=with_first_sum if i == 0 else (),
            run_time=run_time if i < CLOSE_ROWS else AFAR_RUN_TIME))
    settle(scene, [comp.products, comp.result], [m for s in shown for m in (s.products, s.result)])
    if comp.matrix.rows <= CLOSE_ROWS:
        move_to_shot(scene, whole_shot, whole, pinned)
    return shown


def scale_every_row(scene: Scene, comp: WeightedRows, whole: Mobject, pinned: Sequence[Mobject], *,
                    labels: Sequence[Mobject] = (), color=palette.VALUE, with_first: Iterable[Animation] = (),
                    run_time: float = 0.6) -> list[ShownProduct]:
    """products.scale_every_row under a camera: the first row in close-up (weight, row, products), the others from
    afar as shaded cells; ends on the whole."""
    shown: list[ShownProduct] = []
    whole_shot = camera.shot_on_all(whole)
    for i in range(comp.matrix.rows):
        weight, row, products = comp.row(i)
        if i < CLOSE_ROWS:
            extra = [labels[i]] if i < len(labels) else []
            shot = _row_shot([VGroup(*extra, weight, row, products), VGroup(weight, row, products),
                              VGroup(row, products), VGroup(products)])
            move_to_shot(scene, shot, whole, pinned)
        elif i == CLOSE_ROWS:
            move_to_shot(scene, whole_shot, whole, pinned)
        shown.append(row_times_vector(
            scene, row, weight, products, None, color=color, box=shown[-1].box if shown else None,
            with_products=with_first if i == 0 else (),
            run_time=max(run_time, 1.0) if i < CLOSE_ROWS else AFAR_RUN_TIME))
    settle(scene, [comp.products], [s.products for s in shown])
    if comp.matrix.rows <= CLOSE_ROWS:
        move_to_shot(scene, whole_shot, whole, pinned)
    return shown


def frame_part(scene: Scene, part: Mobject, whole: Mobject, pinned: Sequence[Mobject], *animations,
               run_time: float = 1.0) -> camera.Shot:
    """End on `part` (the top score and its word, the context vector): the camera moves in until it fills the
    body, its numbers legible again, the rest of `whole` shaded or out of the shot."""
    shot = camera.shot_on(part)
    move_to_shot(scene, shot, whole, pinned, *animations, run_time=run_time)
    return shot


__all__ = ["CLOSE_ROWS", "move_to_shot", "show_whole", "dot_every_row", "scale_every_row", "frame_part"]
