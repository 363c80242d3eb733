"""scenes/speed/update_speed.py runs the same updaters as manim's Mobject.update, in the same order, with the same dt."""

from __future__ import annotations

import pytest
from manim import Dot, Mobject, Square, VGroup

from scenes.speed import update_speed


def _scene(log: list) -> VGroup:
    """Groups three deep, updaters at the top, in the middle and at a leaf (with dt and without), a suspended
    group whose members' updaters must not run, and an updater that gives its mobject a new part (which manim
    updates in the same pass: it reads the parts after the updaters)."""
    leaf, other, late_parent = Dot(), Square(), VGroup(Dot())
    leaf.add_updater(lambda m, dt: log.append(("leaf", dt)))
    other.add_updater(lambda m: log.append(("other", None)))
    middle = VGroup(leaf, other)
    middle.add_updater(lambda m, dt: log.append(("middle", dt)))
    hidden = VGroup(Dot().add_updater(lambda m: log.append(("hidden", None))))
    hidden.suspend_updating()
    newcomer = Dot().add_updater(lambda m: log.append(("newcomer", None)))

    def grow(m):
        log.append(("grow", None))
        if newcomer not in m.submobjects:
            m.add(newcomer)

    late_parent.add_updater(grow)
    top = VGroup(middle, hidden, late_parent, VGroup(VGroup(Dot())))
    top.add_updater(lambda m, dt: log.append(("top", dt)))
    return top


@pytest.mark.parametrize("dt", [0.0, 1 / 15])
def test_the_same_updaters_run_in_the_same_order(dt, monkeypatch):
    stock_log, our_log = [], []
    monkeypatch.setattr(Mobject, "update", update_speed._stock_update)  # manim's, even where the patches are in
    _scene(stock_log).update(dt)
    monkeypatch.setattr(Mobject, "update", update_speed._update)
    _scene(our_log).update(dt)
    assert our_log == stock_log
    assert [name for name, _ in our_log] == ["top", "middle", "leaf", "other", "grow", "newcomer"]


def test_a_mobject_without_recursion_runs_only_its_own_updaters(monkeypatch):
    log = []
    monkeypatch.setattr(Mobject, "update", update_speed._update)
    _scene(log).update(0.5, recursive=False)
    assert log == [("top", 0.5)]


def test_a_class_with_its_own_update_is_called_as_manim_calls_it(monkeypatch):
    calls = []

    class Ticking(VGroup):
        def update(self, dt=0, recursive=True):
            calls.append((dt, recursive))
            return self

    monkeypatch.setattr(Mobject, "update", update_speed._update)
    VGroup(VGroup(Ticking(Dot()))).update(0.25)
    assert calls == [(0.25, True)]



def test_a_mobject_inside_itself_ends_in_recursion_error_as_with_manim(monkeypatch):
    loop = VGroup(Dot().add_updater(lambda m: None))
    loop.submobjects.append(loop)  # a mobject inside itself
    for update in (update_speed._stock_update, update_speed._update):
        monkeypatch.setattr(Mobject, "update", update)
        with pytest.raises(RecursionError):
            loop.update(0.1)
