"""Clips: the seeds' worked examples, clip timing rules, and per-frame vs batch sampling.

``Clip.sample(t)`` (one float: the per-frame path, which caches a time window of regions) and
``Clip.sample(times)`` (an array: the batch path) are different code; they must agree everywhere,
whatever order the times come in.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.gltf_builder import GltfBuilder
from viewer import GltfWarning, load
from viewer.animation.clip import Channel, Clip, combine
from viewer.animation.modes import MODES, Curve
from viewer.base import math3d

SQRT_HALF = math.sqrt(0.5)
TRIANGLE_TIMES = [0.0, 0.25, 0.5, 0.75, 1.0]
# The tutorial's "Simple Animation" triangle, as its file stores them (0.707, not √½).
TRIANGLE_KEYS = [[0, 0, 0, 1], [0, 0, 0.707, 0.707], [0, 0, 1, 0], [0, 0, 0.707, -0.707], [0, 0, 0, 1]]


def z_rotation_degrees(q) -> float:
    """Signed angle (degrees, −180..180] of a rotation about +z, via math3d's matrix: where x goes."""
    r = math3d.quat_to_matrix3(q)
    x = r @ [1.0, 0.0, 0.0]
    assert abs(x[2]) < 1e-9 and abs(np.linalg.norm(x) - 1) < 1e-9
    return math.degrees(math.atan2(x[1], x[0]))


def triangle_clip() -> Clip:
    curve = Curve(np.array(TRIANGLE_TIMES), np.array(TRIANGLE_KEYS, float), None, None, True, "LINEAR")
    return Clip("triangle", 0, [Channel(0, "rotation", curve)])


def translation_clip() -> Clip:
    curve = Curve(np.array([0.8, 1.6]), np.array([[14.0, 3.0, -2.0], [18.0, 1.0, 1.0]]), None, None, False, "LINEAR")
    return Clip("tutorial", 0, [Channel(0, "translation", curve)])


# -- the seeds' worked examples ----------------------------------------------------------------------


def test_tutorial_translation_example():
    clip = translation_clip()
    np.testing.assert_allclose(clip.sample(1.2)[0, :3], [16.0, 2.0, -0.5], atol=1e-12)
    np.testing.assert_allclose(clip.sample(np.array([1.2]))[0, 0, :3], [16.0, 2.0, -0.5], atol=1e-12)


def test_tutorial_translation_holds_outside_keys_without_time_shift():
    clip = translation_clip()
    assert clip.duration == pytest.approx(1.6)
    for t, v in [(0.0, [14, 3, -2]), (0.4, [14, 3, -2]), (0.8, [14, 3, -2]), (1.6, [18, 1, 1]), (5.0, [18, 1, 1])]:
        np.testing.assert_allclose(clip.sample(t)[0, :3], v, atol=1e-12, err_msg=str(t))


@pytest.mark.parametrize(
    "t,degrees",
    [
        (0.0, 0.0),
        (0.125, 45.0),
        (0.25, 90.0),
        (0.375, 135.0),
        (0.5, 180.0),
        (0.625, -135.0),
        (0.75, -90.0),
        (0.875, -45.0),
        (1.0, 0.0),
    ],
)
def test_tutorial_triangle_rotation(t, degrees):
    clip = triangle_clip()
    for q in (clip.sample(t)[0], clip.sample(np.array([t]))[0, 0]):
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-12)
        got = z_rotation_degrees(q)
        diff = (got - degrees + 180.0) % 360.0 - 180.0
        assert abs(diff) < 1e-3, (t, got)


def test_tutorial_triangle_takes_the_short_arc_between_keys():
    clip = triangle_clip()
    ts = np.linspace(0.0, 1.0, 81)
    for k in range(4):
        q0, q1 = math3d.quat_normalize(TRIANGLE_KEYS[k]), math3d.quat_normalize(TRIANGLE_KEYS[k + 1])
        step = float(math3d.quat_angle_between(q0, q1))
        assert step == pytest.approx(math.pi / 2, abs=1e-3)
        inside = ts[(ts >= TRIANGLE_TIMES[k]) & (ts <= TRIANGLE_TIMES[k + 1])]
        for t in inside:
            q = clip.sample(float(t))[0]
            u = (t - TRIANGLE_TIMES[k]) / 0.25
            assert float(math3d.quat_angle_between(q0, q)) == pytest.approx(u * step, abs=1e-9)
            assert float(math3d.quat_angle_between(q, q1)) == pytest.approx((1 - u) * step, abs=1e-9)


