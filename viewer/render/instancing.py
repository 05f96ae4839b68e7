"""Instanced drawing: one draw call for all the nodes that show the same primitive the same way.

Why: on the per-item path every (node, primitive) is one ``vao.render`` with ~10 uniform writes, 35–100 µs
of Python each, so a file with tens of thousands of mesh nodes (a city, a forest, a crowd, or a hostile
file with 100 000 nodes all showing mesh 0) took seconds per frame. Here such nodes become instances:
their world matrices go into one per-instance vertex buffer (``in_model``, a mat4 with divisor 1; the
INSTANCED variant of ``shaders/mesh.glsl``), written once per frame, and each group is one draw. Per
frame the Python work is O(groups); over instances it is vectorized numpy (one gather of ``pose.world``,
one float32 conversion, one write) — except for morphed primitives, whose weights ``Pose`` keeps as one
small array per node: those are stacked with one list comprehension.

Who is instanced (decided once, at load): draw items that are not skinned (``skin < 0``), not BLEND
(blending needs back-to-front order per item), not transmissive (drawn after the opaque pass) and not empty, of a
primitive with at least ``MIN_INSTANCES`` such items; every other item keeps the per-item path, so scenes of a
few nodes draw exactly as before. Each frame a primitive's instances are grouped by their morph weights (the uniform
is set, or the morph pass run, once per group) and split by mirroring (det < 0 needs the clockwise
front face, glTF 2.0 §3.7.4), and nodes whose world matrix is beyond float32 (``pose.drawable``) are left
out, as on the per-item path.

Differences from the per-item path, none visible: double-sided primitives are never culled here (there,
closed ones are culled when no back face can show, which only saves time); the normal matrix is made
in the shader from the float32 model matrix (``instance_normal_matrix``, the same cofactor form as
``limits.normal_matrix``, no per-instance CPU work); and the groups are drawn after the sorted per-item
opaque draws (nearest-first order only saves shading). The debug vertex-id pass (picking) never comes
here: it numbers every item's draw, so the renderer draws every item alone then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import moderngl
import numpy as np

from viewer.pose.pose import Pose
from viewer.render.animated_material import material_uniforms
from viewer.render.gpu_mesh import GpuPrimitive
from viewer.render.limits import F32_MAX
from viewer.render.shaders import set_uniform

MIN_INSTANCES = 8  # fewer items of a primitive: the per-item path (read when a Renderer is made)
MATRIX_FLOATS = 16  # one instance: its world matrix, column-major float32


@dataclass(frozen=True)
class Run:
    """One instanced draw: instances ``start .. start + count - 1`` of this frame's buffer."""

    primitive: GpuPrimitive
    start: int
    count: int
    mirrored: bool
    weights: bytes | None  # the group's morph weights (float32), None without targets


def instanceable(item) -> bool:
    """May this draw item (node, primitive, skin) be drawn as an instance? See the module docstring."""
    prim = item.primitive
    return (
        item.skin < 0 and prim.material.alpha_mode != "BLEND" and prim.material.transmission is None and prim.count > 0
    )


