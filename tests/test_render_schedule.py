"""The scheduler: where a clip is cut, when it is split at all, and the longest-first hand-out."""

from __future__ import annotations

from rendering.encode.frame_window import Window
from rendering.pipeline.schedule import MIN_CHUNK_SECONDS, Animation, clip_cost, makespan, plan, split, timeline_at


def _clip(*parts: tuple[int, bool]) -> list[Animation]:
    """Animations from (frames, static) pairs, laid end to end."""
    animations, first = [], 0
    for frames, static in parts:
        animations.append(Animation(first, frames, static))
        first += frames
    return animations


def test_windows_cover_the_clip_end_to_end_and_the_last_is_open():
    clip = _clip((30, False), (60, True), (45, False), (15, False))
    for parts in (2, 3, 4):
        windows = split(clip, parts)
        assert windows[0].start == 0 and windows[-1].stop is None
        assert all(a.stop == b.start for a, b in zip(windows, windows[1:]))
        assert all(w.stop is None or w.stop > w.start for w in windows)


def test_a_cut_that_falls_in_a_held_wait_stays_there_and_one_in_a_drawn_animation_moves_to_its_edge():
    # 40 drawn frames, a 100-frame held wait, 40 drawn frames: cost 40 + (1 + 99 * 0.1) + 40 = 90.9, half 45.45.
    # The half falls 5.45 into the wait: 1 for its drawn frame, then 4.45 / 0.1 -> 44 repeats in, frame 40 + 45.
    held = _clip((40, False), (100, True), (40, False))
    assert [w.start for w in split(held, 2)] == [0, 85]
    # Without the wait the half (50 of 100) falls 10 frames into the second animation: moved to its start (40),
    # nearer than its end (70).
    drawn = _clip((40, False), (30, False), (30, False))
    assert [w.start for w in split(drawn, 2)] == [0, 40]


def test_a_timeline_recorded_at_one_frame_rate_plans_another():
    assert timeline_at([[15, 0], [30, 1]], 15, 60) == [Animation(0, 60, False), Animation(60, 120, True)]


def test_many_similar_clips_are_not_split_and_go_out_longest_first():
    clips = {f"c{k}": (cost, _clip((int(cost), False)), 60) for k, cost in enumerate((900, 1000, 1100, 950))}
    pieces = plan(clips, workers=2)
    assert all(piece.window is None for piece in pieces)
    assert [piece.job_key for piece in pieces] == ["c2", "c1", "c3", "c0"]


def test_one_long_clip_on_idle_workers_is_split_into_as_many_chunks_as_workers():
    clip = _clip(*[(60, False)] * 60)  # 60 s at 60 fps
    pieces = plan({"long": (clip_cost(clip), clip, 60)}, workers=4)
    assert sorted(piece.index for piece in pieces) == [0, 1, 2, 3]
    assert {piece.count for piece in pieces} == {4}
    assert [piece.window.start for piece in sorted(pieces, key=lambda p: p.index)] == [0, 900, 1800, 2700]


def test_no_chunk_is_shorter_than_the_minimum():
    seconds = 2.5 * MIN_CHUNK_SECONDS
    clip = _clip(*[(15, False)] * int(seconds))  # at 15 fps
    pieces = plan({"short": (clip_cost(clip), clip, 15)}, workers=8)
    assert len(pieces) == 2


def test_a_clip_without_a_timeline_is_rendered_whole():
    pieces = plan({"new": (5000.0, None, 60), "other": (10.0, None, 60)}, workers=4)
    assert [(piece.job_key, piece.window) for piece in pieces] == [("new", None), ("other", None)]


def test_longest_first_makespan():
    # 5 -> worker A, 4 -> B, 3 -> B (7), 3 -> A (8): by hand.
    assert makespan([3, 5, 3, 4], 2) == 8
    assert makespan([], 3) == 0.0
    assert Window(10, 20).kept(5, 10) == 5 and Window(10, None).kept(100, 7) == 7 and Window(0, 0).kept(0, 9) == 0


# Predicting a split's gain (schedule.RenderModel): a split only where it is predicted to be really faster.

def _model(start=1.0, storyboard=2.0, draw_per_frame=0.1, draw_cores=1.0):
    from rendering.pipeline.schedule import RenderModel

    return RenderModel(start, storyboard, draw_per_frame, draw_cores)


