"""The frame protocol without a browser: jupyter_rfb's canvas under an asyncio loop, the browser's side played by
the test (it says the view is visible and acknowledges frames by setting ``_frame_feedback``, as the JS does).

What the issue asks of the stream: at most N frames in flight, a burst of slider changes drawn once at the last
value, nothing drawn while no view is visible, the playback clock in Python (a slow link skips frames, it does not
slow the animation), frames sized from the view and capped near one megapixel, ``show`` drawing nothing itself.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.notebook.conftest import DEMO
from viewer.notebook.sizing import MAX_PIXELS, frame_size


class FakeTime:
    """The clock's time source, moved by the test (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _count_draws(player) -> list[float]:
    """Record the clip time of every picture the stage draws (the view's and any other)."""
    times = []
    draw = player.stage.draw

    def counting(shot):
        times.append(shot.t)
        return draw(shot)

    player.stage.draw = counting
    return times


def _ack(canvas) -> None:
    """What the browser does once it has shown the newest frame."""
    canvas._frame_feedback = {"index": canvas._rfb_frame_index, "timestamp": 0.0, "localtime": 0.0}


async def _settle() -> None:
    for _ in range(5):  # jupyter_rfb schedules with call_soon; a draw may schedule the next
        await asyncio.sleep(0)


def test_sizes_follow_the_view_and_stop_near_one_megapixel():
    assert frame_size(640, 480) == (640, 480)
    assert frame_size(640, 480, ratio=2.0) == (1182, 886)  # 1280 × 960 device pixels, scaled to fit
    w, h = frame_size(3000, 1000, ratio=2.0)
    assert w * h <= MAX_PIXELS and abs(w / h - 3.0) < 0.01
    assert frame_size(float("nan"), 10) == (16, 16)


def test_show_draws_nothing_until_a_view_is_visible(player_factory):
    player = player_factory(DEMO)
    draws = _count_draws(player)

    async def run():
        player.time = 1.0
        player.play()
        await _settle()
        assert draws == [], "no view visible: no frame"
        player.canvas._has_visible_views = True
        await _settle()
        assert 1 <= len(draws) <= player.canvas.max_buffered_frames  # playing: up to the in-flight limit
        player.pause()

    asyncio.run(run())


def test_a_burst_of_slider_changes_draws_once_at_the_last_value(player_factory):
    player = player_factory(DEMO)
    draws = _count_draws(player)

    async def run():
        player.canvas._has_visible_views = True
        await _settle()
        draws.clear()
        _ack(player.canvas)
        for t in (0.5, 1.0, 1.5, 2.0, 2.5):
            player.controls.slider.value = t  # what the browser's slider does, many times between two draws
        await _settle()
        assert draws == [2.5]
        assert player.time == 2.5 and player.state.clock.t == 2.5

    asyncio.run(run())


def test_a_burst_while_frames_are_in_flight_waits_and_draws_once(player_factory):
    player = player_factory(DEMO)
    draws = _count_draws(player)
    canvas = player.canvas

    async def run():
        canvas._has_visible_views = True
        for t in (0.5, 1.0):  # two frames sent, none acknowledged: the pipe is full
            player.time = t
            await _settle()
        assert canvas.frames_in_flight() == canvas.max_buffered_frames == 2
        for t in (1.25, 1.5, 3.0):
            player.time = t
            await _settle()
        assert draws == [0.0, 0.5, 1.0] or draws == [0.5, 1.0], draws  # the first may be the view's first picture
        _ack(canvas)
        await _settle()
        assert draws[-1] == 3.0 and draws.count(3.0) == 1 and 1.25 not in draws

    asyncio.run(run())


def test_playing_never_has_more_than_n_frames_in_flight_and_skips_frames_on_a_slow_link(player_factory):
    clock = FakeTime()
    player = player_factory(DEMO, time_source=clock)
    draws = _count_draws(player)
    canvas = player.canvas

    async def run():
        canvas._has_visible_views = True
        await _settle()
        draws.clear()
        started = clock.now
        player.play()
        for _ in range(6):  # the browser never answers: drawing stops at the in-flight limit
            clock.now += 0.01
            await _settle()
        assert canvas.frames_in_flight() <= canvas.max_buffered_frames
        assert len(draws) <= canvas.max_buffered_frames
        stuck = len(draws)
        clock.now += 0.5  # a slow link: half a second before the next acknowledgement
        _ack(canvas)
        await _settle()
        assert len(draws) > stuck
        # the frame after the wait shows the real time since play: the frames in between were skipped, not slowed
        assert draws[stuck] == pytest.approx(clock.now - started, abs=1e-9)
        assert draws[stuck] - draws[stuck - 1] > 0.5
        assert player.time == draws[-1]
        player.pause()

    asyncio.run(run())


def test_resize_events_set_the_frame_size(player_factory):
    player = player_factory(DEMO, size=(320, 240))
    sizes = []
    draw = player.stage.draw
    player.stage.draw = lambda shot: sizes.append(shot.size) or draw(shot)

    async def run():
        player.canvas._has_visible_views = True
        player.canvas._rfb_handle_msg(
            player.canvas, {"type": "resize", "width": 1500, "height": 1000, "ratio": 2.0, "timestamp": 0}, []
        )
        await _settle()

    asyncio.run(run())
    assert sizes and sizes[-1] == frame_size(1500, 1000, 2.0)
    assert sizes[-1][0] * sizes[-1][1] <= MAX_PIXELS
    assert player.frame().shape == (sizes[-1][1], sizes[-1][0], 3)
