"""Quaternion and matrix math for the whole viewer, in one convention.

Quaternions are ``[x, y, z, w]`` (glTF's order). Matrices are stored in *math* convention
(``M[row][col]``, column vectors: ``p' = M @ p``, translation in the last column), the way the glTF
spec writes ``T * R * S``. GL wants column-major bytes: ``to_gl`` is the one conversion.

pyrr (last released 2019) is kept behind this module and used only where a test checks it
against the spec (its ``Matrix44.from_quaternion`` is transposed against its own translation
convention, so the quaternion→matrix formula here is written out from the spec instead).
All functions broadcast over leading axes: shapes are ``(..., 4)`` quaternions, ``(..., 3)``
vectors, ``(..., 4, 4)`` matrices.
"""

from __future__ import annotations

import numpy as np
from pyrr import matrix44 as _pyrr_m44

# Below this angle (radians) slerp's sin(θ) is replaced by a tiny floor: sin(uθ)/sin(θ) → u, so
# nearly equal keys need no separate nlerp branch and no division by zero.
MIN_SLERP_ANGLE = 1e-12


def quat_normalize(q: np.ndarray) -> np.ndarray:
    """Unit quaternions; a zero quaternion becomes identity rather than NaN."""
    q = np.asarray(q, dtype=np.float64)
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    ident = np.zeros_like(q)
    ident[..., 3] = 1.0
    return np.where(n > 0.0, q / np.where(n > 0.0, n, 1.0), ident)


def quat_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a·b (apply b first, then a), ``[x, y, z, w]``."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )


def quat_from_axis_angle(axis: np.ndarray, angle: float | np.ndarray) -> np.ndarray:
    """Rotation by ``angle`` radians (right-handed) about ``axis`` (need not be unit)."""
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis, axis=-1, keepdims=True)
    half = 0.5 * np.asarray(angle, dtype=np.float64)[..., None]
    return np.concatenate([axis * np.sin(half), np.cos(half)], axis=-1)


def quat_angle_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle (radians, 0..π) taking a to b, the same for q and −q."""
    d = np.abs(np.sum(quat_normalize(a) * quat_normalize(b), axis=-1))
    return 2.0 * np.arccos(np.clip(d, 0.0, 1.0))


def quat_half_angle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angle θ between two unit quaternions as 4-vectors, via atan2 so it stays exact near 0."""
    return 2.0 * np.arctan2(np.linalg.norm(a - b, axis=-1), np.linalg.norm(a + b, axis=-1))


def slerp(q0: np.ndarray, q1: np.ndarray, u: np.ndarray | float) -> np.ndarray:
    """Spherical linear interpolation along the shortest arc (glTF 2.0 Appendix C).

    q1 is negated where the dot product is negative (q and −q are one rotation). Both ends are
    normalized first, so keys stored slightly off unit length (0.707, 0.707) still give unit results.
    """
    q0 = quat_normalize(q0)
    q1 = quat_normalize(q1)
    q1 = np.where(np.sum(q0 * q1, axis=-1, keepdims=True) < 0.0, -q1, q1)
    theta = np.maximum(quat_half_angle(q0, q1), MIN_SLERP_ANGLE)[..., None]
    u = np.asarray(u, dtype=np.float64)[..., None]
    inv_sin = 1.0 / np.sin(theta)
    return np.sin((1.0 - u) * theta) * inv_sin * q0 + np.sin(u * theta) * inv_sin * q1


def quat_to_matrix3(q: np.ndarray) -> np.ndarray:
    """Rotation matrix (..., 3, 3) of unit quaternions, column-vector convention (spec formula)."""
    x, y, z, w = np.moveaxis(np.asarray(q, dtype=np.float64), -1, 0)
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz, wx, wy, wz = x * y, x * z, y * z, w * x, w * y, w * z
    m = np.stack(
        [
            1 - 2 * (yy + zz),
            2 * (xy - wz),
            2 * (xz + wy),
            2 * (xy + wz),
            1 - 2 * (xx + zz),
            2 * (yz - wx),
            2 * (xz - wy),
            2 * (yz + wx),
            1 - 2 * (xx + yy),
        ],
        axis=-1,
    )
    return m.reshape(m.shape[:-1] + (3, 3))


