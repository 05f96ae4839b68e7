"""Loop seams: how far each channel of a clip jumps when playback wraps from t = duration to t = 0.

A channel pops when its values at the two ends differ and hitches when the velocity arriving at the end
differs from the velocity leaving the start. Both come from one batched ``Clip.sample`` call on a handful
of times near the ends — of the clip cut to each channel's first and last few keys, so the cost does not grow
with the keys —, and are judged against the channel's own motion (range, speed and kinks over all its keys,
measured in batches of at most ``KEY_BATCH`` keys, so an hour of capture needs megabytes, not gigabytes), so
float noise on a still channel and a tiny miss on a large move are not reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from viewer.animation.clip import Channel, Clip
from viewer.base import math3d

# A pop under 1 % of the channel's range hides in the motion itself; the floors sit above the float32
# noise of stored keys (≈ 6e-8 relative), so a still channel never counts as a seam.
VALUE_REL_TOL = 0.01
VALUE_FLOOR = 1e-4  # scene units (0.1 mm at metre scale)
ANGLE_FLOOR = 0.05  # degrees
# Velocity is judged against the channel's fastest key-to-key speed (not range / duration, so ten cycles in
# a clip are held to the same standard as one): a change under a tenth of it reads as easing. It is also
# judged against the largest kink its keys already make: LINEAR keys kink at every key (coarse mocap such
# as the Khronos Fox by about its peak speed), and a seam no harder than those is no defect of the loop.
VELOCITY_REL_TOL = 0.1
VELOCITY_FLOOR = 1e-2  # units/s: such a kink moves a node 0.2 mm in a 60 Hz frame
ANGULAR_VELOCITY_FLOOR = 1.0  # degrees/s: 0.017° in a 60 Hz frame
# Finite-difference step as a fraction of the clip: small against any motion, large against float64 noise.
STEP_FRACTION = 1e-4
CONJUGATE = np.array([-1.0, -1.0, -1.0, 1.0])  # times a unit quaternion [x, y, z, w]: its inverse
# Keys kept at each end of a channel to sample near the seam: the samples lie within each channel's first and
# last interval (or hold beyond them), whose values every mode takes from at most the three keys nearest.
END_KEYS = 4
KEY_BATCH = 1 << 15  # keys whose motion is measured in one vectorized pass (about 20 float64 arrays of them)


@dataclass(frozen=True, eq=False)
class Seams:
    """Per channel (clip order); rotations in degrees and degrees/s, the rest in their own units.

    Attributes:
        value_jump: (C,) value at the duration vs at 0 (largest component; rotations: the angle between).
        velocity_jump: (C,) velocity arriving at the end minus leaving the start (largest component;
            rotations: the length of the angular-velocity difference, whose components depend on axes).
        value_tolerance, velocity_tolerance: (C,) the thresholds each channel was judged by.
        value_range: (C,) range of motion over the keys (rotations: largest angle from the first key),
            kept so ``text`` can put a jump in proportion.
        rotation: (C,) which channels are rotations.
    """

    value_jump: np.ndarray
    velocity_jump: np.ndarray
    value_tolerance: np.ndarray
    velocity_tolerance: np.ndarray
    value_range: np.ndarray
    rotation: np.ndarray

    @property
    def value_flagged(self) -> np.ndarray:
        return self.value_jump > self.value_tolerance

    @property
    def velocity_flagged(self) -> np.ndarray:
        return self.velocity_jump > self.velocity_tolerance

    @property
    def flagged(self) -> np.ndarray:
        return self.value_flagged | self.velocity_flagged

    def text(self, channel: int) -> str:
        """One line for a tooltip, e.g. ``seam: value 0.12 (4 % of range), velocity 1.3/s``."""
        head = "seam" if self.flagged[channel] else "smooth loop"
        # Finite-difference residue (2e-12/s) would read as a defect: under 1 % of the tolerance shows as 0.
        value, velocity = (
            float(x) if x >= 0.01 * tol else 0.0
            for x, tol in (
                (self.value_jump[channel], self.value_tolerance[channel]),
                (self.velocity_jump[channel], self.velocity_tolerance[channel]),
            )
        )
        if self.rotation[channel]:
            return f"{head}: {_num(value)}°, velocity {_num(velocity)}°/s"
        motion = self.value_range[channel]
        share = f" ({_num(100.0 * value / motion)} % of range)" if motion > 0.0 else ""
        return f"{head}: value {_num(value)}{share}, velocity {_num(velocity)}/s"


def _num(x: float) -> str:
    """Three significant digits, without the exponent form a tooltip reader stumbles on (1.28e+03)."""
    return f"{x:.3g}" if abs(x) < 1000.0 else f"{x:.0f}"


def loop_seams(clip: Clip, mode: str = "authored") -> Seams:
    """Seams of every channel of ``clip`` sampled in ``mode``; a clip with no duration has none."""
    rotation = np.array([c.path == "rotation" for c in clip.channels], dtype=bool)
    motion, speed, kink = _key_motion(clip, rotation)
    zeros, d = np.zeros(len(rotation)), clip.duration
    # A quarter of the smallest gap between key times (0 included): no key falls among 3 steps from an end.
    gaps = np.diff(np.union1d(clip.key_times, [0.0, d]))
    h = min(STEP_FRACTION * d, 0.25 * float(gaps[gaps > 0.0].min(initial=np.inf)))
    if not rotation.size or not h > 0.0:
        return Seams(zeros, zeros, zeros, zeros, motion, rotation)
    s = _ends(clip).sample(np.array([0.0, h, 2 * h, 3 * h, d - 3 * h, d - 2 * h, d - h, d]), mode)  # (8, C, W)
    # One-sided second-order slopes from samples strictly inside the ends: a STEP key at the duration
    # (a jump exactly there) is a value change, not a velocity.
    v_start = -(5.0 * s[1] - 8.0 * s[2] + 3.0 * s[3]) / (2.0 * h)
    v_end = (5.0 * s[6] - 8.0 * s[5] + 3.0 * s[4]) / (2.0 * h)
    value_jump = np.abs(s[7] - s[0]).max(axis=1, initial=0.0)
    velocity_jump = np.abs(v_end - v_start).max(axis=1, initial=0.0)
    if rotation.any():
        q = math3d.quat_normalize(s[:, rotation, :4])
        value_jump[rotation] = _angle_degrees(q[0], q[7])
        w_jump = _angular_velocity(q[6], q[5], q[4], h) - _angular_velocity(q[1], q[2], q[3], -h)
        velocity_jump[rotation] = np.degrees(np.linalg.norm(w_jump, axis=-1))
    value_tol = np.maximum(VALUE_REL_TOL * motion, np.where(rotation, ANGLE_FLOOR, VALUE_FLOOR))
    velocity_tol = np.maximum.reduce(
        [VELOCITY_REL_TOL * speed, kink, np.where(rotation, ANGULAR_VELOCITY_FLOOR, VELOCITY_FLOOR)]
    )
    return Seams(value_jump, velocity_jump, value_tol, velocity_tol, motion, rotation)


def _angle_degrees(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotation angle between unit quaternions, q ≡ −q; atan2 keeps it exact for tiny angles."""
    return np.degrees(2.0 * math3d.quat_half_angle(b, _near(a, b)))


