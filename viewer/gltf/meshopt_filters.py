"""The meshopt filters (EXT_ / KHR_meshopt_compression READMEs, "Filters"), applied in place to the bytes the
ATTRIBUTES codec decoded, vectorised over every element: octahedral normals, quaternions, exponential floats
and YCoCg colours back to the values the accessors read.
"""

from __future__ import annotations

import numpy as np


def _round(values: np.ndarray, limit: float, low: float | None = None) -> np.ndarray:
    """Round half away from zero and clamp to ``[low, limit]`` (``low`` = -limit); NaN becomes 0."""
    rounded = np.trunc(values + np.copysign(np.float32(0.5), values))
    return np.clip(np.nan_to_num(rounded, nan=0.0, posinf=limit, neginf=-limit), -limit if low is None else low, limit)


def _lanes(data: np.ndarray, count: int, stride: int, signed: bool) -> tuple[np.ndarray, float]:
    """The (count, 4) components of 4- or 8-byte elements, and the largest value of that width."""
    if stride == 4:
        return data.view(np.int8 if signed else np.uint8).reshape(count, 4), 127.0 if signed else 255.0
    if stride == 8:
        return data.view("<i2" if signed else "<u2").reshape(count, 4), 32767.0 if signed else 65535.0
    raise ValueError(f"the filter needs a byteStride of 4 or 8, got {stride}")


def filter_none(data: np.ndarray, count: int, stride: int) -> None:
    """Filter 0: the data is used as decoded."""


def filter_octahedral(data: np.ndarray, count: int, stride: int) -> None:
    """Filter 1: octahedral unit vectors (x, y, K-bit one, w) → normalized (x, y, z, w), 8- or 16-bit."""
    v, top = _lanes(data, count, stride, signed=True)
    with np.errstate(all="ignore"):
        one = v[:, 2].astype(np.float32)
        x, y = v[:, 0] / one, v[:, 1] / one
        z = np.float32(1.0) - np.abs(x) - np.abs(y)
        t = np.minimum(z, np.float32(0.0))
        x -= np.copysign(t, x)
        y -= np.copysign(t, y)
        length = np.sqrt(x * x + y * y + z * z)
        for lane, value in enumerate((x, y, z)):
            v[:, lane] = _round(value / length * np.float32(top), top)


def filter_quaternion(data: np.ndarray, count: int, stride: int) -> None:
    """Filter 2: three K-bit components and the index of the omitted largest one → four normalized int16."""
    if stride != 8:
        raise ValueError(f"the QUATERNION filter needs a byteStride of 8, got {stride}")
    v = data.view("<i2").reshape(count, 4)
    scale = np.float32(1.0 / np.sqrt(2.0)) / (v[:, 3] | 3).astype(np.float32)
    x, y, z = (v[:, lane] * scale for lane in range(3))
    w = np.sqrt(np.maximum(np.float32(0.0), np.float32(1.0) - x * x - y * y - z * z))
    largest = (v[:, 3] & 3).astype(np.intp)
    out = np.empty((count, 4), np.float32)
    rows = np.arange(count)
    for turn, value in ((1, x), (2, y), (3, z), (0, w)):
        out[rows, (largest + turn) & 3] = value
    v[:] = _round(out * np.float32(32767.0), 32767.0)


def filter_exponential(data: np.ndarray, count: int, stride: int) -> None:
    """Filter 3: 32-bit ``exponent:8 | mantissa:24`` (both signed) → the float32 ``2^e × m``, exactly."""
    if stride % 4:
        raise ValueError(f"the EXPONENTIAL filter needs a byteStride that is a multiple of 4, got {stride}")
    v = data.view("<i4")
    exponent = v >> 24
    mantissa = ((v & 0xFFFFFF) ^ 0x800000) - 0x800000
    with np.errstate(over="ignore", under="ignore"):
        data[:] = np.ldexp(mantissa.astype(np.float64), exponent).astype("<f4").view(np.uint8)


def filter_color(data: np.ndarray, count: int, stride: int) -> None:
    """Filter 4 (KHR): K-bit YCoCg and (K-1)-bit alpha with a marker bit → normalized unsigned RGBA."""
    u, top = _lanes(data, count, stride, signed=False)
    s, _ = _lanes(data, count, stride, signed=True)
    alpha = u[:, 3].astype(np.int64)
    msb = sum((alpha >> j) > 0 for j in range(1, 16)).astype(np.int64)  # findMSB, for alpha > 0
    scale_int = np.where(alpha > 0, (np.int64(1) << (msb + 1)) - 1, 0)
    y, co, cg = u[:, 0].astype(np.int64), s[:, 1].astype(np.int64), s[:, 2].astype(np.int64)
    a = alpha & (scale_int >> 1)
    a = (a << 1) | (a & 1)
    with np.errstate(all="ignore"):
        scale = np.where(scale_int > 0, top / np.maximum(scale_int, 1), 0.0).astype(np.float32)
        for lane, value in enumerate((y + co - cg, y + cg, y - co - cg, a)):
            u[:, lane] = _round(value.astype(np.float32) * scale, top, 0.0)


FILTER_FUNCTIONS = {
    "NONE": filter_none,
    "OCTAHEDRAL": filter_octahedral,
    "QUATERNION": filter_quaternion,
    "EXPONENTIAL": filter_exponential,
    "COLOR": filter_color,
}
