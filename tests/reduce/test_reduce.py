"""``reduce_file``: the written file stays within E in world space (by ``animview diff``) and stores fewer bytes."""

from __future__ import annotations

import numpy as np
import pytest

import viewer
from tests.reduce.conftest import axis_angle, chain_file, morph_file, one_node, pointer_file, sine_file
from viewer.compare.diff import diff_scenes
from viewer.pose.pose import Pose
from viewer.reduce import channels as chans
from viewer.reduce.budget import make_budget
from viewer.reduce.clips import as_clip, stored_types
from viewer.reduce.file import reduce_file
from viewer.reduce.levers import point_boxes, reach
from viewer.reduce.measure import Measure
from viewer.reduce.report import animation_bytes, build

E = 1e-4  # 0.1 mm


def reduced(tmp_path, src, error=E, name="out.glb"):
    scene = viewer.load(src)
    outcome = reduce_file(scene, tmp_path / name, error)
    return scene, viewer.load(outcome.path), build(outcome)


def full_diff(a, b) -> float:
    """The diff at its own default times (keys, midpoints, a 120 fps grid): an evaluator the reduction did not
    choose its times for."""
    return diff_scenes(a, b, fail_above=E)["max_distance"]


def optimal_linear_keys(t: np.ndarray, v: np.ndarray, tol: float) -> int:
    """The fewest keys of a polyline through a subset of the samples (ends kept) within ``tol`` of every sample
    (Euclidean), by dynamic programming over every span: the minimum a greedy choice is held to."""
    n = len(t)
    ok = np.zeros((n, n), dtype=bool)
    for a in range(n):
        for b in range(a + 1, n):
            u = (t[a : b + 1] - t[a]) / (t[b] - t[a])
            line = v[a] + u[:, None] * (v[b] - v[a])
            ok[a, b] = np.sqrt(((line - v[a : b + 1]) ** 2).sum(axis=1)).max() <= tol
    best = np.full(n, n + 1)
    best[0] = 1
    for b in range(1, n):
        best[b] = min(best[a] + 1 for a in range(b) if ok[a, b])
    return int(best[-1])


def test_sine_needs_no_more_bytes_than_the_best_polyline(tmp_path):
    src = sine_file(tmp_path / "sine.glb")
    a, b, report = reduced(tmp_path, src, error=1e-3)
    ch = a.clips[0].channels[0]
    t, v = np.asarray(ch.curve.times), np.asarray(ch.curve.values, np.float64)
    fewest = optimal_linear_keys(t, v, 1e-3)
    assert 5 < fewest < len(t) // 2
    out = b.clips[0].channels[0].curve
    per_key = 4 + 12 * (3 if out.interpolation == "CUBICSPLINE" else 1)
    assert per_key * len(out.times) <= (4 + 12) * fewest  # within the optimum in bytes (a cubic does better)
    assert report["within"] and report["max_error"] <= 1e-3
    assert full_diff(a, b) <= 1e-3 * (1 + 1e-6)
    assert report["keys_after"] < report["keys_before"] / 4


def test_a_triangle_wave_keeps_exactly_its_corners(tmp_path):
    t = np.arange(121) / 60.0
    corners = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    heights = np.array([0.0, 0.3, -0.2, 0.4, 0.0])
    x = np.interp(t, corners, heights)
    src = one_node(tmp_path / "tri.glb", [dict(path="translation", times=t, values=np.stack([x, 0 * x, 0 * x], 1))])
    a, b, _ = reduced(tmp_path, src)
    out = b.clips[0].channels[0].curve
    assert out.interpolation == "LINEAR"
    np.testing.assert_allclose(out.times, corners, atol=1e-6)


def test_a_step_channel_stays_step_and_loses_only_repeats(tmp_path):
    t = np.arange(10, dtype=np.float64)
    x = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2, 3], np.float64)
    src = one_node(
        tmp_path / "step.glb", [dict(path="translation", interpolation="STEP", times=t, values=np.stack([x, x, x], 1))]
    )
    a, b, _ = reduced(tmp_path, src)
    out = b.clips[0].channels[0].curve
    assert out.interpolation == "STEP"
    np.testing.assert_array_equal(out.times, [0, 3, 5, 9])  # each change, and the last key (the clip's end)
    assert full_diff(a, b) == 0.0


