"""math3d against formulas written out here by hand (glTF 2.0 §3.5.3, Appendix C, OpenGL conventions).

Every reference in this file is an independent implementation: Rodrigues' rotation formula instead of
the quaternion→matrix expansion, explicit T @ R @ S products, the textbook gluPerspective / gluLookAt
matrices. pyrr is used inside ``perspective``; the test here is what proves that call right.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.base import math3d

SETTINGS = settings(max_examples=80, derandomize=True, deadline=None)


# -- independent references ------------------------------------------------------------------------


def rodrigues(axis, angle) -> np.ndarray:
    """Rotation matrix of ``angle`` radians about ``axis`` (column vectors), by Rodrigues' formula."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * (kx @ kx)


def axis_angle_quat(axis, angle) -> np.ndarray:
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.array([*(k * math.sin(angle / 2)), math.cos(angle / 2)])


def random_axis_angle(rng) -> tuple[np.ndarray, float]:
    axis = rng.normal(size=3)
    return axis / np.linalg.norm(axis), float(rng.uniform(-math.pi, math.pi))


def same_up_to_sign(a, b, tol=1e-9) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return min(np.abs(a - b).max(), np.abs(a + b).max()) < tol


def rotation_angle(q) -> float:
    """Angle (0..π) of the rotation a unit quaternion stands for, read from its w component."""
    q = np.asarray(q, float) / np.linalg.norm(q)
    return 2.0 * math.acos(min(1.0, abs(q[3])))


def angle_between(a, b) -> float:
    """Angle of the rotation taking a to b, computed as the angle of conj(a)·b (independent of math3d)."""
    ax, ay, az, aw = np.asarray(a, float) / np.linalg.norm(a)
    bx, by, bz, bw = np.asarray(b, float) / np.linalg.norm(b)
    # conj(a) = (-ax, -ay, -az, aw); only the w component of the product is needed.
    w = aw * bw + ax * bx + ay * by + az * bz
    return 2.0 * math.acos(min(1.0, abs(w)))


unit_quats = (
    st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4)
    .map(np.array)
    .filter(lambda v: np.linalg.norm(v) > 0.2)
    .map(lambda v: v / np.linalg.norm(v))
)


# -- quaternion → matrix, compose --------------------------------------------------------------------


