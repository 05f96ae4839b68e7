"""Comparing interpolation modes side by side: pane layout, mode colours, trails, curves and readouts.

Pure numpy (no GL, no window), so every number the compare view draws is tested on its own:

* ``pane_rects``: 2–3 panes side by side in one row, 4 panes as 2 × 2 (window pixels, origin top-left).
* ``trail``: the world-space path of nodes over the whole clip in one mode, sampled densely with one
  batch ``Clip.sample(times, mode)`` and posed for all F times at once (T·R·S composed for (F, N) and
  multiplied down the hierarchy level by level with batched matmul — the same rule as ``pose.py``).
* ``curve``: one channel's components over time per mode, as a ``Series`` (rotations also as Euler degrees).
* ``readout``: the selected node's local values in every mode at one time, and the difference from
  ``authored``; with the scene, also those of its material(s), camera and light (``related_channels``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import MODES
from viewer.base import math3d
from viewer.pose.pose import Pose
from viewer.scene.scene import Scene

MIN_PANES, MAX_PANES = 2, 4
DEFAULT_TRAILS = 3  # nodes followed by trails when none is selected
TRAIL_SAMPLES = 240  # even samples over the clip, key times added (enough for a smooth polyline)
# The one colour table of the modes (sRGB 0..1): trails, curve lines, pane labels and the dope sheet's
# authored-interpolation rows all use it, so a mode looks the same everywhere.
MODE_COLORS = {
    "authored": (0.92, 0.92, 0.92),
    "step": (0.95, 0.35, 0.30),
    "linear": (0.35, 0.85, 0.40),
    "cubicspline": (0.35, 0.60, 1.00),
    "catmull-rom": (1.00, 0.75, 0.20),
    "cubic-zero": (0.85, 0.45, 1.00),
}
PixelRect = tuple[int, int, int, int]  # (x, y, w, h) in whole pixels; the ui's imgui rects are float


def mode_rgb255(mode: str) -> tuple[int, int, int]:
    """``MODE_COLORS[mode]`` in 0..255, for drawing APIs that take bytes (Pillow, imgui's packed colours)."""
    return tuple(round(255 * c) for c in MODE_COLORS[mode])


def parse_modes(text: str, names=MODES, what: str = "interpolation mode") -> tuple[str, ...]:
    """``"step,linear,catmull-rom"`` → the modes, checked: 2–4 distinct names from ``names`` (default ``MODES``;
    ``compare.players`` passes the engines' names too), ``what`` naming them in the message.

    Raises:
        ValueError: with a one-line message saying what is wrong.
    """
    items = tuple(m.strip() for m in text.split(",") if m.strip())
    unknown = [m for m in items if m not in names]
    if unknown:
        raise ValueError(f"unknown {what} {unknown[0]!r}; choose from {', '.join(names)}")
    if len(set(items)) != len(items):
        raise ValueError(f"each mode may appear once, got {text!r}")
    if not MIN_PANES <= len(items) <= MAX_PANES:
        raise ValueError(f"compare wants {MIN_PANES} to {MAX_PANES} modes, got {len(items)}")
    return items


def modes_argument(text: str, names=MODES, what: str = "interpolation mode") -> tuple[str, ...]:
    """``parse_modes`` for argparse (``--compare``): a bad list is an argument error, one line."""
    import argparse

    try:
        return parse_modes(text, names, what)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def pane_rects(count: int, width: int, height: int) -> list[PixelRect]:
    """(x, y, w, h) pixel rectangles (origin top-left) of ``count`` panes filling width × height.

    1–3 panes share one row; 4 panes form a 2 × 2 grid (reading order). Rectangles tile the area exactly:
    the last column and row take the pixels a whole-number split leaves over.
    """
    if count < 1:
        return []
    cols, rows = (2, 2) if count == 4 else (count, 1)
    xs = [round(width * i / cols) for i in range(cols + 1)]
    ys = [round(height * j / rows) for j in range(rows + 1)]
    return [(xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j]) for j in range(rows) for i in range(cols)][:count]


