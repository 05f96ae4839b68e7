"""Which pass draws an item, and the view depths the passes sort their items by.

Order (glTF 2.0 §3.9.4): OPAQUE and MASK items nearest first (only to save shading), transmissive items and then
BLEND items far to near. A module of its own because the order is a pure reading of materials and the pose, with
no GL: ``renderer`` draws what it decides, and a change to the order is read and tested here, apart from the
passes' GL state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.base import math3d
from viewer.pose.pose import Pose
from viewer.render.gpu_mesh import GpuPrimitive
from viewer.scene.scene import Scene


def pass_of(material) -> str:
    """The pass that draws a material: "opaque" (OPAQUE, MASK), "transmission" (it refracts what the opaque
    pass drew, so it comes after it) or "blend" (alpha blended, back to front, last)."""
    if material.transmission is not None and not material.unlit:
        return "transmission"
    return "blend" if material.alpha_mode == "BLEND" else "opaque"


@dataclass(frozen=True)
class DrawItem:
    node: int
    primitive: GpuPrimitive
    skin: int  # -1: the node's world matrix places it


def view_depths(items: list[DrawItem], pose: Pose, view: np.ndarray, scene: Scene) -> np.ndarray:
    """View-space z of each primitive's centre (skinned: the mean of its joints' world positions);
    an overflow (a huge but drawable node) sorts as 0 rather than NaN."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.nan_to_num(np.array([_view_depth(it, pose, view, scene) for it in items]))


def _view_depth(item: DrawItem, pose: Pose, view: np.ndarray, scene: Scene) -> float:
    if item.skin >= 0:
        center = pose.world[scene.skins[item.skin].joints][:, :3, 3].mean(axis=0)
    else:
        center = math3d.transform_points(pose.world[item.node], item.primitive.center)
    return float((view @ np.append(center, 1.0))[2])