def test_quarter_turn_about_z_maps_x_to_y():
    r = math3d.quat_to_matrix3(axis_angle_quat([0, 0, 1], math.pi / 2))
    np.testing.assert_allclose(r @ [1, 0, 0], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(r @ [0, 1, 0], [-1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(r @ [0, 0, 1], [0, 0, 1], atol=1e-12)


def test_quat_to_matrix3_matches_rodrigues_on_random_rotations():
    rng = np.random.default_rng(1)
    for _ in range(50):
        axis, angle = random_axis_angle(rng)
        np.testing.assert_allclose(
            math3d.quat_to_matrix3(axis_angle_quat(axis, angle)), rodrigues(axis, angle), atol=1e-12
        )


def test_quat_to_matrix3_broadcasts_over_leading_axes():
    rng = np.random.default_rng(2)
    qs = np.array([axis_angle_quat(*random_axis_angle(rng)) for _ in range(6)]).reshape(2, 3, 4)
    batch = math3d.quat_to_matrix3(qs)
    assert batch.shape == (2, 3, 3, 3)
    for i in range(2):
        for j in range(3):
            np.testing.assert_allclose(batch[i, j], math3d.quat_to_matrix3(qs[i, j]), atol=1e-15)


def test_compose_trs_is_t_times_r_times_s():
    rng = np.random.default_rng(3)
    for _ in range(30):
        t = rng.uniform(-10, 10, 3)
        axis, angle = random_axis_angle(rng)
        s = rng.uniform(0.1, 3.0, 3)
        T = np.eye(4)
        T[:3, 3] = t
        R = np.eye(4)
        R[:3, :3] = rodrigues(axis, angle)
        S = np.diag([*s, 1.0])
        expected = T @ R @ S
        got = math3d.compose_trs(t, axis_angle_quat(axis, angle), s)
        np.testing.assert_allclose(got, expected, atol=1e-12)
        np.testing.assert_allclose(got[:3, 3], t)  # translation in the last column
        np.testing.assert_array_equal(got[3], [0, 0, 0, 1])


def test_compose_trs_applies_scale_then_rotation_then_translation_to_a_point():
    m = math3d.compose_trs([1, 2, 3], axis_angle_quat([0, 0, 1], math.pi / 2), [2, 1, 1])
    # (1,0,0) → scale (2,0,0) → rotate +90° about z (0,2,0) → translate (1,4,3)
    np.testing.assert_allclose(math3d.transform_points(m, [1, 0, 0]), [1, 4, 3], atol=1e-12)


def test_compose_trs_broadcasts():
    t = np.zeros((5, 3))
    t[:, 0] = np.arange(5)
    m = math3d.compose_trs(t, np.tile([0, 0, 0, 1.0], (5, 1)), np.ones((5, 3)))
    assert m.shape == (5, 4, 4)
    np.testing.assert_allclose(m[:, 0, 3], np.arange(5))


def test_quat_multiply_composes_rotations_b_first():
    rng = np.random.default_rng(4)
    for _ in range(20):
        a = axis_angle_quat(*random_axis_angle(rng))
        b = axis_angle_quat(*random_axis_angle(rng))
        np.testing.assert_allclose(
            math3d.quat_to_matrix3(math3d.quat_multiply(a, b)),
            math3d.quat_to_matrix3(a) @ math3d.quat_to_matrix3(b),
            atol=1e-12,
        )


def test_quat_from_axis_angle_matches_definition():
    q = math3d.quat_from_axis_angle([0, 0, 2.0], math.pi / 2)
    np.testing.assert_allclose(q, [0, 0, math.sqrt(0.5), math.sqrt(0.5)], atol=1e-15)


def test_quat_normalize_zero_is_identity_not_nan():
    np.testing.assert_array_equal(math3d.quat_normalize([0, 0, 0, 0]), [0, 0, 0, 1])
    np.testing.assert_allclose(math3d.quat_normalize([0, 0, 0.707, 0.707]), [0, 0, math.sqrt(0.5), math.sqrt(0.5)])


def test_quat_angle_between_ignores_sign():
    q = axis_angle_quat([1, 2, 3], 0.7)
    assert math3d.quat_angle_between(q, -q) == pytest.approx(0.0, abs=1e-7)
    r = axis_angle_quat([1, 2, 3], 0.2)
    assert math3d.quat_angle_between(q, r) == pytest.approx(0.5, abs=1e-9)
    assert math3d.quat_angle_between(q, -r) == pytest.approx(0.5, abs=1e-9)


# -- decompose / matrix → quaternion round trips ----------------------------------------------------


def test_decompose_round_trip_random_trs():
    rng = np.random.default_rng(5)
    for _ in range(50):
        t = rng.uniform(-10, 10, 3)
        q = axis_angle_quat(*random_axis_angle(rng))
        s = rng.uniform(0.1, 3.0, 3)
        m = math3d.compose_trs(t, q, s)
        t2, q2, s2 = math3d.decompose_trs(m)
        np.testing.assert_allclose(t2, t, atol=1e-12)
        np.testing.assert_allclose(s2, s, atol=1e-10)
        assert same_up_to_sign(q2, q, 1e-9)
        np.testing.assert_allclose(math3d.compose_trs(t2, q2, s2), m, atol=1e-10)


def test_decompose_mirror_matrix_recomposes():
    m = math3d.compose_trs([1, 2, 3], axis_angle_quat([0, 1, 0], 0.4), [-2.0, 1.5, 0.5])
    t, q, s = math3d.decompose_trs(m)
    np.testing.assert_allclose(np.linalg.norm(q), 1.0)
    np.testing.assert_allclose(math3d.compose_trs(t, q, s), m, atol=1e-10)


def _near_half_turn_cases(rng):
    cases = [
        (np.array([1.0, 0, 0]), math.pi),
        (np.array([0, 1.0, 0]), math.pi),
        (np.array([0, 0, 1.0]), math.pi),
        (np.array([1.0, 1, 1]), math.pi),
        (np.array([0, 0, 1.0]), 0.0),
    ]
    for _ in range(30):
        axis, _ = random_axis_angle(rng)
        cases.append((axis, math.pi - 10.0 ** rng.uniform(-12, -2)))
        cases.append((axis, math.pi))
    for _ in range(60):
        cases.append(random_axis_angle(rng))
    return cases


def test_matrix3_to_quat_round_trip_including_near_half_turns():
    rng = np.random.default_rng(6)
    for axis, angle in _near_half_turn_cases(rng):
        r = rodrigues(axis, angle)
        q = math3d.matrix3_to_quat(r)
        assert abs(np.linalg.norm(q) - 1.0) < 1e-12
        np.testing.assert_allclose(math3d.quat_to_matrix3(q), r, atol=1e-10)
        assert same_up_to_sign(q, axis_angle_quat(axis, angle), 1e-8)


def test_matrix3_to_quat_batched():
    rng = np.random.default_rng(7)
    cases = _near_half_turn_cases(rng)
    mats = np.array([rodrigues(a, t) for a, t in cases])
    qs = math3d.matrix3_to_quat(mats)
    assert qs.shape == (len(cases), 4)
    np.testing.assert_allclose(math3d.quat_to_matrix3(qs), mats, atol=1e-10)


# -- slerp ------------------------------------------------------------------------------------------


def test_slerp_halfway_between_identity_and_quarter_turn_is_eighth_turn():
    q = math3d.slerp([0, 0, 0, 1], axis_angle_quat([0, 0, 1], math.pi / 2), 0.5)
    assert same_up_to_sign(q, axis_angle_quat([0, 0, 1], math.pi / 4), 1e-12)


def test_slerp_takes_short_way_when_dot_negative():
    q0 = axis_angle_quat([0, 0, 1], 0.0)
    q1 = -axis_angle_quat([0, 0, 1], math.radians(60))  # same rotation, opposite hemisphere
    mid = math3d.slerp(q0, q1, 0.5)
    assert rotation_angle(mid) == pytest.approx(math.radians(30), abs=1e-9)


def test_slerp_accepts_slightly_off_unit_keys():
    q = math3d.slerp([0, 0, 0, 1], [0, 0, 0.707, 0.707], 1.0)
    np.testing.assert_allclose(q, [0, 0, math.sqrt(0.5), math.sqrt(0.5)], atol=1e-12)


@pytest.mark.parametrize("eps", [0.0, 1e-300, 1e-17, 1e-12, 1e-8])
def test_slerp_nearly_equal_keys_no_nan(eps):
    q0 = np.array([0.0, 0.0, 0.0, 1.0])
    q1 = math3d.quat_normalize(np.array([eps, 0.0, 0.0, 1.0]))
    for u in (0.0, 0.3, 1.0):
        q = math3d.slerp(q0, q1, u)
        assert np.all(np.isfinite(q))
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-12)


@SETTINGS
@given(unit_quats, unit_quats, st.floats(0.0, 1.0))
def test_slerp_properties(q0, q1, u):
    q = math3d.slerp(q0, q1, u)
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-9)
    total = angle_between(q0, q1)
    a0, a1 = angle_between(q0, q), angle_between(q, q1)
    assert a0 <= total + 1e-6  # never leaves the short arc
    assert a0 + a1 == pytest.approx(total, abs=1e-6)  # on the arc between them
    assert a0 == pytest.approx(u * total, abs=1e-6)  # at constant angular speed


@SETTINGS
@given(unit_quats, unit_quats)
def test_slerp_hits_both_ends(q0, q1):
    assert same_up_to_sign(math3d.slerp(q0, q1, 0.0), q0, 1e-9)
    assert same_up_to_sign(math3d.slerp(q0, q1, 1.0), q1, 1e-9)


def test_slerp_broadcasts_over_u():
    u = np.linspace(0, 1, 5)
    q = math3d.slerp([0, 0, 0, 1.0], axis_angle_quat([0, 0, 1], math.pi / 2), u)
    assert q.shape == (5, 4)
    for k, uk in enumerate(u):
        assert rotation_angle(q[k]) == pytest.approx(uk * math.pi / 2, abs=1e-9)


# -- camera matrices ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fov_y,aspect,near,far", [(math.radians(60), 16 / 9, 0.1, 100.0), (0.8, 1.0, 0.01, 1000.0), (1.2, 0.5, 2.0, 3.0)]
)
def test_perspective_matches_opengl_formula(fov_y, aspect, near, far):
    f = 1.0 / math.tan(fov_y / 2.0)
    expected = np.array(
        [
            [f / aspect, 0, 0, 0],
            [0, f, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
            [0, 0, -1, 0],
        ]
    )
    got = math3d.perspective(fov_y, aspect, near, far)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)
    # A point on the near plane maps to NDC z = -1, on the far plane to +1 (column vectors).
    for z, ndc in ((-near, -1.0), (-far, 1.0)):
        clip = got @ [0, 0, z, 1]
        assert clip[2] / clip[3] == pytest.approx(ndc, abs=1e-6)