def gl_viewport(rect: PixelRect, height: int) -> PixelRect:
    """An (x, y, w, h) rectangle with origin top-left as an OpenGL viewport (origin bottom-left)."""
    x, y, w, h = rect
    return x, height - y - h, w, h


# A jump is a change at a key larger than this fraction of the trail's extent (float noise is far below).
JUMP_TOLERANCE = 1e-6


def trail_times(clip: Clip, samples: int = TRAIL_SAMPLES) -> np.ndarray:
    """Dense times (seconds) over the clip: ``samples`` even ones plus every key time, sorted, unique."""
    return np.union1d(np.linspace(0.0, clip.duration, max(int(samples), 2)), clip.key_times)


def animated_nodes(scene: Scene, clip: Clip) -> np.ndarray:
    """Nodes whose translation, rotation or scale the clip animates (the default trail nodes)."""
    return np.flatnonzero(Pose(scene).binding(clip).animated)


def world_positions(scene: Scene, clip: Clip, times: np.ndarray, mode: str) -> np.ndarray:
    """World-space origins (F, N, 3) of every node at each of F times (seconds) in ``mode``."""
    return Pose(scene).world_at(clip, times, mode)[..., :3, 3]


@dataclass(frozen=True)
class Trail:
    """One mode's motion trail.

    Attributes:
        mode: the interpolation mode.
        nodes: (K,) node indices followed.
        times: (F,) sample times, seconds (every key time among them).
        points: (F, K, 3) world positions of each node at each time.
        key_times: (M,) the clip's key times, seconds.
        key_points: (M, K, 3) world positions at the key times.
        jumps: (F − 1, K) True where the segment from sample i to i + 1 ends on a key at which the path
            jumps (its value there differs from the value just before, as STEP does): no motion happens
            along such a segment, so it must not be drawn.
        label, rgb: the pane it belongs to and its colour ("" and None: the mode names and colours it; two
            files' panes may share a mode).
    """

    mode: str
    nodes: np.ndarray
    times: np.ndarray
    points: np.ndarray
    key_times: np.ndarray
    key_points: np.ndarray
    jumps: np.ndarray
    label: str = ""
    rgb: tuple[float, float, float] | None = None

    @property
    def owner(self) -> str:
        """The pane this trail is drawn opaque in (its label, else its mode)."""
        return self.label or self.mode

    @property
    def color(self) -> tuple[float, float, float]:
        return self.rgb if self.rgb is not None else MODE_COLORS[self.mode]

    def at(self, t: float) -> np.ndarray:
        """(K, 3) positions at time t (seconds), linearly between samples (for the current-time marker)."""
        flat = self.points.reshape(len(self.times), -1)
        at = [np.interp(t, self.times, flat[:, j]) for j in range(flat.shape[1])]
        return np.asarray(at).reshape(self.points.shape[1:])


def trail(
    scene: Scene,
    clip: Clip,
    mode: str,
    nodes: np.ndarray | None = None,
    samples: int = TRAIL_SAMPLES,
    played=None,
    keys: np.ndarray | None = None,
) -> Trail:
    """The world path of ``nodes`` (default: every animated node) over the whole clip in ``mode``. ``played``
    maps clock times to the clip times shown (an engine's player wraps at the end); the trail keeps clock times,
    so its marker sits where the pane's pose is. ``keys``: the times to mark (default the clip's key times; an
    engine's rewritten clip has knots of its own that are no keys of the file)."""
    nodes = animated_nodes(scene, clip) if nodes is None else np.asarray(nodes, dtype=np.int64).reshape(-1)
    at = played or (lambda t: t)
    keys = clip.key_times if keys is None else np.asarray(keys, np.float64)
    times = np.union1d(trail_times(clip, samples), keys)
    points = world_positions(scene, clip, at(times), mode)[:, nodes]
    key_index = np.searchsorted(times, keys)
    # The value an instant before each key: where it differs from the key's own value the path jumps.
    just_before = world_positions(scene, clip, at(np.nextafter(keys, -np.inf)), mode)[:, nodes]
    flat = points.reshape(-1, 3)  # no nodes at all when the clip drives only morph weights
    size = max(float(np.ptp(flat, axis=0).max(initial=0.0)), 1e-9) if len(flat) else 1e-9
    jumped = np.linalg.norm(points[key_index] - just_before, axis=-1) > JUMP_TOLERANCE * size  # (M, K)
    jumps = np.zeros((len(times) - 1, len(nodes)), dtype=bool)
    inner = key_index > 0
    jumps[key_index[inner] - 1] = jumped[inner]
    return Trail(mode, nodes, times, points, keys.copy(), points[key_index], jumps)


