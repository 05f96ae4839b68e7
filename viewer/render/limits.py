"""What the GPU can take: float32 limits applied to float64 scene numbers before they become uniforms.

The scene is float64 (``pose.py``), the GPU float32: a matrix entry beyond ±3.4e38 becomes inf when
cast, and inf or NaN in a uniform poisons every vertex it touches. A hostile but valid file can put
anything there (a translation of 1e20, a scale of 1e200, a NaN inverse bind matrix), so the renderer
asks these vectorized questions once per frame instead of trusting the numbers:

* ``drawable``, ``fits_f32``: which (…, 4, 4) matrices or (…, k) points are float32-finite (NaN
  compares false, so it fails too); ``camera_drawable`` for a camera's view and projection;
* ``normal_matrix``: the normal transform without an inverse, so a scale of 0 cannot raise;
* ``view_bounds``: any bounds, finite or not, as a centre and radius a camera and grid can work with.
"""

from __future__ import annotations

import numpy as np

F32_MAX = float(np.finfo(np.float32).max)
# Largest centre / half size a camera frames: its distance (a few radii) and far plane (≈ 5 radii past
# it) then stay far below F32_MAX, and so do clip coordinates of points inside the bounds.
MAX_EXTENT = 1e30
# Smallest radius framed: below ~1e-19 the shader's squared lengths underflow float32 and normalize()
# returns NaN. Relative to the centre, a radius under 1e-6·|centre| would vanish in float32 (and in
# float64 when the centre is huge, making eye == target).
MIN_RADIUS, MIN_RELATIVE_RADIUS = 1e-12, 1e-6
DEFAULT_RADIUS = 1.0  # zero-size or unknown bounds: frame a unit sphere (an empty scene, a single point)


def drawable(matrices: np.ndarray) -> np.ndarray:
    """(…,) bool: every entry of each (…, 4, 4) matrix is finite and within float32 range."""
    with np.errstate(invalid="ignore"):
        return (np.abs(matrices) <= F32_MAX).all(axis=(-2, -1))


def camera_drawable(view: np.ndarray, view_proj: np.ndarray) -> bool:
    """The camera's matrices fit float32 and the view has a rotation (else a frame draws nothing)."""
    return bool(drawable(view) and drawable(view_proj) and np.abs(view[:3, :3]).sum() > 0.0)


def fits_f32(points: np.ndarray) -> np.ndarray:
    """(…,) bool: every coordinate of each (…, k) point is finite and within float32 range."""
    with np.errstate(invalid="ignore"):
        return (np.abs(points) <= F32_MAX).all(axis=-1)


def normal_matrix(m: np.ndarray) -> tuple[np.ndarray, bool]:
    """(3, 3) transform of normals under the linear part ``m`` (3, 3), and whether ``m`` mirrors (det < 0).

    The transform is the cofactor matrix of ``m``, signed by det(m) and scaled to a largest entry of 1.

    That is the inverse transpose up to a positive factor (the shader normalizes), but it exists for
    singular matrices (a scale of 0 on one axis keeps the normals along it) and cannot overflow float32
    where the inverse would underflow or vice versa. A matrix of rank < 2 has no normal direction left:
    identity then (the primitive is a line or point anyway).
    """
    # plain floats: nine numbers, cheaper than numpy calls; entries are within float32 range
    # (``drawable``), so no product overflows float64. cof column i = column i+1 × column i+2 of m.
    (a, b, c), (d, e, f), (g, h, i) = np.asarray(m, np.float64).tolist()
    cof = np.array(
        [
            [e * i - f * h, h * c - i * b, b * f - c * e],
            [f * g - d * i, i * a - g * c, c * d - f * a],
            [d * h - e * g, g * b - h * a, a * e - b * d],
        ]
    ).T  # rows written: columns
    det = a * cof[0, 0] + d * cof[1, 0] + g * cof[2, 0]
    scale = float(np.abs(cof).max())
    mirrored = bool(det < 0.0)
    if not (np.isfinite(scale) and scale > 0.0):
        return np.eye(3), mirrored
    return cof * ((-1.0 if mirrored else 1.0) / scale), mirrored


def view_bounds(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(centre (3,), half size (3,), radius) of the bounds [lo, hi], made safe to frame.

    Non-finite bounds (inf from an overflow, NaN) are unknown: a unit sphere at the origin. Finite bounds
    are taken as they are (swapped lo/hi too) but computed without overflow (±1.7e308 is fine) and
    clamped to ``MAX_EXTENT``; the radius is at least ``MIN_RADIUS`` and 1e-6 of the centre's distance,
    and a zero-size box (a point) gets ``DEFAULT_RADIUS`` when that is larger.
    """
    lo, hi = np.asarray(lo, np.float64).reshape(3), np.asarray(hi, np.float64).reshape(3)
    if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
        return np.zeros(3), np.full(3, DEFAULT_RADIUS / np.sqrt(3.0)), DEFAULT_RADIUS
    center = np.clip(0.5 * lo + 0.5 * hi, -MAX_EXTENT, MAX_EXTENT)
    half = np.minimum(np.abs(0.5 * hi - 0.5 * lo), MAX_EXTENT)
    radius = float(np.linalg.norm(half))
    floor = max(MIN_RADIUS, MIN_RELATIVE_RADIUS * float(np.abs(center).max()))
    if radius == 0.0:
        floor = max(floor, DEFAULT_RADIUS)
    if radius < floor:
        half = np.full(3, floor / np.sqrt(3.0))
        radius = floor
    return center, half, radius
