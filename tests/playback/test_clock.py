"""Tests for viewer.playback.clock (and the pure rules in viewer.playback.rules it is built on).

Deterministic: time comes from a fake source or explicit ``tick(dt)``; no wall clock, no sleeps.
Values are chosen exactly representable in binary (0.25, 0.75, 2.0 …) so landings compare with
``==``; where they are not, the tolerance is stated with ``pytest.approx(abs=...)``.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.playback.clock import LOOP_MODES, SPEED_LADDER, Clock, ClockState
from viewer.playback.rules import first_key_on_path, travel

REPO = Path(__file__).resolve().parents[2]


class FakeTime:
    """A time source the test moves by hand (seconds)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def playing_clock(duration: float = 2.0, **kwargs) -> Clock:
    """A clock that is already playing, for tests that drive it with ``tick``."""
    clock = Clock(duration, time_source=FakeTime(), **kwargs)
    clock.play()
    return clock


def play_collecting_stops(clock: Clock, dt: float, ticks: int) -> list[float]:
    """Tick ``ticks`` times; on each pause record ``t`` and play on (a once clip: until its end)."""
    stops = []
    for _ in range(ticks):
        clock.tick(dt)
        if not clock.playing:
            stops.append(clock.t)
            if clock.loop_mode == "once" and clock.t in (0.0, clock.duration):
                break
            clock.play()
    return stops


# --- play state, time source --------------------------------------------------------------


def test_starts_paused_at_zero_with_defaults():
    clock = Clock(2.0, time_source=FakeTime())
    assert clock.state() == ClockState(0.0, False, 1.0, "loop", False)
    assert clock.duration == 2.0 and clock.frame_rate == 30.0 and clock.keys == ()


def test_play_pause_toggle():
    clock = Clock(2.0, time_source=FakeTime())
    clock.tick(0.5)
    assert clock.t == 0.0  # paused: time does not move
    clock.play()
    assert clock.playing
    assert clock.tick(0.5) == 0.5
    clock.pause()
    assert not clock.playing
    assert clock.tick(0.5) == 0.5
    assert clock.toggle() is True and clock.playing
    assert clock.toggle() is False and not clock.playing


def test_update_advances_by_elapsed_time_times_speed():
    source = FakeTime(10.0)
    clock = Clock(4.0, time_source=source, speed=2.0)
    assert clock.update() == 0.0  # paused
    source.now = 11.0
    clock.play()
    source.now = 11.25
    assert clock.update() == 0.5
    source.now = 11.5
    assert clock.update() == 1.0


def test_update_does_not_play_time_spent_paused():
    source = FakeTime(0.0)
    clock = Clock(4.0, time_source=source)
    clock.play()
    source.now = 0.5
    clock.update()
    clock.pause()
    source.now = 60.0  # a minute passes without update()
    clock.play()
    source.now = 60.25
    assert clock.update() == 0.75


def test_update_ignores_a_time_source_running_backwards():
    source = FakeTime(5.0)
    clock = Clock(4.0, time_source=source)
    clock.play()
    source.now = 4.0
    assert clock.update() == 0.0
    source.now = 4.5
    assert clock.update() == 0.5


def test_tick_refuses_negative_or_non_finite_dt():
    clock = playing_clock()
    for bad in (-0.1, math.nan, math.inf):
        with pytest.raises(ValueError):
            clock.tick(bad)