def test_the_predicted_times_of_a_whole_and_a_split_clip_by_hand():
    from rendering.pipeline.schedule import JOIN_PER_FRAME, predicted_split, predicted_whole

    clip = _clip((100, False))
    # Whole: start 1 + storyboard 2 + 100 frames * 0.1 = 13.
    assert predicted_whole(clip, _model()) == 13.0
    # Halves on 2 cores: the first stops its storyboard halfway (1 + 1 + 5 = 7), the last runs it all (1 + 2 + 5 =
    # 8); 15 CPU seconds on 2 cores take 7.5, so the slower chunk decides: 8, plus the join.
    windows = [Window(0, 50), Window(50, None)]
    assert predicted_split(clip, windows, _model(), cores=2) == 8.0 + 100 * JOIN_PER_FRAME
    # On 1 core the CPU decides: 15.
    assert predicted_split(clip, windows, _model(), cores=1) == 15.0 + 100 * JOIN_PER_FRAME


def test_a_clip_whose_drawing_outweighs_the_repeated_storyboard_is_split():
    from rendering.pipeline.schedule import chunks_worth

    clip = _clip(*[(60, False)] * 40)  # 40 s at 60 fps
    assert chunks_worth(clip, _model(storyboard=3.0, draw_per_frame=0.02), cores=2, most=2) == 2


def test_a_clip_whose_storyboard_outweighs_its_drawing_is_rendered_whole():
    from rendering.pipeline.schedule import chunks_worth, predicted_split, predicted_whole

    clip = _clip(*[(15, False)] * 40)  # 40 s at 15 fps: 600 frames, 3 s of drawing, 10 s of storyboard
    model = _model(storyboard=10.0, draw_per_frame=0.005)
    # Whole: 1 + 10 + 3 = 14. Split, the chunk that runs to the end takes 1 + 10 + 1.5 = 12.5 (+ the join): faster,
    # but by 11%, under MIN_GAIN.
    assert predicted_split(clip, split(clip, 2), model, cores=2) < predicted_whole(clip, model)
    assert chunks_worth(clip, model, cores=2, most=2) == 1


def test_no_split_when_only_one_core_is_there_to_run_the_chunks():
    from rendering.pipeline.schedule import chunks_worth

    clip = _clip(*[(60, False)] * 40)
    assert chunks_worth(clip, _model(storyboard=3.0, draw_per_frame=0.02), cores=1, most=2) == 1


def test_plan_with_a_model_keeps_a_clip_whole_where_the_split_does_not_pay():
    clip = _clip(*[(15, False)] * 40)
    costly = {"c": _model(storyboard=10.0, draw_per_frame=0.005)}
    cheap = {"c": _model(storyboard=1.0, draw_per_frame=0.05)}
    assert len(plan({"c": (clip_cost(clip), clip, 15)}, workers=2, models=costly)) == 1
    assert len(plan({"c": (clip_cost(clip), clip, 15)}, workers=2, models=cheap)) == 2


def test_a_lead_under_way_is_cut_late_enough_to_finish_with_the_new_chunk():
    from rendering.pipeline.schedule import lead_plan

    clip = _clip(*[(60, False)] * 40)  # 2400 frames, 48 s of drawing at 0.02 on one core
    # Measured: 4 s of start and storyboard; the lead, started 4 s ago, is at frame 100.
    result = lead_plan(clip, _model(start=0.0, storyboard=4.0, draw_per_frame=0.02), cores=2, most=2,
                       position=100, elapsed=4.0)
    assert result.stop is not None and len(result.windows) == 1 and result.windows[0].start == result.stop
    assert result.windows[0].stop is None
    # The new chunk pays the 4 s storyboard before it draws, so the lead keeps more than half of what is left.
    assert result.stop - 100 > 2400 - result.stop
    assert result.split < 0.88 * result.whole


def test_a_lead_is_left_to_render_the_whole_clip_where_a_new_chunk_would_not_catch_up():
    from rendering.pipeline.schedule import lead_plan

    clip = _clip(*[(15, False)] * 44)  # a short clip at 480p15: 660 frames, 4.6 s of drawing
    # The measuring pass took 7.8 s (a busy machine), and the lead is already a third of the way.
    result = lead_plan(clip, _model(start=0.0, storyboard=7.8, draw_per_frame=0.007), cores=2, most=2,
                       position=220, elapsed=7.8)
    assert result.stop is None and result.windows == ()