def test_look_at_matches_glu_look_at():
    rng = np.random.default_rng(8)
    for _ in range(20):
        eye, target = rng.uniform(-10, 10, 3), rng.uniform(-10, 10, 3)
        up = np.array([0.0, 1.0, 0.0])
        v = math3d.look_at(eye, target, up)
        f = (target - eye) / np.linalg.norm(target - eye)
        s = np.cross(f, up) / np.linalg.norm(np.cross(f, up))
        u = np.cross(s, f)
        rot = np.eye(4)
        rot[0, :3], rot[1, :3], rot[2, :3] = s, u, -f
        trans = np.eye(4)
        trans[:3, 3] = -eye
        np.testing.assert_allclose(v, rot @ trans, atol=1e-10)
        np.testing.assert_allclose(math3d.transform_points(v, eye), [0, 0, 0], atol=1e-9)
        d = np.linalg.norm(target - eye)
        np.testing.assert_allclose(math3d.transform_points(v, target), [0, 0, -d], atol=1e-9)
        np.testing.assert_allclose(v[:3, :3] @ v[:3, :3].T, np.eye(3), atol=1e-12)


def test_look_at_keeps_up_vector_up():
    v = math3d.look_at([0, 0, 5], [0, 0, 0], [0, 1, 0])
    np.testing.assert_allclose(v, [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -5], [0, 0, 0, 1]], atol=1e-12)