class Instancing:
    """The instanced groups of one renderer's draw items, and the per-instance buffer they draw from.

    Attributes:
        groups: (primitive, node of each instance in node order) for every instanced primitive.
        single: the draw items left to the per-item path, in their order.
    """

    def __init__(self, ctx: moderngl.Context, items: Sequence) -> None:
        self.ctx = ctx
        self._buffer: moderngl.Buffer | None = None
        by_primitive: dict[GpuPrimitive, list[int]] = {}
        for it in items:
            if instanceable(it):
                by_primitive.setdefault(it.primitive, []).append(it.node)
        self.groups = [
            (prim, np.array(nodes, dtype=np.int64))
            for prim, nodes in by_primitive.items()
            if len(nodes) >= MIN_INSTANCES
        ]
        grouped = {prim for prim, _ in self.groups}
        self.single = [it for it in items if not (it.primitive in grouped and instanceable(it))]

    def prepare(self, pose: Pose) -> list[Run]:
        """Write this frame's instance matrices (one buffer write) and return the draws that show them."""
        kept = [nodes[pose.drawable[nodes] & pose.visible[nodes]] for _, nodes in self.groups]
        if not sum(len(k) for k in kept):
            return []
        world = pose.world[np.concatenate(kept)]  # (n, 4, 4) float64, every entry within float32 range
        mirrored = determinants(world[:, :3, :3]) < 0.0
        runs: list[Run] = []
        order = []
        offset = 0
        for (prim, _), nodes in zip(self.groups, kept):
            n = len(nodes)
            if not n:
                continue
            weights, group = weight_groups(pose, nodes, prim.morph.count)
            key = 2 * group + mirrored[offset : offset + n]
            sort = np.argsort(key, kind="stable")  # node order within each run
            keys, first, counts = np.unique(key[sort], return_index=True, return_counts=True)
            for k, f, c in zip(keys.tolist(), first.tolist(), counts.tolist()):
                runs.append(
                    Run(prim, offset + f, c, bool(k & 1), None if weights is None else weights[k >> 1].tobytes())
                )
            order.append(sort + offset)
            offset += n
        # column-major for the mat4 attribute: a (4, 4) in math convention, transposed
        self._write(np.ascontiguousarray(world[np.concatenate(order)].transpose(0, 2, 1), dtype=np.float32))
        return runs

    def draw(self, pose: Pose, frame: dict, uniforms_for: Callable[[moderngl.Program, dict], dict]) -> None:
        """Draw every group of ``pose``. ``uniforms_for(program, frame)`` gives the program's uniforms with
        the ``frame``'s (camera, light, opacity) set; the caller has set depth and blend state."""
        ctx = self.ctx
        for run in self.prepare(pose):
            prim = run.primitive
            baked = run.weights is not None and prim.morph.bake(run.weights)
            prog, vao = prim.program_and_vao(False, instanced=True, baked=baked)
            u = uniforms_for(prog, frame)
            if run.weights is not None and not baked:
                set_uniform(u, "u_morph_weights", run.weights)
                set_uniform(u, "u_morph_vertex_count", prim.morph.vertex_count)
            for name, value in material_uniforms(prim.material, prim.material_index, pose):
                set_uniform(u, name, value)
            prim.bind_textures()
            # single-sided triangles: always cull back faces (glTF 2.0 §3.9.5); double-sided: never
            if prim.mode == moderngl.TRIANGLES and not prim.material.double_sided:
                ctx.enable(moderngl.CULL_FACE)
            else:
                ctx.disable(moderngl.CULL_FACE)
            ctx.front_face = "cw" if run.mirrored else "ccw"
            location = prog["in_model"].location  # a mat4 attribute takes 4 locations, one per column
            for column in range(4):
                offset = 4 * (MATRIX_FLOATS * run.start + 4 * column)  # bytes
                vao.bind(location + column, "f", self._buffer, "4f", offset=offset, stride=4 * MATRIX_FLOATS, divisor=1)
            vao.render(prim.mode, vertices=prim.count, instances=run.count)

    def _write(self, data: np.ndarray) -> None:
        """Put ``data`` in the instance buffer, grown (doubling) when too small; orphaned first otherwise,
        so a write after draws still in flight (ghosts, compare panes) does not wait for them."""
        if self._buffer is None or self._buffer.size < data.nbytes:
            size = max(data.nbytes, 2 * self._buffer.size if self._buffer is not None else 0)
            self.release()
            self._buffer = self.ctx.buffer(reserve=size)
        else:
            self._buffer.orphan()
        self._buffer.write(data)

    def release(self) -> None:
        if self._buffer is not None:
            self._buffer.release()
            self._buffer = None


def determinants(m: np.ndarray) -> np.ndarray:
    """(n,) determinants of (n, 3, 3) matrices, the way ``limits.normal_matrix`` forms them (column 0 ·
    column 1 × column 2), so the two paths agree on which nodes mirror."""
    return np.einsum("ij,ij->i", m[:, :, 0], np.cross(m[:, :, 1], m[:, :, 2]))


def morph_weights(pose: Pose, nodes: np.ndarray, count: int) -> np.ndarray:
    """(len(nodes), count) float32 morph weights as the shader takes them: each node's weights cut or
    zero-padded to the primitive's ``count`` targets, NaN as 0, clamped to float32 range."""
    rows = [pose.node_weights(n) for n in np.asarray(nodes).tolist()]
    out = np.zeros((len(rows), count), dtype=np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        if len({len(r) for r in rows}) == 1:  # the usual case: one array for all
            m = min(len(rows[0]), count)
            out[:, :m] = np.clip(np.nan_to_num(np.array(rows, dtype=np.float64)[:, :m]), -F32_MAX, F32_MAX)
        else:
            for i, r in enumerate(rows):
                m = min(len(r), count)
                out[i, :m] = np.clip(np.nan_to_num(np.asarray(r[:m], dtype=np.float64)), -F32_MAX, F32_MAX)
    return out


def weight_groups(pose: Pose, nodes: np.ndarray, count: int) -> tuple[np.ndarray | None, np.ndarray]:
    """The distinct morph weight rows of ``nodes`` (None without targets) and each node's row in them."""
    if not count:
        return None, np.zeros(len(nodes), dtype=np.int64)
    w = morph_weights(pose, nodes, count)
    if (w == w[0]).all():  # shared weights: no sort needed
        return w[:1], np.zeros(len(nodes), dtype=np.int64)
    unique, inverse = np.unique(w, axis=0, return_inverse=True)
    return unique, inverse.reshape(-1)
