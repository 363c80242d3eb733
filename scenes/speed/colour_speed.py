"""A vectorized mobject's fill or stroke set to one colour and opacity without building a colour array first.

`set_fill` and `set_stroke` go through `update_rgbas_array`, which makes a new array from the colour and opacity
(a ManimColor made again from the one given, a list of rows zipped to even length, the sheen's light row) and then
copies its columns into the array the mobject already has. A camera move that dims the texts out of its shot sets
the opacity of every glyph of the picture: in a headless run of head_split on the twelve-token example, 436,000
such calls took 7 % of the run. Here the common case (no colour or one plain ManimColor, no opacity or one number,
no sheen, an array already there) writes the columns directly: the same floats land in the same array. Any other
case goes to manim's own code.
"""

from __future__ import annotations

from manim import ManimColor, VMobject

_stock_update_rgbas_array = VMobject.update_rgbas_array
_NUMBERS = (float, int)


def _update_rgbas_array(self, array_name, color=None, opacity=None):
    if (color is None or type(color) is ManimColor) and (opacity is None or type(opacity) in _NUMBERS) \
            and self.__dict__.get("sheen_factor", None) == 0:
        current = self.__dict__.get(array_name)
        if current is not None and current.ndim == 2 and len(current) > 0:
            if color is not None:
                current[:, :3] = color._internal_value[:3]
            if opacity is not None:
                current[:, 3] = opacity
            return self
    return _stock_update_rgbas_array(self, array_name, color, opacity)


def install() -> None:
    VMobject.update_rgbas_array = _update_rgbas_array
