"""The look of a frame — how light and the picture's tone are made — as options and as shader uniforms.

``Look`` is what the View section's look sets and ``render``'s look flags give; ``eye_uniform`` tells the
shader where reflections are seen from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.render.camera import eye_position
from viewer.render.limits import F32_MAX

TONEMAPS = {"none": 0, "pbr-neutral": 1, "aces": 2}  # shaders/tonemap.glsl's u_tonemap


@dataclass
class Look:
    """How light and the picture's tone are made: the View section's look, ``render``'s look flags.

    Attributes:
        environment, env_intensity: the studio environment's light on the materials (image-based light).
        env_background: show the environment, blurred, behind the scene instead of the background colour.
        tonemap: "pbr-neutral" (Khronos PBR Neutral), "aces" (ACES filmic) or "none" (clamp).
        exposure: EV stops; the shaded radiance is multiplied by 2^exposure before tone mapping.
        lights: "auto" (the file's KHR_lights_punctual lights when it has any, else the studio key light),
            "file" or "studio".
        aa: anti-aliasing, one of ``render.antialias.AA_MODES``: "auto" (MSAA, or FXAA on scenes of more
            triangles than MSAA pays for), "msaa", "fxaa" or "off".
    """

    environment: bool = True
    env_intensity: float = 1.0
    env_background: bool = False
    tonemap: str = "pbr-neutral"
    exposure: float = 0.0
    lights: str = "auto"
    aa: str = "auto"


def eye_uniform(view: np.ndarray, proj: np.ndarray) -> tuple[float, float, float, float]:
    """``u_eye``: (eye position, 1) for a perspective camera; for an orthographic one (its projection's last
    row is (0, 0, 0, 1)) every pixel looks the same way, so (unit direction toward the camera, 0) — else
    reflections would shift across the picture as if seen from a point."""
    if proj[3, 2] == 0.0 and proj[3, 3] != 0.0:
        back = view[2, :3]  # the view's +Z axis in world: toward the camera
        length = float(np.linalg.norm(back))
        return (*(back / length if length > 0 else np.array([0.0, 0.0, 1.0])), 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        eye = np.clip(np.nan_to_num(eye_position(view)), -F32_MAX, F32_MAX)
    return (*eye.tolist(), 1.0)
