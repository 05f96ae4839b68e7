"""``viewer/compare/views.py``: pane layout, trails, curves and readouts of the compare view (no GL)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, morph_only
from viewer.animation.modes import MODES
from viewer.base.resources import asset_path
from viewer.compare import views as compare
from viewer.files.sampling import sample_animations
from viewer.pose.pose import Pose
from viewer.scene.scene import load


@pytest.fixture(scope="module")
def irregular():
    return load(asset_path("irregular.gltf"))


@pytest.fixture(scope="module")
def arm():
    return load(asset_path("skinned_arm.gltf"))


def test_parse_modes_checks_names_and_count():
    assert compare.parse_modes("step, linear,catmull-rom") == ("step", "linear", "catmull-rom")
    for bad in ("linear", "step,linear,cubicspline,catmull-rom,cubic-zero", "step,bogus", "step,step"):
        with pytest.raises(ValueError):
            compare.parse_modes(bad)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_pane_rects_tile_the_area(count):
    rects = compare.pane_rects(count, 1001, 501)
    assert len(rects) == count
    area = np.zeros((501, 1001), int)
    for x, y, w, h in rects:
        area[y : y + h, x : x + w] += 1
    assert (area == 1).all()
    rows = {y for _, y, _, _ in rects}
    assert len(rows) == (2 if count == 4 else 1)


def test_gl_viewport_flips_y():
    assert compare.gl_viewport((10, 0, 100, 40), 100) == (10, 60, 100, 40)


@pytest.mark.parametrize("mode", MODES)
def test_world_positions_match_pose_at_every_time(arm, mode):
    clip = arm.clips[0]
    times = np.array([-0.2, 0.0, 0.37, 1.1, clip.duration, clip.duration + 1])
    batch = compare.world_positions(arm, clip, times, mode)
    pose = Pose(arm)
    for f, t in enumerate(times):
        pose.set_time(clip, t, mode)
        np.testing.assert_allclose(batch[f], pose.world[:, :3, 3], atol=1e-12)


def test_linear_trail_passes_through_every_key_position(irregular):
    clip = irregular.clips[0]
    tr = compare.trail(irregular, clip, "linear")
    assert list(tr.nodes) == [0]  # the ball; the static key markers are not animated
    authored = clip.channels[0].curve.values
    np.testing.assert_allclose(tr.key_points[:, 0], authored, atol=1e-6)
    # every key position is a vertex of the polyline
    for p in authored:
        assert np.min(np.linalg.norm(tr.points[:, 0] - p, axis=1)) < 1e-6
    assert len(tr.times) > 100 and np.all(np.diff(tr.times) > 0)


def test_trails_agree_at_keys_and_differ_between(irregular):
    clip = irregular.clips[0]
    trails = {m: compare.trail(irregular, clip, m) for m in ("step", "linear", "catmull-rom")}
    for m, tr in trails.items():
        np.testing.assert_allclose(tr.key_points, trails["linear"].key_points, atol=1e-6, err_msg=m)
    gap = np.abs(trails["catmull-rom"].points - trails["linear"].points).max()
    assert gap > 0.1
    np.testing.assert_allclose(trails["linear"].at(0.15), [[-2.0, 0.25, 0.0]], atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_curve_data_equals_sample_output(irregular, arm, mode):
    for scene in (irregular, arm):
        clip = scene.clips[0]
        times = np.linspace(-0.1, clip.duration + 0.1, 23)
        report = sample_animations(scene, 0, times, mode=mode)["animations"][0]["samples"]
        for c, ch in enumerate(clip.channels):
            cv = compare.curve(clip, c, mode, times)
            expected = np.array([s["nodes"][str(ch.node)][ch.path] for s in report])
            np.testing.assert_allclose(cv.values, expected, atol=1e-12)
            assert (cv.euler is not None) == (ch.path == "rotation")
            np.testing.assert_array_equal(cv.key_times, clip.channel_key_times(c))


def test_rotation_curve_has_euler_degrees(arm):
    clip = arm.clips[0]
    c = next(i for i, ch in enumerate(clip.channels) if ch.path == "rotation")
    cv = compare.curve(clip, c, "linear")
    assert cv.euler.shape == (len(cv.times), 3)
    assert np.abs(cv.euler).max() > 5.0


def test_series_components_as_plotted(arm):
    clip = arm.clips[0]
    rot = next(i for i, ch in enumerate(clip.channels) if ch.path == "rotation")
    series = compare.curve(clip, rot, "linear")
    values, key_values, names = series.components(euler=True, degrees=" deg")
    assert names == ["X deg", "Y deg", "Z deg"] and values is series.euler
    assert key_values.shape == (len(series.key_times), 3)
    values, _, names = series.components(euler=False)
    assert names == list("xyzw") and values is series.values
    assert compare.moving_components(np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 2.0]])) == [0]
    assert compare.moving_components(np.ones((4, 2))) == [0]  # nothing moves: still one plot


def test_one_colour_table_in_bytes():
    for mode, rgb in compare.MODE_COLORS.items():
        assert compare.mode_rgb255(mode) == tuple(round(255 * c) for c in rgb)
        assert all(isinstance(c, int) and 0 <= c <= 255 for c in compare.mode_rgb255(mode))


def test_readout_differences_from_authored(irregular):
    clip = irregular.clips[0]
    r = compare.readout(clip, 0, 0.3 + 0.075, ("authored", "step", "catmull-rom"))
    np.testing.assert_allclose(r["authored"]["Δ translation"], 0.0)
    np.testing.assert_allclose(r["step"]["translation"], clip.channels[0].curve.values[1], atol=1e-6)
    assert np.abs(r["catmull-rom"]["Δ translation"]).max() > 1e-3
    at_key = compare.readout(clip, 0, float(clip.key_times[2]), tuple(MODES))
    for m in MODES:
        np.testing.assert_allclose(at_key[m]["Δ translation"], 0.0, atol=1e-6)


def test_step_trail_jumps_at_keys_and_draws_no_line_across_them(irregular):
    """STEP never moves between keys: its trail is the key positions, with no segment joining them."""
    from viewer.render.trails import trail_vertices

    clip = irregular.clips[0]
    step = compare.trail(irregular, clip, "step")
    moving = step.nodes.size and np.linalg.norm(np.diff(step.key_points, axis=0), axis=-1) > 1e-6  # (M-1, K)
    key_index = np.searchsorted(step.times, step.key_times)
    assert np.array_equal(step.jumps[key_index[1:] - 1], moving)
    assert step.jumps.sum() == moving.sum()
    rows, strips, n_keys, n_markers = trail_vertices([step], "step", 0.9)
    for first, count in strips:
        pts = rows[first : first + count, :3]
        assert np.ptp(pts, axis=0).max() < 1e-5, "a drawn STEP segment moves"
    np.testing.assert_allclose(
        rows[len(rows) - n_keys - n_markers : len(rows) - n_markers, :3], step.key_points.reshape(-1, 3), atol=1e-6
    )


@pytest.mark.parametrize("mode", ["linear", "catmull-rom", "cubic-zero"])
def test_continuous_trails_have_no_jumps(irregular, mode):
    tr = compare.trail(irregular, irregular.clips[0], mode)
    assert not tr.jumps.any()
    from viewer.render.trails import trail_vertices

    rows, strips, n_keys, n_markers = trail_vertices([tr], mode, 0.9)
    assert [count for _, count in strips] == [len(tr.times)] * len(tr.nodes)


def test_trails_follow_the_nodes_that_move_most(tmp_path):
    b = GltfBuilder()
    for k in range(5):
        b.add_node(translation=[float(k), 0, 0])
    b.add_animation(
        [
            dict(node=k, path="translation", times=[0, 1], values=[[k, 0, 0], [k, amp, 0]])
            for k, amp in enumerate([0.1, 5.0, 0.2, 3.0, 4.0])
        ]
    )
    b.add_scene(list(range(5)))
    scene = load(b.write_gltf(tmp_path, "five.gltf"))
    assert compare.moving_nodes(scene, scene.clips[0]).tolist() == [1, 3, 4]
    assert compare.moving_nodes(scene, scene.clips[0], most=10).tolist() == [0, 1, 2, 3, 4]


def test_a_clip_that_drives_only_morph_weights_has_empty_trails(tmp_path):
    scene = load(morph_only().write_gltf(tmp_path, "morph_only.gltf"))
    for mode in ("step", "linear", "catmull-rom"):
        t = compare.trail(scene, scene.clips[0], mode)
        assert t.points.shape[1] == 0 and t.jumps.shape[1] == 0
    assert len(compare.moving_nodes(scene, scene.clips[0])) == 0