# The cores a split would really get: free cores from two /proc/stat samples (cpu_load.py), and the plan on them.

def _stat(user, nice, system, idle, iowait=0, steal=0, guest=0, cores=2):
    """/proc/stat's text with these sums (ticks since boot) and `cores` per-core lines (their values unused)."""
    sums = f"cpu  {user} {nice} {system} {idle} {iowait} 0 0 {steal} {guest} 0"
    per_core = [f"cpu{n} 1 2 3 4 5 0 0 0 0 0" for n in range(cores)]
    return "\n".join([sums, *per_core, "intr 123 0 0", "ctxt 456", "btime 1700000000"]) + "\n"


def test_the_cpu_sums_are_read_from_the_first_line_and_the_cores_counted():
    from rendering.pipeline.cpu_load import CpuTimes, parse_stat

    # guest (9th field) is inside user already: not added again.
    assert parse_stat(_stat(100, 20, 30, 400, iowait=5, steal=7, guest=50, cores=4)) == \
        CpuTimes(cores=4, idle=405, niced=20, total=100 + 20 + 30 + 400 + 5 + 7)


def test_free_cores_of_an_idle_a_half_busy_and_a_busy_machine():
    from rendering.pipeline.cpu_load import free_cores, parse_stat

    before = parse_stat(_stat(1000, 0, 100, 5000))
    # 60 ticks passed on 2 cores (0.3 s at 100 Hz): all idle, half idle, none idle.
    assert free_cores(before, parse_stat(_stat(1000, 0, 100, 5060)), niced_is_free=False) == 2.0
    assert free_cores(before, parse_stat(_stat(1025, 0, 105, 5030)), niced_is_free=False) == 1.0
    assert free_cores(before, parse_stat(_stat(1050, 0, 110, 5000)), niced_is_free=False) == 0.0
    # 15 of 60 ticks idle, 3 waiting for the disk (free too): 2 cores * 18 / 60.
    assert free_cores(before, parse_stat(_stat(1042, 0, 100, 5015, iowait=3)), niced_is_free=False) == 0.6
    assert free_cores(before, before, niced_is_free=False) is None  # no tick between the samples


def test_niced_load_is_free_to_a_run_that_is_not_niced_and_busy_to_a_niced_one():
    from rendering.pipeline.cpu_load import free_cores, parse_stat

    before = parse_stat(_stat(1000, 300, 100, 5000))
    after = parse_stat(_stat(1010, 340, 100, 5010))  # of 60 ticks: 40 niced, 10 user, 10 idle
    assert free_cores(before, after, niced_is_free=True) == 2 * 50 / 60
    assert free_cores(before, after, niced_is_free=False) == 2 * 10 / 60


def test_a_clip_worth_splitting_on_idle_cores_is_rendered_whole_on_a_busy_machine():
    from rendering.pipeline.cpu_load import free_cores, parse_stat

    clip = _clip(*[(15, False)] * 40)
    cheap = {"c": _model(storyboard=1.0, draw_per_frame=0.05)}  # split 2 ways on 2 idle cores (above)
    clips = {"c": (clip_cost(clip), clip, 15)}
    assert len(plan(clips, workers=2, models=cheap, cores=2.0)) == 2
    # Both cores were busy with other programs over the sample: 6 of 60 ticks idle, 0.2 cores free.
    busy = free_cores(parse_stat(_stat(1000, 0, 100, 5000)), parse_stat(_stat(1050, 0, 104, 5006)),
                      niced_is_free=False)
    assert busy is not None and abs(busy - 0.2) < 1e-9
    assert [piece.window for piece in plan(clips, workers=2, models=cheap, cores=busy)] == [None]
    # One core free of two: the chunks would take turns on it, and the storyboard twice costs more than it saves.
    assert [piece.window for piece in plan(clips, workers=2, models=cheap, cores=1.0)] == [None]


def _long_job(seconds: int):
    """A silent clip at 1080p60 whose last render recorded `seconds` one-second drawn animations."""
    from rendering.pipeline.jobs import Job
    from rendering.qualities import QUALITIES
    from scenes.registry import SceneSpec

    return Job(SceneSpec("long", "Long", "S", "scenes.long", "LongScene", 1), QUALITIES["high"], ["mp4"], "h",
               expected_seconds=float(seconds), timeline=[[60, 0]] * seconds, timeline_fps=60)


