"""Motion that carries the data: every result on screen arrives as copies of the numbers it is made from.

A matrix product is teachable when the eye follows it: the two entries that multiply travel to the product's slot,
the products collapse into the sum, a score becomes its weight, a scaled row flows into z, −∞ enters the cells the
mask hides, a head's columns slide out of the full matrix and back (model: 3Blue1Brown's
`show_matrix_vector_product`). Each helper here returns the animations for one such step, built only from
`TransformFromCopy(source, result)`: the result mobject starts as a copy of its source and morphs into itself, so
nothing is written in place. Scenes play them (often inside one `LaggedStart`) with their own animations; the
kit's product and bar pieces use them too, so the same step moves the same way in every clip.

    entries_to_products(row, vector, products)   entry k of row and of vector → product k
    collapse(parts, total)                        the products (or scaled rows) → their sum
    scores_to_weights(scores, weights)            score i → weight i (in place, or to its bar's value)
    rows_into_sum(rows, result)                   column k of the scaled rows → entry k of z
    weighted_rows_into_row(weights, rows, result) the weights with column k of the rows → entry k of a product's row
    mask_enters(source, cells)                    the mask's −∞ → every future cell
    slide_slices(slices, targets)                 column slice h → head h (split), and back (concat)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import Animation, Group, LaggedStart, Mobject, Scene, VGroup, VMobject

#: Of a lagged group of travelling copies, how much each starts after the one before (0: all at once).
LAG = 0.15

#: When the travelling copy starts to turn into the result (the share of the flight it flies unchanged).
TURN_AT = 0.6

_COLOUR_ARRAYS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


class _Snapshot:
    """A mobject's drawn parts as they are now (points and colours), and their box, to move and fade from."""

    def __init__(self, mob: Mobject) -> None:
        self.parts = mob.family_members_with_points()
        self.points = [part.points.copy() for part in self.parts]
        self.colours = [{name: getattr(part, name).copy() for name in _COLOUR_ARRAYS}
                        if isinstance(part, VMobject) else {} for part in self.parts]
        if self.points:
            every = np.concatenate(self.points)
            low, high = every.min(axis=0), every.max(axis=0)
        else:
            low = high = mob.get_center()
        self.center, self.size = (low + high) / 2, high - low

    def place(self, center: np.ndarray, scale: np.ndarray, opacity: float) -> None:
        """Draw the parts stretched by `scale` about their box's centre, moved to `center`, at `opacity`."""
        for part, points, colours in zip(self.parts, self.points, self.colours):
            part.points = (points - self.center) * scale + center
            for name, rgbas in colours.items():
                faded = rgbas.copy()
                faded[:, 3] *= opacity
                setattr(part, name, faded)

    def restore(self) -> None:
        for part, points, colours in zip(self.parts, self.points, self.colours):
            part.points = points.copy()
            for name, rgbas in colours.items():
                setattr(part, name, rgbas.copy())


def _fit(inner: np.ndarray, outer: np.ndarray) -> float:
    """The uniform scale that fits a box of size `inner` into one of size `outer` (1 when either is a dot)."""
    ratios = [o / i for i, o in zip(inner[:2], outer[:2]) if i > 1e-9 and o > 1e-9]
    return min(ratios) if ratios else 1.0


class Travel(Animation):
    """`result` arrives from `source`: a copy of the source flies to the result, shrinking or growing to fit its box,
    and turns into it; the result flies in with it from the source's place (the source stays where it is). Shapes
    scale evenly, never stretched: a row of products shrinks into its sum. At the end the result is exactly as it
    was, and the copy is gone.

    The copy is on screen only while it flies (0 < t < 1): it is held in an empty group added at the play's start,
    in the place the copy itself would take among the scene's mobjects. Before its start in a lagged group it is not
    drawn over its source (a dozen waiting copies of one entry drew it a dozen times, its edges bolder until its
    copies had left), nor after landing at the result's place (it had turned into it, nearly transparent), and a
    play of many copies draws only those in flight each frame."""

    def __init__(self, source: Mobject, result: Mobject, **kwargs) -> None:
        super().__init__(result, **kwargs)
        self.source = source
        self.flying: Mobject | None = None  # the source's copy, while it flies (none when animations are skipped)
        self.flight: _Snapshot | None = None
        self.holder: Group | None = None  # what holds the copy in the scene: the copy while it flies, else nothing

    def _setup_scene(self, scene: Scene) -> None:
        super()._setup_scene(scene)
        if scene is not None and not scene.renderer.skip_animations:
            self.flying = self.source.copy()
            self.holder = Group()
            scene.add(self.holder)
            self.flight = _Snapshot(self.flying)

    def _show_flight(self, shown: bool) -> None:
        if shown and not self.holder.submobjects:
            self.holder.add(self.flying)
        elif not shown and self.holder.submobjects:
            self.holder.remove(self.flying)

    def begin(self) -> None:
        if self.suspend_mobject_updating:
            self.mobject.suspend_updating()
        self.arrival = _Snapshot(self.mobject)
        self.start = _Snapshot(self.source)
        self.interpolate(0)

    def interpolate_mobject(self, alpha: float) -> None:
        t = self.rate_func(alpha)
        if self.flight is not None:
            self._show_flight(0 < t < 1)
        if t >= 1:
            self.arrival.restore()
        else:
            turned = max(0.0, (t - TURN_AT) / (1 - TURN_AT))
            center = self.start.center + (self.arrival.center - self.start.center) * t
            from_source = _fit(self.arrival.size, self.start.size)
            self.arrival.place(center, from_source + (1 - from_source) * t, turned)
            if self.flight is not None and t > 0:
                to_result = _fit(self.start.size, self.arrival.size)
                self.flight.place(center, 1 + (to_result - 1) * t, 1 - turned)

    def clean_up_from_scene(self, scene: Scene) -> None:
        super().clean_up_from_scene(scene)
        if self.holder is not None:
            scene.remove(self.holder)
            self.flying = self.flight = self.holder = None


