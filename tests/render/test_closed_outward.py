"""``closed.closed_outward`` gives the same answer as the algorithm it replaced (kept here, verbatim, as
``reference``: welding by ``np.unique(axis=0)``, two sorted edge lists, float64 volumes by ``np.cross``) on
every shared model's primitives and on generated closed, open, inconsistently wound, inward, degenerate,
flat, far-away, non-finite and morphed meshes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, KHRONOS_PBR_DIR, REPO_ROOT
from viewer.render import closed, geometry
from viewer.scene.scene import load

sys.path.insert(0, str(REPO_ROOT / "tools"))
import stress_models  # noqa: E402


def reference(positions: np.ndarray, triangles: np.ndarray, deltas: np.ndarray | None = None) -> bool:
    """``closed_outward`` as it was before issue 14 (8 s of a 1 M-triangle file's first frame)."""
    p = np.asarray(positions, np.float64)
    if not len(triangles) or len(triangles) % 3:
        return False
    assert deltas is None or deltas.shape[1:] == p.shape  # (where closed_outward raises: tested apart)
    welded, first, inverse = np.unique(p, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if deltas is not None and len(deltas):
        if not np.array_equal(deltas, deltas[:, first[inverse]]):
            return False
    t = inverse[np.asarray(triangles, np.int64).reshape(-1, 3)]
    t = t[(t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 2] != t[:, 0])]
    if not len(t):
        return False
    n = len(welded)
    edges = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    keys = np.sort(edges[:, 0] * n + edges[:, 1])
    if (keys[1:] == keys[:-1]).any():
        return False
    if not np.array_equal(keys, np.sort(edges[:, 1] * n + edges[:, 0])):
        return False
    shapes = [p] + ([p + d for d in deltas] if deltas is not None else [])
    for shape in shapes:
        w = shape[np.asarray(triangles, np.int64).reshape(-1, 3)]
        if np.einsum("ij,ij->i", w[:, 0], np.cross(w[:, 1], w[:, 2])).sum() <= 0.0:
            return False
    return True


def same(p, t, d=None, expected: bool | None = None) -> bool:
    """Both answers, asserted equal (and equal to ``expected`` when given)."""
    want = reference(p, t, d)
    assert closed.closed_outward(p, t, d) == want
    if expected is not None:
        assert want == expected
    return want


def torus(rings: int = 12, segments: int = 24, lumps: float = 0.0):
    uv, tri = stress_models.torus_grid(rings, segments)
    return stress_models.torus_points(uv, lumps).astype(np.float32), tri.reshape(-1).astype(np.uint32)


def model_files() -> list[Path]:
    files = []
    for root in (KHRONOS_DIR, KHRONOS_PBR_DIR):
        if root.is_dir():
            files += sorted(f for f in root.glob("*/*") if f.suffix in (".gltf", ".glb"))
    return files + sorted((REPO_ROOT / "assets").glob("*.gltf"))


@pytest.mark.parametrize("path", model_files(), ids=lambda p: p.stem)
def test_every_shared_model_primitive(path):
    """Each triangle primitive as the GPU gets it: with and without tangent splits, with its targets,
    without them, and as unindexed triangle soup."""
    scene = load(path)
    checked = 0
    for mesh in scene.meshes:
        for prim in mesh.primitives:
            if "POSITION" not in prim.attributes or geometry.DRAW_KIND[prim.mode] != "triangles":
                continue
            uv_sets = [None] + [s for s in (0, 1) if f"TEXCOORD_{s}" in prim.attributes]
            for uv in uv_sets:
                data = geometry.prepare(prim, uv)
                pos = data.attributes["in_position"]
                idx = data.indices if data.indices is not None else np.arange(len(pos), dtype=np.uint32)
                deltas = geometry.morph_deltas(prim, "POSITION", data.source_vertex)
                same(pos, idx, deltas)
                same(pos, idx)
                whole = len(idx) - len(idx) % 3
                same(pos[idx[:whole]], np.arange(whole))
                checked += 1
    assert checked or path.stem in ("AnimatedTriangle",)  # a model of no triangle lists has nothing to check


def test_closed_tori_welded_and_not():
    p, t = torus()
    assert same(p, t, expected=True)
    assert same(p[t], np.arange(len(t)), expected=True)  # every corner its own vertex: welded back
    assert same(*torus(16, 40, lumps=0.1), expected=True)


def test_open_inward_and_inconsistent():
    p, t = torus()
    same(p, t[:-3], expected=False)  # a hole
    same(p, t.reshape(-1, 3)[:, ::-1].reshape(-1), expected=False)  # inside out
    flipped = t.copy().reshape(-1, 3)
    flipped[5] = flipped[5, ::-1]
    same(p, flipped.reshape(-1), expected=False)  # one triangle wound the other way
    same(p, np.concatenate([t, t]), expected=False)  # every directed edge twice
    same(p, np.concatenate([t, t[:3]]), expected=False)  # one triangle twice
    same(p, np.concatenate([t, t.reshape(-1, 3)[:1, ::-1].reshape(-1)]), expected=False)  # a fin on one edge
    same(p, t[:-1])  # not whole triangles
    same(p, t[:0], expected=False)


def test_degenerate_triangles_are_left_out_of_the_edges():
    p, t = torus()
    degenerate = np.array([0, 0, 1, 2, 3, 2, 4, 5, 5], np.uint32)
    same(p, np.concatenate([t, degenerate]), expected=True)
    same(p, degenerate, expected=False)  # nothing left


def test_two_surfaces_and_non_manifold_vertices():
    p, t = torus()
    q, s = torus(10, 20)
    both = np.concatenate([p, q + np.float32(3.0)])
    same(both, np.concatenate([t, s + len(p)]), expected=True)
    same(np.concatenate([p, q]), np.concatenate([t, s + len(p)]))  # overlapping, not welded anywhere
    same(np.concatenate([p, p]), np.concatenate([t, t + len(p)]), expected=False)  # coincident: edges twice
    two = np.concatenate([p, p + np.float32(2 * stress_models.MAJOR + 2 * stress_models.MINOR)])
    same(two, np.concatenate([t, t + len(p)]))  # two tori touching at points


def test_signed_zero_nan_and_inf_positions():
    p, t = torus()
    z = p.copy()
    z[p == 0.0] = -0.0  # -0 welds with +0
    same(np.concatenate([p, z]), np.concatenate([t[: len(t) // 2], t[len(t) // 2 :] + len(p)]), expected=True)
    for bad in (np.nan, np.inf, -np.inf):
        q = p.copy()
        q[3, 1] = bad
        same(q, t)
        same(q[t], np.arange(len(t)))
        r = p.copy()
        r[:, 0] = bad
        same(r, t)


def test_flat_and_far_surfaces_decided_by_the_float64_sum():
    """Two-sided confetti (each triangle also wound back from another corner: closed, zero volume, the
    sign is rounding) and a small closed surface far from the origin (the bound cannot decide) take the
    reference sum: still the same answer."""
    rng = np.random.default_rng(7)
    corners = rng.random((50, 3, 3))
    front = np.arange(150).reshape(-1, 3)
    back = front[:, [1, 0, 2]]
    for shift in (0.0, 0.1, 1e3):
        assert same(corners.reshape(-1, 3) + shift, np.concatenate([front, back]).reshape(-1)) in (True, False)
    p, t = torus()
    for far in (1e4, 1e6, 1e12):
        same(p.astype(np.float64) + far, t)
        same((p + np.float32(far)).astype(np.float32), t)


def test_morph_targets():
    p, t = torus(16, 32)
    uv, _ = stress_models.torus_grid(16, 32)
    n = stress_models.surface_normals(uv, 0.0)
    ripples = np.stack([tg["POSITION"] for tg in stress_models.ripple_targets(p, n, 6, False)])
    same(p, t, ripples, expected=True)
    same(p, t, np.zeros((0, len(p), 3), np.float32), expected=True)
    inside_out = np.zeros((1, len(p), 3))
    inside_out[0, :, 0] = -2.0 * p[:, 0]
    same(p, t, np.concatenate([ripples, inside_out]), expected=False)
    flat = np.zeros((1, len(p), 3))
    flat[0, :, 1] = -p[:, 1]  # squashed flat: zero volume
    same(p, t, flat)
    nan = ripples.copy()
    nan[2, 7, 0] = np.nan
    same(p, t, nan, expected=False)
    with pytest.raises(ValueError, match="source_vertex"):
        closed.closed_outward(p, t, ripples[:, :-1])


def test_morph_targets_on_welded_copies():
    p, t = torus()
    soup, idx = p[t], np.arange(len(t))
    together = np.repeat(np.linspace(0.0, 0.2, len(p))[:, None], 3, axis=1)[None][:, t].astype(np.float32)
    same(soup, idx, together, expected=True)
    apart = together.copy()
    apart[0, 10, 2] += 0.01  # one copy of a vertex moves alone: a crack
    same(soup, idx, apart, expected=False)
    signed = together.copy()
    signed[signed == 0.0] = -0.0  # copies moved by +0 and -0 still move together
    same(soup, idx, signed, expected=True)


def test_hash_collisions_fall_back_to_the_row_sort(monkeypatch):
    """Every position hashing alike must not weld different positions."""
    monkeypatch.setattr(closed, "_mix", lambda z: np.zeros_like(z))
    p, t = torus()
    same(p, t, expected=True)
    same(p[t], np.arange(len(t)), expected=True)
    same(p, t[:-3], expected=False)


def test_random_triangle_soups():
    rng = np.random.default_rng(14)
    for k in range(40):
        n = int(rng.integers(3, 12))
        p = rng.integers(-2, 3, (n, 3)).astype(np.float32)  # few distinct positions: many welds
        t = rng.integers(0, n, 3 * int(rng.integers(1, 16))).astype(np.uint32)
        d = rng.integers(-1, 2, (2, n, 3)).astype(np.float32) if k % 2 else None
        same(p, t, d)
