"""Generated tangents (``viewer.render.tangents``): pure numpy, no GL."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR
from viewer.render import tangents

MIRROR_TEST = KHRONOS_DIR.parent / "khronos-pbr" / "NormalTangentMirrorTest" / "NormalTangentMirrorTest.glb"


def grid(cols: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(cols+1)·(rows+1) vertices at integer x, y (z = 0) and the CCW triangles of its quads."""
    x, y = np.meshgrid(np.arange(cols + 1.0), np.arange(rows + 1.0))
    p = np.stack([x.ravel(), y.ravel(), np.zeros(x.size)], axis=1)
    c, r = np.meshgrid(np.arange(cols), np.arange(rows))
    a = (r * (cols + 1) + c).ravel()
    b, d, e = a + 1, a + cols + 1, a + cols + 2
    return p, np.concatenate([np.stack([a, b, e], 1), np.stack([a, e, d], 1)])


def bitangent(t: np.ndarray, n: np.ndarray) -> np.ndarray:
    return np.cross(n, t[:, :3]) * t[:, 3:]


def test_affine_uv_map_gives_the_analytic_tangent():
    p, tri = grid(4, 3)
    # a tilted plane, and UVs an affine (sheared, scaled) map of the plane's own coordinates
    ex, ey = np.array([1.0, 0.0, 0.5]), np.array([0.0, 1.0, 0.25])
    pos = p[:, :1] * ex + p[:, 1:2] * ey
    normal = np.cross(ex, ey) / np.linalg.norm(np.cross(ex, ey))
    m = np.array([[0.3, 0.1], [-0.05, -0.2]])  # uv = m @ (x, y) + offset; v runs against y: w = +1
    uv = p[:, :2] @ m.T + [0.5, 0.7]
    t, source, out_tri = tangents.generate(pos, np.tile(normal, (len(p), 1)), uv, tri)
    assert source is None and out_tri is tri
    inv = np.linalg.inv(m)  # (x, y) = inv @ (uv - offset)
    dp_du, dp_dv = inv[0, 0] * ex + inv[1, 0] * ey, inv[0, 1] * ex + inv[1, 1] * ey
    expected = dp_du - normal * (normal @ dp_du)
    np.testing.assert_allclose(t[:, :3], np.tile(expected / np.linalg.norm(expected), (len(p), 1)), atol=1e-6)
    assert (t[:, 3] == 1).all()
    # glTF: the bitangent points up the image, where v decreases
    assert (bitangent(t, normal) @ -dp_dv > 0).all()


def mirrored_strip():
    """A 4×2-quad strip in the XY plane (normal +Z) whose U mirrors at the middle column x = 2; v runs
    down the image as y goes up, the glTF layout of an upright texture."""
    p, tri = grid(4, 2)
    uv = np.stack([2.0 - np.abs(p[:, 0] - 2.0), 2.0 - p[:, 1]], axis=1) / 4
    return p, np.tile([0.0, 0.0, 1.0], (len(p), 1)), uv, tri


def test_mirrored_uvs_split_the_seam_into_one_copy_per_handedness():
    p, n, uv, tri = mirrored_strip()
    t, source, out_tri = tangents.generate(p, n, uv, tri)
    seam = np.flatnonzero(p[:, 0] == 2)
    assert sorted(source[len(p) :]) == sorted(seam)  # only the seam column is copied
    np.testing.assert_array_equal(source[: len(p)], np.arange(len(p)))
    np.testing.assert_array_equal(p[source][out_tri], p[tri])  # the same triangles, drawn from copies
    left = p[tri].mean(axis=1)[:, 0] < 2
    corner_t = t[out_tri]  # (m, 3, 4)
    assert (corner_t[left, :, 3] == 1).all() and (corner_t[~left, :, 3] == -1).all()
    np.testing.assert_allclose(corner_t[left, :, :3], np.broadcast_to([1, 0, 0], (left.sum(), 3, 3)), atol=1e-6)
    np.testing.assert_allclose(corner_t[~left, :, :3], np.broadcast_to([-1, 0, 0], ((~left).sum(), 3, 3)), atol=1e-6)
    # both halves: the bitangent points up the image (+Y here), as the UV layout says
    np.testing.assert_allclose(bitangent(t, n[source]), np.tile([0, 1, 0], (len(t), 1)), atol=1e-6)