def test_the_machine_is_sampled_only_when_the_plan_would_split_and_a_busy_one_keeps_the_clip_whole():
    from rendering.pipeline.tasks import CHUNK, CLIP, initial_tasks

    asked: list[float | None] = []

    def probe(cores):
        def free() -> float | None:
            asked.append(cores)
            return cores
        return free

    long = _long_job(60)
    assert [task.kind for task in initial_tasks([long], 2, free_cores=probe(2.0))] == [CHUNK, CHUNK]
    assert [task.kind for task in initial_tasks([long], 2, free_cores=probe(0.7))] == [CLIP]
    assert [task.kind for task in initial_tasks([long], 2, free_cores=probe(None))] == [CHUNK, CHUNK]
    assert asked == [2.0, 0.7, None]
    # Nothing to split: one worker, or a clip too short to be worth it; and --split always does not ask.
    assert [task.kind for task in initial_tasks([long], 1, free_cores=probe(0.1))] == [CLIP]
    assert [task.kind for task in initial_tasks([_long_job(6)], 2, free_cores=probe(0.1))] == [CLIP]
    assert [task.kind for task in initial_tasks([long], 2, always_split=True, free_cores=probe(0.1))] == \
        [CHUNK, CHUNK]
    assert asked == [2.0, 0.7, None]


def test_a_split_whose_gain_would_not_pay_for_sampling_the_machine_is_not_made():
    from rendering.pipeline.schedule import chunks_worth

    clip = _clip((50, False), (50, False))
    # By hand (above): whole 13 s, halves side by side 8 s + the join; a split must come under 13 * 0.88 = 11.44.
    assert chunks_worth(clip, _model(), cores=2, most=2, overhead=3.0) == 2  # 11.003
    assert chunks_worth(clip, _model(), cores=2, most=2, overhead=3.5) == 1  # 11.503


def test_a_clip_with_no_timeline_is_measured_beside_its_lead_only_when_the_machine_has_the_cores_free():
    from rendering.pipeline.tasks import CLIP, LEAD, LEAD_MIN_FREE_CORES, MEASURE, initial_tasks

    new = _long_job(60)
    new.timeline = new.timeline_fps = None  # never rendered here: 60 s expected, no timeline
    asked: list[float] = []

    def probe(cores):
        def free():
            asked.append(cores)
            return cores
        return free

    assert [t.kind for t in initial_tasks([new], 2, free_cores=probe(2.0))] == [LEAD, MEASURE]
    assert [t.kind for t in initial_tasks([new], 2, free_cores=probe(LEAD_MIN_FREE_CORES))] == [LEAD, MEASURE]
    assert [t.kind for t in initial_tasks([new], 2, free_cores=probe(1.2))] == [CLIP]
    assert [t.kind for t in initial_tasks([new], 2, free_cores=probe(None))] == [LEAD, MEASURE]
    assert [t.kind for t in initial_tasks([new], 2)] == [LEAD, MEASURE]  # no probe (a cluster): as before
    assert asked == [2.0, LEAD_MIN_FREE_CORES, 1.2, None]


# Measuring a clip with no timeline (schedule.measuring_pays): only where a split could still pay once the measuring
# pass is paid.

def test_measuring_does_not_pay_where_the_storyboard_outweighs_the_drawing():
    from rendering.pipeline.schedule import measuring_pays

    clip = _clip(*[(15, False)] * 40)  # 600 drawn frames
    # Whole: 1 + 10 + 600 * 0.005 = 14 s. The measuring pass alone takes 1 + 10 = 11 s, and a chunk started after it
    # pays them again before it draws: no split can finish before 22 s.
    assert not measuring_pays(clip, _model(start=1.0, storyboard=10.0, draw_per_frame=0.005), cores=2, most=2)


def test_measuring_pays_where_the_drawing_outweighs_the_storyboard():
    from rendering.pipeline.schedule import measuring_pays

    clip = _clip(*[(60, False)] * 40)  # 2400 drawn frames
    model = _model(start=0.5, storyboard=1.0, draw_per_frame=0.02)
    # Whole: 0.5 + 1 + 48 = 49.5 s. The measuring pass ends at 1.5 s, the lead then at frame 48 (0.5 + 48 / 2400 +
    # 48 * 0.02 = 1.48 s). Left: the lead's 2352 frames (47 s of drawing) and its storyboard, plus the new chunk's
    # 1.5 s, about 50 CPU s on 2 cores: about 1.5 + 25 = 26.5 s, well under 49.5 * 0.88 = 43.6.
    assert measuring_pays(clip, model, cores=2, most=2)
    # With one core the measuring pass has none of its own; with at most one chunk there is nothing to plan.
    assert not measuring_pays(clip, model, cores=1, most=2)
    assert not measuring_pays(clip, model, cores=2, most=1)


