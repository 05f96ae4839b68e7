"""The packed tables the kernels read, built once per clip table (``TablePlan``) and per pose, clip and
mode (``FramePlan``), so a frame is one kernel call with no Python work per channel, node or joint.

Nothing here imports numba: a plan holds numpy arrays and calls whatever kernels module it is handed.
"""

from __future__ import annotations

import numpy as np

from viewer.fast import kernels_layout as layout

TARGETS = {
    "translation": layout.T_TRANSLATION,
    "rotation": layout.T_ROTATION,
    "scale": layout.T_SCALE,
    "weights": layout.T_WEIGHTS,
    "visible": layout.T_VISIBLE,
}
# Frames per batch-kernel call: bounds the values one chunk holds (``chunks``) whatever the clip's size.
CHUNK_VALUES = 1 << 18


class TablePlan:
    """A ``ChannelTable``'s regions as the kernels take them, and its channels' keys packed end to end.

    Args:
        table: the clip's table in one mode (``animation/table.py``).
    """

    def __init__(self, table) -> None:
        counts = np.array([len(t) for t in table.key_times], dtype=np.int64)
        channels = len(counts)
        self.ktimes = (
            np.ascontiguousarray(np.concatenate(table.key_times), dtype=np.float64) if channels else np.zeros(0)
        )
        self.ch = np.zeros((channels, 7), dtype=np.int64)
        self.ch[:, 0] = np.cumsum(counts) - counts
        self.ch[:, 1] = counts
        self.ch[:, 2] = table.search.bases
        self.ch[:, 3] = layout.T_OTHER
        self.ch[:, 5] = -1
        self.coef = table.coefs  # (P, R, W), P = 2 or 4, C-contiguous: shared with the table, never copied
        self.seg = np.ascontiguousarray(table.seg, dtype=np.float64)
        self.norm = np.ascontiguousarray(table.norm, dtype=np.float64)
        self.last = self.ch[:, 2].copy()  # each channel's region last time: playback mostly stays in it
        self.lo, self.hi = -float(table.search.margin), float(table.search.hi)
        self.width = int(table.width)

    def sample(self, k, t: float) -> np.ndarray:
        """Values (C, W) at one time."""
        out = np.empty((1, len(self.ch), self.width))
        k.sample(t, self.lo, self.hi, self.coef, self.seg, self.ktimes, self.ch, self.norm, self.last, out)
        return out[0]

    def sample_batch(self, k, times: np.ndarray, out: np.ndarray) -> None:
        """Values at F times into out (F, C, W)."""
        k.sample_batch(times, self.lo, self.hi, self.coef, self.seg, self.ktimes, self.ch, self.norm, self.last, out)


