"""KHR_lights_punctual: the file's lights, and the rows of them that a pose does not change.

A light is a property of the file (``Light``, read once at load); a node places it. The light shines along
its node's local −Z, from the node's origin, so a light moves and turns with the animation:
``placed_lights.world_lights`` places the rows built here (``LightSet``, ``static_light_rows``) at a pose.
This module is what ``scene.py`` builds a ``Scene`` from, so it takes plain data and imports no ``Scene``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from viewer.gltf.schema import SPOT_DEFAULTS

KINDS = ("directional", "point", "spot")  # a light's ``kind`` is its index here
DIRECTIONAL, POINT, SPOT = range(3)
NO_CONE = math.pi  # inner and outer "cone" of a light that is not a spot: it lights every direction fully


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
        name=light.get("name") or f"light {index}",
        type=kind,
        color=color,
        intensity=float(light.get("intensity", 1.0)),
        range=float(light["range"]) if "range" in light and kind != "directional" else None,
        inner_cone=float(spot.get("innerConeAngle", NO_CONE)),
        outer_cone=float(spot.get("outerConeAngle", NO_CONE)),
    )


def node_lights(nodes: list[dict]) -> np.ndarray:
    """(N,) light index of each node, −1 for none. Only nodes with extensions are looked into: most have none."""
    light = np.full(len(nodes), -1, dtype=np.int64)
    for n in [n for n, node in enumerate(nodes) if "extensions" in node]:
        light[n] = nodes[n]["extensions"].get("KHR_lights_punctual", {}).get("light", -1)
    return light


def static_light_rows(lights: Sequence[Light], node_light: np.ndarray, shown: np.ndarray) -> LightSet:
    """The rows of ``placed_lights.world_lights`` that do not depend on the pose (position and direction left
    zero), for a scene's ``lights``, each node's light index ``node_light`` (N,) (``node_lights``) and which
    nodes are ``shown`` (N,) bool.

    Built once per scene (``Scene.light_table``): the shown nodes are found with one pass over all nodes.
    """
    node = np.flatnonzero((node_light >= 0) & shown)
    lights = [lights[i] for i in node_light[node].tolist()]
    kind = np.array([light.kind for light in lights], dtype=np.int64)
    radiance = np.array([light.color * light.intensity for light in lights], dtype=np.float64).reshape(-1, 3)
    return LightSet(
        node=node,
        kind=kind,
        position=np.zeros((len(node), 3)),
        direction=np.zeros((len(node), 3)),
        radiance=radiance,
        range=np.array([light.range or 0.0 for light in lights], dtype=np.float64),
        cos_inner=np.cos(np.array([light.inner_cone for light in lights], dtype=np.float64)),
        cos_outer=np.cos(np.array([light.outer_cone for light in lights], dtype=np.float64)),
    )