def test_random_meshes_give_unit_tangents_orthogonal_to_the_normals():
    rng = np.random.default_rng(7)
    n_vert = 200
    pos, uv = rng.normal(size=(n_vert, 3)), rng.random((n_vert, 2))
    nrm = rng.normal(size=(n_vert, 3)) * rng.choice([1.0, 1e-3], size=(n_vert, 1))  # not unit: normalized
    tri = rng.integers(0, n_vert, size=(600, 3)).astype(np.uint32)
    t, source, out_tri = tangents.generate(pos, nrm, uv, tri)
    assert source is not None and out_tri.dtype == np.uint32 and out_tri.max() < len(t)
    unit_n = nrm[source] / np.linalg.norm(nrm[source], axis=1, keepdims=True)
    assert t.dtype == np.float32 and np.isin(t[:, 3], [-1, 1]).all()
    np.testing.assert_allclose(np.linalg.norm(t[:, :3], axis=1), 1, atol=1e-6)
    assert np.abs(np.einsum("ij,ij->i", t[:, :3], unit_n)).max() < 1e-5


def test_degenerate_and_non_finite_input_stays_finite_without_warnings():
    p, n, uv, tri = mirrored_strip()
    pos = p.copy()
    pos[0], pos[7] = np.nan, np.inf
    bad_n = n.copy()
    bad_n[1], bad_n[2], bad_n[3] = 0.0, np.nan, [1e-300, 0, 0]
    bad_uv = uv.copy()
    bad_uv[4] = np.nan
    cases = [
        (pos, n, uv, tri),
        (p, bad_n, bad_uv, tri),
        (p, n, np.zeros_like(uv), tri),
        (np.full_like(p, 1e300), n, uv, tri),
        (p, n, uv, np.zeros((0, 3), np.int64)),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for case in cases:
            t, source, _ = tangents.generate(*case)
            assert np.isfinite(t).all()
            np.testing.assert_allclose(np.linalg.norm(t[:, :3], axis=1), 1, atol=1e-6)
    t, source, _ = tangents.generate(p, n, np.zeros_like(uv), tri)  # no UV gradient anywhere: the fallback
    assert source is None and (t[:, 3] == 1).all() and np.abs(t[:, :3] @ [0, 0, 1]).max() < 1e-7


def test_degenerate_uv_triangles_neither_contribute_nor_split():
    p, n, uv, tri = mirrored_strip()
    uv = uv.copy()
    uv[p[:, 0] > 2, 0] = 0.5  # the mirrored half's U collapses onto the seam's: zero UV area, no handedness
    t, source, out_tri = tangents.generate(p, n, uv, tri)
    assert source is None and out_tri is tri
    np.testing.assert_allclose(t[p[:, 0] <= 2, :3], np.tile([1, 0, 0], ((p[:, 0] <= 2).sum(), 1)), atol=1e-6)


def test_file_tangents_of_normal_tangent_mirror_test_are_reproduced():
    """Khronos's mirror test ships MikkTSpace tangents: generated ones must match them closely."""
    if not MIRROR_TEST.is_file():
        pytest.skip(f"{MIRROR_TEST} not found")
    from viewer.scene import scene

    prim = scene.load(MIRROR_TEST).meshes[0].primitives[0]
    a = prim.attributes
    t, source, _ = tangents.generate(a["POSITION"], a["NORMAL"], a["TEXCOORD_0"], prim.indices.reshape(-1, 3))
    file_t = a["TANGENT"] if source is None else a["TANGENT"][source]
    cos = np.einsum("ij,ij->i", t[:, :3], file_t[:, :3] / np.linalg.norm(file_t[:, :3], axis=1, keepdims=True))
    angle = np.degrees(np.arccos(np.clip(cos, -1, 1)))
    assert angle.mean() < 0.1 and angle.max() < 1.0  # measured: 0.0012° mean, 0.028° max
    assert (t[:, 3] == file_t[:, 3]).mean() >= 0.99  # measured: every vertex agrees