def moving_nodes(scene: Scene, clip: Clip, most: int = DEFAULT_TRAILS, samples: int = 64) -> np.ndarray:
    """The ``most`` animated nodes whose world origins travel farthest over the clip (authored mode), in node
    order: the default trails. Fox animates 21 nodes; 21 trails bury the mesh, three tell the motion."""
    nodes = animated_nodes(scene, clip)
    if len(nodes) <= most:
        return nodes
    path = world_positions(scene, clip, trail_times(clip, samples), "authored")[:, nodes]  # (F, K, 3)
    travel = np.linalg.norm(np.diff(path, axis=0), axis=-1).sum(axis=0)
    return np.sort(nodes[np.argsort(-travel, kind="stable")[:most]])


def ghost_poses(scene: Scene, clip: Clip, mode: str) -> list[Pose]:
    """The scene posed at every key time of ``clip`` in ``mode``: the faded "ghosts" of the compare view.

    They do not depend on the playback time, so callers build them once per clip and mode.
    """
    poses = []
    for t in clip.key_times.tolist():
        pose = Pose(scene)
        pose.set_time(clip, t, mode)
        poses.append(pose)
    return poses


@dataclass(frozen=True)
class Series:
    """One channel's values over time in one mode, sampled (``animation.modes.Curve`` is the keys it comes from).

    Attributes:
        times: (F,) seconds.
        values: (F, W) the channel's components (quaternion [x, y, z, w] for rotations).
        euler: (F, 3) intrinsic X-Y-Z Euler degrees for rotations, else None.
        key_times, key_values: the channel's own keys as this mode passes them, (M,) and (M, W).
    """

    times: np.ndarray
    values: np.ndarray
    euler: np.ndarray | None
    key_times: np.ndarray
    key_values: np.ndarray
    names: tuple[str, ...] = ()  # component names (``component_names``); empty: guessed from the width

    def components(self, euler: bool, degrees: str = "°") -> tuple[np.ndarray, np.ndarray, list[str]]:
        """What a plot of it shows: (F, K) values, (M, K) key values and K component names.

        With ``euler`` a rotation is shown as X-Y-Z Euler angles (``degrees`` is the unit's label: the
        window's font has no °), which read better than quaternion components.
        """
        if euler and self.euler is not None:
            return self.euler, math3d.quat_to_euler_degrees(self.key_values), [a + degrees for a in "XYZ"]
        width = self.values.shape[1]
        names = list("xyzw"[:width]) if width in (3, 4) else [f"w{k}" for k in range(width)]
        return self.values, self.key_values, list(self.names) or names


def component_names(ch: Channel) -> tuple[str, ...]:
    """What each of a channel's components is called on a plot axis: a colour's r g b a, a scalar's field
    (``yfov``), one morph weight's ``w2``; "w0" on a field of view would read as a morph weight."""
    if ch.consumer == "node" and ch.path == "weights":
        first = ch.element or 0
        return tuple(f"w{first + k}" for k in range(ch.width))
    if ch.width == 1:
        return (ch.path.rsplit(".", 1)[-1] if "." in ch.path else ch.path,)
    if "Color" in ch.path or ch.path in ("color", "emissiveFactor"):
        return tuple("rgba"[: ch.width])
    return tuple("xyzw"[: ch.width])


