"""The meshopt filters' encoders (EXT_ / KHR_meshopt_compression READMEs, "Filters"): values to the K-bit forms
that ``viewer/gltf/meshopt_filters.py`` turns back into accessor values after the ATTRIBUTES codec.

Apart from ``meshopt_encode`` (the bitstream) because they are a separate, lossy step a caller measures on
its own: ``meshopt_pack.encode_filtered`` / ``decode_filtered`` use the quaternion and exponential ones so
``animview reduce`` can check its error on exactly what a reader will get. All are numpy over every element.
"""

from __future__ import annotations

import numpy as np


def _round(x: np.ndarray) -> np.ndarray:
    return np.trunc(x + np.copysign(0.5, x)).astype(np.int64)


def encode_octahedral(vectors: np.ndarray, bits: int, stride: int, w: np.ndarray | None = None) -> np.ndarray:
    """Unit vectors (n, 3) → (n, stride) bytes: K-bit octahedral x, y, the K-bit one, and ``w`` (default 0)."""
    v = np.asarray(vectors, np.float64)
    v = v / np.abs(v).sum(axis=1, keepdims=True)
    x, y, z = v[:, 0].copy(), v[:, 1].copy(), v[:, 2]
    fold = z < 0
    x[fold], y[fold] = (
        (1 - np.abs(v[fold, 1])) * np.where(v[fold, 0] >= 0, 1, -1),
        (1 - np.abs(v[fold, 0])) * np.where(v[fold, 1] >= 0, 1, -1),
    )
    one = (1 << (bits - 1)) - 1
    out = np.stack(
        [
            _round(x * one),
            _round(y * one),
            np.full(len(v), one),
            np.zeros(len(v), np.int64) if w is None else np.asarray(w, np.int64),
        ],
        axis=1,
    )
    return out.astype(np.int8 if stride == 4 else "<i2").view(np.uint8).reshape(len(v), stride)


def encode_quaternion(quaternions: np.ndarray, bits: int) -> np.ndarray:
    """Unit quaternions (n, 4) xyzw → (n, 8) bytes: the three smaller components (×√2, K-bit) and the index of
    the largest, which is made positive."""
    q = np.asarray(quaternions, np.float64)
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    largest = np.argmax(np.abs(q), axis=1)
    rows = np.arange(len(q))
    q = q * np.where(q[rows, largest] < 0, -1, 1)[:, None]
    one = (1 << (bits - 1)) - 1
    kept = [q[rows, (largest + k) & 3] * np.sqrt(2.0) for k in (1, 2, 3)]
    out = np.stack([_round(c * one) for c in kept] + [(one & ~3) | largest], axis=1)
    return out.astype("<i2").view(np.uint8).reshape(len(q), 8)


def encode_exponential(values: np.ndarray, bits: int) -> np.ndarray:
    """Floats (n, k) → (n, 4k) bytes: per value a signed ``bits``-bit mantissa and an 8-bit exponent.

    At 24 bits a value just under a power of two rounds up to a mantissa of 2^23, one past what the signed
    24-bit field holds; it is stored as 2^22 with the next exponent instead (the same number).
    """
    v = np.asarray(values, np.float64)
    _, exponent = np.frexp(v)
    exponent = np.clip(np.where(v == 0, -100, exponent - (bits - 1)), -100, 100)
    mantissa = _round(np.ldexp(v, -exponent))
    over = mantissa == 1 << 23
    exponent, mantissa = np.where(over, exponent + 1, exponent), np.where(over, 1 << 22, mantissa)
    packed = (exponent.astype(np.int64) << 24) | (mantissa & 0xFFFFFF)
    return (packed & 0xFFFFFFFF).astype("<u4").view(np.uint8).reshape(len(v), -1)


def encode_color(rgba: np.ndarray, bits: int, stride: int) -> np.ndarray:
    """Colours (n, 4) in [0, 1] → (n, stride) bytes: K-bit Y, Co, Cg and a (K-1)-bit alpha with its marker bit."""
    c = np.asarray(rgba, np.float64)
    top = (1 << bits) - 1
    r, g, b = (_round(c[:, i] * top) for i in range(3))
    co = _round((r - b) / 2.0)
    cg = _round((2 * g - r - b) / 4.0)
    y = g - cg
    alpha = _round(c[:, 3] * ((1 << (bits - 1)) - 1)) | (1 << (bits - 1))
    out = np.stack([y, co, cg, alpha], axis=1)
    dtype = np.uint8 if stride == 4 else "<u2"
    return (out & (0xFF if stride == 4 else 0xFFFF)).astype(dtype).view(np.uint8).reshape(len(c), stride)
