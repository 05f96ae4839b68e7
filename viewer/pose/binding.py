"""What a clip means for a scene's nodes, whatever the time: ``Binding`` (where each channel row goes) and
``motion_root`` (the node that carries the clip's travel).

Apart from ``pose.py`` because none of it reads a pose's state: it depends only on the clip and the node
tree, so it is worked out once per clip and then shared by every frame — ``Pose.apply``, ``Pose.world_at``,
motion in place and ``compare.views``' list of animated nodes. ``pose`` imports this module, never the
reverse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.animation.clip import Clip
from viewer.scene.scene import Scene


@dataclass(frozen=True)
class Binding:
    """Where a clip's channel rows go: per path, the channel rows and their target nodes."""

    rows: dict[str, np.ndarray]
    nodes: dict[str, np.ndarray]
    weight_channels: tuple[tuple[int, int, int, int], ...]  # (row, node, width, first weight written)
    animated: np.ndarray  # (N,) bool: node has an animated T, R or S
    visible: tuple[np.ndarray, np.ndarray]  # rows and nodes of KHR_node_visibility channels
    properties: tuple[tuple[int, str, int, str, int], ...]  # (row, consumer, index, field, width): materials,
    # cameras and lights (KHR_animation_pointer)


def bind(clip: Clip, node_count: int) -> Binding:
    """Index arrays that route ``clip.sample`` rows to the nodes of a scene of ``node_count`` nodes."""
    rows: dict[str, list[int]] = {"translation": [], "rotation": [], "scale": []}
    nodes: dict[str, list[int]] = {"translation": [], "rotation": [], "scale": []}
    weights, visible, properties = [], ([], []), []
    for row, ch in enumerate(clip.channels):
        if ch.consumer != "node":
            properties.append((row, ch.consumer, ch.index, ch.path, ch.width))
        elif ch.path == "weights":
            weights.append((row, ch.node, ch.width, ch.element or 0))
        elif ch.path == "visible":
            visible[0].append(row)
            visible[1].append(ch.node)
        else:
            rows[ch.path].append(row)
            nodes[ch.path].append(ch.node)
    animated = np.zeros(node_count, dtype=bool)
    for p in nodes:
        animated[nodes[p]] = True
    return Binding(
        {p: np.array(v, dtype=np.int64) for p, v in rows.items()},
        {p: np.array(v, dtype=np.int64) for p, v in nodes.items()},
        tuple(weights),
        animated,
        (np.array(visible[0], dtype=np.int64), np.array(visible[1], dtype=np.int64)),
        tuple(properties),
    )


def motion_root(scene: Scene, clip: Clip) -> int | None:
    """The node whose translation carries a clip's travel: the shallowest node the clip translates
    (a character's hips or root bone sit above everything that swings); among equals, the first in
    file order. None when the clip translates nothing (nothing travels)."""
    nodes = [c.node for c in clip.channels if c.path == "translation"]
    if not nodes:
        return None
    depth = scene.nodes.depth[nodes]
    return int(nodes[int(np.argmin(depth))])
