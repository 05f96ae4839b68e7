"""Primitives on the GPU: buffers uploaded once, one vertex array per shader variant, one draw each.

A primitive's shader variant follows from what it has (normals or the flat rule, tangents, UV sets,
colours, skin sets, morph targets) and its material (texture slots it can read, alpha mode, unlit, the
material extensions); ``GpuPrimitive.program_and_vao`` compiles (or finds in the cache) that variant.
Tangents are uploaded from the file or generated (``tangents.py``) only where a normal texture needs them.
Nothing here runs per frame except ``draw``.

A primitive of a file with KHR_materials_variants is made ready for every material it can take
(``scene/variants.py``): tangents when any of them has a normal texture, the closed-surface test when any may
be culled. Switching variants (``GpuScene.use_variant``) then only points each primitive at another material of
the ``MaterialLibrary``, which holds every material of the file: nothing is uploaded, and the vertex arrays of
each material's program stay cached, so a click in the View section costs no more than a frame.
"""

from __future__ import annotations

from typing import Sequence

import moderngl
import numpy as np

from viewer.render.closed import closed_outward
from viewer.render.environment import UNIT_ENV, UNIT_LUT
from viewer.render.geometry import MeshData, morph_deltas, prepare
from viewer.render.materials import SLOT_UNITS, Material, MaterialLibrary
from viewer.render.morph import UNIT_NORMALS, UNIT_POSITIONS, UNIT_TANGENTS, MorphTargets
from viewer.render.shaders import ProgramCache
from viewer.scene.scene import Primitive, Scene

GL_MODE = {"triangles": moderngl.TRIANGLES, "lines": moderngl.LINES, "points": moderngl.POINTS}
MESH_SHADER = "mesh.glsl"

# texture units, fixed for every program (set once per program); material slots: materials.SLOT_UNITS
UNIT_JOINTS, UNIT_SCENE = 1, 7  # morph deltas: morph.UNIT_*
SAMPLER_UNITS = {
    "u_joint_tex": UNIT_JOINTS,
    "u_morph_positions": UNIT_POSITIONS,
    "u_morph_normals": UNIT_NORMALS,
    "u_morph_tangents": UNIT_TANGENTS,
    "u_env": UNIT_ENV,
    "u_brdf_lut": UNIT_LUT,
    "u_scene_color": UNIT_SCENE,
    **{f"u_{name}_tex": unit for name, unit in SLOT_UNITS.items()},
}


