"""KHR_lights_punctual lights where they are at a pose: the shown lights as rows of arrays, ready to upload.

``world_lights`` takes the world matrices of the current pose (``Pose.world``, math convention, translation in
[:3, 3]) and the values an animation gives the lights (``Pose.properties``). Cone angles and range are not
scaled by the node (the extension says so); only position and direction are. Apart from ``lights.py``
because it reads a ``Scene`` (its cached ``light_table``), and ``scene.py`` imports ``lights.py``.
"""

from __future__ import annotations

import math

import numpy as np

from viewer.scene.lights import DIRECTIONAL, POINT, LightSet
from viewer.scene.scene import Scene

FLOAT32_MAX = float(np.finfo(np.float32).max)  # beyond it a position cannot reach the GPU


def world_lights(
    scene: Scene, world: np.ndarray, properties: dict | None = None, visible: np.ndarray | None = None
) -> LightSet:
    """The shown lights placed by world matrices ``world`` (N, 4, 4), e.g. ``Pose.world`` at the frame's time.

    ``properties`` (``Pose.properties``) replaces the file's colour, intensity, range and cone angles of the
    lights an animation changes (KHR_animation_pointer); a light whose node ``visible`` (N,) is False is dark
    (KHR_node_visibility hides lights too). Both default to the file as it is.

    Degenerate lights keep their row, so the row count is the same at every pose, and are made safe. A
    position that is not finite or beyond float32 becomes 0, a direction that is not finite or of zero length
    (a zero scale flattens −Z) becomes (0, 0, −1); a light that needs what it lost (position: point and spot;
    direction: directional and spot) gets zero radiance.
    """
    table = scene.light_table
    m = world[table.node]
    placed = (np.abs(m[:, :3, 3]) <= FLOAT32_MAX).all(axis=1)  # NaN fails the comparison too
    axis = -m[:, :3, 2]
    biggest = np.abs(axis).max(axis=1, initial=0.0)
    aimed = np.isfinite(axis).all(axis=1) & (biggest > 0.0)
    axis = np.where(aimed[:, None], axis, (0.0, 0.0, -1.0))
    axis = axis / np.abs(axis).max(axis=1, keepdims=True, initial=0.0)  # scaled first: 1e-200 squared is 0
    direction = axis / np.linalg.norm(axis, axis=1, keepdims=True)
    on = (placed | (table.kind == DIRECTIONAL)) & (aimed | (table.kind == POINT))
    if visible is not None:
        on &= visible[table.node]
    radiance, reach, cos_inner, cos_outer = table.radiance, table.range, table.cos_inner, table.cos_outer
    animated = (
        [
            (row, properties[("light", k)])
            for row, k in enumerate(scene.nodes.light[table.node].tolist())
            if ("light", k) in properties
        ]
        if properties
        else []
    )
    if animated:
        radiance, reach, cos_inner, cos_outer = (a.copy() for a in (radiance, reach, cos_inner, cos_outer))
        for row, fields in animated:
            light = scene.lights[scene.nodes.light[table.node[row]]]
            color = np.asarray(fields.get("color", light.color), dtype=np.float64)[:3]
            radiance[row] = color * float(fields.get("intensity", [light.intensity])[0])
            if "range" in fields:
                reach[row] = max(float(fields["range"][0]), 0.0)
            if light.type == "spot":
                inner = float(fields.get("innerConeAngle", [light.inner_cone])[0])
                outer = float(fields.get("outerConeAngle", [light.outer_cone])[0])
                cos_inner[row], cos_outer[row] = spot_cosines(inner, outer)
    return LightSet(
        node=table.node,
        kind=table.kind,
        position=np.where(placed[:, None], m[:, :3, 3], 0.0),
        direction=direction,
        radiance=np.where(on[:, None], radiance, 0.0),
        range=reach,
        cos_inner=cos_inner,
        cos_outer=cos_outer,
    )


def spot_cosines(inner: float, outer: float) -> tuple[float, float]:
    """Cosines of a spot's cone angles as animated: clamped to 0 ≤ inner < outer ≤ π/2 (the extension's rule),
    so a channel that crosses them never makes the falloff divide by zero."""
    outer = min(max(outer, 1e-4), math.pi / 2)
    inner = min(max(inner, 0.0), outer - 1e-4)
    return math.cos(inner), math.cos(outer)
