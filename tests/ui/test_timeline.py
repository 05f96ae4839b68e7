"""The timeline's pure geometry: time ↔ pixel, the bar's bands, ruler ticks, tick picking (no imgui, no GL)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.ui import ruler_ticks as rt
from viewer.ui import timeline as tl
from viewer.ui.channel_rows import MERGE_PX


def test_ruler_maps_ends_and_middle():
    r = tl.Ruler(190.0, 946.0, 3.0)
    assert r.x_of(0.0) == 190.0 and r.x_of(3.0) == 946.0 and r.x_of(1.5) == 568.0
    assert r.t_of(190.0) == 0.0 and r.t_of(946.0) == 3.0 and r.t_of(568.0) == 1.5
    assert r.px_per_second == 252.0


def test_ruler_clamps_outside_and_handles_zero_duration():
    r = tl.Ruler(100.0, 500.0, 2.0)
    assert r.t_of(-50.0) == 0.0 and r.t_of(9999.0) == 2.0
    z = tl.Ruler(100.0, 500.0, 0.0)
    assert z.t_of(300.0) == 0.0 and z.x_of(1.0) == 100.0 and z.px_per_second == 0.0


@given(st.floats(0.05, 1000.0), st.floats(0.0, 1.0), st.integers(300, 4000))
def test_t_of_inverts_x_of(duration, u, width):
    r = tl.layout(width, 700, duration).ruler
    t = u * duration
    assert r.t_of(r.x_of(t)) == pytest.approx(t, rel=1e-12, abs=1e-12 * duration)


def test_layout_bands_stack_from_the_bottom_without_gaps():
    lay = tl.layout(1280, 720, 4.0, channel_rows=0)
    assert lay.controls_y == lay.top + tl.PAD
    assert lay.ruler_y == lay.controls_y + tl.CONTROLS_H
    assert lay.summary_y == lay.ruler_y + tl.RULER_H
    assert lay.rows_y == lay.summary_y + tl.ROW_H and lay.rows_h == 0
    assert lay.rows_y + tl.PAD == 720
    assert lay.ruler.x0 == tl.LABEL_W and lay.ruler.x1 == 1280 - tl.MARGIN
    assert lay.scene_viewport() == (0, int(720 - lay.top), 1280, int(lay.top))


def test_expanded_rows_grow_the_bar_up_to_max_rows():
    collapsed = tl.layout(1280, 720, 4.0)
    six = tl.layout(1280, 720, 4.0, channel_rows=6)
    many = tl.layout(1280, 720, 4.0, channel_rows=57)
    assert collapsed.top - six.top == tl.TOOLS_H + 6 * tl.ROW_H and six.rows_h == 6 * tl.ROW_H
    assert six.rows_y == six.tools_y + tl.TOOLS_H
    assert many.rows_h == tl.MAX_ROWS * tl.ROW_H
    empty = tl.layout(1280, 720, 4.0, channel_rows=0, expanded=True)  # a filter that leaves no row
    assert empty.rows_h == 0 and collapsed.top - empty.top == tl.TOOLS_H


def test_zoom_keeps_the_time_under_the_pointer():
    r = tl.layout(1280, 720, 4.0).ruler
    x = 700.0
    t = r.time_at(x)
    for factor in (2.0, 3.0, 1.5):
        view = tl.zoom(r, factor, x)
        r = tl.layout(1280, 720, 4.0, view=view).ruler
        assert r.time_at(x) == pytest.approx(t, abs=1e-12)
    assert r.span == pytest.approx(4.0 / 9.0)
    assert tl.zoom(r, 1 / 100, x) is None  # all the way out: the whole clip again
    deep = tl.layout(1280, 720, 4.0, view=tl.zoom(r, 1e6, x)).ruler
    assert deep.span == pytest.approx(tl.MIN_VIEW_SECONDS)


def test_zoom_at_an_end_stays_inside_the_clip_and_pan_moves_by_pixels():
    r = tl.layout(1280, 720, 4.0).ruler
    view = tl.zoom(r, 4.0, r.x0)
    assert view == pytest.approx((0.0, 1.0))
    r = tl.layout(1280, 720, 4.0, view=view).ruler
    panned = tl.pan(r, -(r.x1 - r.x0) / 2)  # drag left by half the ruler: half a view later
    assert panned == pytest.approx((0.5, 1.5))
    assert tl.pan(r, 10_000) == pytest.approx((0.0, 1.0))  # cannot pan before the start
    zoomed = tl.layout(1280, 720, 4.0, view=(0.5, 1.5)).ruler
    ticks = rt.ticks(zoomed, 30.0)
    assert ticks[0].t >= 0.5 - 1e-9 and ticks[-1].t <= 1.5 + 1e-9 and any(k.major for k in ticks)
    assert tl.visible_keys([0.0, 0.4, 0.5, 1.0, 1.6], zoomed) == (2, 4)


def test_ruler_point_round_trips_to_the_seek_time():
    lay = tl.layout(960, 540, 3.7083)
    x, y = lay.ruler_point(1.234)
    assert isinstance(x, int) and lay.on_ruler(x, y) and lay.in_bar(x, y)
    assert abs(lay.ruler.t_of(x) - 1.234) <= 0.5 / lay.ruler.px_per_second
    assert not lay.on_ruler(x, lay.summary_y + 1) and not lay.in_bar(x, lay.top - 1)


@pytest.mark.parametrize(
    "minimum, step",
    [
        (0.03, 0.05),
        (0.05, 0.05),
        (0.11, 0.2),
        (0.3, 0.5),
        (0.7, 1.0),
        (1.0, 1.0),
        (1.2, 2.0),
        (4.0, 5.0),
        (7.0, 10.0),
        (130.0, 200.0),
    ],
)
def test_nice_step_is_the_next_1_2_5(minimum, step):
    assert rt.nice_step(minimum) == pytest.approx(step)


def test_ticks_keep_labels_apart_and_land_on_multiples():
    for duration, width in [(3.0, 960), (0.71, 1280), (60.0, 700), (9.37, 400)]:
        lay = tl.layout(width, 600, duration)
        ticks = rt.ticks(lay.ruler, 30.0)
        majors = [t.t for t in ticks if t.major]
        gaps = [lay.ruler.x_of(b) - lay.ruler.x_of(a) for a, b in zip(majors, majors[1:])]
        assert majors[0] == 0.0 and min(gaps) >= rt.MIN_TICK_GAP_PX - 1e-9
        step = majors[1] - majors[0]
        assert all(m == pytest.approx(k * step) for k, m in enumerate(majors))  # k × step, no drift
        assert ticks[-1].t <= duration + 1e-9 and duration - ticks[-1].t < step
        assert all(t.frame == tl.frame_of(t.t, 30.0) for t in ticks)


def test_frame_numbers_and_readout():
    assert tl.frame_of(0.0, 30) == 0 and tl.frame_of(1.0, 30) == 30 and tl.frame_of(0.033, 30) == 0
    assert tl.frame_of(0.1, 30) == 3  # 0.1 × 30 is 3.0000000000000004 or 2.9999999999999996: both frame 3
    assert tl.format_time(1.25, 30) == " 1.250 s  f 37"


def test_nearest_key_within_tolerance():
    r = tl.Ruler(0.0, 1000.0, 10.0)  # 100 px per second
    keys = [0.0, 1.0, 1.04, 5.0]
    assert tl.nearest_key(keys, r, 103.0) == 1.04
    assert tl.nearest_key(keys, r, 99.0) == 1.0
    assert tl.nearest_key(keys, r, 300.0) is None
    assert tl.nearest_key(keys, r, 505.0) == 5.0 and tl.nearest_key(keys, r, 506.0) is None
    assert tl.nearest_key([], r, 0.0) is None


def test_zero_duration_clip_has_one_tick():
    assert rt.ticks(tl.Ruler(0.0, 100.0, 0.0), 30.0) == [rt.Tick(0.0, 0, True)]
    assert math.isfinite(tl.layout(300, 200, 0.0).top)


def test_a_small_window_keeps_its_3d_view():
    small = tl.layout(640, 480, 4.0, channel_rows=21)
    assert small.height - small.top <= tl.BAR_SHARE * 480 + tl.ROW_H
    assert small.rows_h >= tl.MIN_ROWS * tl.ROW_H
    tiny = tl.layout(320, 200, 4.0, channel_rows=21)
    assert tiny.rows_h == tl.MIN_ROWS * tl.ROW_H  # still a couple of rows to scroll through


def columns_by_loop(times, ruler: tl.Ruler) -> list[int]:
    """The column of every key in view, one key at a time (the slow way ``key_columns`` must agree with)."""
    idx = tl.key_columns(times, ruler)
    edges = ruler.start + np.arange(idx.size) * (ruler.span / (idx.size - 1))
    edges[0], edges[-1] = ruler.start - 1e-9, ruler.view_end + 1e-9
    return [int(np.searchsorted(edges, t, side="right")) - 1 for t in times if edges[0] <= t < edges[-1]]


@given(st.lists(st.floats(0.0, 100.0), max_size=300), st.floats(0.0, 90.0), st.floats(0.01, 100.0))
def test_key_columns_bin_every_key_in_view_once(keys, start, span):
    times = np.sort(np.asarray(keys, dtype=np.float64))
    r = tl.layout(1000, 600, 100.0, view=(start, start + span)).ruler
    idx = tl.key_columns(times, r)
    assert idx.size == math.ceil(r.x1 - r.x0) + 1 and (np.diff(idx) >= 0).all()
    lo, hi = tl.visible_keys(times, r)
    assert (idx[0], idx[-1]) == (lo, hi)  # exactly the keys in view
    per_column = np.repeat(np.arange(idx.size - 1), np.diff(idx))
    assert per_column.tolist() == columns_by_loop(times, r)


def test_an_hour_of_keys_draws_as_one_bar_and_single_frames_as_diamonds():
    times = np.arange(216_001) / 60.0  # an hour at 60 fps
    whole = tl.layout(1280, 720, 3600.0).ruler
    assert tl.tick_runs(times, whole, MERGE_PX) == [(whole.x0, whole.x1)]
    view = (1800.0, 1800.0 + tl.shortest_view(60.0))
    frames = tl.layout(1280, 720, 3600.0, view=view).ruler
    runs = tl.tick_runs(times, frames, MERGE_PX)
    assert (
        [a for a, b in runs]
        == [b for a, b in runs]
        == pytest.approx([frames.x_of(k / 60) for k in range(108000, 108006)])
    )
    minute = tl.layout(1280, 720, 3600.0, view=(60.0, 120.0)).ruler  # 18 px a second, 0.3 px a key
    assert len(tl.tick_runs(times, minute, MERGE_PX)) == 1


@given(st.lists(st.floats(0.0, 20.0), min_size=1, max_size=200), st.floats(1.0, 30.0))
def test_tick_runs_cover_every_key_and_stay_apart(keys, merge_px):
    times = np.sort(np.asarray(keys, dtype=np.float64))
    r = tl.layout(900, 600, 20.0).ruler
    runs = tl.tick_runs(times, r, merge_px)
    xs = [r.x_of(t) for t in times]
    assert len(runs) <= (r.x1 - r.x0) / merge_px + 1
    assert all(any(a - 1e-6 <= x <= b + 1e-6 for a, b in runs) for x in xs)  # every key is in a run
    assert all(np.isclose(xs, a).any() and np.isclose(xs, b).any() for a, b in runs)  # runs start, end on keys
    assert all(c - b > merge_px - 1.0 for (_, b), (c, _) in zip(runs, runs[1:]))  # apart by a column of slack


def test_the_deepest_zoom_is_a_few_frames_at_the_rulers_rate():
    r = tl.layout(1280, 720, 3600.0).ruler
    for fps in (24.0, 30.0, 60.0, 120.0):
        deep = tl.layout(1280, 720, 3600.0, view=tl.zoom(r, 1e9, 700.0, tl.shortest_view(fps))).ruler
        assert deep.span == pytest.approx(tl.MIN_VIEW_FRAMES / fps)
        assert deep.px_per_second / fps > 100  # a frame is over a hundred pixels wide
    assert tl.shortest_view(0.0) == tl.MIN_VIEW_SECONDS