def curve(clip: Clip, channel: int, mode: str, times: np.ndarray | None = None, played=None) -> Series:
    """Channel ``channel``'s curve in ``mode``, sampled at ``times`` (default ``trail_times``) for plotting;
    ``played`` maps those clock times to the clip times shown (as ``trail``'s: an engine's player)."""
    at = played or (lambda t: t)
    times = trail_times(clip) if times is None else np.asarray(times, dtype=np.float64).reshape(-1)
    ch = clip.channels[channel]
    keys = clip.channel_key_times(channel)
    values = clip.sample(at(times), mode)[:, channel, : ch.width]
    key_values = clip.sample(at(keys), mode)[:, channel, : ch.width]
    rotation = ch.curve.rotation
    if rotation:  # as ``animview sample`` reports them: unit quaternions
        values, key_values = math3d.quat_normalize(values), math3d.quat_normalize(key_values)
    euler = math3d.quat_to_euler_degrees(values) if rotation else None
    return Series(times, values, euler, keys, key_values, component_names(ch))


def moving_components(values: np.ndarray) -> list[int]:
    """Columns of (F, K) plotted values that change (at least the first): a translation's constant z
    gets no plot, so the others get the room."""
    return [k for k in range(values.shape[1]) if np.ptp(values[:, k]) > 1e-9] or [0]


def related_channels(scene: Scene, clip: Clip, node: int) -> list[int]:
    """Rows of ``clip`` that belong to ``node``: its own channels, then those of the materials its mesh uses,
    its camera and its light (in that order, each in file order). A material's colour is no node channel, yet
    a user who picks the mesh expects to see it among that node's values and curves."""
    nodes = scene.nodes
    if not 0 <= node < len(nodes):
        return []
    owners = {("camera", int(nodes.camera[node])), ("light", int(nodes.light[node]))}
    if nodes.mesh[node] >= 0:
        owners |= {("material", p.material) for p in scene.meshes[nodes.mesh[node]].primitives}
    channels = clip.channels
    own = [c for c, ch in enumerate(channels) if ch.consumer == "node" and ch.node == node]
    others = [c for c, ch in enumerate(channels) if ch.consumer != "node" and (ch.consumer, ch.index) in owners]
    return own + sorted(others, key=lambda c: _OWNER_ORDER[channels[c].consumer])


_OWNER_ORDER = {"material": 0, "camera": 1, "light": 2}  # what a mesh node's rows list first after its own


def readout_key(ch: Channel) -> str:
    """A readout row's name: the node's own path (``"weights[2]"`` for one weight; the node heads the readout)
    or the object and its field (``"material 0 · baseColorFactor"``)."""
    if ch.consumer != "node":
        return ch.label(())
    return ch.path if ch.element is None else f"{ch.path}[{ch.element}]"


def readout(
    clip: Clip, node: int, t: float, modes: tuple[str, ...], scene: Scene | None = None, played=None
) -> dict[str, dict[str, np.ndarray]]:
    """The node's animated values at time t (seconds) per mode: {mode: {key: (W,)}} (keys: ``readout_key``).

    Without ``scene`` only the node's own channels; with it also its material(s), camera and light
    (``related_channels``). A ``"Δ " + key`` entry holds the difference from ``authored`` (for rotations, the
    angle between the two quaternions in degrees, which does not depend on the quaternions' signs). ``played``:
    per entry of ``modes`` that is no mode, the (clip, clip time, mode) it samples (an engine's: same channels).
    """
    rows = (
        related_channels(scene, clip, node)
        if scene is not None
        else [c for c, ch in enumerate(clip.channels) if ch.consumer == "node" and ch.node == node]
    )
    reference = clip.sample(float(t), "authored")
    out: dict[str, dict[str, np.ndarray]] = {}
    for mode in modes:
        source, at, how = (played or {}).get(mode, (clip, t, mode))
        values = source.sample(float(at), how)
        entry: dict[str, np.ndarray] = {}
        for c in rows:
            ch = clip.channels[c]
            key, v, ref = readout_key(ch), values[c, : ch.width], reference[c, : ch.width]
            entry[key] = v.copy()
            if ch.curve.rotation:
                entry["Δ " + key] = np.atleast_1d(np.degrees(math3d.quat_angle_between(v, ref)))
            else:
                entry["Δ " + key] = v - ref
        out[mode] = entry
    return out
