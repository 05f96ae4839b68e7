"""The studio environment on the GPU: its prefiltered radiance, irradiance and the split-sum table.

The pictures of an animation viewer must not depend on a download: the environment is a neutral studio
made by code (``studio_env.py``; ``python -m viewer.render.studio_env`` bakes it into
``assets/studio_env.npz``), loaded once per context and shared by every renderer on it. The radiance is an
equirectangular texture whose mip k is the GGX-prefiltered radiance for roughness k / (levels − 1), so the
shader reads any roughness with one ``textureLod``; diffuse light is 9 spherical-harmonic coefficients, a
uniform array; the BRDF table is a small two-channel texture. ``shaders/ibl.glsl`` reads them.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.render import studio_env

UNIT_ENV, UNIT_LUT = 5, 6
# The studio is baked as a photographer would light it alone; beside the studio key light (lighting.py) it
# is drawn at this fraction, so the key still models form (cube faces, limbs) instead of a flat wash.
STUDIO_SCALE = 0.6

GL_TEXTURE_2D, GL_RGB16F, GL_RGB, GL_HALF_FLOAT = 0x0DE1, 0x881B, 0x1907, 0x140B
GL_TEXTURE_BASE_LEVEL, GL_TEXTURE_MAX_LEVEL, GL_UNPACK_ALIGNMENT, GL_TEXTURE_WIDTH = 0x813C, 0x813D, 0x0CF5, 0x1000


def _define_levels(ctx: moderngl.Context, texture: moderngl.Texture, levels: list[np.ndarray]) -> bool:
    """Give ``texture`` (level 0 of ``levels``, RGB half floats) the baked levels 1… as its mip chain with
    glTexImage2D, through the context's own GL loader; False (nothing to undo) where that cannot be done.

    moderngl allocates mip levels only by generating them (``build_mipmaps``), and on llvmpipe the first
    mipmap generation of a texture format compiles a blit shader that no on-disk cache keeps: about 50 ms
    of every start, for levels that are then overwritten by the bake's anyway.
    """
    try:
        import ctypes

        load = ctx.mglo._context.load  # the glcontext loader moderngl itself resolved its functions with
        gl_uint, gl_int = ctypes.c_uint32, ctypes.c_int32
        tex_image = ctypes.CFUNCTYPE(
            None, gl_uint, gl_int, gl_int, gl_int, gl_int, gl_int, gl_uint, gl_uint, ctypes.c_void_p
        )(load("glTexImage2D"))
        parameter = ctypes.CFUNCTYPE(None, gl_uint, gl_uint, gl_int)(load("glTexParameteri"))
        pixel_store = ctypes.CFUNCTYPE(None, gl_uint, gl_int)(load("glPixelStorei"))
        level_width = ctypes.CFUNCTYPE(None, gl_uint, gl_int, gl_uint, ctypes.POINTER(gl_int))(
            load("glGetTexLevelParameteriv")
        )
        texture.use(UNIT_ENV)  # bound on the active unit: the calls below act on it
        pixel_store(GL_UNPACK_ALIGNMENT, 1)
        for k, level in enumerate(levels[1:], start=1):
            tex_image(
                GL_TEXTURE_2D, k, GL_RGB16F, level.shape[1], level.shape[0], 0, GL_RGB, GL_HALF_FLOAT, level.ctypes.data
            )
        parameter(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0)
        parameter(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, len(levels) - 1)
        # checked by asking each level its width rather than glGetError, which would also swallow an
        # earlier caller's error
        width = gl_int(0)
        for k, level in enumerate(levels):
            level_width(GL_TEXTURE_2D, k, GL_TEXTURE_WIDTH, ctypes.byref(width))
            if width.value != level.shape[1]:
                return False
        return True
    except Exception:  # no loader on this context, or no such function: generate, then overwrite
        return False


class Environment:
    """GPU copies of the studio environment (one per context: see ``shared``).

    Attributes:
        lod_max: the last mip level (levels − 1), the shader's roughness-to-lod scale.
        sh: the 27 floats of ``u_sh`` (9 RGB coefficients).
    """

    def __init__(self, ctx: moderngl.Context, data: dict | None = None) -> None:
        """Upload ``data`` (``studio_env.load()``'s dict: "levels", "sh", "lut"; default: the studio)."""
        scale = STUDIO_SCALE if data is None else 1.0
        data = studio_env.load() if data is None else data
        levels = [np.ascontiguousarray(np.asarray(level) * scale, dtype=np.float16) for level in data["levels"]]
        h, w = levels[0].shape[:2]
        self.lod_max = float(len(levels) - 1)
        self.texture = ctx.texture((w, h), 3, levels[0], dtype="f2")
        if not _define_levels(ctx, self.texture, levels):
            self.texture.build_mipmaps(0, len(levels) - 1)  # allocates the chain; each level is then the bake's
            for k, level in enumerate(levels[1:], start=1):
                self.texture.write(level, level=k)
        self.texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        self.texture.repeat_x = True  # longitude wraps
        self.texture.repeat_y = False  # latitude stops at the poles
        lut = np.ascontiguousarray(data["lut"], dtype=np.float16)
        self.lut = ctx.texture(lut.shape[1::-1], 2, lut.tobytes(), dtype="f2")
        self.lut.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.lut.repeat_x = self.lut.repeat_y = False
        self.sh = np.asarray(data["sh"], dtype=np.float32).reshape(9, 3) * np.float32(scale)

    def bind(self) -> None:
        self.texture.use(UNIT_ENV)
        self.lut.use(UNIT_LUT)

    def uniforms(self, intensity: float) -> dict[str, object]:
        """The frame uniforms of ``ibl.glsl`` at ``intensity`` (0 turns the environment's light off)."""
        return {"u_env_lod_max": self.lod_max, "u_sh": self.sh.tobytes(), "u_env_intensity": float(intensity)}

    def release(self) -> None:
        self.texture.release()
        self.lut.release()

    @classmethod
    def shared(cls, programs) -> "Environment":
        """The environment of ``programs``' context (a ``ProgramCache``), uploaded on its first use and kept
        with the cache, so the window's renderers and every offscreen one on a context upload it once."""
        env = programs.resources.get("environment")
        if env is None:
            env = programs.resources["environment"] = cls(programs.ctx)
        return env
