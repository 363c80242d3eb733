"""bottleneck's reading arrow: from the word being read to the title of the state it reads into, in every frame.
On a phone the title wraps onto two lines for a longer word, so an arrow aimed at the title before it
(one line) ran into the new title's text."""

from __future__ import annotations

import pytest

from scenes import frame
from scenes.bottleneck import BottleneckScene
from scenes.quality.headless import run_headless


@pytest.mark.slow
@pytest.mark.parametrize("aspect", frame.ASPECTS)
def test_each_reading_arrow_ends_above_the_title_it_reads_into(aspect, monkeypatch):
    titles, arrows = {}, {}
    make_title, make_arrow = BottleneckScene._state_title, BottleneckScene._read_arrow

    def state_title(self, t, *args, **kwargs):
        titles[t] = make_title(self, t, *args, **kwargs)
        return titles[t]

    def read_arrow(words, t, title):
        arrows[t] = make_arrow(words, t, title)
        return arrows[t]

    monkeypatch.setattr(BottleneckScene, "_state_title", state_title)
    monkeypatch.setattr(BottleneckScene, "_read_arrow", staticmethod(read_arrow))
    run_headless("bottleneck", aspect=aspect)
    later = [t for t in arrows if t > 0]
    assert later, "the encoder reads more than one word"
    for t in later:
        assert arrows[t].get_end()[1] >= titles[t].get_top()[1] - 1e-3, f"arrow {t} runs into its title"