def _tutorial_file(tmp_path):
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    mesh = b.add_mesh(tri, [0, 1, 2])
    b.add_node(mesh=mesh)
    b.add_node(mesh=mesh)
    b.add_animation(
        [
            dict(node=0, path="rotation", times=TRIANGLE_TIMES, values=TRIANGLE_KEYS),
            dict(node=1, path="translation", times=[0.8, 1.6], values=[[14, 3, -2], [18, 1, 1]]),
        ]
    )
    b.add_scene([0, 1])
    return b.write_gltf(tmp_path, "tutorial.gltf")


def test_tutorial_examples_through_a_file(tmp_path):
    scene = load(_tutorial_file(tmp_path))
    (clip,) = scene.clips
    assert clip.duration == pytest.approx(1.6)
    rot, trans = clip.channels
    assert (rot.node, rot.path, trans.node, trans.path) == (0, "rotation", 1, "translation")
    v = clip.sample(1.2)
    np.testing.assert_allclose(v[1, :3], [16.0, 2.0, -0.5], atol=1e-5)  # float32 keys
    np.testing.assert_allclose(v[0, :4], [0, 0, 0, 1], atol=1e-6)  # after its last key (1.0): the last value
    for t, degrees in [(0.125, 45.0), (0.25, 90.0), (0.75, -90.0)]:
        assert z_rotation_degrees(clip.sample(t)[0, :4]) == pytest.approx(degrees, abs=1e-3)


# -- clip timing rules ---------------------------------------------------------------------------------


def test_duration_is_largest_key_time_over_channels_and_end_is_end_pose():
    a = Curve(np.array([0.5, 1.0]), np.array([[0.0], [1.0]]), None, None, False, "LINEAR")
    b = Curve(np.array([0.2, 2.5]), np.array([[5.0, 0, 0], [7.0, 0, 0]]), None, None, False, "LINEAR")
    clip = Clip("c", 3, [Channel(0, "weights", a), Channel(1, "translation", b)])
    assert clip.duration == 2.5
    np.testing.assert_array_equal(clip.key_times, [0.2, 0.5, 1.0, 2.5])
    for mode in MODES:
        end = clip.sample(2.5, mode)
        assert end[0, 0] == pytest.approx(1.0) and end[1, 0] == pytest.approx(7.0), mode
        start = clip.sample(0.0, mode)
        assert start[0, 0] == pytest.approx(0.0) and start[1, 0] == pytest.approx(5.0), mode
    np.testing.assert_array_equal(clip.channel_key_times(1), [0.2, 2.5])


def test_empty_clip():
    clip = Clip("empty", 0, [])
    assert clip.duration == 0.0
    assert clip.key_times.shape == (0,)


def test_sample_shapes_and_padding():
    clip = Clip(
        "c",
        0,
        [
            Channel(0, "weights", Curve(np.array([0.0, 1.0]), np.array([[1.0], [2.0]]), None, None, False, "LINEAR")),
            Channel(
                1,
                "rotation",
                Curve(np.array([0.0, 1.0]), np.array([[0, 0, 0, 1.0], [0, 0, 1.0, 0]]), None, None, True, "LINEAR"),
            ),
        ],
    )
    assert clip.channels[0].width == 1 and clip.channels[1].width == 4
    one = clip.sample(0.5)
    many = clip.sample(np.array([0.0, 0.5, 1.0]))
    assert one.shape == (2, 4) and many.shape == (3, 2, 4)
    np.testing.assert_array_equal(one[0, 1:], 0.0)
    np.testing.assert_array_equal(many[:, 0, 1:], 0.0)


def test_sampling_changes_nothing():
    clip = translation_clip()
    before = clip.channels[0].curve.values.copy()
    out = clip.sample(np.array([1.0, 1.2]))
    out[:] = 99.0  # the caller owns what it got
    np.testing.assert_array_equal(clip.channels[0].curve.values, before)
    np.testing.assert_allclose(clip.sample(1.2)[0, :3], [16.0, 2.0, -0.5])
    np.testing.assert_allclose(clip.sample(np.array([1.2]))[0, 0, :3], [16.0, 2.0, -0.5])


def _step_clip() -> Clip:
    keys = np.array([0.0, 1.0, 2.0])
    vals = np.array([[0.0, 0, 0], [1.0, 1, 1], [2.0, 2, 2]])
    return Clip("s", 0, [Channel(i, "translation", Curve(keys, vals, None, None, False, "STEP")) for i in range(3)])


