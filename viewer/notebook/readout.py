"""The node readout under the player: what a clicked joint holds at the playhead, as numbers.

A picture shows where a joint is, not its values; this is the window's node panel in a notebook's terms — the
node's name and parent, its local translation, rotation ([x, y, z, w], as in glTF) and scale, its world position,
and which of them the clip animates — at the time and in the mode the view shows. Plain numpy on a ``Pose``;
the HTML escapes every name (a file may name a node ``<script>``).
"""

from __future__ import annotations

import html

import numpy as np

from viewer.animation.clip import Clip
from viewer.pose.pose import Pose


def node_values(pose: Pose, clip: Clip | None, node: int) -> dict:
    """The readout of ``node`` in a posed ``pose`` (``pose.set_time`` already called) as plain data."""
    nodes = pose.scene.nodes
    parent = int(nodes.parent[node])
    animated = sorted({ch.path for ch in clip.channels if ch.node == node}) if clip is not None else []
    return {
        "node": int(node),
        "name": str(nodes.names[node]),
        "parent": None if parent < 0 else str(nodes.names[parent]),
        "translation": pose.translation[node].tolist(),
        "rotation": pose.rotation[node].tolist(),
        "scale": pose.scale[node].tolist(),
        "world_position": pose.world[node, :3, 3].tolist(),
        "animated": animated,
    }


def _row(label: str, values, animated: bool) -> str:
    text = ", ".join(f"{v:.4g}" for v in np.asarray(values, dtype=np.float64))
    mark = " ●" if animated else ""
    return f"<tr><td style='padding:0 8px 0 0'>{label}{mark}</td><td style='padding:0'><code>[{text}]</code></td></tr>"


def readout_html(values: dict | None, t: float, mode: str) -> str:
    """The readout as a small HTML table (``values`` from ``node_values``; None: how to pick one)."""
    if values is None:
        return "<span style='color:#777'>Click a joint in the view to read its values.</span>"
    parent = f" · parent {html.escape(values['parent'])}" if values["parent"] is not None else " · a root"
    title = f"<b>{html.escape(values['name'])}</b> (node {values['node']}){parent} · {t:.3f} s, {html.escape(mode)}"
    animated = set(values["animated"])
    rows = [
        _row("translation", values["translation"], "translation" in animated),
        _row("rotation [x y z w]", values["rotation"], "rotation" in animated),
        _row("scale", values["scale"], "scale" in animated),
        _row("world position", values["world_position"], False),
    ]
    note = "<span style='color:#777'>● animated by the clip</span>" if animated else ""
    return f"<div>{title}<table style='font-size:90%'>{''.join(rows)}</table>{note}</div>"
