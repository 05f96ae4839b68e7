"""A long take of motion capture in the real viewer app, headless: the ruler zoomed by the wheel from the whole clip
down to single frames, scrubbed by dragging, panned, a two-second loop range set by keys and exported as a GIF.

The take is written by ``tools/mocap_clips.py``'s ``write_take`` (a few minutes, every joint keyed at every
frame: thousands of keys a channel), so what the bar must cope with is there without the hour a person would
open. The ruler counts at 50 fps here: a GIF's frame delay is whole centiseconds, and 20 ms is exact, so the
GIF's length can be checked against the range to the frame.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.app.conftest import Driver
from tools.mocap_clips import write_take
from viewer.app.files import MAX_GIF_FRAMES
from viewer.export.offscreen import frame_times
from viewer.ui import ruler_ticks as rt
from viewer.ui import timeline as tl
from viewer.ui.channel_rows import MERGE_PX

SECONDS, TAKE_FPS, FPS = 240.0, 60.0, 50.0


@pytest.fixture(scope="module")
def take(tmp_path_factory):
    return write_take(tmp_path_factory.mktemp("take") / "take.glb", SECONDS, fps=TAKE_FPS, joints=12)


@pytest.fixture
def d(take, tmp_path):
    driver = Driver(take, fps=FPS, screenshot_dir=tmp_path)
    driver.app.state.display.channels = True  # the channel rows draw their keys too
    driver.frame(0.0)
    yield driver
    driver.close()


def wheel(d: Driver, x: float, y: float, notches: float) -> None:
    """Turn the wheel at (x, y), then draw once more: the bar zooms while it is built, after its layout."""
    d.scroll(x, y, notches)
    d.frame(0.0)


def zoom_in_fully(d: Driver, t: float) -> int:
    """Wheel notches over the ruler at time ``t`` until the view stops narrowing; returns how many it took."""
    x, y = d.layout.ruler_point(t)
    for notches in range(1, 80):
        before = d.layout.ruler.span
        wheel(d, x, y, 1)
        if d.layout.ruler.span >= before * (1 - 1e-9):
            return notches - 1
    raise AssertionError("the wheel never reached the deepest zoom")


def scrub(d: Driver, times) -> None:
    """Press on the ruler at the first time, drag through the rest one frame each, release; each frame the
    playhead is exactly under the pointer."""
    points = [d.layout.ruler_point(t) for t in times]
    (x, y), r = points[0], d.layout.ruler
    d.move(x, y)
    d.frame()
    d.press(x, y)
    d.frame()
    for x, _ in points[1:]:
        d.drag(x, y)
        d.frame()
        assert d.clock.scrubbing and d.clock.t == r.t_of(x)
    d.release(x, y)
    d.frame(0.0)


def test_the_wheel_zooms_from_the_whole_take_to_single_frames(d):
    r = d.layout.ruler
    assert r.span == SECONDS and d.clock.duration == SECONDS
    whole = rt.scale(r, FPS)
    majors = [k for k in rt.ticks(r, FPS) if k.major]
    assert not whole.frames and whole.step >= 30 and ":" in whole.labels(majors[1])[0]  # "0:30", not "30s"
    assert len(tl.tick_runs(d.app.state.clip.key_times, r, MERGE_PX)) == 1  # 14 401 keys: one bar

    x, _ = d.layout.ruler_point(123.4)
    t = r.time_at(x)  # the time under the pointer (a pixel is over a second here)
    notches = zoom_in_fully(d, t)
    r = d.layout.ruler
    assert 20 < notches < 60
    assert r.span == pytest.approx(tl.shortest_view(FPS), rel=1e-9) and r.start <= t <= r.view_end
    assert r.time_at(x) == pytest.approx(t, abs=1e-9)  # zoomed about the pointer
    deep = rt.scale(r, FPS)
    ticks = rt.ticks(r, FPS)
    frames = [k.frame for k in ticks if k.major]
    assert deep.frames and deep.step == pytest.approx(1.0 / FPS)
    assert frames == list(range(frames[0], frames[0] + len(frames))) and len(frames) >= tl.MIN_VIEW_FRAMES
    assert deep.labels(ticks[0]) == (str(ticks[0].frame), tl.clock_text(ticks[0].t, 3, True))
    keys = d.app.state.clip.key_times
    lo, hi = tl.visible_keys(keys, r)
    assert len(tl.tick_runs(keys, r, MERGE_PX)) == hi - lo >= 5  # every key its own diamond

    wheel(d, *d.layout.ruler_point(t), -200)  # all the way out in one turn: the whole take again
    assert d.app.state.view_range is None and d.layout.ruler.span == SECONDS


def test_scrub_pan_and_export_a_two_second_range_of_the_take(d, tmp_path):
    x, y = d.layout.ruler_point(100.0)
    wheel(d, x, y, 17)  # 1.25^17: about 5.4 s in view
    r = d.layout.ruler
    assert 4.0 < r.span < 7.0
    start = r.start
    scrub(d, np.linspace(r.start + 0.1, r.view_end - 0.1, 12))

    d.move(x, y)  # a middle drag pans: 100 px to the left shows later times
    d.frame()
    d.press(x, y, button=3)
    d.frame()
    d.drag(x - 100, y, -100, 0)
    d.frame()
    d.release(x - 100, y, button=3)
    d.frame(0.0)
    assert d.layout.ruler.start == pytest.approx(start + 100 / r.px_per_second)

    r = d.layout.ruler
    a = r.start + 0.2
    scrub(d, [a, a + 1.0])
    lo = d.clock.t
    d.key("I")
    scrub(d, [lo + 1.0, lo + 2.0])
    hi = d.clock.t
    d.key("O")
    assert d.clock.range == (lo, hi) and hi - lo == pytest.approx(2.0, abs=1.0 / r.px_per_second)

    posed = []
    pose_at = d.app._pose_at
    d.app._pose_at = lambda t: (posed.append(t), pose_at(t))  # what the export poses, and nothing else
    d.key("E", frame=False)  # E exports at once (the next frame poses the playhead again)
    (path,) = d.app.exports
    expected = frame_times(lo, hi, FPS)
    assert len(posed) == len(expected) and min(posed) >= lo and max(posed) <= hi
    with Image.open(path) as gif:
        delays = []
        for k in range(gif.n_frames):
            gif.seek(k)
            delays.append(gif.info["duration"])
    assert len(delays) == len(expected) and set(delays) == {1000 / FPS}  # (Pillow merges repeated frames)
    assert (len(delays) - 1) / FPS == pytest.approx(hi - lo, abs=1.0 / FPS)  # the GIF spans the range


def test_export_without_a_range_refuses_the_whole_take(d):
    assert len(frame_times(0.0, SECONDS, FPS)) > MAX_GIF_FRAMES
    posed = []
    pose_at = d.app._pose_at
    d.app._pose_at = lambda t: (posed.append(t), pose_at(t))
    d.key("E", frame=False)
    assert d.app.exports == [] and posed == [] and "set a loop range" in d.app.state.message