def test_step_just_before_a_key_holds_the_previous_key_on_every_channel():
    """A time one ulp below key 1.0 is still in the first interval, for every channel (per-frame and batch)."""
    t = float(np.nextafter(1.0, 0.0))
    for mode in ("authored", "step"):
        clip = _step_clip()
        np.testing.assert_array_equal(clip.sample(np.array([t]), mode)[0, :, 0], [0, 0, 0], err_msg="batch")
        np.testing.assert_array_equal(clip.sample(t, mode)[:, 0], [0, 0, 0], err_msg="per-frame, fresh")
        clip.sample(0.5, mode)  # a cached window around t
        np.testing.assert_array_equal(clip.sample(t, mode)[:, 0], [0, 0, 0], err_msg="per-frame, cached")
        np.testing.assert_array_equal(clip.sample(1.0, mode)[:, 0], [1, 1, 1], err_msg="at the key")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("t,expected", [(-1e200, 0.0), (-1e12, 0.0), (1e12, 2.0), (1e200, 2.0)])
def test_far_outside_the_keys_holds_first_and_last(mode, t, expected):
    clip = Clip(
        "c",
        0,
        [
            Channel(
                0,
                "translation",
                Curve(
                    np.array([0.0, 1.0, 2.0]),
                    np.array([[0.0, 0, 0], [5.0, 5, 5], [2.0, 2, 2]]),
                    None,
                    None,
                    False,
                    "LINEAR",
                ),
            ),
            Channel(
                1,
                "rotation",
                Curve(np.array([0.0, 1.0]), np.array([[0, 0, 0, 1.0], [0, 0, 1.0, 0]]), None, None, True, "LINEAR"),
            ),
        ],
    )
    for out in (clip.sample(t, mode), clip.sample(np.array([t]), mode)[0]):
        np.testing.assert_allclose(out[0, :3], [expected] * 3, atol=1e-12, err_msg=f"{mode} t={t}")
        rot = [0, 0, 0, 1] if t < 0 else [0, 0, 1, 0]
        np.testing.assert_allclose(np.abs(out[1, :4]), rot, atol=1e-12, err_msg=f"{mode} t={t}")


# -- per-frame vs batch --------------------------------------------------------------------------------


def _consistency_clip(seed: int) -> Clip:
    rng = np.random.default_rng(seed)
    chans = []
    kinds = ["STEP", "LINEAR", "CUBICSPLINE"]
    for i, path in enumerate(["translation", "rotation", "weights", "rotation", "translation", "weights"]):
        n = int(rng.integers(1, 7))
        start = float(rng.choice([0.0, rng.uniform(0, 1)]))
        times = np.cumsum(np.r_[start, rng.uniform(0.05, 1.0, n - 1)]).astype(np.float32).astype(np.float64)
        width = {"translation": 3, "rotation": 4, "weights": 2}[path]
        values = rng.normal(size=(n, width))
        interp = kinds[i % 3]
        tin = rng.normal(size=(n, width)) if interp == "CUBICSPLINE" else None
        chans.append(Channel(i, path, Curve(times, values, tin, tin, path == "rotation", interp)))
    if seed % 2:  # sometimes two channels share key times, as exported clips do
        chans.append(
            Channel(
                9,
                "translation",
                Curve(chans[0].curve.times, np.ones((len(chans[0].curve.times), 3)), None, None, False, "LINEAR"),
            )
        )
    return Clip("random", 0, chans)


def _time_sequences():
    base = st.floats(-1.0, 5.0, allow_nan=False)
    return st.lists(base, min_size=1, max_size=40)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.integers(0, 1000), _time_sequences(), st.sampled_from(MODES))
def test_per_frame_equals_batch_in_any_order(seed, times, mode):
    clip = _consistency_clip(seed)
    keys = clip.key_times
    # mix in exact key times, so sequences land on keys going forwards and backwards
    ts = list(times) + [float(k) for k in keys[::-1]] + [float(k) for k in keys] + list(times[::-1])
    batch = clip.sample(np.array(ts), mode)
    for f, t in enumerate(ts):
        single = clip.sample(float(t), mode)
        np.testing.assert_allclose(single, batch[f], rtol=0, atol=1e-9, err_msg=f"{mode} t={t} (#{f})")


def test_per_frame_playback_forwards_then_scrub_backwards():
    clip = _consistency_clip(3)
    fresh = _consistency_clip(3)
    forward = np.linspace(-0.5, clip.duration + 0.5, 400)
    scrub = np.r_[forward[::-1], forward[::7], forward[::-13]]
    for mode in MODES:
        ts = np.r_[forward, scrub]
        batch = fresh.sample(ts, mode)
        per_frame = np.array([clip.sample(float(t), mode) for t in ts])
        np.testing.assert_allclose(per_frame, batch, rtol=0, atol=1e-9, err_msg=mode)