class GpuPrimitive:
    """One uploaded primitive.

    Attributes:
        source: the scene primitive it was made from.
        data: the CPU arrays uploaded (kept for bounds and tests).
        material: the material it draws with now (with the texture already on the GPU): its own, or a
            variant's (``use_material``).
        material_index: the glTF index of ``material`` (None: the default material): where animated values
            of the material (KHR_animation_pointer) are found.
        morph: its morph-target textures (and, when heavy, its morph pass: see ``morph.py``).
        skinned: it has JOINTS_0/WEIGHTS_0 (drawn with the skin of the node that uses it).
        center: (3,) centre of its POSITION bounds, model space (back-to-front sorting of BLEND draws).
        closed: an OPAQUE, double-sided, unskinned triangle surface that is closed and faces outward
            (``closed.closed_outward``): its back faces may be culled whenever the camera is outside it
            (a property: a variant's material may be neither opaque nor double-sided).
        lo, hi: (3,) POSITION bounds, model space; delta_lo, delta_hi: (targets, 3) bounds of each morph
            target's POSITION deltas (for conservative morphed bounds).
    """

    def __init__(
        self,
        ctx: moderngl.Context,
        programs: ProgramCache,
        primitive: Primitive,
        material: Material,
        closed_cache: dict | None = None,
        alternatives: Sequence[Material] = (),
    ) -> None:
        """``alternatives``: the other materials it may be switched to (its variants'), readied for now."""
        self.ctx = ctx
        self.programs = programs
        self.source = primitive
        self.material = material
        self.material_index = primitive.material
        every = (material, *alternatives)
        # POSITION may hold inf or NaN (validation lets float data through): the GPU drops such triangles,
        # and the CPU preparation must neither warn nor fail on them
        with np.errstate(over="ignore", invalid="ignore"):
            # one tangent set per primitive: the own material's, else the first variant's that needs one
            uv_set = next((k for k in map(tangent_uv_set, every) if k is not None), None)
            self.data: MeshData = prepare(primitive, uv_set)
            deltas = morph_deltas(primitive, "POSITION", self.data.source_vertex)
            self.morph = MorphTargets(ctx, primitive, self.data.source_vertex, deltas)
            self.skinned = "in_joints0" in self.data.attributes
            pos = self.data.attributes["in_position"]
            self.lo, self.hi = (pos.min(axis=0), pos.max(axis=0)) if len(pos) else (np.zeros(3), np.zeros(3))
            self.center = 0.5 * self.lo.astype(np.float64) + 0.5 * self.hi.astype(np.float64)
            self.delta_lo, self.delta_hi = _extents(deltas)
            self._closed_shape = (
                any(map(_may_cull, every))
                and not self.skinned
                and self.data.kind == "triangles"
                and self._closed(closed_cache, deltas)
            )
        self.mode = GL_MODE[self.data.kind]
        self._buffers = {name: ctx.buffer(arr) for name, arr in self.data.attributes.items()}
        idx = self.data.indices
        self._index_buffer = ctx.buffer(np.ascontiguousarray(idx)) if idx is not None and len(idx) else None
        self.count = len(idx) if idx is not None else self.data.vertex_count
        self.morph.attach(programs, self._buffers)
        self._vaos: dict[tuple, tuple[moderngl.Program, moderngl.VertexArray]] = {}  # per (material, shader variant)

    @property
    def closed(self) -> bool:
        return _may_cull(self.material) and self._closed_shape

    def use_material(self, index: int | None, material: Material) -> None:
        """Draw with ``material`` (glTF ``index``) from now on: one of those it was readied for."""
        self.material_index, self.material = index, material

    def _closed(self, cache: dict | None, deltas: np.ndarray | None) -> bool:
        """``closed_outward`` of this primitive's triangles, found once per geometry in ``cache``: primitives
        that share their POSITION, indices and target accessors (a file drawing one sphere in 100
        materials) share the answer. The scene's accessor arrays are read-only and cached per accessor, so
        their identities name the geometry; the entry keeps them alive so no identity is reused."""
        src = self.source
        arrays = (src.attributes["POSITION"], src.indices, *(t.get("POSITION") for t in src.targets))
        key = (src.mode, *map(id, arrays))
        if cache is not None and key in cache:
            return cache[key][0]
        pos, idx = self.data.attributes["in_position"], self.data.indices
        closed = closed_outward(pos, idx if idx is not None else np.arange(len(pos)), deltas)
        if cache is not None:
            cache[key] = (closed, arrays)
        return closed

    def defines(
        self, skinned: bool, debug_ids: bool = False, instanced: bool = False, baked: bool = False
    ) -> dict[str, str]:
        """The shader #defines of this primitive drawn skinned or not (a primitive with joints on a node
        without a skin is drawn with the node's matrix), of the vertex-id debug output when asked, of
        instanced drawing (world matrices from a per-instance attribute, ``instancing.py``), and without
        the morph targets when the morph pass has ``baked`` them into the attributes."""
        attrs = self.data.attributes
        d: dict[str, str] = {}
        if "in_normal" in attrs:
            d["HAS_NORMAL"] = ""
        elif self.data.flat:
            d["FLAT_NORMALS"] = ""
        if "in_tangent" in attrs:
            d["HAS_TANGENT"] = ""
        uv_sets = {k for k in (0, 1) if f"in_uv{k}" in attrs}
        for k in uv_sets:
            d[f"HAS_UV{k}"] = ""
        if "in_color" in attrs:
            d["HAS_COLOR"] = ""
        if skinned and self.skinned:
            d["SKIN"] = ""
            if "in_joints1" in attrs:
                d["SKIN_8"] = ""
        if not baked:
            d.update(self.morph.defines())
        d.update(self.material.defines(uv_sets))
        if debug_ids:
            d["DEBUG_VERTEX_ID"] = ""
        if instanced and "SKIN" not in d:
            d["INSTANCED"] = ""
        return d

    def program_and_vao(
        self, skinned: bool, debug_ids: bool = False, instanced: bool = False, baked: bool = False
    ) -> tuple[moderngl.Program, moderngl.VertexArray]:
        """The compiled variant and its vertex array (made on first use, then kept). The instanced variant's
        array holds only the per-vertex buffers: the caller binds ``in_model`` to its instance data per draw.
        ``baked``: the variant reading the morph pass's outputs (after ``morph.bake`` said True)."""
        key = (skinned and self.skinned, debug_ids, instanced and not (skinned and self.skinned), baked)
        cached = (self.material_index, *key)
        if cached not in self._vaos:
            prog = self.programs.get(MESH_SHADER, self.defines(*key))
            for name, unit in SAMPLER_UNITS.items():
                if name in prog:
                    prog[name].value = unit
            buffers = {name: (buf, _format(self.data.attributes[name])) for name, buf in self._buffers.items()}
            if baked:
                buffers.update(self.morph.morph_pass.outputs)
            content = [(buf, fmt, name) for name, (buf, fmt) in buffers.items() if name in prog]
            vao = self.ctx.vertex_array(prog, content, index_buffer=self._index_buffer, index_element_size=4)
            self._vaos[cached] = (prog, vao)
        return self._vaos[cached]

    def bind_textures(self) -> None:
        """Bind this primitive's own textures (material slots, morph deltas) to their fixed units."""
        self.material.bind()
        self.morph.bind()

    def release(self) -> None:
        for _, vao in self._vaos.values():
            vao.release()
        for buf in self._buffers.values():
            buf.release()
        if self._index_buffer is not None:
            self._index_buffer.release()
        self.morph.release()


