"""The loop range (in / out points): every loop mode, pause-at-keys, Home / End and play() stay inside it."""

from __future__ import annotations

import pytest

from viewer.playback.clock import Clock


def clock(mode="loop", **kw) -> Clock:
    c = Clock(4.0, loop_mode=mode, keys=(0.0, 1.0, 1.5, 2.5, 4.0), **kw)
    assert c.set_range(1.0, 2.0)
    return c


def test_loop_wraps_inside_the_range():
    c = clock()
    c.seek(1.9)
    c.play()
    assert c.tick(0.3) == pytest.approx(1.2)


def test_once_stops_at_the_out_point_and_play_restarts_at_the_in_point():
    c = clock("once")
    c.seek(1.5)
    c.play()
    assert c.tick(5.0) == pytest.approx(2.0) and not c.playing
    c.play()
    assert c.t == pytest.approx(1.0)


def test_pingpong_turns_at_both_range_ends():
    c = clock("pingpong")
    c.seek(1.8)
    c.play()
    assert c.tick(0.5) == pytest.approx(1.7)
    assert c.speed < 0
    assert c.tick(1.0) == pytest.approx(1.3)  # 1.7 → 1.0, turns, → 1.3
    assert c.speed > 0


def test_playing_from_outside_the_range_starts_at_its_in_point():
    c = clock()
    c.seek(3.5)
    c.play()
    assert c.tick(0.25) == pytest.approx(1.25)
    c.reverse()
    c.seek(0.2)
    assert c.tick(0.25) == pytest.approx(1.75)  # reverse enters at the out point


def test_pause_at_keys_meets_only_keys_inside_the_range():
    c = clock(pause_at_keys=True)
    c.seek(1.6)
    c.play()
    assert c.tick(1.0) == pytest.approx(1.0) and not c.playing  # past the out point, round to the in key
    c.play()
    assert c.tick(5.0) == pytest.approx(1.5)
    c.play()
    assert c.tick(5.0) == pytest.approx(1.0)  # 2.5 lies outside [1, 2]: never met


def test_home_end_go_to_the_range_and_seek_still_reaches_the_whole_clip():
    c = clock()
    c.end()
    assert c.t == 2.0
    c.home()
    assert c.t == 1.0
    c.seek(3.9)
    assert c.t == 3.9


def test_in_and_out_points_at_the_playhead():
    c = Clock(4.0)
    c.seek(3.0)
    assert c.set_out()
    assert c.range == (0.0, 3.0)
    c.seek(1.0)
    assert c.set_in()
    assert c.range == (1.0, 3.0)
    c.seek(3.5)
    assert c.set_in()  # an in point after the out point: the out point moves to the clip's end
    assert c.range == (3.5, 4.0)
    c.clear_range()
    assert c.range is None and c.span == (0.0, 4.0)


def test_whole_clip_or_empty_ranges_clear_it():
    c = Clock(4.0)
    assert not c.set_range(0.0, 4.0)
    assert not c.set_range(2.0, 2.0)
    assert c.range is None


def test_a_shorter_duration_keeps_what_fits():
    c = Clock(4.0)
    c.set_range(1.0, 3.0)
    c.set_duration(2.0)
    assert c.range == (1.0, 2.0)
    c.set_duration(0.5)
    assert c.range is None
