"""The lights of a frame as ``shaders/lights.glsl`` reads them: the file's KHR_lights_punctual lights where
they are, moved by the pose, or the default studio key light that follows the camera.

Packing is vectorized over lights (one array op per uniform, whatever the count), four vec4 per light;
a file with more than ``MAX_LIGHTS`` lights shown at once draws the first ``MAX_LIGHTS`` in node order and
says so once.
"""

from __future__ import annotations

import numpy as np

from viewer.scene.placed_lights import world_lights

MAX_LIGHTS = 16  # shaders/lights.glsl's MAX_LIGHTS
# The studio key: a directional light from above-left of the camera, so the side we see is lit, in lux
# (a white Lambert surface facing it shows STUDIO_KEY / pi), beside the environment's soft light.
STUDIO_KEY = np.array([2.4, 2.34, 2.2])
KEY_IN_VIEW = np.array([-0.45, 0.75, 0.5])  # (right, up, back) weights in camera axes
LIGHT_MODES = ("auto", "file", "studio")  # auto: the file's lights when it has any, else the studio key


def uses_file_lights(scene, mode: str) -> bool:
    """Whether ``mode`` lights ``scene`` with its own lights."""
    return mode == "file" or (mode == "auto" and bool(scene.lights))


def packed(kind, position, direction, radiance, rng, cos_inner, cos_outer) -> dict[str, object]:
    """Uniform values (bytes of float32 vec4 arrays, padded to MAX_LIGHTS) for n lights given as arrays."""
    n = len(kind)
    out = np.zeros((4, MAX_LIGHTS, 4), dtype=np.float32)
    out[0, :n, :3], out[0, :n, 3] = position, kind
    out[1, :n, :3], out[1, :n, 3] = direction, rng
    out[2, :n, :3] = radiance
    # spot falloff t = clamp(cos * scale + offset): 0 at the outer cone, 1 inside the inner one
    scale = 1.0 / np.maximum(np.asarray(cos_inner, np.float64) - cos_outer, 1e-3)
    out[3, :n, 0], out[3, :n, 1] = scale, -np.asarray(cos_outer) * scale
    return {
        "u_light_count": n,
        "u_light_position": out[0].tobytes(),
        "u_light_direction": out[1].tobytes(),
        "u_light_radiance": out[2].tobytes(),
        "u_light_cone": out[3].tobytes(),
    }


def studio_lights(view: np.ndarray) -> dict[str, object]:
    """The studio key light for a camera with world-to-view matrix ``view``."""
    toward = KEY_IN_VIEW @ view[:3, :3]  # camera axes (rows of the view rotation) to world
    length = float(np.linalg.norm(toward))
    toward = toward / length if length > 0.0 and np.isfinite(length) else np.array([0.0, 1.0, 0.0])
    return packed([0], [[0.0, 0.0, 0.0]], [-toward], [STUDIO_KEY], [0.0], [1.0], [0.0])


def file_lights(scene, pose) -> dict[str, object]:
    """The file's lights at ``pose``: placed by its world matrices, with its animated colours, intensities,
    ranges and cones, dark on hidden nodes."""
    lights = world_lights(scene, pose.world, pose.properties, pose.visible)
    n = len(lights.kind)
    if n > MAX_LIGHTS:
        scene.warn_once(
            "/extensions/KHR_lights_punctual/lights",
            f"{n} lights are shown at once; the first {MAX_LIGHTS} (in node order) are drawn",
        )
    k = slice(0, MAX_LIGHTS)
    return packed(
        lights.kind[k],
        lights.position[k],
        lights.direction[k],
        lights.radiance[k],
        lights.range[k],
        lights.cos_inner[k],
        lights.cos_outer[k],
    )
