"""Every clip render.py makes is metered for flashes (WCAG 2.3.1) as its frames are drawn, and the manifest says
its worst second: a frame flashing white every other frame is caught, a drawn square is not, and the figure agrees
with the meter run again over the frames decoded from the finished file."""

from __future__ import annotations

from rendering.encode.flashes import MOST_FLASHES, worst_second
from tests.fixtures.render.harness import decode_frames, make_project


def test_the_manifest_gives_each_clips_worst_second_of_flashes(tmp_path):
    project = make_project(tmp_path)
    result = project.render("blink", "square", "-f", "mp4")
    assert result.returncode == 0, result.stdout + result.stderr
    for scene_id in ("blink", "square"):
        entry = project.entry(scene_id)
        decoded = worst_second(decode_frames(project.clip(scene_id, "mp4")), int(entry["fps"]))
        assert entry["most_flashes_in_a_second"] == decoded, scene_id
    # 15 changes a second at 15 fps, a flash being a pair of them
    assert project.entry("blink")["most_flashes_in_a_second"] == 7 > MOST_FLASHES
    assert project.entry("square")["most_flashes_in_a_second"] == 0
