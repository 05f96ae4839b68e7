"""The ``vtk`` engine against what VTK's newest loader read (``Kitware/VTK@00e769f4``
``vtkGLTFDocumentLoader.cxx:Animation::Sampler::GetInterpolatedData``), ``vtkQuaternion.txx:Slerp`` and f3d's
``animationManager.cxx:Tick`` compute, worked out here (``docs/engines_sources.md`` §9)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engines.conftest import STEP_KEYS, one_node, x_as
from viewer import engines


def test_step_old_value_at_a_key_and_the_last_key_only_after_it(tmp_path):
    """next = lower_bound(t) (first key >= t), prev = next - 1; "exact" only when key[prev] == t; STEP outputs
    key[prev]. At t == t_k: next = k, prev = k - 1 — the old value. Past the last key: prev = next = N - 1."""
    scene = one_node(tmp_path, [STEP_KEYS])
    assert x_as("vtk", scene, [0.0, 0.5, 1.0, 1.5]) == [0.0, 0.0, 0.0, 1.0]
    # f3d: t == end is not wrapped (player time 2 = the last key: old value); past it wraps to 0.5
    assert x_as("vtk", scene, [2.0, 2.5]) == [1.0, 0.0]


def test_linear_ends_at_the_last_pose_then_wraps(tmp_path):
    scene = one_node(tmp_path, [dict(node=0, path="translation", times=[0, 2], values=[[0, 0, 0], [4, 0, 0]])])
    assert x_as("vtk", scene, [2.0, 2.5, 4.0]) == [4.0, 1.0, 4.0]


def test_cubicspline_is_the_spec_hermite(tmp_path):
    """c0 v0 + tDelta (t³ - 2t² + t) b + c2 v1 + tDelta (t³ - t²) a: the spec's Hermite."""
    keys = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [-1, 0, 0], [3, 0, 0], [0, 0, 0]]
    scene = one_node(
        tmp_path, [dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[0, 4], values=keys)]
    )
    u, d = 0.25, 4.0
    expected = (2 * u**3 - 3 * u**2 + 1) * 1 + d * (u**3 - 2 * u**2 + u) * 2 + (-2 * u**3 + 3 * u**2) * 3
    expected += d * (u**3 - u**2) * -1
    assert x_as("vtk", scene, [1.0]) == pytest.approx([expected])


def test_linear_rotation_slerps_the_stored_keys_then_normalizes(tmp_path):
    """Slerp: cos = dot of the keys as stored, the far one negated if cos < 0; lerp where 1 - |cos| < 1e-6,
    else weights sin((1 - t)θ)/sin θ, sin(tθ)/sin θ with θ = acos(cos); the result normalized."""
    q0, q1 = np.array([0.0, 0.0, 0.0, 1.0]), np.array([0.0, 0.0, -math.sin(0.6), -math.cos(0.6)])
    scene = one_node(tmp_path, [dict(node=0, path="rotation", times=[0, 1], values=[q0.tolist(), q1.tolist()])])
    t, cos = 0.25, float(q0 @ -q1)
    theta = math.acos(cos)
    q = (math.sin((1 - t) * theta) * q0 + math.sin(t * theta) * -q1) / math.sin(theta)
    got = engines.get("vtk").sample(scene.clips[0], scene, np.array([t]))[0, 0]
    np.testing.assert_allclose(got, q / np.linalg.norm(q), atol=1e-6)


def test_nearly_equal_rotation_keys_lerp(tmp_path):
    """Keys stored off unit length with a dot above 1: 1 - |cos| < 1e-6, the lerp, normalized."""
    q0 = np.array([0.0, 0.0, 0.0, 2.0])
    q1 = 2.0 * np.array([0.0, 0.0, math.sin(0.01), math.cos(0.01)])
    scene = one_node(tmp_path, [dict(node=0, path="rotation", times=[0, 1], values=[q0.tolist(), q1.tolist()])])
    lerp = 0.5 * q0 + 0.5 * q1
    got = engines.get("vtk").sample(scene.clips[0], scene, np.array([0.5]))[0, 0]
    np.testing.assert_allclose(got, lerp / np.linalg.norm(lerp), atol=1e-6)
