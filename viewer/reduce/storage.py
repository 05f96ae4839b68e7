"""How a channel's keys are stored, what that costs in bytes and what its rounding costs in error.

A reader gets back what the accessor holds: float32, or normalized integers (glTF 2.0 lets rotation and weight
outputs be stored so, with no extension). A channel may be written in a smaller type than the file used when
the rounding fits its tolerance: then the keys are chosen within what is left of it, and every value measured
is the rounded one, so the world bound counts the rounding too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from viewer.gltf.accessors import component_size

NORMALIZED = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


@dataclass(frozen=True)
class Stored:
    """How a channel's output is stored: its component type (5126 float) and whether normalized."""

    component: int = 5126
    normalized: bool = False
    sharers: int = 1  # samplers of the animation reading this channel's input accessor
    filter: str | None = None  # --meshopt: "QUATERNION" (stored as SHORT) or "EXPONENTIAL" (FLOAT)
    bits: int = 0  # the filter's precision

    @property
    def size(self) -> int:
        return component_size(self.component)

    def round(self, v: np.ndarray) -> np.ndarray:
        """Values as a reader gets them back from storage (through the decoder's own filter, if one is used)."""
        if self.filter is not None:
            from viewer.files.meshopt_pack import decode_filtered, encode_filtered

            v = np.asarray(v, np.float64)
            out = decode_filtered(encode_filtered(v, self.filter, self.bits), self.filter)
            out = out / 32767.0 if self.filter == "QUATERNION" else out
            return np.asarray(out, np.float64).reshape(v.shape)
        if self.normalized and self.component in NORMALIZED:
            s = NORMALIZED[self.component]
            lo = -1.0 if self.component in (5120, 5122) else 0.0
            return np.clip(np.round(v * s), lo * s, s) / s
        return np.asarray(v, np.float32).astype(np.float64)


def stored_bytes(keys: int, width: int, interpolation: str, stored: Stored, sharers: int = 1) -> int:
    """Input and output bytes of a sampler (each accessor padded to 4 bytes, as bufferViews are aligned); an
    input read by ``sharers`` samplers counts its share."""
    values = keys * width * (3 if interpolation == "CUBICSPLINE" else 1) * stored.size
    return -(-4 * keys // sharers) + values + (-values % 4)


FILTER_SHARE = 0.1  # of the tolerance the meshopt filters may take: their bits cost fewer bytes than keys
SHARE = 0.5  # a smaller type is used when its rounding takes at most this share of the channel's tolerance


def compact(kind: str, values: np.ndarray, stored: Stored) -> list[Stored]:
    """Smaller normalized types that can hold the channel's values (rotations; weights within [0, 1] or
    [−1, 1]), smallest first."""
    if stored.size <= 1:
        return []
    signed = [replace(stored, component=5120, normalized=True), replace(stored, component=5122, normalized=True)]
    if kind == "weights" and len(values):
        lo, hi = float(np.min(values)), float(np.max(values))
        if 0.0 <= lo and hi <= 1.0:
            signed = [
                replace(stored, component=5121, normalized=True),
                replace(stored, component=5123, normalized=True),
            ]
        elif not (-1.0 <= lo and hi <= 1.0):
            return []
    elif kind != "rotation":
        return []
    return [s for s in signed if s.size < stored.size]


def rounding(stored: Stored, metric: str, scale: np.ndarray | None, width: int) -> float:
    """The most storing in ``stored`` moves a value, in the channel's metric: half a step per component; a
    rotation turns by at most four times that (twice the 4D distance of a unit quaternion moved by 2 steps)."""
    if not (stored.normalized and stored.component in NORMALIZED):
        return 0.0
    step = 0.5 / NORMALIZED[stored.component]
    if metric == "angle":
        return 4.0 * step
    weights = np.ones(width) if scale is None else np.abs(np.asarray(scale, np.float64))
    return step * float(weights.sum() if metric == "l1" else weights.max(initial=0.0))


def choose(
    kind: str, values, stored: Stored, metric: str, scale, width: int, tol: float, meshopt: bool = False
) -> tuple[Stored, float]:
    """The storage to write a channel in and the tolerance left for its keys: the smallest type that holds every
    value exactly (weights of 0 and 1, a rotation about an axis by 0 or 180°: free, even at E = 0), or whose
    rounding takes at most ``SHARE`` of the tolerance. With ``meshopt``, rotations and translations may use the
    meshopt filters, at the fewest bits whose measured rounding fits the same share."""
    v = np.asarray(values, np.float64)
    if meshopt and tol > 0 and kind in FILTERED and len(v):
        found = _filtered(kind, v, stored, metric, scale, tol)
        if found is not None:
            return found
    for small in compact(kind, v, stored):
        back = small.round(v)
        if np.array_equal(back.astype(np.float32), v.astype(np.float32)):
            return small, tol
        if tol <= 0 or rounding(small, metric, scale, width) > 4.0 * SHARE * tol:
            continue  # not worth measuring: even a quarter of the worst case would not fit
        cost = _measured(v, back, metric, scale, kind)
        if cost <= SHARE * tol:
            return small, tol - cost
    return stored, tol


def _measured(v: np.ndarray, back: np.ndarray, metric: str, scale, kind: str) -> float:
    """What rounding these keys moved them by, in the channel's metric (rotations normalized first, as a
    reader does): between keys a LINEAR or cubic curve moves by no more than its keys did."""
    from viewer.reduce.fit import distance

    if kind == "rotation":
        v = v / np.maximum(np.sqrt((v * v).sum(axis=1, keepdims=True)), 1e-300)
    w = 1.0 if scale is None else scale
    return float(distance((back * w).T, (v * w).T, metric).max(initial=0.0))


def _filtered(kind, v, stored, metric, scale, tol) -> tuple[Stored, float] | None:
    """The fewest filter bits whose rounding of these values, decoded as a reader decodes it, fits."""
    from viewer.reduce.fit import distance

    name, component, bits = FILTERED[kind]
    if kind == "rotation":
        v = v / np.maximum(np.sqrt((v * v).sum(axis=1, keepdims=True)), 1e-300)
    for b in bits:
        candidate = replace(stored, component=component, normalized=component != 5126, filter=name, bits=b)
        back = candidate.round(v)
        w = 1.0 if scale is None else scale
        cost = float(distance((back * w).T, (v * w).T, metric).max(initial=0.0))
        if cost <= FILTER_SHARE * tol:
            return candidate, tol - cost
    return None


FILTERED = {
    "rotation": ("QUATERNION", 5122, range(8, 17)),
    "translation": ("EXPONENTIAL", 5126, range(6, 24)),
    "scale": ("EXPONENTIAL", 5126, range(6, 24)),
}