def test_a_clip_never_rendered_stands_in_as_a_typical_second_of_drawing_then_a_held_wait_repeated():
    from rendering.pipeline.schedule import stand_in_timeline

    # 0.55 of 15 frames drawn: 8 (8.25 rounded), then 7 held; two seconds.
    assert stand_in_timeline(2.0, 15) == _clip((8, False), (7, True), (8, False), (7, True))
    # At 60 fps: 33 drawn, 27 held; a second or less is still one typical second.
    assert stand_in_timeline(0.4, 60) == _clip((33, False), (27, True))


def _fresh_job(quality: str, seconds: float | None):
    """A silent clip never rendered here: no timeline, and `seconds` expected (None: not even that)."""
    from rendering.pipeline.jobs import Job
    from rendering.qualities import QUALITIES
    from scenes.registry import SceneSpec

    return Job(SceneSpec("new", "New", "S", "scenes.new", "NewScene", 1), QUALITIES[quality], ["mp4"], "h",
               expected_seconds=seconds)


def test_a_fresh_clip_at_low_is_rendered_whole_without_measuring_on_two_idle_cores():
    from rendering.pipeline.tasks import CLIP, LEAD, MEASURE, initial_tasks

    asked: list[float] = []

    def idle() -> float:
        asked.append(2.0)
        return 2.0

    # Never rendered, so 60 s guessed (jobs.GUESSED_SECONDS). Its measuring pass: start 3.3 + storyboard 0.034 * 60
    # = 5.34 s. A typical second at 15 fps: 8 drawn frames and 7 held (1 + 6 * 0.1): 9.6 frames of cost, 576 in
    # all, at 0.0063 + 0.0304 * 854 * 480 / (1920 * 1080) = 0.0123 CPU s each: 7.1 s on 1.06 cores, 6.7 s. Whole:
    # 3.3 + 2.04 + 6.7 = 12.0 s; a split must end by 0.88 * 12.0 = 10.6 s, but a chunk started when the measuring pass
    # ends (5.34 s) has its own 5.34 s to pay before it draws a frame (10.7 s): measuring cannot pay.
    assert [t.kind for t in initial_tasks([_fresh_job("low", None)], 2, free_cores=idle)] == [CLIP]
    assert [t.kind for t in initial_tasks([_fresh_job("low", 60.0)], 2)] == [CLIP]
    assert asked == []  # nothing to split or measure: the machine is not sampled
    # --split always measures it all the same (the chunks' mechanics, not their gain).
    assert [t.kind for t in initial_tasks([_fresh_job("low", None)], 2, always_split=True)] == [LEAD, MEASURE]


def test_a_fresh_clip_at_1080p60_is_measured_beside_its_lead_on_two_idle_cores():
    from rendering.pipeline.tasks import LEAD, MEASURE, initial_tasks

    # 60 s guessed, measuring pass 5.34 s as at low. A typical second at 60 fps: 33 drawn and 27 held frames (1 +
    # 26 * 0.1): 36.6 of cost, 2196 in all, at 0.0063 + 0.0304 = 0.0367 CPU s each: 80.6 s on 1.3 cores, 62.0 s.
    # Whole: 3.3 + 2.04 + 62.0 = 67.3 s, and 0.88 of it 59.3 s. After the measuring pass, the lead's rest (at most
    # 80.6 + 2.04 CPU s) and a new chunk's 5.34 s of set-up share 2 cores: about 44 s, done by about 49 s.
    assert [t.kind for t in initial_tasks([_fresh_job("high", None)], 2, free_cores=lambda: 2.0)] == [LEAD, MEASURE]
    # 40 s expected: whole 3.3 + 1.36 + 41.3 = 46.0 s (0.88 of it 40.5); measuring 4.66 s, then about 60 CPU s on
    # 2 cores: about 35 s.
    assert [t.kind for t in initial_tasks([_fresh_job("high", 40.0)], 2)] == [LEAD, MEASURE]
