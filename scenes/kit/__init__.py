"""The shared visual language: palette, fonts, the number formatter, tensor widgets and the scene base."""

from . import camera_moves, motion, palette, typography
from .base import AttentionScene, BeatRecord, BeatWithoutCaption, beat
from .claims import agreeing_top, top_token
from .named_matrix import NamedMatrix
from .attention_map import AttentionMap
from .products import (
    DotProducts, ShownProduct, WeightedRows, add_rows, dot_every_row, row_times_vector, scale_every_row,
)
from .spotlight import TermLight, term_box
from .numbers import NumberTrace, Source, TracedNumber, format_value
from .text import align_baselines, baseline_y, escape_markup, group, heading, label, math, subscript, title
from .widgets import (
    SoftmaxBars, TensorGrid, TokenRow, align_rows, caption_brace, flow_arrow, frame_box, frame_pieces, heatmap, matrix,
    row_box, token_box, vector,
)

__all__ = [
    "palette", "typography", "AttentionScene", "BeatRecord", "BeatWithoutCaption", "beat", "NumberTrace",
    "Source", "TracedNumber", "format_value", "align_baselines", "baseline_y", "escape_markup", "group",
    "heading", "label", "math", "subscript", "title", "SoftmaxBars", "TensorGrid", "TokenRow", "align_rows",
    "caption_brace", "flow_arrow", "frame_box", "frame_pieces", "heatmap", "matrix", "row_box", "token_box", "vector",
    "agreeing_top",
    "top_token",
    "NamedMatrix",
    "AttentionMap",
    "DotProducts", "WeightedRows", "ShownProduct", "row_times_vector", "dot_every_row", "scale_every_row",
    "add_rows", "TermLight", "term_box",
]