# -- duplicate channels through a file -----------------------------------------------------------------


def test_two_channels_on_one_node_path_later_wins_with_warning(tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_animation(
        [
            dict(node=0, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 1, 1]]),
            dict(node=0, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], [0, 0, 0, 1]]),
            dict(node=0, path="translation", times=[0, 2], values=[[5, 5, 5], [7, 7, 7]]),
        ]
    )
    b.add_scene([0])
    path = b.write_gltf(tmp_path)
    with pytest.warns(GltfWarning):
        scene = load(path)
    clip = scene.clips[0]
    assert sorted((c.node, c.path) for c in clip.channels) == [(0, "rotation"), (0, "translation")]
    trans = [c for c in clip.channels if c.path == "translation"][0]
    assert trans.sampler == 2
    row = [c.path for c in clip.channels].index("translation")
    np.testing.assert_allclose(clip.sample(1.0)[row, :3], [6, 6, 6], atol=1e-6)
    assert clip.duration == pytest.approx(2.0)


def test_no_warning_for_distinct_channels(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", GltfWarning)
        load(_tutorial_file(tmp_path))


# -- extreme and non-finite times -------------------------------------------------------------------


@pytest.mark.parametrize("last", [1e16, 3.0e38])
def test_huge_key_times_sample_at_duration_in_every_mode(last):
    """Valid float32 key times far past 1e16 s: the end of the clip holds the last keys, no IndexError."""
    move = Curve(np.array([0.0, last]), np.array([[0.0, 0, 0], [1.0, 2, 3]]), None, None, False, "LINEAR")
    turn = Curve(np.array([0.0, last / 2, last]), np.array(TRIANGLE_KEYS[:3], float), None, None, True, "STEP")
    clip = Clip("huge", 0, [Channel(0, "translation", move), Channel(1, "rotation", turn)])
    assert clip.duration == last
    for mode in MODES:
        for t in (clip.duration, last * 2, 0.0, last / 2):
            value = clip.sample(t, mode)
            assert np.isfinite(value).all(), (mode, t)
            np.testing.assert_allclose(clip.sample(np.array([t]), mode)[0], value, atol=1e-9)
        np.testing.assert_allclose(clip.sample(clip.duration, mode)[0, :3], [1, 2, 3], atol=1e-9)
        np.testing.assert_allclose(abs(clip.sample(clip.duration, mode)[1, 2]), 1.0, atol=1e-9)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_times_are_refused_the_same_way_one_or_many(bad):
    clip = triangle_clip()
    with pytest.raises(ValueError, match="finite"):
        clip.sample(bad)
    with pytest.raises(ValueError, match="finite"):
        clip.sample(np.array([0.0, bad, 0.5]))
    with pytest.raises(ValueError, match="finite"):
        clip.sample(np.float32(bad), "catmull-rom")


def _line(node: int, path: str, end: float) -> Channel:
    values = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]])
    return Channel(node, path, Curve(np.array([0.0, end]), values, None, None, False, "LINEAR"))


def test_combined_clips_run_to_the_longest_and_the_later_clip_wins_a_shared_property():
    walk = Clip("walk", 0, [_line(0, "translation", 1.0), _line(1, "scale", 1.0)])
    wave = Clip("wave", 1, [_line(1, "scale", 0.5), _line(2, "translation", 0.5)])
    long = Clip("survey", 2, [_line(1, "scale", 3.0)])
    both = combine([walk, wave])
    assert both.duration == 1.0 and both.key != walk.key and both.key == (0, 1)
    assert [(c.node, c.path) for c in both.channels] == [(0, "translation"), (1, "scale"), (2, "translation")]
    assert both.channels[1] is wave.channels[0]  # node 1's scale: the later clip's
    assert [(p.name, p.start, p.stop, p.overridden) for p in both.parts] == [("walk", 0, 1, 1), ("wave", 1, 3, 0)]
    assert both.sample(0.75)[0] == pytest.approx([0.75, 1.5, 2.25])  # walk's own channel plays on
    assert both.sample(0.75)[2] == pytest.approx([1.0, 2.0, 3.0])  # wave's holds its last key
    hidden = combine([long, walk])  # survey's only channel is overridden, but the span stays its 3 s
    assert hidden.duration == 3.0 and hidden.parts[0].overridden == 1
    assert combine([walk]) is walk
