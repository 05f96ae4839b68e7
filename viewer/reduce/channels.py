"""One clip's channels reduced at given tolerances: the fewest bytes of keys each channel can be written in.

Every channel is tried as each sampler its motion allows — LINEAR (slerp for rotations) and CUBICSPLINE with
least-squares tangents, STEP for STEP channels, exact STEP for booleans and integers — and keeps the one that
stores fewer bytes. A channel whose every sample stays within tolerance of its first is one key; of the node's
rest value, no channel at all. Tracks of one scheme, metric and width are decimated together (``fit``), so a
clip of a thousand channels costs a few dozen numpy passes, not a thousand.

Values are written as the file stored them where keys are only dropped (a LINEAR or STEP selection writes the
original rows); a fitted cubic writes its new values and tangents, rounded the way they will be stored
(float32, or the original accessor's normalized integers) before anything is measured.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from viewer.animation import modes
from viewer.animation.clip import Channel, Clip
from viewer.base import math3d
from viewer.reduce import fit
from viewer.reduce.storage import NORMALIZED, Stored, choose, stored_bytes

__all__ = ["NORMALIZED", "Stored", "stored_bytes", "plan_channels", "keep", "ends", "kind", "pointer_tolerance"]

INSIDE = 3  # samples inside each interval of a CUBICSPLINE original: a cubic's shape between two keys
ANGLE_FIELDS = ("yfov", "innerConeAngle", "outerConeAngle", "rotation")
POINTER_REL, POINTER_ANGLE = 1e-3, np.radians(0.01)  # pointer properties: of max(1, |value|); radians
UNIT = 2e-5  # a rotation key's squared length this far off 1 was stored so, not rounded so
BATCH_SAMPLES = 1 << 19  # samples decimated together: their pair arrays stay a few hundred MB at most
THREADS = 2


@dataclass
class Planned:
    """One channel's reduction. ``channel`` is None when it is dropped (the node's rest value holds)."""

    source: Channel
    channel: Channel | None
    rule: str  # "exact" (as the file has it), "quantized" (every key, a smaller type), "linear", "slerp", "cubic",
    # "step", "constant", "rest"
    keys_before: int
    keys_after: int
    bytes_before: int
    bytes_after: int
    error: float  # the largest sample error in the channel's metric
    stored: Stored = Stored()  # how its output is written


def kind(ch: Channel) -> str:
    if ch.curve.discrete:
        return "discrete"
    if ch.curve.rotation:
        return "rotation"
    if ch.consumer == "node" and ch.path in ("translation", "scale", "weights"):
        return ch.path
    return "pointer"


def pointer_tolerance(ch: Channel) -> float:
    """Own tolerance of a pointer property: 0.01° for angles, else 1e-3 of max(1, its largest |value|)."""
    if ch.path in ANGLE_FIELDS or ch.path.endswith(".rotation"):
        return float(POINTER_ANGLE)
    return POINTER_REL * max(1.0, float(np.abs(ch.curve.values).max(initial=0.0)))


def samples(ch: Channel, dense: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The times and values (n, W) a reduction must reproduce, and which of them are keys: the keys, and
    inside each interval ``INSIDE`` points of a CUBICSPLINE original or, ``dense``, the midpoint of another
    (a cubic fitted through keys alone may bulge between them)."""
    curve = ch.curve
    t = np.asarray(curve.times, np.float64)
    inside = INSIDE if curve.interpolation == "CUBICSPLINE" else int(dense)
    if not inside or len(t) < 2:
        v = np.asarray(curve.values, np.float64)
        if curve.rotation:
            v = modes.same_hemisphere(math3d.quat_normalize(v))
        return t, v, np.ones(len(t), dtype=bool)
    u = np.arange(inside + 1) / (inside + 1)
    at = np.append((t[:-1, None] + u[None] * np.diff(t)[:, None]).reshape(-1), t[-1])
    v = Clip("reduce", 0, [ch]).sample(at, "authored")[:, 0, : ch.width]
    if curve.rotation:
        v = modes.same_hemisphere(v)
    key = np.zeros(len(at), dtype=bool)
    key[:: inside + 1] = True
    return at, v, key


