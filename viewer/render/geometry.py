"""Primitive data made GPU-ready on the CPU, once per primitive: draw mode, indices, attributes, tangents.

Pure numpy (no GL), so every rule here is tested without a context. glTF 2.0 §3.7.2.1 modes:
0 POINTS, 1 LINES, 2 LINE_LOOP, 3 LINE_STRIP, 4 TRIANGLES, 5 TRIANGLE_STRIP, 6 TRIANGLE_FAN.
Strips, fans, loops and line strips become plain TRIANGLES / LINES lists so one shader path and one
draw call serve them all; indices of any glTF type (UNSIGNED_BYTE/SHORT/INT) become uint32.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from viewer.render import tangents
from viewer.scene.scene import Primitive

POINTS, LINES, LINE_LOOP, LINE_STRIP, TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN = range(7)
DRAW_KIND = {
    POINTS: "points",
    LINES: "lines",
    LINE_LOOP: "lines",
    LINE_STRIP: "lines",
    TRIANGLES: "triangles",
    TRIANGLE_STRIP: "triangles",
    TRIANGLE_FAN: "triangles",
}


@dataclass(frozen=True)
class MeshData:
    """Arrays ready to upload for one primitive.

    Attributes:
        kind: "triangles", "lines" or "points" (the GL mode drawn).
        indices: (m,) uint32, or None to draw vertices 0..n-1 in order.
        attributes: shader input name → (n, k) float32: "in_position" (n, 3); "in_normal" (n, 3), only the
            file's NORMAL; "in_uv0"/"in_uv1" (n, 2) from TEXCOORD_0/1; "in_color" (n, 4);
            "in_joints0/1"/"in_weights0/1" (n, 4); "in_tangent" (n, 4), xyz and handedness w = ±1
            (bitangent = cross(normal, xyz) * w), from the file or generated (``tangents.py``).
        vertex_count: n, the GPU vertex count.
        flat: triangles without NORMAL: flat-shaded, face normals derived in the shader.
        source_vertex: None when GPU vertex i is the file's vertex i; else (n,) int64, the file's vertex
            each GPU vertex copies (generated tangents split vertices on mirrored-UV seams), and every
            attribute and morph delta is gathered through it. The vertex-id debug output numbers GPU
            vertices, so there it differs from the file's numbering past the file's vertex count.
    """

    kind: str
    indices: np.ndarray | None
    attributes: dict[str, np.ndarray]
    vertex_count: int
    flat: bool = False
    source_vertex: np.ndarray | None = None


def list_indices(mode: int, indices: np.ndarray | None, vertex_count: int) -> np.ndarray | None:
    """Indices (uint32) of ``mode`` rewritten as a TRIANGLES or LINES list; None keeps a plain list unindexed.

    Strip triangle i is (i, i+1, i+2) for even i and (i+1, i, i+2) for odd i, so every triangle keeps the
    strip's winding (the OpenGL rule); fan triangle i is (0, i+1, i+2), the spec's (i+1, i+2, 0) rotated.
    """
    if mode in (POINTS, LINES, TRIANGLES):
        return None if indices is None else np.asarray(indices, dtype=np.uint32)
    src = np.arange(vertex_count, dtype=np.uint32) if indices is None else np.asarray(indices, dtype=np.uint32)
    n = len(src)
    if mode == LINE_STRIP:
        return np.stack([src[:-1], src[1:]], axis=1).reshape(-1) if n >= 2 else np.zeros(0, np.uint32)
    if mode == LINE_LOOP:
        return np.stack([src, np.roll(src, -1)], axis=1).reshape(-1) if n >= 2 else np.zeros(0, np.uint32)
    count = max(n - 2, 0)
    i = np.arange(count)
    if mode == TRIANGLE_STRIP:
        odd = (i % 2).astype(bool)
        a = np.where(odd, src[i + 1], src[i])
        b = np.where(odd, src[i], src[i + 1])
        return np.stack([a, b, src[i + 2]], axis=1).reshape(-1).astype(np.uint32)
    if mode == TRIANGLE_FAN:
        return (
            np.stack([np.full(count, src[0] if n else 0), src[i + 1], src[i + 2]], axis=1).reshape(-1).astype(np.uint32)
        )
    raise ValueError(f"unknown primitive mode {mode}")


def vertex_colors(color: np.ndarray) -> np.ndarray:
    """COLOR_0 as (n, 4) linear RGBA float32: VEC3 gets alpha 1 (normalized ints are already dequantized)."""
    c = np.asarray(color, dtype=np.float32)
    if c.shape[1] == 3:
        c = np.concatenate([c, np.ones((len(c), 1), np.float32)], axis=1)
    return c


def _tangents(attrs: dict, pos: np.ndarray, indices: np.ndarray | None, kind: str, uv_set: int | None):
    """The file's TANGENT (w made ±1), else generated ones with their vertex split, else None.

    Returns (tangents or None, source_vertex or None, triangles' or None: the new index list)."""
    if "NORMAL" not in attrs:
        return None, None, None  # flat-shaded: glTF says TANGENT is ignored then
    if "TANGENT" in attrs:
        t = np.array(attrs["TANGENT"], dtype=np.float32)
        t[:, 3] = np.where(t[:, 3] < 0, -1.0, 1.0)
        return t, None, None
    if uv_set is None or f"TEXCOORD_{uv_set}" not in attrs:
        return None, None, None
    if kind != "triangles":  # nothing to take gradients from: every vertex gets the fallback
        return tangents.generate(pos, attrs["NORMAL"], attrs[f"TEXCOORD_{uv_set}"], np.zeros((0, 3), np.int64))
    flat = np.arange(len(pos), dtype=np.uint32) if indices is None else indices
    whole = len(flat) - len(flat) % 3  # a trailing partial triangle is not drawn: kept as it is
    t, source, tri = tangents.generate(pos, attrs["NORMAL"], attrs[f"TEXCOORD_{uv_set}"], flat[:whole].reshape(-1, 3))
    if source is None:
        return t, None, None
    return t, source, np.concatenate([tri.reshape(-1).astype(np.uint32), flat[whole:]])


def prepare(primitive: Primitive, tangent_uv_set: int | None = None) -> MeshData:
    """GPU-ready arrays of one primitive.

    Args:
        primitive: the scene primitive.
        tangent_uv_set: the TEXCOORD_n a normal texture samples, to generate tangents from when the file
            gives none (None: no normal texture, no tangents generated).

    Triangles without NORMAL are flat-shaded (glTF 2.0 §3.7.2.1 asks for flat normals there): the shader
    takes face normals from screen-space derivatives, so no normals are uploaded and TANGENT is ignored.
    Lines and points without normals are drawn unlit. Every TEXCOORD_0/1 is uploaded whatever the material,
    so a material change never needs a new upload.
    """
    attrs = primitive.attributes
    pos = np.asarray(attrs["POSITION"], dtype=np.float32)
    n = len(pos)
    kind = DRAW_KIND[primitive.mode]
    indices = list_indices(primitive.mode, primitive.indices, n)
    out: dict[str, np.ndarray] = {"in_position": pos}
    if "NORMAL" in attrs:
        out["in_normal"] = np.asarray(attrs["NORMAL"], dtype=np.float32)
    for s in (0, 1):
        if f"TEXCOORD_{s}" in attrs:
            out[f"in_uv{s}"] = np.asarray(attrs[f"TEXCOORD_{s}"], dtype=np.float32)
    if "COLOR_0" in attrs:
        out["in_color"] = vertex_colors(attrs["COLOR_0"])
    for s in (0, 1):
        if f"JOINTS_{s}" in attrs and f"WEIGHTS_{s}" in attrs:
            # float32 holds every joint index up to 2^24 exactly; the shader rounds back to int
            out[f"in_joints{s}"] = np.asarray(attrs[f"JOINTS_{s}"], dtype=np.float32)
            out[f"in_weights{s}"] = np.asarray(attrs[f"WEIGHTS_{s}"], dtype=np.float32)
    tan, source, split_indices = _tangents(attrs, pos, indices, kind, tangent_uv_set)
    if source is not None:
        out = {k: v[source] for k, v in out.items()}
        indices, n = split_indices, len(source)
    if tan is not None:
        out["in_tangent"] = tan
    flat = kind == "triangles" and "NORMAL" not in attrs
    return MeshData(kind, indices, {k: np.ascontiguousarray(v) for k, v in out.items()}, n, flat, source)


def morph_deltas(primitive: Primitive, semantic: str, source_vertex: np.ndarray | None = None) -> np.ndarray | None:
    """(targets, n, 3) float32 deltas of ``semantic`` ("POSITION", "NORMAL" or "TANGENT"), zeros for targets
    lacking it; None when no target has it. With ``source_vertex`` (``MeshData.source_vertex``) the deltas
    are those of the GPU vertices: (targets, n', 3)."""
    targets = primitive.targets
    if not any(semantic in t for t in targets):
        return None
    n = len(primitive.attributes["POSITION"])
    out = np.zeros((len(targets), n, 3), dtype=np.float32)
    for k, t in enumerate(targets):
        if semantic in t:
            out[k] = np.asarray(t[semantic], dtype=np.float32)[:, :3]
    return out if source_vertex is None else out[:, source_vertex]