class FramePlan:
    """One clip in one mode bound to one pose's nodes, weights and skins: ``Pose.set_time`` as one call.

    Args:
        pose: the pose whose state buffers the kernel writes (``Pose.state``, ``Pose.flags``).
        clip: the clip.
        mode: interpolation mode.
    """

    def __init__(self, pose, clip, mode: str) -> None:
        table = clip.table(mode)
        base = table.plan()
        # A long clip's table is a window at a time (``animation/windows.py``): ``run`` rebinds the kernel's
        # arrays to the window each time falls in.
        self.windows, self.window = (table, 0) if hasattr(table, "window_of") else (None, 0)
        scene, nodes = pose.scene, pose.scene.nodes
        ch = base.ch.copy()
        animated = np.zeros(len(nodes), dtype=bool)
        self.properties = []
        for row, channel in enumerate(clip.channels):
            kind = TARGETS.get(channel.path, layout.T_OTHER) if channel.consumer == "node" else layout.T_OTHER
            ch[row, 3:5] = kind, max(channel.node, 0)
            if kind in (layout.T_TRANSLATION, layout.T_ROTATION, layout.T_SCALE):
                animated[channel.node] = True
            elif kind == layout.T_WEIGHTS and pose.weights[channel.node] is not None:
                first = channel.element or 0
                ch[row, 5] = pose.weight_start[channel.node] + first
                ch[row, 6] = max(0, min(channel.width, len(pose.weights[channel.node]) - first))
            elif channel.consumer != "node":
                self.properties.append((row, channel.consumer, channel.index, channel.path, channel.width))
        self.matrix_nodes = np.flatnonzero(nodes.has_matrix & ~animated)
        order = np.asarray(nodes.order, dtype=np.int64)
        nd = np.stack([order, nodes.parent[order], (nodes.has_matrix & ~animated)[order]], axis=1)
        skins = scene.skins
        jt = [np.stack([s.joints, np.full(len(s.joints), k)], axis=1) for k, s in enumerate(skins)]
        ibm = [s.inverse_bind for s in skins]
        self.coef, self.seg, self.ktimes = base.coef, base.seg, base.ktimes
        floats = {
            "bounds": np.array([base.lo, base.hi]),
            layout.H_NORM: base.norm,
            layout.H_REST_TRS: pose.rest_trs,
            layout.H_REST_W: pose.rest_weights,
            layout.H_REST_M: nodes.matrix,
            layout.H_IBM: np.concatenate(ibm) if ibm else np.zeros(0),
            layout.H_VALUES: np.zeros((len(ch), base.width)),
        }
        ints = {
            layout.H_CH: ch,
            layout.H_LAST: base.ch[:, 2],
            layout.H_ND: nd,
            layout.H_JT: np.concatenate(jt) if jt else np.zeros(0),
        }
        self.pf, float_at = _pack(floats, np.float64, 0)
        self.pi, int_at = _pack(ints, np.int64, layout.HEADER)
        for key, offset in {**float_at, **int_at}.items():
            if key != "bounds":  # [lo, hi] of the clamp sit at pf[0:2]
                self.pi[key] = offset
        sizes = (len(ch), base.width, len(nodes), len(pose.rest_weights), sum(len(s.joints) for s in skins), len(skins))
        for key, size in zip((layout.H_C, layout.H_W, layout.H_N, layout.H_NW, layout.H_J, layout.H_S), sizes):
            self.pi[key] = size
        self.pb = np.ascontiguousarray(nodes.visible, dtype=bool)
        a = int(self.pi[layout.H_VALUES])
        self.values = self.pf[a : a + len(ch) * base.width].reshape(len(ch), base.width)
        """The sampled values (C, W) of the last frame: properties of materials, cameras and lights."""

    def run(self, k, pose, t: float) -> tuple[int, int]:
        """Pose the scene at t: every buffer of ``pose`` written; returns the counts of undrawable nodes and
        skins."""
        if self.windows is not None:
            window, table = self.windows.table_for(t)
            if window is None or window != self.window:
                self.window = window
                self._bind(table.plan())
        return k.pose_frame(t, self.coef, self.seg, self.ktimes, self.pf, self.pi, self.pb, pose.state, pose.flags)

    def _bind(self, base: TablePlan) -> None:
        """Point the kernel at another window's table: its regions, keys, per-channel offsets and clamp."""
        self.coef, self.seg, self.ktimes = base.coef, base.seg, base.ktimes
        c = len(base.ch)
        at = int(self.pi[layout.H_CH])
        self.pi[at : at + 7 * c].reshape(c, 7)[:, :3] = base.ch[:, :3]
        at = int(self.pi[layout.H_LAST])
        self.pi[at : at + c] = base.ch[:, 2]
        at = int(self.pi[layout.H_NORM])
        self.pf[at : at + c] = base.norm
        self.pf[0:2] = base.lo, base.hi


def _pack(arrays: dict, dtype, start: int) -> tuple[np.ndarray, dict]:
    """Arrays end to end in one flat buffer of ``dtype`` after ``start`` free slots; their offsets."""
    offsets, at = {}, start
    for key, a in arrays.items():
        offsets[key] = at
        at += int(np.size(a))
    buf = np.zeros(at, dtype=dtype)
    for key, a in arrays.items():
        buf[offsets[key] : offsets[key] + int(np.size(a))] = np.ravel(a)
    return buf, offsets


def chunks(frames: int, channels: int, width: int, limit: int = CHUNK_VALUES) -> range:
    """Start frames of chunks holding at most ``limit`` values (at least one frame each)."""
    return range(0, frames, max(1, limit // max(1, channels * width)))