def plan_channels(
    channels: list[Channel],
    tol: np.ndarray,
    scale: list[np.ndarray | None],
    rest: list,
    stored: list[Stored],
    cache: dict | None = None,
    meshopt: bool = False,
) -> list[Planned]:
    """Every channel reduced within ``tol`` (its metric's units: radians for rotations, scaled
    values for the rest — ``scale`` per component or None —); ``rest`` the value a dropped channel leaves
    (None: the channel may not be dropped)."""
    # At tolerance 0 only exactly reproduced keys may go: unscaled, so that no product rounds their error off 0.
    scale = [None if t == 0 else sc for sc, t in zip(scale, tol)]
    prepared, plans = [], [None] * len(channels)
    for c, ch in enumerate(channels):
        metric = "angle" if ch.curve.rotation else ("l1" if kind(ch) == "weights" else "l2")
        metric = "linf" if kind(ch) == "pointer" else metric
        prepared.append(_prepared(ch, scale[c], metric, False, cache))
        v = prepared[c][1]
        plans[c] = (
            keep(ch, stored[c])
            if ch.curve.discrete or _off_unit(ch, float(tol[c]))
            else _still(ch, v, metric, float(tol[c]), rest[c], scale[c], stored[c])
        )
    groups: dict[tuple, list[int]] = {}
    use, left = list(stored), np.asarray(tol, np.float64).copy()
    for c, ch in enumerate(channels):
        if plans[c] is not None or len(ch.curve.times) < 2:
            continue
        metric = prepared[c][3]
        use[c], left[c] = choose(
            kind(ch), ch.curve.values, stored[c], metric, scale[c], ch.width, float(tol[c]), meshopt
        )
        chosen = None if cache is None else cache.get((id(ch), "scheme"))
        for scheme in (chosen,) if chosen else _schemes(ch):  # once chosen, a channel keeps its scheme
            groups.setdefault((scheme, prepared[c][3], prepared[c][1].shape[1]), []).append(c)
    best: dict[int, tuple] = {}

    def run(batch) -> list:
        (scheme, metric, _), members = batch
        items = [
            _prepared(channels[c], scale[c], metric, True, cache) if scheme == "cubic" else prepared[c] for c in members
        ]
        return [
            (scheme, c, item, out)
            for c, item, out in zip(members, items, _decimate(scheme, metric, items, left[members]))
        ]

    batches = list(_batches(groups, prepared))
    if len(batches) > 1:  # numpy lets go of the GIL in its array work: two batches at once on two cores
        with ThreadPoolExecutor(THREADS) as pool:
            done = [row for rows in pool.map(run, batches) for row in rows]
    else:
        done = [row for batch in batches for row in run(batch)]
    for scheme, c, item, out in done:
        ch = channels[c]
        if out[2] > left[c]:
            continue  # even every key kept is not within tolerance in this scheme (a cubic as lines)
        interp = {"cubic": "CUBICSPLINE", "step": "STEP"}.get(scheme, "LINEAR")
        if scheme == "cubic" and use[c].normalized:  # tangents are signed, and may pass ±1; not quaternions
            tangents = out[1][out[0]] / (1.0 if scale[c] is None else np.where(scale[c] != 0, scale[c], 1.0))
            held = np.abs(tangents).max(initial=0.0) <= 1.0  # in the channel's own units, not the metric's
            short = replace(use[c], component=5122, filter=None, bits=0)
            out = out[:4] + (short if held else Stored(sharers=stored[c].sharers),)
        size = stored_bytes(int(out[0].sum()), ch.width, interp, out[4] if len(out) > 4 else use[c])
        if c not in best or size < best[c][0]:
            best[c] = (size, scheme, out, item)
    for c, ch in enumerate(channels):
        if plans[c] is None:
            cheaper = c in best and best[c][0] < _exact_cost(ch, stored[c])
            if cheaper:
                size, scheme, out, item = best[c]
                plans[c] = _chosen(ch, size, scheme, out, item, scale[c], stored[c], out[4] if len(out) > 4 else use[c])
            else:
                plans[c] = keep(ch, stored[c])
            if cache is not None and cheaper:
                cache[(id(ch), "scheme")] = best[c][1]
    return plans


