"""Engines that do not run here (the Sample Viewer, Filament, Godot, glTFast): per behaviour, the value its
source computes, worked out in the test from what the cited function does (``docs/engines_sources.md``), on a
small file made here, against the engine's emulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engines.conftest import STEP_KEYS, one_node, x_as
from viewer import engines


def test_ksv_left_continuous_search_and_end(tmp_path):
    """interpolator.js:interpolate — next key = first with t <= t_i (clamped to [1, N-1]), STEP returns the
    previous key: old value at a key, never the last; t mod duration with an exact multiple kept at the end."""
    scene = one_node(tmp_path, [STEP_KEYS])
    # 3.0 wraps to 1.0 (a key: the old value); 4.0 is a multiple of the duration: kept at 2.0, key N-2's value
    assert x_as("ksv", scene, [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0]) == [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    assert x_as("spec", scene, [1.0, 2.0]) == [1.0, 2.0]


def test_ksv_and_filament_linear_end_of_loop(tmp_path):
    scene = one_node(tmp_path, [dict(node=0, path="translation", times=[0, 2], values=[[0, 0, 0], [4, 0, 0]])])
    # t == duration: the last pose (kept, not wrapped); 2.5 wraps to 0.5; for three.js t == duration is t = 0
    assert x_as("ksv", scene, [2.0, 2.5]) == [4.0, 1.0]
    assert x_as("filament", scene, [2.0, 2.5, 4.0]) == [4.0, 1.0, 4.0]
    assert x_as("three", scene, [2.0, 2.5]) == [0.0, 1.0]


def test_filament_cubic_tangents_times_the_normalized_parameter(tmp_path):
    """math.h:cubicSpline — p = h00·v0 + h10·b0·u + h01·v1 + h11·a1·u (u ∈ [0, 1]): the tangents are taken
    per unit of u, not × the key interval as the spec says."""
    keys = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [-1, 0, 0], [3, 0, 0], [0, 0, 0]]  # a0, v0, b0, a1, v1, b1
    scene = one_node(
        tmp_path, [dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[0, 4], values=keys)]
    )
    u = 0.25  # t = 1 of an interval of 4 s
    h00, h10, h01, h11 = 2 * u**3 - 3 * u**2 + 1, u**3 - 2 * u**2 + u, -2 * u**3 + 3 * u**2, u**3 - u**2
    filament = h00 * 1 + h10 * 2 * u + h01 * 3 + h11 * -1 * u  # Animator's own formula, read in math.h
    spec = h00 * 1 + h10 * 2 * 4 + h01 * 3 + h11 * -1 * 4
    assert x_as("filament", scene, [1.0]) == pytest.approx([filament])
    assert x_as("spec", scene, [1.0]) == pytest.approx([spec])
    assert abs(filament - spec) > 0.5


def test_filament_skips_one_key_samplers(tmp_path):
    """Animator.cpp:applyAnimation — a sampler with fewer than 2 keys is not applied: the rest value stays."""
    scene = one_node(tmp_path, [dict(node=0, path="translation", times=[0.5], values=[[9, 0, 0]])], rest=(2.0, 0, 0))
    assert x_as("filament", scene, [0.0, 1.0]) == [2.0, 2.0]
    assert x_as("spec", scene, [0.0, 1.0]) == [9.0, 9.0]


def test_godot_bakes_at_30_fps_and_steps_at_the_next_baked_time(tmp_path):
    """gltf_document.cpp:_import_animation — TRS baked every 1/30 s from 0 (and at the end), values from
    _interpolate_track (STEP: the last key at or before the time), played without a loop."""
    step = dict(STEP_KEYS, times=[0, 0.51, 2])
    scene = one_node(tmp_path, [step])
    # the switch at 0.51 lands at the first baked time at or after it: 16/30 = 0.5333…
    assert x_as("godot", scene, [0.5, 0.52, 16 / 30, 3.0]) == [0.0, 0.0, 1.0, 2.0]
    assert x_as("spec", scene, [0.52]) == [1.0]


def test_godot_slerps_cubic_rotations_between_the_values(tmp_path):
    """_interpolate_track — CUBICSPLINE rotation: start.slerp(end, s), the tangents not used."""
    half = [0.0, 0.0, math.sin(0.5), math.cos(0.5)]  # 1 rad about z
    big, against = [0.0, 0.0, 5.0, 0.0], [0.0, 0.0, -5.0, 0.0]
    keys = [big, [0, 0, 0, 1], big, against, half, big]
    scene = one_node(tmp_path, [dict(node=0, path="rotation", interpolation="CUBICSPLINE", times=[0, 1], values=keys)])
    q = engines.get("godot").sample(scene.clips[0], scene, np.array([0.5]))[0, 0]
    angle = 2 * math.atan2(math.hypot(*q[:3]), q[3])
    assert angle == pytest.approx(0.5, abs=1e-6)  # halfway along the slerp: 0.5 rad (float32 keys)
    spec = scene.clips[0].sample(np.array([0.5]))[0, 0]
    assert abs(2 * math.atan2(math.hypot(*spec[:3]), spec[3]) - 0.5) > 0.05


def test_gltfast_reads_cubic_weights_of_two_targets_as_triplets(tmp_path):
    """AnimationUtils.cs:AddScalarCurve — target j of M at key i reads values[3(iM + j) + {0, 1, 2}] as in,
    value and out; the spec's layout is in = 3Mi + j, value = 3Mi + M + j, out = 3Mi + 2M + j."""
    flat = np.arange(12, dtype=np.float64) / 10  # 2 keys × (in 2, value 2, out 2)
    scene = one_node(
        tmp_path,
        [dict(node=0, path="weights", interpolation="CUBICSPLINE", times=[0, 1], values=flat.reshape(6, 2))],
        targets=2,
    )
    at_keys = engines.get("gltfast").sample(scene.clips[0], scene, np.array([0.0]))[0, 0, :2]
    # key 0: target 0 reads flat[0:3] → value flat[1]; target 1 reads flat[3:6] → value flat[4]
    assert at_keys.tolist() == pytest.approx([flat[1], flat[4]])
    assert scene.clips[0].sample(np.array([0.0]))[0, 0, :2].tolist() == pytest.approx([flat[2], flat[3]])


def test_gltfast_blends_rotation_components_and_renormalizes(tmp_path):
    q1 = [0.0, 0.0, 1.0, 0.0]  # 180° about z
    scene = one_node(tmp_path, [dict(node=0, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], q1])])
    q = engines.get("gltfast").sample(scene.clips[0], scene, np.array([0.25]))[0, 0]
    lerp = np.array([0.0, 0.0, 0.25, 0.75])
    np.testing.assert_allclose(q, lerp / np.linalg.norm(lerp), atol=1e-12)