def compose_trs(t: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Local matrices M = T · R · S (glTF 2.0 §3.5.3), shapes (..., 3), (..., 4), (..., 3) → (..., 4, 4)."""
    t = np.asarray(t, dtype=np.float64)
    rot = quat_to_matrix3(r)
    out = np.zeros(rot.shape[:-2] + (4, 4))
    out[..., :3, :3] = rot * np.asarray(s, dtype=np.float64)[..., None, :]
    out[..., :3, 3] = t
    out[..., 3, 3] = 1.0
    return out


def decompose_trs(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split affine matrices (..., 4, 4) into T, R [x,y,z,w], S (no shear assumed, as glTF requires)."""
    m = np.asarray(m, dtype=np.float64)
    t = m[..., :3, 3].copy()
    cols = m[..., :3, :3]
    s = np.linalg.norm(cols, axis=-2)
    s = np.where(np.linalg.det(cols)[..., None] < 0, s * np.array([-1.0, 1.0, 1.0]), s)
    rot = cols / np.where(s == 0, 1.0, s)[..., None, :]
    return t, matrix3_to_quat(rot), s


def matrix3_to_quat(m: np.ndarray) -> np.ndarray:
    """Unit quaternions [x,y,z,w] of rotation matrices (..., 3, 3), stable in every branch (Shepperd)."""
    m = np.asarray(m, dtype=np.float64)
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    cands = np.stack(
        [
            np.stack(
                [
                    m[..., 2, 1] - m[..., 1, 2],
                    m[..., 0, 2] - m[..., 2, 0],
                    m[..., 1, 0] - m[..., 0, 1],
                    1 + m00 + m11 + m22,
                ],
                -1,
            ),
            np.stack(
                [
                    1 + m00 - m11 - m22,
                    m[..., 0, 1] + m[..., 1, 0],
                    m[..., 0, 2] + m[..., 2, 0],
                    m[..., 2, 1] - m[..., 1, 2],
                ],
                -1,
            ),
            np.stack(
                [
                    m[..., 0, 1] + m[..., 1, 0],
                    1 - m00 + m11 - m22,
                    m[..., 1, 2] + m[..., 2, 1],
                    m[..., 0, 2] - m[..., 2, 0],
                ],
                -1,
            ),
            np.stack(
                [
                    m[..., 0, 2] + m[..., 2, 0],
                    m[..., 1, 2] + m[..., 2, 1],
                    1 - m00 - m11 + m22,
                    m[..., 1, 0] - m[..., 0, 1],
                ],
                -1,
            ),
        ],
        axis=-2,
    )
    pick = np.argmax(np.stack([m00 + m11 + m22, m00, m11, m22], -1), axis=-1)
    q = np.take_along_axis(cands, pick[..., None, None], axis=-2)[..., 0, :]
    return quat_normalize(q)


def quat_to_euler_degrees(q: np.ndarray) -> np.ndarray:
    """Intrinsic X-Y-Z Euler angles in degrees (roll about x, pitch about y, yaw about z), for readouts."""
    x, y, z, w = np.moveaxis(quat_normalize(q), -1, 0)
    roll = np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = np.arcsin(np.clip(2 * (w * y - z * x), -1.0, 1.0))
    yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return np.degrees(np.stack([roll, pitch, yaw], axis=-1))


def transform_points(m: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Apply affine matrices (..., 4, 4) to points (..., 3)."""
    p = np.asarray(p, dtype=np.float64)
    return np.einsum("...ij,...j->...i", m[..., :3, :3], p) + m[..., :3, 3]


def perspective(fov_y: float, aspect: float, near: float, far: float | None) -> np.ndarray:
    """OpenGL projection (math convention); ``far=None`` is the infinite projection of glTF 2.0 §3.10.3.

    pyrr builds the finite one row-vector style; transposing makes it ours. Both are proven against the
    spec formulas in tests/test_math3d.py and tests/test_render_camera.py.
    """
    if far is None:
        f = 1.0 / np.tan(0.5 * fov_y)
        m = np.zeros((4, 4))
        m[0, 0], m[1, 1] = f / aspect, f
        m[2, 2], m[2, 3], m[3, 2] = -1.0, -2.0 * near, -1.0
        return m
    return np.asarray(_pyrr_m44.create_perspective_projection(np.degrees(fov_y), aspect, near, far), dtype=np.float64).T


def look_at(eye: np.ndarray, target: np.ndarray, up: np.ndarray) -> np.ndarray:
    """View matrix (math convention) looking from eye at target."""
    eye, target, up = (np.asarray(v, dtype=np.float64) for v in (eye, target, up))
    f = target - eye
    f /= np.linalg.norm(f)
    s = np.cross(f, up)
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def to_gl(m: np.ndarray) -> bytes:
    """Column-major float32 bytes of math-convention matrices, the layout GL uniforms expect."""
    return np.ascontiguousarray(np.swapaxes(np.asarray(m, dtype=np.float32), -1, -2)).tobytes()
