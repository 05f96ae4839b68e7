"""What lies behind the model: the studio environment drawn as the background, and the opaque pass copied
for the materials that refract it (KHR_materials_transmission).

Both are passes of ``Renderer.render``; they live here so the renderer keeps to ordering its draws.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.base import math3d
from viewer.render.environment import UNIT_ENV, UNIT_LUT
from viewer.render.gpu_mesh import UNIT_SCENE
from viewer.render.look import Look
from viewer.render.shaders import ProgramCache, active_uniforms, set_uniform

BACKGROUND_SHADER = "background.glsl"
BACKGROUND_ROUGHNESS = 0.6  # the environment shown behind the model is blurred: it is a studio, not a subject


def draw_background(programs: ProgramCache, view_proj: np.ndarray, frame: dict, look: Look) -> None:
    """The environment, blurred, behind everything: a full-viewport triangle that writes no depth."""
    prog = programs.get(BACKGROUND_SHADER)
    u = active_uniforms(prog)
    for name, value in frame.items():
        set_uniform(u, name, value)
    with np.errstate(all="ignore"):
        inverse = np.linalg.inv(view_proj) if np.isfinite(view_proj).all() else np.eye(4)
    set_uniform(u, "u_inv_view_proj", math3d.to_gl(inverse))
    set_uniform(u, "u_blur", BACKGROUND_ROUGHNESS)
    set_uniform(u, "u_env_intensity", float(look.env_intensity))  # shown even when its light is off
    set_uniform(u, "u_env", UNIT_ENV)
    set_uniform(u, "u_brdf_lut", UNIT_LUT)
    programs.ctx.enable_only(moderngl.NOTHING)
    if "background" not in programs.resources:
        programs.resources["background"] = programs.ctx.vertex_array(prog, [])
    programs.resources["background"].render(moderngl.TRIANGLES, vertices=3)


class SceneCopy:
    """A mipmapped copy of what a framebuffer holds so far (MSAA resolved), for the refracting draws."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._copy: tuple[moderngl.Texture, moderngl.Framebuffer] | None = None

    def capture(self, framebuffer: moderngl.Framebuffer) -> dict[str, object]:
        """Copy ``framebuffer`` now, bind the copy to its unit; the frame uniforms that read it."""
        size = framebuffer.size
        if self._copy is None or self._copy[0].size != size:
            self.release()
            tex = self.ctx.texture(size, 4)
            tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            tex.repeat_x = tex.repeat_y = False
            self._copy = (tex, self.ctx.framebuffer(color_attachments=[tex]))
        tex, fbo = self._copy
        self.ctx.copy_framebuffer(fbo, framebuffer)
        tex.build_mipmaps()
        tex.use(UNIT_SCENE)
        framebuffer.use()
        x, y, w, h = framebuffer.viewport
        return {
            "u_scene_lod_max": float(np.floor(np.log2(max(size)))),
            "u_scene_rect": (x / size[0], y / size[1], w / size[0], h / size[1]),
        }

    def release(self) -> None:
        if self._copy is not None:
            for obj in reversed(self._copy):
                obj.release()
            self._copy = None
