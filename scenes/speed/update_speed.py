"""A mobject's updaters run by one walk of its family, not a method call per member: the same updaters, in the
same order.

Every frame of a render and every skipped play of a headless run updates the scene: `Scene.update_mobjects` calls
`Mobject.update` on each mobject on the stage, which calls itself on every submobject to find the few that have
updaters. A picture of thousands of glyphs has almost none, so the work is the recursion itself: 2.8 million calls
(1.5 % of a headless run of head_split on the twelve-token example). Here the family is walked in the same order
(each member's updaters before its submobjects, the submobjects in order, a suspended member skipped with
everything under it), and `Mobject.update` is called without recursion only on a member that has updaters. A
class with an `update` of its own is called as manim would (recursively). A family with a mobject inside itself
ends in RecursionError, as manim's recursion does: not by handing the family to manim's walk midway, which would
run the updaters already run a second time.
"""

from __future__ import annotations

from manim import Mobject

_stock_update = Mobject.update
#: More members than any scene's family has: a walk that gets here has met a mobject inside itself.
_CYCLE_GUARD = 1_000_000


def _update(self: Mobject, dt: float = 0, recursive: bool = True) -> Mobject:
    if not recursive:
        return _stock_update(self, dt, recursive=False)
    pending = [self]
    take, push = pending.pop, pending.extend
    walked = 0
    while pending:
        member = take()
        if type(member).update is not _update:  # a class that updates its own way: as manim calls it
            member.update(dt, recursive=True)
            continue
        if member.updating_suspended:
            continue
        if member.updaters:
            _stock_update(member, dt, recursive=False)
        submobjects = member.submobjects
        if submobjects:
            push(submobjects[::-1])
            walked += len(submobjects)
            if walked > _CYCLE_GUARD:
                raise RecursionError(f"{type(self).__name__}.update: a mobject inside its own family")
    return self


def install() -> None:
    Mobject.update = _update
