"""Morph-target deltas of one primitive in textures (read by ``shaders/morph.glsl``).

Layout: RGBA32F, texel index ``target * vertex_count + vertex`` (xyz = delta, w unused), wrapped in rows
of ``ROW_TEXELS``; one texture for POSITION deltas and, when any target has them, one for NORMAL and one
for TANGENT (vec3: a target never changes the handedness). Vertices are the GPU's (``MeshData``'s, after
any tangent split), so the shader indexes with gl_VertexID. Uploaded once; per frame only the weights
change (a uniform array).
"""
from __future__ import annotations

import moderngl
import numpy as np

from viewer.render.geometry import morph_deltas
from viewer.scene import Primitive

ROW_TEXELS = 4096


def _delta_texture(ctx: moderngl.Context, deltas: np.ndarray) -> moderngl.Texture:
    """(targets, n, 3) deltas → RGBA32F texture in the texel layout above."""
    flat = deltas.reshape(-1, 3)
    width = min(max(len(flat), 1), ROW_TEXELS)
    rows = max(1, -(-len(flat) // width))
    texels = np.zeros((rows * width, 4), dtype=np.float32)
    texels[: len(flat), :3] = flat
    tex = ctx.texture((width, rows), 4, texels.tobytes(), dtype="f4")
    tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
    tex.repeat_x = tex.repeat_y = False
    return tex


class MorphTargets:
    """Textures of one primitive's targets, or nothing when it has none (``count == 0``).

    ``source_vertex`` is ``MeshData.source_vertex``: the deltas of each GPU vertex are its file vertex's.
    """

    def __init__(self, ctx: moderngl.Context, primitive: Primitive,
                 source_vertex: np.ndarray | None = None) -> None:
        self.count = len(primitive.targets)
        self.vertex_count = (len(primitive.attributes["POSITION"]) if source_vertex is None
                             else len(source_vertex))
        self.positions = self.normals = self.tangents = None
        if not self.count:
            return
        pos = morph_deltas(primitive, "POSITION", source_vertex)
        nrm = morph_deltas(primitive, "NORMAL", source_vertex)
        tan = morph_deltas(primitive, "TANGENT", source_vertex)
        # the shader always reads positions; a target set with only normals gets zero position deltas
        self.positions = _delta_texture(ctx, pos if pos is not None else
                                        np.zeros((self.count, self.vertex_count, 3), np.float32))
        if nrm is not None:
            self.normals = _delta_texture(ctx, nrm)
        if tan is not None:
            self.tangents = _delta_texture(ctx, tan)

    def defines(self) -> dict[str, str]:
        if not self.count:
            return {}
        d = {"MORPH_TARGETS": str(self.count)}
        if self.normals is not None:
            d["MORPH_NORMALS"] = ""
        if self.tangents is not None:
            d["MORPH_TANGENTS"] = ""
        return d

    def release(self) -> None:
        for tex in (self.positions, self.normals, self.tangents):
            if tex is not None:
                tex.release()
