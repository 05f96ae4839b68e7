"""The ruler's steps and labels from an hour of capture down to single frames (pure: no imgui, no GL)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.ui import ruler_ticks as rt
from viewer.ui import timeline as tl

HOUR = 3600.0


def majors(ruler: tl.Ruler, fps: float) -> list[rt.Tick]:
    return [k for k in rt.ticks(ruler, fps) if k.major]


def test_an_hour_reads_as_a_clock_on_whole_minutes():
    r = tl.layout(1280, 720, HOUR).ruler
    sc = rt.scale(r, 60.0)
    labels = [sc.labels(k) for k in majors(r, 60.0)]
    assert not sc.frames and sc.step == 300.0 and sc.minors == 5  # five minutes, each minute a tick: not 500 s
    assert labels[:3] == [("0:00:00", "0"), ("0:05:00", "18000"), ("0:10:00", "36000")]
    assert labels[-1] == ("1:00:00", "216000")


def test_ten_minutes_zoomed_to_a_few_seconds_reads_minutes_and_tenths():
    r = tl.Ruler(190.0, 1266.0, 600.0, 754.0, 760.0)  # 6 s of a 10-minute take
    sc = rt.scale(r, 30.0)
    ticks = majors(r, 30.0)
    assert not sc.frames and sc.step == 0.5 and sc.minors == 5
    assert [sc.labels(k)[0] for k in ticks[:3]] == ["12:34.0", "12:34.5", "12:35.0"]
    assert sc.labels(ticks[1])[1] == str(tl.frame_of(754.5, 30.0)) == "22635"


def test_zoomed_to_frames_every_frame_is_a_tick_labelled_by_its_number():
    fps = 60.0
    start = HOUR - tl.shortest_view(fps)
    r = tl.layout(1280, 720, HOUR, view=(start, HOUR)).ruler
    sc = rt.scale(r, fps)
    ticks = rt.ticks(r, fps)
    assert sc.frames and sc.step == pytest.approx(1 / fps) and sc.minors == 1
    assert [k.frame for k in ticks] == list(range(215995, 216001)) and all(k.major for k in ticks)
    assert sc.labels(ticks[0]) == ("215995", "0:59:59.917") and sc.labels(ticks[-1]) == ("216000", "1:00:00.000")
    assert all(k.t == k.frame / fps for k in ticks)  # on the frames' starts, by count, not by sum


def test_a_few_frames_apart_the_step_is_whole_frames_with_frame_minors():
    r = tl.Ruler(190.0, 1266.0, 20.0, 5.0, 7.0)  # 2 s at 30 fps: 538 px/s, a frame is 18 px
    sc = rt.scale(r, 30.0)
    ticks = rt.ticks(r, 30.0)
    assert sc.frames and round(sc.step * 30) == 5 and sc.minors == 5
    assert [k.frame for k in ticks] == list(range(150, 211)) and [k.frame for k in ticks if k.major][:2] == [150, 155]
    assert sc.labels(ticks[0]) == ("150", "5.000s")  # a short clip keeps seconds


@given(
    st.floats(1.0, 2 * HOUR),
    st.floats(0.0, 1.0),
    st.floats(-6.0, 0.0),
    st.sampled_from([24.0, 30.0, 60.0, 120.0]),
    st.integers(500, 2500),
)
def test_labels_never_run_into_each_other(duration, where, log_share, fps, width):
    lay = tl.layout(width, 700, duration)
    span = max(duration * 10.0**log_share, tl.shortest_view(fps))
    start = where * max(duration - span, 0.0)
    r = tl.layout(width, 700, duration, view=(start, start + span)).ruler
    sc = rt.scale(r, fps)
    ticks = majors(r, fps)
    assert lay.ruler.x0 == r.x0 and len(rt.ticks(r, fps)) <= (r.x1 - r.x0) / 4 + 2  # a few ticks, never thousands
    for a, b in zip(ticks, ticks[1:]):
        wide = max(len(text) for text in sc.labels(a)) * rt.CHAR_PX
        assert r.x_of(b.t) - r.x_of(a.t) >= wide + rt.LABEL_GAP_PX - 1e-6
        assert r.x_of(b.t) - r.x_of(a.t) >= rt.MIN_TICK_GAP_PX - 1e-6
    labels = [sc.labels(k)[0] for k in ticks]
    assert len(set(labels)) == len(labels)  # enough decimals to tell every label apart


def test_clock_text_rounds_before_it_splits():
    assert tl.clock_text(59.96, 1, long=True) == "1:00.0"
    assert tl.clock_text(754.5, 1, long=True) == "12:34.5"
    assert tl.clock_text(3723.25, 2, long=True, hours=True) == "1:02:03.25"
    assert tl.clock_text(3599.9999, 3, long=True, hours=True) == "1:00:00.000"
    assert tl.clock_text(7.0, 0, long=True) == "0:07" and tl.clock_text(1.5, 3) == "1.500s"
    assert tl.format_time(754.5, 60.0, 600.0) == "12:34.500  f 45270"
    assert tl.format_time(1.25, 30.0, 2.0) == " 1.250 s  f 37"
