"""KHR_lights_punctual: the file's lights, and where they are at a pose.

A light is a property of the file (``Light``, read once at load); a node places it. The light shines along
its node's local −Z, from the node's origin, so a light moves and turns with the animation: ``world_lights``
takes the world matrices of the current pose (``Pose.world``, math convention, translation in [:3, 3]) and
returns every shown light as rows of arrays, ready to upload. Cone angles and range are not scaled by the
node (the extension says so); only position and direction are.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from viewer.gltf.schema import SPOT_DEFAULTS

if TYPE_CHECKING:
    from viewer.scene.scene import Scene

KINDS = ("directional", "point", "spot")  # a light's ``kind`` is its index here
DIRECTIONAL, POINT, SPOT = range(3)
NO_CONE = math.pi  # inner and outer "cone" of a light that is not a spot: it lights every direction fully
FLOAT32_MAX = float(np.finfo(np.float32).max)  # beyond it a position cannot reach the GPU


@dataclass(frozen=True)
class Light:
    """One entry of ``extensions.KHR_lights_punctual.lights``, defaults applied.

    Attributes:
        name: the file's name, else "light K".
        type: "directional", "point" or "spot".
        color: (3,) linear RGB in [0, 1].
        intensity: candela (point, spot) or lux (directional), ≥ 0.
        range: distance (metres) beyond which the light is cut off; None: unlimited (always for directional).
        inner_cone, outer_cone: radians from the spot's axis, 0 ≤ inner < outer ≤ π/2; π and π when not a spot.
    """

    name: str
    type: str
    color: np.ndarray
    intensity: float
    range: float | None
    inner_cone: float
    outer_cone: float

    @property
    def kind(self) -> int:
        return KINDS.index(self.type)


@dataclass(frozen=True)
class LightSet:
    """The shown lights at one pose, one row per node carrying a light, in node order (k rows).

    Attributes:
        node: (k,) glTF node index.
        kind: (k,) 0 directional, 1 point, 2 spot.
        position: (k, 3) world position (the node's world translation).
        direction: (k, 3) unit world direction the light shines towards: local −Z through the world 3×3.
        radiance: (k, 3) colour × intensity; zero for a light switched off because its pose is degenerate.
        range: (k,) cut-off distance, 0 for unlimited.
        cos_inner, cos_outer: (k,) cosines of the cone angles; a spot has cos_inner > cos_outer, other kinds
            −1 and −1 (the cone applies to kind 2 only).
    """

    node: np.ndarray
    kind: np.ndarray
    position: np.ndarray
    direction: np.ndarray
    radiance: np.ndarray
    range: np.ndarray
    cos_inner: np.ndarray
    cos_outer: np.ndarray

    def __len__(self) -> int:
        return len(self.node)


def parse_lights(raw: dict) -> tuple[Light, ...]:
    """Every light of a validated document (none without the extension)."""
    lights = raw.get("extensions", {}).get("KHR_lights_punctual", {}).get("lights", [])
    return tuple(_light(light, k) for k, light in enumerate(lights))


def _light(light: dict, index: int) -> Light:
    kind = light["type"]
    spot = {**SPOT_DEFAULTS, **light.get("spot", {})} if kind == "spot" else {}
    color = np.array(light.get("color", (1.0, 1.0, 1.0)), dtype=np.float64)
    color.setflags(write=False)
    return Light(
        name=light.get("name") or f"light {index}", type=kind, color=color,
        intensity=float(light.get("intensity", 1.0)),
        range=float(light["range"]) if "range" in light and kind != "directional" else None,
        inner_cone=float(spot.get("innerConeAngle", NO_CONE)), outer_cone=float(spot.get("outerConeAngle", NO_CONE)))


def node_lights(nodes: list[dict]) -> np.ndarray:
    """(N,) light index of each node, −1 for none. Only nodes with extensions are looked into: most have none."""
    light = np.full(len(nodes), -1, dtype=np.int64)
    for n in [n for n, node in enumerate(nodes) if "extensions" in node]:
        light[n] = nodes[n]["extensions"].get("KHR_lights_punctual", {}).get("light", -1)
    return light


def static_light_rows(scene: Scene) -> LightSet:
    """The rows of ``world_lights`` that do not depend on the pose (position and direction left zero).

    Built once per scene (``Scene.light_table``): the shown nodes are found with one pass over all nodes.
    """
    node = np.flatnonzero((scene.nodes.light >= 0) & scene.shown)
    lights = [scene.lights[i] for i in scene.nodes.light[node].tolist()]
    kind = np.array([light.kind for light in lights], dtype=np.int64)
    radiance = np.array([light.color * light.intensity for light in lights], dtype=np.float64).reshape(-1, 3)
    return LightSet(
        node=node, kind=kind, position=np.zeros((len(node), 3)), direction=np.zeros((len(node), 3)),
        radiance=radiance, range=np.array([light.range or 0.0 for light in lights], dtype=np.float64),
        cos_inner=np.cos(np.array([light.inner_cone for light in lights], dtype=np.float64)),
        cos_outer=np.cos(np.array([light.outer_cone for light in lights], dtype=np.float64)))


def world_lights(scene: Scene, world: np.ndarray, properties: dict | None = None,
                 visible: np.ndarray | None = None) -> LightSet:
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
    animated = [(row, properties[("light", k)]) for row, k in enumerate(scene.nodes.light[table.node].tolist())
                if ("light", k) in properties] if properties else []
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
        node=table.node, kind=table.kind, position=np.where(placed[:, None], m[:, :3, 3], 0.0),
        direction=direction, radiance=np.where(on[:, None], radiance, 0.0), range=reach,
        cos_inner=cos_inner, cos_outer=cos_outer)


def spot_cosines(inner: float, outer: float) -> tuple[float, float]:
    """Cosines of a spot's cone angles as animated: clamped to 0 ≤ inner < outer ≤ π/2 (the extension's rule),
    so a channel that crosses them never makes the falloff divide by zero."""
    outer = min(max(outer, 1e-4), math.pi / 2)
    inner = min(max(inner, 0.0), outer - 1e-4)
    return math.cos(inner), math.cos(outer)