def _batches(groups: dict, prepared: list):
    """Each group in runs of at most ``BATCH_SAMPLES`` samples (a cubic's are about twice its keys), so a long
    clip's decimation works in bounded memory."""
    for head, members in groups.items():
        run, count = [], 0
        for c in members:
            n = 2 * len(prepared[c][0])
            if run and count + n > BATCH_SAMPLES:
                yield head, run
                run, count = [], 0
            run.append(c)
            count += n
        if run:
            yield head, run


def _off_unit(ch: Channel, tol: float) -> bool:
    """Rotation keys stored off unit length: the spec normalizes them, but engines that slerp them as stored
    (three.js) play a quaternion of another length between them, which scales what the node carries by its
    squared length. Dropping keys changes that engine's playback by up to the keys' spread of squared lengths
    times the reach, so a channel whose spread passes half its tolerance (radians: E's share over the reach) is
    written as it is."""
    if not ch.curve.rotation:
        return False
    v = np.asarray(ch.curve.values, np.float64)
    spread = np.abs((v * v).sum(axis=1) - 1.0).max(initial=0.0)
    return bool(spread > max(UNIT, 0.5 * tol))


def _prepared(ch: Channel, scale, metric: str, dense: bool, cache: dict | None) -> tuple:
    """A channel's samples in its metric (cached per clip: each round re-plans some channels)."""
    key = (id(ch), dense)
    if cache is not None and key in cache:
        return cache[key]
    t, v, is_key = samples(ch, dense)
    out = (t, v if scale is None else v * scale, is_key, metric)
    if cache is not None:
        cache[key] = out
    return out


def _schemes(ch: Channel) -> tuple[str, ...]:
    if ch.curve.discrete or ch.curve.interpolation == "STEP":
        return ("step",)
    return ("slerp" if ch.curve.rotation else "linear", "cubic")


def _decimate(scheme, metric, items, tol):
    """Per channel of one batch: (kept keys (k,), tangents or None, errors) — back in each track's own rows."""
    lengths = np.array([len(t) for t, _, _, _ in items])
    times = np.concatenate([t for t, _, _, _ in items])
    values = np.concatenate([v for _, v, _, _ in items])
    key = np.concatenate([k for _, _, k, _ in items])
    starts = np.cumsum(lengths) - lengths
    fixed = np.zeros(len(times), dtype=bool)
    fixed[starts] = fixed[starts + lengths - 1] = True
    tol = np.repeat(np.where(np.asarray(tol) > 0, tol, 0.0), lengths)
    result = fit.decimate(fit.Tracks(times, values, key, fixed, tol, metric), scheme)
    for s, n, (_, _, k, _) in zip(starts, lengths, items):
        rows = slice(s, s + n)
        tangents = None if result.tangents is None else result.tangents[rows]
        yield result.kept[rows], tangents, float(result.error[rows].max(initial=0.0)), k


def _still(ch, v, metric, tol, rest, scale, stored) -> Planned | None:
    """A channel that never leaves its first value (then one key) or the node's rest value (then none)."""
    n, w = len(ch.curve.times), ch.width
    before = _bytes_of(ch, stored)
    if ch.curve.discrete:
        tol = 0.0
    spread = float(fit.distance(v.T, np.repeat(v[:1].T, len(v), axis=1), metric).max(initial=0.0))
    if rest is not None and len(v):
        r = np.asarray(rest, np.float64).reshape(1, -1)[:, :w] * (1.0 if scale is None else scale)
        off = float(fit.distance(v.T, np.repeat(r.T, len(v), axis=1), metric).max(initial=0.0))
        if off <= tol:
            return Planned(ch, None, "rest", n, 0, before, 0, off)
    if spread > tol:
        return None
    first = np.asarray(ch.curve.values, np.float64)[:1]
    curve = modes.Curve(
        ch.curve.times[:1],
        first,
        None,
        None,
        ch.curve.rotation,
        "STEP" if ch.curve.discrete else "LINEAR",
        ch.curve.discrete,
    )
    after = stored_bytes(1, w, "LINEAR", stored)
    return Planned(ch, replace(ch, curve=curve), "constant", n, 1, before, after, spread, stored)