def test_a_turn_past_half_a_circle_keeps_keys_less_than_half_a_turn_apart(tmp_path):
    t = np.arange(61) / 30.0
    q = axis_angle([0, 1, 0], np.radians(270.0) * t / t[-1])
    src = one_node(tmp_path / "turn.glb", [dict(path="rotation", times=t, values=q)])
    a, b, report = reduced(tmp_path, src, error=1e-3)
    out = b.clips[0].channels[0].curve
    kept = np.asarray(out.values, np.float64)
    if out.interpolation == "LINEAR":
        dots = np.abs((kept[1:] * kept[:-1]).sum(axis=1))
        assert (np.degrees(2 * np.arccos(np.minimum(dots, 1))) < 180.0).all()
    assert len(out.times) < len(t) / 3
    assert full_diff(a, b) <= 1e-3 * (1 + 1e-6) and report["within"]
    mid = Pose(b)
    mid.set_time(b.clips[0], 1.0)  # 135° about y: x goes to (cos 135°, 0, −sin 135°)
    np.testing.assert_allclose(mid.world[0, :3, 0], [np.cos(np.radians(135)), 0, -np.sin(np.radians(135))], atol=1e-2)


def test_a_deep_chain_is_budgeted_where_local_tolerances_add_up(tmp_path):
    src = chain_file(tmp_path / "chain.glb")
    scene = viewer.load(src)
    clip, pose = scene.clips[0], Pose(scene)
    boxes = point_boxes(scene, {})
    world = pose.world_at(clip, clip.key_times[::10])
    budget = make_budget(scene, clip, E, reach(scene, world, boxes, 2.0), world)
    stored = stored_types(scene.document, clip)
    # Every channel on its own within E (its tolerance at share 1, as a per-channel tool would set it) …
    alone = chans.plan_channels(list(clip.channels), budget.base, budget.scale, budget.rest, stored)
    node_err, _ = Measure(pose, clip, boxes).errors(as_clip(clip, alone, budget))
    assert node_err.max() > 1.5 * E  # … adds up down the chain
    a, b, report = reduced(tmp_path, src)
    assert report["within"] and full_diff(a, b) <= E * (1 + 1e-6)
    assert report["keys_after"] < report["keys_before"]


def test_morph_weights_are_bounded_by_what_they_move(tmp_path):
    a, b, report = reduced(tmp_path, morph_file(tmp_path / "morph.glb"))
    assert report["keys_after"] < report["keys_before"] / 3
    assert report["within"] and full_diff(a, b) <= E * (1 + 1e-6)


def test_pointer_channels_keep_their_own_tolerance(tmp_path):
    a, b, report = reduced(tmp_path, pointer_file(tmp_path / "ptr.glb"))
    assert report["keys_after"] < report["keys_before"] / 3
    d = diff_scenes(a, b, fail_above=E)
    diffs = {p["pointer"]: p["max_difference"] for p in d["clips"][0]["pointers"]}
    assert diffs["/materials/0/pbrMetallicRoughness/baseColorFactor"] <= chans.POINTER_REL
    assert diffs.get("/cameras/0/perspective/yfov", 0.0) <= np.degrees(chans.POINTER_ANGLE)  # the diff says degrees


