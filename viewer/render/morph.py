"""Morph-target deltas of one primitive in textures (read by ``shaders/morph.glsl``), and the morph pass.

Layout: RGBA32F (xyz = delta, w unused), rows of W = min(vertex_count, ``ROW_TEXELS``) texels, each target
starting a new row: target k, vertex v at texel (v % W, k · rows + v // W), rows = ceil(vertex_count / W)
(so the shader divides once per vertex, not once per target); one texture for POSITION deltas and, when
any target has them, one for NORMAL and one for TANGENT (vec3: a target never changes the handedness).
Vertices are the GPU's (``MeshData``'s, after any tangent split), so the shader indexes with gl_VertexID.
Uploaded once; per frame only the weights change.

Where the morphing runs: small primitives morph in the mesh program's vertex shader (the weights a
uniform array). A heavy one (``PASS_TEXELS`` vertex × target pairs or more) is morphed by the *morph pass*
first: one transform-feedback draw of its vertices (``MORPH_PASS`` in ``morph.glsl``) writes morphed
positions, normals and tangents into buffers that the mesh program then reads as plain attributes. Why:
an indexed draw shades a vertex once per batch of triangles that uses it — on llvmpipe about twice per
vertex on a grid mesh —, each time running the whole target loop (64 targets × 100 k vertices: 130 ms
of a frame); the pass runs it once per vertex, and not at all when the weights are those it last baked.
"""

from __future__ import annotations

import moderngl
import numpy as np

from viewer.render.geometry import morph_deltas
from viewer.render.shaders import active_uniforms, normalize_defines, read_source, set_uniform, stage_source
from viewer.scene.scene import Primitive

ROW_TEXELS = 4096
# vertex × target pairs from which a primitive is morphed by the morph pass: below, the target loop costs
# less than a pass's fixed cost (a draw, a buffer per attribute), and every shared sample model stays below
PASS_TEXELS = 1 << 18
UNIT_POSITIONS, UNIT_NORMALS, UNIT_TANGENTS = 2, 3, 4  # texture units of the deltas (materials.py's table)
SHADER = "morph.glsl"
# what the morph pass morphs: mesh attribute → (its output varying, float components of both)
OUTPUTS = {"in_position": ("out_position", 3), "in_normal": ("out_normal", 3), "in_tangent": ("out_tangent", 4)}