def _angular_velocity(q1: np.ndarray, q2: np.ndarray, q3: np.ndarray, h: float) -> np.ndarray:
    """Angular velocity (rad/s, parent frame) at the end that q1, q2, q3 (1, 2, 3 steps of ``h`` before it)
    lead to: ω = 2·q̇·q*, with q̇ extrapolated to second order."""
    q_dot = (5.0 * q1 - 8.0 * _near(q2, q1) + 3.0 * _near(q3, q1)) / (2.0 * h)
    return 2.0 * math3d.quat_multiply(q_dot, q1 * CONJUGATE)[..., :3]


def _near(q: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """q or −q (one rotation), whichever lies in ref's hemisphere, so differences measure motion."""
    return q * np.where(np.sum(q * ref, axis=-1, keepdims=True) < 0.0, -1.0, 1.0)


def _ends(clip: Clip) -> Clip:
    """``clip`` with every channel cut to its first and last ``END_KEYS`` keys: the same duration, and the
    same values at any time within 3 key gaps of either end (the steps ``loop_seams`` takes are shorter), as a
    table of a few keys per channel instead of every key of a long take. Rotations aligned key to key
    (``modes.same_hemisphere``) may come out negated on the cut's far side: ``loop_seams`` measures them
    sign-blind."""
    if all(len(c.curve.times) <= 2 * END_KEYS for c in clip.channels):
        return clip
    return Clip(clip.name, clip.index, [_cut(c) for c in clip.channels], clip.parts)


def _cut(channel: Channel) -> Channel:
    c = channel.curve
    n = len(c.times)
    if n <= 2 * END_KEYS:
        return channel
    keep = np.r_[0:END_KEYS, n - END_KEYS : n]
    tangents = {
        k: None if v is None else np.asarray(v)[keep] for k, v in (("in", c.in_tangents), ("out", c.out_tangents))
    }
    curve = replace(
        c,
        times=np.asarray(c.times)[keep],
        values=np.asarray(c.values)[keep],
        in_tangents=tangents["in"],
        out_tangents=tangents["out"],
    )
    return replace(channel, curve=curve)


def _key_motion(clip: Clip, rotation: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per channel, from its keys: range of motion, fastest key-to-key speed, and the largest change of that
    velocity at a key (the kink LINEAR playback shows there).

    Measured over pieces of channels (``_pieces``), a batch of rotations or of other channels at a time, and
    combined by their maxima and minima: the same figures as over whole channels, in memory bounded by
    ``KEY_BATCH``."""
    chans = clip.channels
    n = len(chans)
    width = max([4] + [c.width for c in chans])  # zero padding never moves: no range, speed or kink
    hi, lo = np.full((n, width), -np.inf), np.full((n, width), np.inf)
    turned, speed, kink = np.zeros(n), np.zeros(n), np.zeros(n)
    first = np.zeros((n, 4))
    for c in np.flatnonzero(rotation):
        first[c] = math3d.quat_normalize(np.asarray(chans[c].curve.values[:1, :4], np.float64))[0]
    for kind in (True, False):
        for batch in _pieces(chans, np.flatnonzero(rotation == kind)):
            values, times, starts, channel, piece = _gather(chans, batch, 4 if kind else width)
            np.maximum.at(hi, channel, np.maximum.reduceat(values, starts))
            np.minimum.at(lo, channel, np.minimum.reduceat(values, starts))
            # Interval velocities: units/s, or for rotations angular velocity (degrees/s).
            dt = np.diff(times)
            same = (piece[1:] == piece[:-1]) & (dt > 0.0)
            if kind:
                q = math3d.quat_normalize(values)
                np.maximum.at(turned, channel, np.maximum.reduceat(_angle_degrees(first[channel[piece]], q), starts))
                vel = np.degrees(_rotation_vector(math3d.quat_multiply(q[1:], q[:-1] * CONJUGATE)))
            else:
                vel = np.diff(values, axis=0)
            vel /= np.where(same, dt, 1.0)[:, None]
            kinks, both = np.diff(vel, axis=0), same[1:] & same[:-1]
            size = np.linalg.norm(vel, axis=1) if kind else np.abs(vel).max(axis=1)
            bend = np.linalg.norm(kinks, axis=1) if kind else np.abs(kinks).max(axis=1)
            # Per piece (the masked entries, and two of padding, stand between pieces), then per channel.
            np.maximum.at(speed, channel, np.maximum.reduceat(np.append(np.where(same, size, 0.0), 0.0), starts))
            np.maximum.at(kink, channel, np.maximum.reduceat(np.append(np.where(both, bend, 0.0), [0.0, 0.0]), starts))
    spread = (hi - lo).max(axis=1, initial=0.0) if n else np.zeros(0)
    return np.where(rotation, turned, spread), speed, kink


def _pieces(chans, chosen: np.ndarray) -> list[list[tuple[int, int, int]]]:
    """Batches of ``(channel, first key, stop)`` pieces of the ``chosen`` channels, each batch at most
    ``KEY_BATCH`` keys (+ 2): long channels are cut into pieces that overlap by two keys, so every interval
    and every key's kink lies whole in one piece; short ones go many to a batch."""
    batches, batch, size = [], [], 0
    for c in chosen.tolist():
        keys = len(chans[c].curve.times)
        for start in range(0, max(keys - 2, 1), KEY_BATCH):
            stop = min(keys, start + KEY_BATCH + 2)
            if batch and size + stop - start > KEY_BATCH:
                batches.append(batch)
                batch, size = [], 0
            batch.append((c, start, stop))
            size += stop - start
    return batches + ([batch] if batch else [])


def _gather(chans, pieces, width: int) -> tuple[np.ndarray, ...]:
    """A batch's keys end to end: values (zero-padded, or cut, to ``width``), times, each piece's first row,
    each piece's channel, each row's piece."""
    values = np.zeros((sum(b - a for _, a, b in pieces), width))
    at = 0
    for c, a, b in pieces:
        v = np.asarray(chans[c].curve.values[a:b], np.float64)
        values[at : at + b - a, : min(width, v.shape[1])] = v[:, :width]
        at += b - a
    times = np.concatenate([np.asarray(chans[c].curve.times[a:b], np.float64) for c, a, b in pieces])
    lengths = np.array([b - a for _, a, b in pieces])
    channel = np.array([c for c, _, _ in pieces])
    return values, times, np.cumsum(lengths) - lengths, channel, np.repeat(np.arange(len(pieces)), lengths)


def _rotation_vector(q: np.ndarray) -> np.ndarray:
    """Axis × angle (radians, −π..π) of unit quaternions; q and −q give the same vector, 0 for identity."""
    v, w = q[..., :3] * np.where(q[..., 3:] < 0.0, -1.0, 1.0), np.abs(q[..., 3:])
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v * np.where(n > 0.0, 2.0 * np.arctan2(n, w) / np.where(n > 0.0, n, 1.0), 2.0)