def tangent_uv_set(material: Material) -> int | None:
    """The TEXCOORD set whose tangents a lit material needs (None: none needed): a normal texture's, else, for
    KHR_materials_anisotropy (its direction lives in tangent space), the anisotropy texture's set or TEXCOORD_0."""
    if material.unlit:
        return None
    slot = material.slots.get("normal") or material.slots.get("clearcoat_normal")
    if slot is None and material.anisotropy is not None:
        slot = material.slots.get("anisotropy")
        return 0 if slot is None else slot.uv_set
    return None if slot is None else slot.uv_set


def _may_cull(material: Material) -> bool:
    """Whether a closed surface of this material may lose its back faces: opaque (nothing shows through to them)
    and double-sided (single-sided ones are culled anyway)."""
    return material.alpha_mode == "OPAQUE" and material.double_sided


def _format(arr: np.ndarray) -> str:
    """moderngl buffer format of an (n, k) float32 array, e.g. "3f"."""
    return f"{arr.shape[1]}f"


class GpuScene:
    """Every mesh primitive of a scene, uploaded once: ``meshes[mesh][primitive]`` (primitives without POSITION
    left out); ``variant``: the KHR_materials_variants variant drawn (None: every primitive's own material)."""

    def __init__(self, ctx: moderngl.Context, programs: ProgramCache, scene: Scene) -> None:
        self.materials = MaterialLibrary(ctx, scene)
        self.variants = scene.variants
        self.variant: int | None = None
        self._switchable: list[tuple[GpuPrimitive, int, int]] = []  # (primitive, mesh, index in the file's mesh)
        closed: dict = {}  # geometry → closed_outward, shared by primitives drawing the same accessors
        self.meshes = []
        for m, mesh in enumerate(scene.meshes):
            row = []
            for k, p in enumerate(mesh.primitives):
                if "POSITION" not in p.attributes:
                    continue
                others = [self.materials.get(i) for i in self.variants.choices(m, k)[1:]]
                row.append(GpuPrimitive(ctx, programs, p, self.materials.get(p.material), closed, others))
                if others:
                    self._switchable.append((row[-1], m, k))
            self.meshes.append(row)

    def use_variant(self, variant: int | None) -> bool:
        """Draw ``variant``'s materials (None, or one the file lacks: the primitives' own); True when a primitive
        changed material, so what depends on materials (the instanced groups) is made again."""
        self.variant = variant
        changed = False
        for prim, mesh, k in self._switchable:
            index = self.variants.material(mesh, k, variant)
            if index != prim.material_index:
                prim.use_material(index, self.materials.get(index))
                changed = True
        return changed

    def release(self) -> None:
        for mesh in self.meshes:
            for prim in mesh:
                prim.release()
        self.materials.release()


def _extents(deltas: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Each target's smallest and largest delta per axis, (T, 3) each. Reduced over contiguous rows of one axis
    (a strided reduction over (T, V, 3) took 0.8 s of a 64-target mesh's first picture)."""
    if deltas is None:
        return np.zeros((0, 3)), np.zeros((0, 3))
    axes = np.ascontiguousarray(deltas.transpose(0, 2, 1))
    return axes.min(axis=2), axes.max(axis=2)