def _delta_texture(ctx: moderngl.Context, deltas: np.ndarray) -> moderngl.Texture:
    """(targets, n, 3) deltas → RGBA32F texture in the texel layout above."""
    targets, n = deltas.shape[:2]
    width = min(max(n, 1), ROW_TEXELS)
    rows = max(1, -(-n // width))
    texels = np.zeros((targets, rows * width, 4), dtype=np.float32)
    texels[:, :n, :3] = deltas
    tex = ctx.texture((width, max(1, targets * rows)), 4, texels, dtype="f4")
    tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
    tex.repeat_x = tex.repeat_y = False
    return tex


class MorphTargets:
    """Textures of one primitive's targets, or nothing when it has none (``count == 0``).

    ``source_vertex`` is ``MeshData.source_vertex``: the deltas of each GPU vertex are its file vertex's.
    ``position_deltas`` may hand over the POSITION deltas already gathered (``geometry.morph_deltas``).
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        primitive: Primitive,
        source_vertex: np.ndarray | None = None,
        position_deltas: np.ndarray | None = None,
    ) -> None:
        self.ctx = ctx
        self.count = len(primitive.targets)
        self.vertex_count = len(primitive.attributes["POSITION"]) if source_vertex is None else len(source_vertex)
        self.positions = self.normals = self.tangents = None
        self.morph_pass: MorphPass | None = None
        if not self.count:
            return
        pos = position_deltas if position_deltas is not None else morph_deltas(primitive, "POSITION", source_vertex)
        nrm = morph_deltas(primitive, "NORMAL", source_vertex)
        tan = morph_deltas(primitive, "TANGENT", source_vertex)
        # the shader always reads positions; a target set with only normals gets zero position deltas
        self.positions = _delta_texture(
            ctx, pos if pos is not None else np.zeros((self.count, self.vertex_count, 3), np.float32)
        )
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

    def bind(self) -> None:
        """The delta textures on their units."""
        for tex, unit in (
            (self.positions, UNIT_POSITIONS),
            (self.normals, UNIT_NORMALS),
            (self.tangents, UNIT_TANGENTS),
        ):
            if tex is not None:
                tex.use(unit)

    def attach(self, programs, buffers: dict[str, moderngl.Buffer]) -> None:
        """Give a heavy primitive (``PASS_TEXELS`` vertex × target pairs or more) its morph pass, over the
        primitive's own attribute ``buffers`` (``in_position`` and, when present, ``in_normal``, ``in_tangent``)."""
        if self.count and self.vertex_count and self.vertex_count * self.count >= PASS_TEXELS:
            try:
                self.morph_pass = MorphPass(self, programs, buffers)
            except moderngl.Error:  # a variant the driver refuses: the mesh program morphs, as for small ones
                self.morph_pass = None

    def bake(self, weights: bytes) -> bool:
        """Morph every vertex by ``weights`` (float32 bytes, one per target) into the pass's buffers; False
        (nothing done) when this primitive has no pass and morphs in the mesh program instead."""
        return self.morph_pass is not None and self.morph_pass.run(weights)

    def release(self) -> None:
        for tex in (self.positions, self.normals, self.tangents):
            if tex is not None:
                tex.release()
        if self.morph_pass is not None:
            self.morph_pass.release()


class MorphPass:
    """The transform-feedback pass of one primitive: its program (shared per variant in the program
    cache's ``resources``), a vertex array over the base attributes, and the output buffers.

    Attributes:
        outputs: mesh attribute name → (buffer, format): what the mesh program reads instead of the base.
    """

    def __init__(self, morph: MorphTargets, programs, buffers: dict[str, moderngl.Buffer]) -> None:
        ctx = morph.ctx
        self.morph = morph
        names = [name for name in OUTPUTS if name in buffers]
        has = {"in_normal": "HAS_NORMAL", "in_tangent": "HAS_TANGENT"}
        defines = {**morph.defines(), "MORPH_PASS": "", **{has[n]: "" for n in names if n in has}}
        variant = normalize_defines(defines)
        key = f"morph pass {variant}"
        if key not in programs.resources:
            source = stage_source("#version 330 core\n" + read_source(SHADER), "VERTEX_SHADER", variant)
            programs.resources[key] = ctx.program(
                vertex_shader=source, varyings=[OUTPUTS[n][0] for n in names], varyings_capture_mode="separate"
            )
        self.program = programs.resources[key]
        self._uniforms = active_uniforms(self.program)
        for name, unit in (
            ("u_morph_positions", UNIT_POSITIONS),
            ("u_morph_normals", UNIT_NORMALS),
            ("u_morph_tangents", UNIT_TANGENTS),
        ):
            if name in self.program:
                self.program[name].value = unit
        self.vao = ctx.vertex_array(
            self.program, [(buffers[n], f"{OUTPUTS[n][1]}f", n) for n in names if n in self.program]
        )
        self.outputs = {
            n: (ctx.buffer(reserve=4 * OUTPUTS[n][1] * morph.vertex_count), f"{OUTPUTS[n][1]}f") for n in names
        }
        self._baked: bytes | None = None

    def run(self, weights: bytes) -> bool:
        if weights != self._baked:
            # the program serves every primitive of its variant: this one's uniforms, every time
            set_uniform(self._uniforms, "u_morph_vertex_count", self.morph.vertex_count)
            set_uniform(self._uniforms, "u_morph_weights", weights)
            self.morph.bind()
            self.vao.transform(
                [buf for buf, _ in self.outputs.values()], mode=moderngl.POINTS, vertices=self.morph.vertex_count
            )
            self._baked = weights
        return True

    def release(self) -> None:
        self.vao.release()
        for buf, _ in self.outputs.values():
            buf.release()