def _parts(mob: Mobject) -> list[Mobject]:
    """The entries of a row or column: a grid row's cells, a VGroup's members, or the mobject itself."""
    return list(mob.submobjects) if isinstance(mob, VGroup) and mob.submobjects else [mob]


def travel(source: Mobject, result: Mobject) -> Animation:
    """`result` arrives as a copy of `source` that flies to it and turns into it (the source stays where it is)."""
    return Travel(source, result)


def lagged(animations: Sequence[Animation], lag: float = LAG) -> Animation:
    """Several travelling copies as one animation, each a little after the one before."""
    return LaggedStart(*animations, lag_ratio=lag)


def row_after_row(rows: Sequence[Sequence[Animation]], lag: float = LAG) -> Animation:
    """Travelling copies a row at a time: each row's copies lagged (`lagged`), a row starting once the one before
    has landed, so at most one row's copies are in flight over the grids."""
    return LaggedStart(*(lagged(row, lag) for row in rows if row), lag_ratio=1.0)


def entries_to_products(row: Mobject, vector: Mobject, products: Mobject) -> list[Animation]:
    """Entry k of `row` and entry k of `vector` travel together to product slot k.

    When the three do not have matching entries (a row given as one formula), the whole row and vector travel to
    the whole products instead."""
    row_parts, vector_parts, product_parts = _parts(row), _parts(vector), _parts(products)
    if len(row_parts) == len(vector_parts) == len(product_parts):
        return [travel(VGroup(v, r), p) for r, v, p in zip(row_parts, vector_parts, product_parts)]
    return [travel(VGroup(vector, row), products)]


def collapse(parts: Mobject, total: Mobject) -> list[Animation]:
    """The parts (a row of products, the scaled rows of one column) collapse into `total`, their sum."""
    return [travel(parts, total)]


def scores_to_weights(scores: Sequence[Mobject], weights: Sequence[Mobject]) -> list[Animation]:
    """Score i becomes weight i: a copy of each score travels to where its weight stands (a cell, a bar's value)."""
    if len(scores) != len(weights):
        raise ValueError(f"scores_to_weights needs one weight per score: {len(scores)} scores, {len(weights)} weights")
    return [travel(s, w) for s, w in zip(scores, weights)]


def rows_into_sum(rows: Sequence[Mobject], result: Mobject) -> list[Animation]:
    """The scaled rows flow into z: column k of all rows collapses into entry k of `result`."""
    result_parts = _parts(result)
    columns = [VGroup(*(_parts(row)[k] for row in rows)) for k in range(len(result_parts))]
    return [travel(column, entry) for column, entry in zip(columns, result_parts)]


def weighted_rows_into_row(weights: Mobject, rows: Sequence[Mobject], result: Mobject) -> list[Animation]:
    """One row of a matrix product laid out as A × X = Z (no products shown): row i of Z is Σ_j A_ij x_j, so the
    weights (row i of A) travel with column k of X's rows into entry k of Z's row i, one copy per entry of the
    result (rows_into_sum with the weights along)."""
    result_parts = _parts(result)
    columns = [VGroup(*(_parts(row)[k] for row in rows)) for k in range(len(result_parts))]
    return [travel(VGroup(weights, column), entry) for column, entry in zip(columns, result_parts)]


def mask_enters(source: Mobject, cells: Sequence[Mobject]) -> list[Animation]:
    """The mask's −∞ (a symbol in its legend, or the mask itself) enters every cell it hides."""
    return [travel(source, cell) for cell in cells]


def slide_slices(slices: Sequence[Mobject], targets: Sequence[Mobject]) -> list[Animation]:
    """Column slice h slides into head h (a split), or head h back into its slice of the full matrix (a concat)."""
    if len(slices) != len(targets):
        raise ValueError(f"slide_slices needs one target per slice: {len(slices)} slices, {len(targets)} targets")
    return [travel(s, t) for s, t in zip(slices, targets)]


__all__ = ["LAG", "Travel", "travel", "lagged", "row_after_row", "entries_to_products", "collapse", "scores_to_weights", "rows_into_sum",
           "weighted_rows_into_row", "mask_enters", "slide_slices"]