def test_state_is_an_immutable_snapshot():
    clock = playing_clock(loop_mode="pingpong", speed=-2.0, pause_at_keys=True)
    clock.seek(1.5)
    snap = clock.state()
    assert snap == ClockState(1.5, True, -2.0, "pingpong", True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.t = 0.0  # type: ignore[misc]
    clock.seek(0.5)
    assert snap.t == 1.5


# --- speed and direction ----------------------------------------------------------------


@pytest.mark.parametrize(
    "asked, kept",
    [(100.0, 8.0), (0.01, 0.1), (-100.0, -8.0), (-0.01, -0.1), (3.0, 3.0), (-1.5, -1.5)],
)
def test_speed_magnitude_is_clamped_and_sign_kept(asked, kept):
    clock = Clock(2.0, time_source=FakeTime())
    clock.speed = asked
    assert clock.speed == kept
    assert clock.direction == (1 if kept > 0 else -1)


@pytest.mark.parametrize("bad", [0.0, math.nan, math.inf])
def test_speed_refuses_zero_and_non_finite(bad):
    with pytest.raises(ValueError):
        Clock(2.0, time_source=FakeTime()).speed = bad


def test_faster_and_slower_walk_the_ladder_and_stop_at_its_ends():
    clock = Clock(2.0, time_source=FakeTime(), speed=0.1)
    ups = [clock.faster() for _ in range(len(SPEED_LADDER))]
    assert ups == list(SPEED_LADDER[1:]) + [8.0]
    downs = [clock.slower() for _ in range(len(SPEED_LADDER))]
    assert downs == list(reversed(SPEED_LADDER[:-1])) + [0.1]


def test_faster_and_slower_keep_direction_and_step_off_ladder_speeds_to_neighbours():
    clock = Clock(2.0, time_source=FakeTime(), speed=-1.0)
    assert clock.faster() == -1.5
    assert clock.slower() == -1.0
    clock.speed = 3.0
    assert clock.faster() == 4.0
    clock.speed = 3.0
    assert clock.slower() == 2.0


def test_reverse_flips_direction_and_plays_backwards():
    clock = playing_clock(speed=2.0)
    clock.seek(1.5)
    clock.reverse()
    assert clock.speed == -2.0
    assert clock.tick(0.25) == 1.0
    clock.reverse()
    assert clock.tick(0.25) == 1.5


# --- loop modes -------------------------------------------------------------------------


def test_cycle_loop_mode_goes_round_and_unknown_modes_are_refused():
    clock = Clock(2.0, time_source=FakeTime())
    assert [clock.cycle_loop_mode() for _ in range(3)] == ["once", "pingpong", "loop"]
    assert LOOP_MODES == ("loop", "once", "pingpong")
    with pytest.raises(ValueError):
        clock.loop_mode = "bounce"  # type: ignore[assignment]


def test_loop_wraps_to_t_minus_duration_exactly():
    clock = playing_clock(2.0)
    assert [clock.tick(0.75) for _ in range(3)] == [0.75, 1.5, 0.25]
    assert clock.playing


def test_loop_in_reverse_wraps_below_zero():
    clock = playing_clock(2.0, speed=-1.0)
    clock.seek(0.25)
    assert clock.tick(0.75) == 1.5
    assert clock.speed == -1.0


def test_loop_tick_with_non_representable_values_stays_close_to_modulo():
    clock = playing_clock(1.3)
    clock.seek(1.2)
    assert clock.tick(0.3) == pytest.approx(0.2, abs=1e-12)


def test_once_stops_exactly_on_the_end():
    clock = playing_clock(2.0, loop_mode="once")
    assert [clock.tick(0.75) for _ in range(3)] == [0.75, 1.5, 2.0]
    assert not clock.playing


def test_once_with_odd_frame_times_still_lands_exactly_on_the_end():
    clock = playing_clock(2.0, loop_mode="once")
    for _ in range(200):
        clock.tick(1 / 60)
    assert clock.t == 2.0 and not clock.playing


def test_once_in_reverse_stops_exactly_on_zero():
    clock = playing_clock(2.0, loop_mode="once", speed=-1.0)
    clock.seek(0.5)
    assert clock.tick(0.75) == 0.0
    assert not clock.playing


def test_once_play_at_the_end_starts_over_from_the_other_end():
    clock = playing_clock(2.0, loop_mode="once")
    clock.tick(5.0)
    clock.play()
    assert clock.t == 0.0 and clock.playing
    clock.reverse()
    clock.home()
    clock.pause()
    clock.play()
    assert clock.t == 2.0


def test_pingpong_reflects_at_the_end_and_reverses():
    clock = playing_clock(2.0, loop_mode="pingpong", speed=2.0)
    clock.seek(1.5)
    assert clock.tick(0.375) == 1.75  # 1.5 + 0.75 = 2.25, reflected
    assert clock.speed == -2.0


def test_pingpong_reflects_at_zero_and_goes_forward_again():
    clock = playing_clock(2.0, loop_mode="pingpong", speed=-1.0)
    clock.seek(0.25)
    assert clock.tick(0.75) == 0.5
    assert clock.speed == 1.0


def test_pingpong_landing_on_an_end_turns_round_there():
    clock = playing_clock(2.0, loop_mode="pingpong")
    clock.seek(1.5)
    assert clock.tick(0.5) == 2.0
    assert clock.speed == -1.0
    assert clock.tick(0.25) == 1.75


def test_large_dt_wraps_by_modulo_in_loop_mode():
    clock = playing_clock(2.0)
    clock.seek(0.5)
    assert clock.tick(10.25) == 0.75
    assert clock.tick(1e12) == 0.75  # 1e12 is a whole number of laps; one %, no loop over laps


def test_large_dt_bounces_by_arithmetic_in_pingpong_mode():
    clock = playing_clock(2.0, loop_mode="pingpong")
    clock.seek(0.5)
    # 0.5 → 2 (1.5), then 4 passes of 2 s, then 0.75 back from 2: 9.5 + 0.75 = 10.25.
    assert clock.tick(10.25) == 1.25
    assert clock.speed == -1.0
    assert clock.tick(1e12) == 1.25  # a whole number of 4 s periods


def test_large_dt_in_once_mode_stops_on_the_end():
    clock = playing_clock(2.0, loop_mode="once")
    assert clock.tick(1e9) == 2.0 and not clock.playing


@pytest.mark.parametrize("mode", LOOP_MODES)
def test_zero_duration_keeps_t_at_zero(mode):
    clock = playing_clock(0.0, loop_mode=mode, keys=[0.0], pause_at_keys=True)
    assert clock.tick(0.5) == 0.0
    clock.seek(3.0)
    assert clock.t == 0.0
    assert clock.playing == (mode != "once")


# --- seeking and duration ---------------------------------------------------------------


def test_seek_clamps_and_keeps_play_state():
    clock = playing_clock(2.0)
    clock.seek(5.0)
    assert clock.t == 2.0 and clock.playing
    clock.seek(-1.0)
    assert clock.t == 0.0
    clock.seek(1.25)
    assert clock.t == 1.25
    with pytest.raises(ValueError):
        clock.seek(math.nan)


def test_home_and_end():
    clock = Clock(2.5, time_source=FakeTime())
    clock.end()
    assert clock.t == 2.5
    clock.home()
    assert clock.t == 0.0


def test_set_duration_clamps_the_current_time():
    clock = Clock(2.0, time_source=FakeTime())
    clock.seek(1.5)
    clock.set_duration(1.0)
    assert clock.t == 1.0 and clock.duration == 1.0
    clock.set_duration(3.0)
    assert clock.t == 1.0
    with pytest.raises(ValueError):
        clock.set_duration(-1.0)


# --- key and frame stepping ---------------------------------------------------------------


def test_next_and_prev_key_from_at_between_and_the_ends():
    clock = Clock(2.0, time_source=FakeTime(), keys=[0.0, 0.5, 1.25, 2.0])
    assert clock.next_key() == 0.5  # at key 0
    assert clock.next_key() == 1.25  # at key 0.5
    clock.seek(0.7)
    assert clock.next_key() == 1.25  # between
    clock.seek(0.7)
    assert clock.prev_key() == 0.5
    clock.seek(0.5 + 1e-12)  # within epsilon counts as at 0.5
    assert clock.prev_key() == 0.0
    assert clock.prev_key() == 0.0  # at the first key: stays
    clock.end()
    assert clock.next_key() == 2.0  # at the last key: stays, even in loop mode


def test_key_stepping_pauses_playback():
    clock = playing_clock(2.0, keys=[0.5])
    clock.next_key()
    assert not clock.playing and clock.t == 0.5
    clock.play()
    clock.prev_key()
    assert not clock.playing


def test_keys_are_sorted_replaceable_and_ignored_outside_the_clip():
    clock = Clock(2.0, time_source=FakeTime(), keys=[1.5, 0.5])
    assert clock.keys == (0.5, 1.5)
    clock.set_keys([3.0, -1.0, 1.0])
    assert clock.keys == (-1.0, 1.0, 3.0)
    clock.seek(1.5)
    assert clock.next_key() == 1.5  # 3.0 is past the clip
    clock.seek(0.5)
    assert clock.prev_key() == 0.5  # -1.0 is before the clip
    with pytest.raises(ValueError):
        clock.set_keys([0.0, math.nan])


def test_step_frames_at_24_fps_pauses_and_clamps_without_wrapping():
    clock = playing_clock(2.0, frame_rate=24.0)
    assert clock.step_frames(1) == 1 / 24
    assert not clock.playing
    assert clock.step_frames(23) == pytest.approx(1.0, abs=1e-12)
    assert clock.step_frames(-2) == pytest.approx(22 / 24, abs=1e-12)
    assert clock.step_frames(1000) == 2.0
    assert clock.step_frames(-1000) == 0.0


def test_frame_rate_must_be_positive():
    with pytest.raises(ValueError):
        Clock(2.0, time_source=FakeTime(), frame_rate=0.0)


# --- pause at keys ----------------------------------------------------------------------


KEYS = [0.25, 0.5, 1.0, 1.75]


def test_pause_at_keys_stops_on_every_key_in_order_during_a_long_play():
    clock = playing_clock(2.0, loop_mode="once", keys=KEYS, pause_at_keys=True)
    stops = play_collecting_stops(clock, 1 / 60, 1000)
    assert stops == KEYS + [2.0]  # every key exactly, then the end of a once clip


def test_pause_at_keys_in_reverse_stops_on_every_key_in_reverse_order():
    clock = playing_clock(2.0, loop_mode="once", speed=-1.0, keys=KEYS, pause_at_keys=True)
    clock.end()
    assert play_collecting_stops(clock, 0.1, 1000) == list(reversed(KEYS)) + [0.0]


def test_pause_at_keys_over_two_loop_laps_counts_the_seam_once():
    clock = playing_clock(2.0, keys=[0.0, 1.0, 2.0], pause_at_keys=True)
    assert play_collecting_stops(clock, 0.125, 32) == [1.0, 2.0, 1.0, 2.0]


def test_pause_at_keys_lands_on_a_key_an_exact_step_reaches():
    clock = playing_clock(2.0, keys=[0.5], pause_at_keys=True)
    assert clock.tick(0.5) == 0.5 and not clock.playing


def test_resume_from_a_key_does_not_stop_on_it_again():
    clock = playing_clock(2.0, keys=[0.5, 1.5], pause_at_keys=True)
    clock.tick(1.0)
    assert clock.t == 0.5 and not clock.playing
    clock.play()
    assert clock.tick(0.25) == 0.75 and clock.playing


def test_pause_at_keys_finds_a_key_in_the_wrapped_part_of_a_loop_step():
    clock = playing_clock(2.0, keys=[0.25, 1.0], pause_at_keys=True)
    clock.seek(1.75)
    assert clock.tick(1.0) == 0.25 and not clock.playing


def test_pause_at_keys_stops_on_zero_when_a_loop_wraps_past_an_end_without_a_key():
    clock = playing_clock(2.0, keys=[0.0, 1.0], pause_at_keys=True)
    clock.seek(1.5)
    assert clock.tick(1.0) == 0.0 and not clock.playing


def test_pause_at_keys_in_reverse_loop_wraps_to_the_end():
    clock = playing_clock(2.0, speed=-1.0, keys=[1.5], pause_at_keys=True)
    clock.seek(0.25)
    assert clock.tick(1.0) == 1.5 and not clock.playing


def test_pause_at_keys_finds_a_key_after_a_pingpong_reflection():
    clock = playing_clock(2.0, loop_mode="pingpong", keys=[1.0], pause_at_keys=True)
    clock.seek(1.5)
    assert clock.tick(2.0) == 1.0  # 0.5 up to the end, 1.0 back down
    assert not clock.playing and clock.speed == -1.0


def test_pause_at_keys_on_a_pingpong_end_turns_round_and_resumes_backwards():
    clock = playing_clock(2.0, loop_mode="pingpong", keys=[2.0], pause_at_keys=True)
    clock.seek(1.5)
    assert clock.tick(1.0) == 2.0 and clock.speed == -1.0
    clock.play()
    assert clock.tick(0.25) == 1.75 and clock.playing


def test_pause_at_keys_with_a_large_dt_stops_on_the_first_key_met():
    clock = playing_clock(2.0, keys=[1.0], pause_at_keys=True)
    clock.seek(1.5)
    assert clock.tick(1000.0) == 1.0 and not clock.playing
    clock.loop_mode = "pingpong"
    clock.play()
    assert clock.tick(1000.0) == 1.0  # off the only key: up to the end and back down onto it
    assert clock.speed == -1.0


def test_pause_at_keys_off_plays_through_keys():
    clock = playing_clock(2.0, keys=KEYS)
    assert clock.tick(1.5) == 1.5 and clock.playing


# --- scrubbing --------------------------------------------------------------------------


def test_scrub_pauses_seeks_and_resumes_if_it_was_playing():
    clock = playing_clock(2.0)
    clock.begin_scrub()
    assert not clock.playing and clock.scrubbing
    clock.scrub_to(1.5)
    assert clock.t == 1.5
    clock.scrub_to(-3.0)
    assert clock.t == 0.0
    clock.scrub_to(0.5)
    clock.end_scrub()
    assert clock.playing and not clock.scrubbing
    assert clock.tick(0.25) == 0.75


def test_scrub_leaves_a_paused_clock_paused():
    clock = Clock(2.0, time_source=FakeTime())
    clock.begin_scrub()
    clock.scrub_to(1.0)
    clock.end_scrub()
    assert not clock.playing and clock.t == 1.0
    clock.end_scrub()  # no scrub in progress: nothing happens
    assert not clock.playing


def test_scrub_to_the_end_of_a_once_clip_resumes_without_starting_over():
    clock = playing_clock(2.0, loop_mode="once")
    clock.begin_scrub()
    clock.scrub_to(2.0)
    clock.end_scrub()
    assert clock.t == 2.0
    clock.tick(0.1)
    assert clock.t == 2.0 and not clock.playing


def test_scrub_resume_measures_time_from_the_release():
    source = FakeTime(0.0)
    clock = Clock(4.0, time_source=source)
    clock.play()
    clock.begin_scrub()
    source.now = 30.0  # a long drag
    clock.scrub_to(1.0)
    clock.end_scrub()
    source.now = 30.5
    assert clock.update() == 1.5


# --- layering ---------------------------------------------------------------------------


def test_clock_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"viewer"}
    for name in ("clock.py", "rules.py", "__init__.py"):
        tree = ast.parse((REPO / "viewer" / "playback" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert roots <= allowed | {"__future__"}, (name, roots)


def test_importing_the_clock_pulls_in_no_window_or_gl_code():
    code = (
        "import sys, viewer.playback.clock; "
        "bad = [m for m in ('moderngl', 'moderngl_window', 'imgui_bundle') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True)
    assert result.returncode == 0, result.stdout + result.stderr


# --- properties -------------------------------------------------------------------------

durations = st.floats(min_value=0.01, max_value=100.0, allow_nan=False)
dts = st.lists(st.floats(min_value=0.0, max_value=50.0, allow_nan=False), min_size=1, max_size=30)
speeds = st.floats(min_value=0.1, max_value=8.0).flatmap(lambda m: st.sampled_from([m, -m]))
starts = st.floats(min_value=0.0, max_value=1.0)


def triangle(phase: float, duration: float) -> float:
    """Ping-pong position after ``phase`` clip seconds of forward travel from 0."""
    phase %= 2.0 * duration
    return phase if phase <= duration else 2.0 * duration - phase


@settings(max_examples=200, deadline=None)
@given(durations, starts, dts, speeds)
def test_property_loop_stays_in_clip_and_matches_modulo(duration, start, steps, speed):
    clock = playing_clock(duration, speed=speed)
    clock.seek(start * duration)
    travelled = start * duration
    for dt in steps:
        t = clock.tick(dt)
        travelled += dt * speed
        assert 0.0 <= t <= duration
        expected = travelled % duration
        gap = abs(t - expected)
        assert min(gap, duration - gap) <= 1e-9 * (1.0 + abs(travelled))
    assert clock.playing


@settings(max_examples=200, deadline=None)
@given(durations, starts, dts, speeds)
def test_property_pingpong_stays_in_clip_and_follows_the_triangle_wave(duration, start, steps, speed):
    clock = playing_clock(duration, loop_mode="pingpong", speed=speed)
    clock.seek(start * duration)
    phase = clock.t if speed > 0 else 2.0 * duration - clock.t
    for dt in steps:
        t = clock.tick(dt)
        phase += dt * abs(speed)
        assert 0.0 <= t <= duration
        assert t == pytest.approx(triangle(phase, duration), abs=1e-9 * (1.0 + phase))
    assert abs(clock.speed) == abs(speed)


@settings(max_examples=100, deadline=None)
@given(
    st.sets(st.integers(min_value=0, max_value=32), min_size=1, max_size=10),
    st.sampled_from([0.1, 0.125, 1 / 60, 0.3, 1.0]),
)
def test_property_once_with_pause_at_keys_stops_on_each_key_after_start(key_eighths, dt):
    keys = sorted(k / 8 for k in key_eighths)
    clock = playing_clock(4.0, loop_mode="once", keys=keys, pause_at_keys=True)
    stops = play_collecting_stops(clock, dt, 10_000)
    expected = [k for k in keys if k > 0.0]
    if not expected or expected[-1] != 4.0:
        expected.append(4.0)  # the end of a once clip
    assert stops == expected


@settings(max_examples=200, deadline=None)
@given(
    durations,
    starts,
    dts,
    speeds,
    st.sampled_from(["loop", "pingpong"]),
    st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=8),
)
def test_property_pause_at_keys_stops_only_on_keys_and_stays_in_clip(
    duration, start, steps, speed, mode, key_fractions
):
    keys = sorted(f * duration for f in key_fractions)
    clock = playing_clock(duration, loop_mode=mode, speed=speed, keys=keys, pause_at_keys=True)
    clock.seek(start * duration)
    for dt in steps:
        t = clock.tick(dt)
        assert 0.0 <= t <= duration
        if not clock.playing:
            assert t in keys
            clock.play()


GRID = 1 / 64  # path step of the brute-force reference; keys and starts sit on a 1/8 s grid


def first_key_by_walking(keys, t, direction, duration, mode):
    """Reference for ``first_key_on_path``: walk the path in 1/64 s steps until a key is hit."""
    if mode == "loop":  # the seam: a key at the end and one at 0 are the same instant
        for n in range(1, int(3 * duration / GRID) + 2):
            x = (t + direction * n * GRID) % duration
            if x == 0.0 and (duration in keys or 0.0 in keys):
                on_end = duration in keys and (direction > 0 or 0.0 not in keys)
                return (duration if on_end else 0.0), direction, n * GRID
            if x != 0.0 and x in keys:
                return x, direction, n * GRID
        return None
    for n in range(1, int(3 * duration / GRID) + 2):
        landing = travel(t, direction, GRID, duration, mode)
        if landing.t == t:
            return None  # a once clip standing on its end goes nowhere
        if landing.t in keys:
            return landing.t, landing.direction, n * GRID
        if landing.at_end:
            return None
        t, direction = landing.t, landing.direction
    return None


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=16),
    st.sets(st.integers(min_value=0, max_value=16), min_size=1, max_size=5),
    st.integers(min_value=0, max_value=16),
    st.sampled_from([1, -1]),
    st.sampled_from(LOOP_MODES),
)
def test_property_first_key_on_path_matches_walking_the_path(eighths, key_eighths, start_eighths, direction, mode):
    duration = eighths / 8
    keys = sorted(k / 8 for k in key_eighths if k <= eighths)
    t = min(start_eighths, eighths) / 8
    found = first_key_on_path(keys, t, direction, duration, mode)
    expected = first_key_by_walking(keys, t, direction, duration, mode)
    assert (None if found is None else tuple(found)) == expected


def test_leaving_ping_pong_on_the_way_back_plays_forward_again():
    c = Clock(duration=1.0, time_source=lambda: 0.0, loop_mode="pingpong")
    c.play()
    c.tick(1.5)  # out to the end and half way back
    assert c.speed < 0 and c.t == pytest.approx(0.5)
    c.cycle_loop_mode()  # pingpong → loop
    assert c.loop_mode == "loop" and c.speed == 1.0
    c.loop_mode = "pingpong"
    c.tick(0.75)  # 0.5 → 1.0, then back to 0.75
    assert c.speed < 0
    c.reverse()  # Rev once since the forward start: the user asks for reverse play
    c.loop_mode = "once"
    assert c.speed == -1.0
