"""The ``blender`` engine against the values Blender's own code computes, worked out here: the importer
(``animation_utils.py:make_fcurve``, ``animation_node.py:do_channel``, ``animation_weight.py:anim``) and the
F-curve handles and evaluation (``curve.cc:calchandleNurb_intern`` / ``bezier_handle_calc_smooth_fcurve``,
``fcurve.cc:BKE_fcurve_handles_recalc_ex`` / ``fcurve_eval_keyframes``), see ``docs/engines_sources.md`` §8."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.engines.conftest import one_node, x_as
from viewer import engines


def _bezier_at(frame, keys, handles):
    """Blender's Bézier segment evaluation: the segment holding ``frame``, its x cubic solved for the parameter
    (here by bisection), y at that parameter. ``handles``: per key (left (x, y), right (x, y))."""
    k = max(i for i in range(len(keys) - 1) if keys[i][0] <= frame)
    p0, p3 = keys[k], keys[k + 1]
    p1, p2 = handles[k][1], handles[k + 1][0]

    def point(s, i):
        return (1 - s) ** 3 * p0[i] + 3 * (1 - s) ** 2 * s * p1[i] + 3 * (1 - s) * s**2 * p2[i] + s**3 * p3[i]

    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if point(mid, 0) < frame else (lo, mid)
    return point((lo + hi) / 2, 1)


def _auto_handles_three_keys(keys):
    """Continuous Acceleration handles for three keys: the end keys flat (constant extrapolation locks them),
    the middle key's right-handle height h from 2(l + 1) h = dy1 l² + dy2 (l = dx2 / dx1; its left handle is
    -h / l); every handle one third of its span away in x."""
    (x0, y0), (x1, y1), (x2, y2) = keys
    dx1, dx2, dy1, dy2 = x1 - x0, x2 - x1, y1 - y0, y2 - y1
    ell = dx2 / dx1
    h = (dy1 * ell**2 + dy2) / (2 * (ell + 1))
    return [
        ((x0 - dx1 / 3, y0), (x0 + dx1 / 3, y0)),
        ((x1 - dx1 / 3, y1 - h / ell), (x1 + dx2 / 3, y1 + h)),
        ((x2 - dx2 / 3, y2), (x2 + dx2 / 3, y2)),
    ]


def test_cubic_becomes_a_bezier_with_smoothed_auto_handles_on_uneven_keys(tmp_path):
    times, ys = [0.0, 0.5, 2.0], [0.0, 2.0, 1.0]
    tangent = [9.0, 0.0, 0.0]  # discarded by the importer: large, so using them would show
    values = [v for y in ys for v in (tangent, [y, 0, 0], tangent)]
    channel = dict(node=0, path="translation", interpolation="CUBICSPLINE", times=times, values=values)
    scene = one_node(tmp_path, [channel])
    fps = 24.0  # frames are t · fps, not rounded
    keys = [(t * fps, y) for t, y in zip(times, ys)]
    handles = _auto_handles_three_keys(keys)
    probe = [0.1, 0.3, 0.5, 0.9, 1.4, 1.9]
    expected = [_bezier_at(t * fps, keys, handles) for t in probe]
    assert x_as("blender", scene, probe) == pytest.approx(expected, abs=1e-6)
    # outside the keys: constant extrapolation holds the end values
    assert x_as("blender", scene, [2.5]) == pytest.approx([1.0])
    assert max(abs(a - b) for a, b in zip(x_as("spec", scene, probe), expected)) > 0.5


def test_two_cubic_keys_ease_flat_at_both_ends(tmp_path):
    """Two keys: both are end keys, so both handles are flat — a smoothstep between the values."""
    values = [[5, 0, 0], [0, 0, 0], [5, 0, 0], [5, 0, 0], [4, 0, 0], [5, 0, 0]]
    channel = dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[0, 1], values=values)
    scene = one_node(tmp_path, [channel])
    keys = [(0.0, 0.0), (24.0, 4.0)]
    handles = [((-8.0, 0.0), (8.0, 0.0)), ((16.0, 4.0), (32.0, 4.0))]
    probe = [0.25, 0.5, 0.8]
    assert x_as("blender", scene, probe) == pytest.approx([_bezier_at(t * 24, keys, handles) for t in probe], abs=1e-6)


def test_linear_rotation_is_a_component_lerp_renormalized(tmp_path):
    """do_channel: four component F-curves, LINEAR, after flipping keys into one hemisphere; the matrix built
    from the normalized quaternion."""
    q1 = [0.0, 0.0, -0.8, -0.6]  # dot with the first key -0.6 < 0: flipped to (0, 0, 0.8, 0.6)
    scene = one_node(tmp_path, [dict(node=0, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], q1])])
    q = engines.get("blender").sample(scene.clips[0], scene, np.array([0.25]))[0, 0]
    lerp = 0.75 * np.array([0.0, 0.0, 0.0, 1.0]) + 0.25 * np.array([0.0, 0.0, 0.8, 0.6])
    np.testing.assert_allclose(q * np.sign(q[3]), lerp / np.linalg.norm(lerp), atol=1e-12)


def test_cubic_rotation_components_then_normalized(tmp_path):
    half = [0.0, 0.0, math.sin(0.5), math.cos(0.5)]
    zero = [0.0, 0.0, 0.0, 0.0]
    keys = [zero, [0, 0, 0, 1], zero, zero, half, zero]
    scene = one_node(tmp_path, [dict(node=0, path="rotation", interpolation="CUBICSPLINE", times=[0, 1], values=keys)])
    q = engines.get("blender").sample(scene.clips[0], scene, np.array([0.5]))[0, 0]
    s = 0.5  # two keys: flat handles, smoothstep 3s² - 2s³ of each component
    w = 3 * s**2 - 2 * s**3
    comp = (1 - w) * np.array([0, 0, 0, 1.0]) + w * np.array(half)
    np.testing.assert_allclose(q, comp / np.linalg.norm(comp), atol=1e-6)


@pytest.mark.parametrize(
    ("keys", "times", "expected"),
    [
        ([0.5, 2.0], [0.2, 0.5, 1.0], [0.8, 1.0, 1.0]),  # slider [0, 1]: clamped above 1
        ([2.0, 0.0], [0.25, 0.5], [1.5, 1.0]),  # first key 2: the range widened to [0, 2]
        ([-0.5, 1.5], [0.25, 0.75, 1.0], [0.0, 1.0, 1.0]),  # first key -0.5: [-0.5, 1]
    ],
)
def test_shape_key_weights_clamped_to_the_slider_range(tmp_path, keys, times, expected):
    """animation_weight.py:anim widens slider_min / slider_max from coords[1:2], the first key only; Blender
    clamps the key block's value to that range."""
    channel = dict(node=0, path="weights", times=[0, 1], values=[[k] for k in keys])
    scene = one_node(tmp_path, [channel], targets=1)
    assert x_as("blender", scene, times) == pytest.approx(expected, abs=1e-12)