def test_a_loop_keeps_its_seam_and_length(tmp_path):
    t = np.arange(49) / 24.0
    x = 0.2 * np.sin(2 * np.pi * t / t[-1]) ** 3
    q = axis_angle([1, 0, 0], np.radians(30) * np.sin(2 * np.pi * t / t[-1]))
    x[-1], q[-1] = x[0], q[0]  # a loop: the last key is the first
    src = one_node(
        tmp_path / "loop.glb",
        [
            dict(path="translation", times=t, values=np.stack([x, 0 * x, 0 * x], 1)),
            dict(path="rotation", times=t, values=q),
        ],
    )
    a, b, _ = reduced(tmp_path, src, error=1e-3)
    ca, cb = a.clips[0], b.clips[0]
    assert cb.duration == ca.duration and cb.key_times[0] == ca.key_times[0]
    np.testing.assert_array_equal(ca.sample(0.0), ca.sample(ca.duration))  # the original closes its loop …
    np.testing.assert_array_equal(cb.sample(0.0), cb.sample(cb.duration))  # … and so does the copy, exactly
    np.testing.assert_allclose(cb.sample(0.0), ca.sample(0.0), atol=1e-4)


def test_zero_error_drops_only_exact_duplicates(tmp_path):
    t = np.arange(8, dtype=np.float64)
    x = np.array([0, 0, 0, 0.5, 0.7, 0.7, 0.7, 1.0])
    still = np.tile([1.0, 2.0, 3.0], (8, 1))
    src = one_node(
        tmp_path / "dup.glb",
        [
            dict(path="translation", times=t, values=np.stack([x, 0 * x, 0 * x], 1)),
            dict(path="scale", times=t, values=still),
        ],
    )
    a, b, report = reduced(tmp_path, src, error=0.0)
    out = {ch.path: ch.curve for ch in b.clips[0].channels}
    np.testing.assert_array_equal(out["translation"].times, [0, 2, 3, 4, 6, 7])
    assert len(out["scale"].times) in (1, 2)  # a still channel: one key, or two where it alone spans the clip
    assert full_diff(a, b) == 0.0 and report["max_error"] == 0.0


def test_the_old_accessors_go_and_the_file_is_smaller(tmp_path):
    src = sine_file(tmp_path / "sine.glb")
    a, b, report = reduced(tmp_path, src)
    assert report["file_bytes_after"] < report["file_bytes_before"]
    assert report["animation_bytes_after"] == animation_bytes(b.document.raw)[1] < report["animation_bytes_before"]
    assert len(b.document.raw["accessors"]) <= len(a.document.raw["accessors"])


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_a_bad_error_is_refused(tmp_path, bad):
    scene = viewer.load(sine_file(tmp_path / "sine.glb"))
    with pytest.raises(ValueError, match="max-error"):
        reduce_file(scene, tmp_path / "x.glb", bad)


def test_meshopt_quantizes_within_the_bound_and_compresses(tmp_path):
    src = chain_file(tmp_path / "chain.glb", joints=6, seconds=4.0)
    scene = viewer.load(src)
    plain = build(reduce_file(scene, tmp_path / "plain.glb", 1e-3))
    packed = build(reduce_file(scene, tmp_path / "packed.glb", 1e-3, meshopt=True))
    b = viewer.load(tmp_path / "packed.glb")
    assert "EXT_meshopt_compression" in b.document.raw["extensionsRequired"]
    filters = {
        v["extensions"]["EXT_meshopt_compression"].get("filter")
        for v in b.document.raw["bufferViews"]
        if "EXT_meshopt_compression" in v.get("extensions", {})
    }
    assert "QUATERNION" in filters or "NONE" in filters or None in filters
    assert packed["within"] and full_diff(scene, b) <= 1e-3 * (1 + 1e-6)
    assert packed["animation_bytes_after"] < 0.8 * plain["animation_bytes_after"]


def test_keys_stored_off_unit_length_are_kept(tmp_path):
    t = np.arange(5) / 4.0
    q = axis_angle([0, 0, 1], np.radians(90.0) * t)
    q[1::2] *= 0.995  # every other key stored short: three.js would scale the box by 0.99 between them
    src = one_node(tmp_path / "short.glb", [dict(path="rotation", times=t, values=q)])
    a, b, report = reduced(tmp_path, src, error=1e-3)
    assert len(b.clips[0].channels[0].curve.times) == 5  # an engine that slerps them as stored needs every key
    a, b, report = reduced(tmp_path, src, error=0.05, name="loose.glb")  # where 1 % of the box is within E …
    assert len(b.clips[0].channels[0].curve.times) < 5  # … they may go