def test_transform_points_applies_affine():
    m = math3d.compose_trs([1, 0, 0], [0, 0, 0, 1], [2, 2, 2])
    np.testing.assert_allclose(math3d.transform_points(m, [[1, 1, 1], [0, 0, 0]]), [[3, 2, 2], [1, 0, 0]])


def test_to_gl_is_column_major_float32():
    m = math3d.compose_trs([7, 8, 9], [0, 0, 0, 1], [1, 1, 1])
    data = np.frombuffer(math3d.to_gl(m), dtype=np.float32)
    assert data.shape == (16,)
    np.testing.assert_array_equal(data[12:15], [7, 8, 9])  # translation is the 4th column
    np.testing.assert_array_equal(data.reshape(4, 4).T, m.astype(np.float32))


def test_quat_to_euler_degrees_simple_axes():
    np.testing.assert_allclose(
        math3d.quat_to_euler_degrees(axis_angle_quat([0, 0, 1], math.radians(30))), [0, 0, 30], atol=1e-9
    )
    np.testing.assert_allclose(
        math3d.quat_to_euler_degrees(axis_angle_quat([1, 0, 0], math.radians(-45))), [-45, 0, 0], atol=1e-9
    )
    np.testing.assert_allclose(
        math3d.quat_to_euler_degrees(axis_angle_quat([0, 1, 0], math.radians(20))), [0, 20, 0], atol=1e-9
    )