def _bytes_of(ch: Channel, stored: Stored) -> int:
    """What the channel costs as the file has it: a shared input (one time accessor for every channel of a
    bake) costs each of its samplers only its share, which a reduction that keeps the times keeps too."""
    return stored_bytes(len(ch.curve.times), ch.width, ch.curve.interpolation, stored, stored.sharers)


def _exact_cost(ch: Channel, stored: Stored) -> int:
    """What keeping the channel as it is costs on top of the rest: a shared input stays for its other readers,
    so leaving it saves none of its bytes (all of them leaving is a bonus this does not count on)."""
    values = stored_bytes(len(ch.curve.times), ch.width, ch.curve.interpolation, stored)
    return values - 4 * len(ch.curve.times) if stored.sharers > 1 else values


def keep(ch: Channel, stored: Stored) -> Planned:
    n = len(ch.curve.times)
    return Planned(ch, ch, "exact", n, n, _bytes_of(ch, stored), _bytes_of(ch, stored), 0.0, stored)


def _chosen(ch, size, scheme, out, prepared, scale, stored, use) -> Planned:
    """The plan of one channel's chosen scheme, its values as ``use`` stores them (the file's rows where keys are
    only dropped and the type is the file's: nothing is rounded twice)."""
    kept, tangents, error, key = out[:4]
    t, v = prepared[0], prepared[1]
    n = len(ch.curve.times)
    if scheme != "cubic":  # the original rows of the keys kept: dropping keys changes no stored value
        rows = np.flatnonzero(kept[key])
        values = np.asarray(ch.curve.values, np.float64)[rows]
        if use != stored:
            values = use.round(modes.same_hemisphere(math3d.quat_normalize(values)) if ch.curve.rotation else values)
        curve = replace(ch.curve, times=ch.curve.times[rows], values=values, in_tangents=None, out_tangents=None)
        if scheme == "linear" or scheme == "slerp":
            curve = replace(curve, interpolation="LINEAR")
    else:
        unscale = 1.0 if scale is None else np.where(scale != 0, 1.0 / np.where(scale != 0, scale, 1.0), 0.0)
        values = use.round(v[kept] * unscale)
        tan = tangents[kept] * unscale
        curve = replace(
            ch.curve,
            times=t[kept],
            values=values,
            in_tangents=use.round(tan[:, 0]),
            out_tangents=use.round(tan[:, 1]),
            interpolation="CUBICSPLINE",
        )
    keys = len(curve.times)
    if keys == n and curve.interpolation == ch.curve.interpolation:
        if use == stored:
            return keep(ch, stored)
        scheme = "quantized"
    return Planned(ch, replace(ch, curve=curve), scheme, n, keys, _bytes_of(ch, stored), size, error, use)


def ends(p: Planned, stored: Stored, rest) -> Planned:
    """A still (or dropped) channel written with two keys, at its first and last time: the clip's length hangs
    on it."""
    ch = p.source
    t = np.asarray(ch.curve.times, np.float64)[[0, -1]]
    if p.channel is not None:
        value = np.asarray(p.channel.curve.values, np.float64)[:1]
    elif rest is not None:
        value = np.asarray(rest, np.float64).reshape(1, -1)
    else:
        value = np.asarray(ch.curve.values, np.float64)[:1]
    curve = modes.Curve(t, np.repeat(value, 2, axis=0), None, None, ch.curve.rotation, "LINEAR", ch.curve.discrete)
    after = stored_bytes(2, ch.width, "LINEAR", stored)
    return Planned(ch, replace(ch, curve=curve), "constant", p.keys_before, 2, p.bytes_before, after, p.error, stored)
