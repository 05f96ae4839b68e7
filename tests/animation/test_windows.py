"""A long clip's ``WindowedTable`` must sample exactly what the whole clip's ``ChannelTable`` samples: at one
time (window by window, in any order) and at many (by window, and through tables of just the keys the
times need), in every mode — rotations re-signed along the whole curve by the cubic modes included —, with
the numpy reference and the compiled kernels, and through a pose's compiled frame across windows."""

from __future__ import annotations

import numpy as np
import pytest

from viewer.animation import windows
from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import MODES, Curve
from viewer.animation.table import ChannelTable
from viewer.animation.windows import WindowedTable


def _quats(rng, n):
    q = rng.normal(size=(n, 4))
    q[rng.random(n) < 0.3] *= -1.0  # sign flips between neighbours: the cubic modes re-sign them
    q[n // 3] = 0.0  # a zero key reads as the identity
    return q


def _curves(seed: int = 3) -> list[Curve]:
    rng = np.random.default_rng(seed)
    shared = np.cumsum(rng.uniform(0.01, 0.05, 600))
    other = np.cumsum(rng.uniform(0.02, 0.2, 170))
    n = len(shared)
    tangents = rng.normal(size=(n, 3))
    return [
        Curve(shared, _quats(rng, n), None, None, True, "LINEAR"),
        Curve(shared, rng.normal(size=(n, 3)), tangents, -tangents, False, "CUBICSPLINE"),
        Curve(shared, rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), True, "CUBICSPLINE"),
        Curve(other, _quats(rng, len(other)), None, None, True, "LINEAR"),
        Curve(other, rng.normal(size=(len(other), 3)), None, None, False, "STEP"),
        Curve(shared[:1] + 0.5, rng.normal(size=(1, 3)), None, None, False, "LINEAR"),  # one key
        Curve(shared, rng.uniform(size=(n, 5)), None, None, False, "LINEAR"),  # weights
    ]


@pytest.fixture
def small_windows(monkeypatch):
    monkeypatch.setattr(windows, "LONG_REGIONS", 100)
    monkeypatch.setattr(windows, "WINDOW_REGIONS", 300)
    monkeypatch.setattr(windows, "MIN_WINDOW_KEYS", 8)
    monkeypatch.setattr(windows, "KEPT_WINDOWS", 2)


def _times(curves, rng):
    keys = np.concatenate([c.times for c in curves])
    end = float(keys.max())
    return np.concatenate([keys, rng.uniform(-1.0, end + 1.0, 400), [-5.0, 0.0, end, end + 3.0]])


@pytest.mark.parametrize("mode", MODES)
def test_every_time_samples_as_the_whole_table(mode, small_windows):
    curves = _curves()
    assert windows.is_long(curves)
    full, cut = ChannelTable(curves, mode), WindowedTable(curves, mode)
    assert cut.windows > 10
    rng = np.random.default_rng(1)
    times = _times(curves, rng)
    for t in rng.permutation(times).tolist():  # any order: windows built, dropped and built again
        np.testing.assert_array_equal(cut.evaluate(t), full.evaluate(t), err_msg=f"t={t}")
    expect = full.evaluate_batch(times)
    np.testing.assert_array_equal(cut.evaluate_batch(times), expect)  # dense: window by window
    sparse = times[::37]
    np.testing.assert_array_equal(WindowedTable(curves, mode).evaluate_batch(sparse), full.evaluate_batch(sparse))


def test_signs_follow_the_whole_curve(small_windows):
    """Far into a curve whose keys flip sign often, the cubic modes' quaternion keeps the whole curve's sign
    (a cut that re-signed from its own first key would give −q: the same turn, another curve to plot)."""
    curves = _curves(seed=8)
    for mode in ("catmull-rom", "cubic-zero"):
        full, cut = ChannelTable(curves, mode), WindowedTable(curves, mode)
        t = float(curves[0].times[-40]) + 0.003
        np.testing.assert_array_equal(cut.evaluate(t)[0], full.evaluate(t)[0])


def test_a_long_clip_gets_windows_and_a_short_one_the_whole_table(small_windows):
    long = Clip("long", 0, [Channel(k, "rotation", c) for k, c in enumerate(_curves()[:4])])
    assert isinstance(long.table("linear"), WindowedTable)
    short = Clip("short", 0, [Channel(0, "rotation", _curves()[5])])
    assert isinstance(short.table("linear"), ChannelTable)
    with pytest.raises(ValueError, match="unknown interpolation mode"):
        long.table("bezier")


def test_compiled_kernels_sample_windows_as_numpy_does(small_windows):
    from viewer import fast

    fast.use(True)
    k = fast.active()
    assert k is not None, fast.state()
    curves = _curves()
    rng = np.random.default_rng(4)
    times = _times(curves, rng)
    for mode in ("authored", "catmull-rom"):
        full = ChannelTable(curves, mode)
        expect = np.stack([full.evaluate(t) for t in times.tolist()])
        cut = WindowedTable(curves, mode)
        got = np.stack([cut.window(cut.window_of(t)).plan().sample(k, t) for t in times.tolist()])
        np.testing.assert_allclose(got, expect, rtol=0, atol=1e-12)
    fast.use(False)


def test_a_pose_moves_across_windows_with_the_compiled_frame(small_windows, tmp_path):
    """``FramePlan`` rebinds the kernel to each window's table: the pose at every time, jumping back and forth
    across windows, is the numpy pose."""
    from tests.gltf_builder import minimal_animated
    from viewer import fast
    from viewer.pose.pose import Pose
    from viewer.scene.scene import load

    rng = np.random.default_rng(2)
    times = np.arange(0.0, 40.0, 1 / 30)
    q = rng.normal(size=(len(times), 4))
    b = minimal_animated()
    b.add_animation(
        [
            dict(node=1, path="rotation", times=times.tolist(), values=q.tolist()),
            dict(node=2, path="translation", times=times.tolist(), values=rng.normal(size=(len(times), 3)).tolist()),
        ],
        name="long",
    )
    scene = load(b.write_gltf(tmp_path))
    clip = scene.clips[-1]
    assert isinstance(clip.table("authored"), WindowedTable)
    numpy_pose, fast_pose = Pose(scene), Pose(scene)
    try:
        for t in rng.uniform(-1.0, 41.0, 60).tolist() + [0.0, 39.9, 0.5]:
            fast.use(True)
            fast_pose.set_time(clip, t)
            fast.use(False)
            numpy_pose.set_time(clip, t)
            np.testing.assert_allclose(fast_pose.world, numpy_pose.world, rtol=0, atol=1e-12, err_msg=f"t={t}")
    finally:
        fast.use(False)


def test_a_jump_samples_just_its_keys_and_playback_builds_the_window(small_windows):
    """A scrub far away costs a table of that time's keys; the window is built when time stays in it."""
    curves = _curves()
    cut, full = WindowedTable(curves, "catmull-rom"), ChannelTable(curves, "catmull-rom")
    far = float(curves[0].times[-30])
    w = cut.window_of(far)
    assert w > 2
    window, table = cut.table_for(far)
    assert window is None and w not in cut._tables
    assert len(table.key_times[0]) <= 4
    np.testing.assert_array_equal(table.evaluate(far), full.evaluate(far))
    window, _ = cut.table_for(far + 1e-3)
    assert window == w and w in cut._tables
    window, _ = cut.table_for(float(cut.edges[w]) + 1e-6)  # playback into the next window builds it
    assert window == w + 1
