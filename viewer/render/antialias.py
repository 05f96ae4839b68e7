"""Which anti-aliasing a frame gets, the post-process pass (FXAA) that smooths a frame drawn without MSAA, and
the pass that resolves an MSAA frame (``resolve_pass``).

Why a choice: on a CPU rasterizer (llvmpipe, what CI and headless machines have) 4× MSAA costs 2.5–3× the
frame, and most of it goes to rasterizing samples of triangles smaller than a pixel: on a million-triangle
model MSAA buys almost nothing that a post pass does not. ``auto`` keeps MSAA, which is exact on edges, until
the scene draws more triangles than a quarter of the frame's pixels, and uses FXAA from there.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.scene.scene import Scene

AA_MODES = ("auto", "msaa", "fxaa", "off")
FXAA_SHADER = "fxaa.glsl"
DENSE_TRIANGLES_PER_PIXEL = 0.25  # above this many drawn triangles per frame pixel, auto picks FXAA
TRIANGLES = 4  # glTF primitive mode


def drawn_triangles(scene: Scene) -> int:
    """Triangles one frame of ``scene`` draws: each shown node's mesh, each triangle-list primitive
    (strips and fans count one per vertex beyond the second)."""
    per_mesh = np.zeros(len(scene.meshes) + 1, dtype=np.int64)  # the extra last slot is "no mesh" (-1)
    for i, mesh in enumerate(scene.meshes):
        for p in mesh.primitives:
            n = len(p.indices) if p.indices is not None else len(p.attributes.get("POSITION", ()))
            per_mesh[i] += n // 3 if p.mode == TRIANGLES else max(n - 2, 0) if p.mode in (5, 6) else 0
    mesh = np.where(scene.shown, scene.nodes.mesh, -1)
    return int(per_mesh[mesh].sum())


def choose(aa: str, samples: int, triangles: int, size: tuple[int, int]) -> tuple[int, bool]:
    """(MSAA samples, FXAA on) for an ``aa`` mode of ``AA_MODES``; ``samples`` is what MSAA uses (0: none)."""
    if aa not in AA_MODES:
        raise ValueError(f"anti-aliasing must be one of {', '.join(AA_MODES)}, not {aa!r}")
    if aa == "fxaa":
        return 0, True
    if aa == "off" or samples <= 1:  # --samples 0 asks for no multisampling
        return 0, False
    if aa == "msaa":
        return samples, False
    dense = triangles > DENSE_TRIANGLES_PER_PIXEL * size[0] * size[1]
    return (0, True) if dense else (samples, False)


def choose_for(scene: Scene, aa: str, samples: int, size: tuple[int, int]) -> tuple[int, bool]:
    """``choose`` for a whole scene drawn at ``size``: what ``render``, its exports and ``bench`` use."""
    return choose(aa, samples, drawn_triangles(scene), size)


class PostPass:
    """Draws a frame texture into a framebuffer's viewport: FXAA'd, or copied as it is."""

    def __init__(self, programs, prog: moderngl.Program | None = None) -> None:
        self.programs = programs
        self.prog = prog or programs.get(FXAA_SHADER)
        self.vao = programs.ctx.vertex_array(self.prog, [])

    def draw(
        self,
        frame: moderngl.Texture,
        dst: moderngl.Framebuffer,
        viewport: tuple[int, int, int, int],
        fxaa: bool = False,
    ) -> None:
        ctx = self.programs.ctx
        dst.use()
        dst.viewport = viewport
        ctx.enable_only(moderngl.NOTHING)
        frame.use(0)
        self.prog["u_frame"].value = 0
        if "u_texel" in self.prog:
            self.prog["u_texel"].value = (1.0 / frame.size[0], 1.0 / frame.size[1])
        if "u_fxaa" in self.prog:
            self.prog["u_fxaa"].value = int(fxaa)
        self.vao.render(moderngl.TRIANGLES, vertices=3)

    def release(self) -> None:
        self.vao.release()


RESOLVE_SHADER = "resolve.glsl"


def resolve_pass(programs, samples: int) -> PostPass:
    """The pass that resolves a multisampled texture of ``samples`` samples into a framebuffer of its size."""
    return PostPass(programs, programs.get(RESOLVE_SHADER, {"SAMPLES": samples}))