def test_clamped_cubic_weights_flat_where_outside(tmp_path):
    """A CUBICSPLINE weight overshooting 1 between keys: Blender's curve, then the clamp."""
    values = [[0.0], [0.0], [0.0], [0.0], [1.0], [0.0], [0.0], [0.9], [0.0]]
    channel = dict(node=0, path="weights", interpolation="CUBICSPLINE", times=[0, 1, 2], values=values)
    scene = one_node(tmp_path, [channel], targets=1)
    keys = [(0.0, 0.0), (24.0, 1.0), (48.0, 0.9)]
    handles = _auto_handles_three_keys(keys)
    probe = np.linspace(0, 2, 41).tolist()
    expected = [min(1.0, max(0.0, _bezier_at(t * 24, keys, handles))) for t in probe]
    assert x_as("blender", scene, probe) == pytest.approx(expected, abs=1e-6)
    assert max(_bezier_at(t * 24, keys, handles) for t in probe) > 1.0


def test_step_shows_the_new_value_at_its_key_and_holds(tmp_path):
    values = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
    channel = dict(node=0, path="translation", interpolation="STEP", times=[0, 1, 2], values=values)
    scene = one_node(tmp_path, [channel])
    assert x_as("blender", scene, [0.5, 1.0, 2.0, 3.0]) == [0.0, 1.0, 2.0, 2.0]
