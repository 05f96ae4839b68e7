"""The studio environment (``viewer.render.studio_env``): conventions, prefilter, SH9, BRDF LUT, the asset.

Every reference here is computed independently of the module's shortcuts: the prefilter against the
weighted sum written with h = normalize(n + l), SH against brute-force cosine sums, the LUT against a
grid over the hemisphere of light directions.
"""

from __future__ import annotations

import ast

import numpy as np
import pytest

from viewer.render import studio_env as se


def solid_angles(width: int, height: int) -> np.ndarray:
    """(height, width) exact texel solid angles, written out here rather than taken from the module."""
    theta = np.pi * np.arange(height + 1) / height
    return np.repeat(((np.cos(theta[:-1]) - np.cos(theta[1:])) * 2 * np.pi / width)[:, None], width, axis=1)


def brute_irradiance(env: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """(n, 3) (1/π) Σ L(l) max(n·l, 0) dΩ over the texels of ``env``."""
    h, w = env.shape[:2]
    cos = np.einsum("hwk,nk->nhw", se.equirect_directions(w, h), normals).clip(0)
    return np.einsum("nhw,hwc,hw->nc", cos, env, solid_angles(w, h)) / np.pi


def test_module_imports_no_gl():
    tree = ast.parse(open(se.__file__, encoding="utf-8").read())
    imported = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"moderngl", "moderngl_window", "pyglet", "imgui_bundle"}


def test_axes_land_where_the_convention_says():
    uv = se.direction_to_uv(np.array([[0, 1, 0], [0, -1, 0], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 0, 1.0]]))
    assert uv[0, 1] == pytest.approx(0.0) and uv[1, 1] == pytest.approx(1.0)  # +Y row 0, −Y last row
    np.testing.assert_allclose(uv[2:5], [[0.5, 0.5], [0.75, 0.5], [0.25, 0.5]], atol=1e-12)
    assert uv[5, 0] % 1.0 == pytest.approx(0.0) and uv[5, 1] == pytest.approx(0.5)  # +Z on the seam


def test_texel_centres_round_trip():
    w, h = 48, 24
    d = se.equirect_directions(w, h)
    assert d.shape == (h, w, 3)
    np.testing.assert_allclose(np.linalg.norm(d, axis=-1), 1.0, atol=1e-12)
    uv = se.direction_to_uv(d * 3.0)  # length does not matter
    np.testing.assert_allclose(uv[..., 0], ((np.arange(w) + 0.5) / w)[None, :].repeat(h, 0), atol=1e-12)
    np.testing.assert_allclose(uv[..., 1], ((np.arange(h) + 0.5) / h)[:, None].repeat(w, 1), atol=1e-12)


def test_uniform_environment_stays_uniform():
    env = np.full((32, 64, 3), 0.7, np.float32)
    chain = se.prefilter(env, 6)
    assert [c.shape for c in chain] == [(32 >> k, 64 >> k, 3) for k in range(6)]
    for level in chain:
        assert level.dtype == np.float32
        np.testing.assert_allclose(level, 0.7, rtol=1e-4)
    normals = np.random.default_rng(1).normal(size=(50, 3))
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    np.testing.assert_allclose(se.sh_irradiance(se.sh9(np.ones((32, 64, 3))), normals), 1.0, atol=1e-3)


def test_prefilter_is_the_ggx_weighted_sum():
    rng = np.random.default_rng(7)
    w, levels = 64, 4
    env = (rng.random((w // 2, w, 3)) ** 3 * 5).astype(np.float32)
    chain = se.prefilter(env, levels)
    np.testing.assert_array_equal(chain[0], env)
    src = se.equirect_directions(w, w // 2)
    for k, i, j in [(1, 0, 0), (1, 7, 30), (2, 3, 5), (3, 1, 7), (3, 3, 0)]:
        alpha2 = (k / (levels - 1)) ** 4
        n = se.equirect_directions(w >> k, w >> (k + 1))[i, j]
        half = src + n
        half /= np.linalg.norm(half, axis=-1, keepdims=True)
        nh = half @ n
        weight = alpha2 / (np.pi * (nh * nh * (alpha2 - 1) + 1) ** 2) * np.maximum(src @ n, 0) * solid_angles(w, w // 2)
        expected = np.einsum("hw,hwc->c", weight, env) / weight.sum()
        np.testing.assert_allclose(chain[k][i, j], expected, rtol=1e-5)


def test_prefilter_blurs_a_spot_more_at_every_level():
    w = 128
    d = se.equirect_directions(w, w // 2)
    spot = np.array([0.3, 0.2, -0.93]) / np.linalg.norm([0.3, 0.2, -0.93])
    env = 0.1 + 50.0 * np.exp(-((np.arccos(np.clip(d @ spot, -1, 1)) / 0.06) ** 2))[..., None].repeat(3, -1)
    peaks, spreads = [], []
    for level in se.prefilter(env, 6):
        h, lw = level.shape[:2]
        excess = (level[..., 0] - 0.1) * solid_angles(lw, h)
        angle = np.arccos(np.clip(se.equirect_directions(lw, h) @ spot, -1, 1))
        peaks.append(level.max())
        spreads.append(np.sqrt((excess * angle**2).sum() / excess.sum()))
        assert level.min() >= 0.1 - 1e-6
    assert all(a > b for a, b in zip(peaks, peaks[1:])), peaks
    assert all(a < b for a, b in zip(spreads, spreads[1:])), spreads


def test_sh_irradiance_is_exact_for_a_band_limited_environment():
    d = se.equirect_directions(256, 128)
    x, y, z = d[..., 0], d[..., 1], d[..., 2]
    bands = np.stack(
        [
            1 + 0.5 * y + 0.3 * x * z,
            0.8 - 0.4 * z + 0.2 * (x * x - y * y),
            0.6 + 0.3 * x * y + 0.2 * y * z + 0.1 * (3 * z * z - 1) + 0.2 * x,
        ],
        axis=-1,
    )
    normals = np.array([[0, 1, 0], [0, -1, 0], [1, 0, 0], [0, 0, -1], [0.6, 0.0, 0.8], [-0.48, 0.6, 0.64]])
    np.testing.assert_allclose(se.sh_irradiance(se.sh9(bands), normals), brute_irradiance(bands, normals), atol=2e-3)


def test_sh_irradiance_of_the_studio_matches_brute_force():
    # SH9 cannot hold the soft boxes' bands >= 4, so the error is measured against the brightest irradiance
    # (what a lit model shows); relative to a dim normal's own value it reaches 13 % (module docstring).
    env = se.studio_radiance(se.equirect_directions(256, 128)).astype(np.float64)
    axes = np.concatenate([np.eye(3), -np.eye(3)])
    diagonals = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) / np.sqrt(3)
    normals = np.concatenate([axes, diagonals])
    exact = brute_irradiance(env, normals)
    approx = se.sh_irradiance(se.sh9(env), normals)
    assert np.abs(approx - exact).max() <= 0.02 * exact.max()
    assert (np.abs(approx[1] - exact[1]) <= 0.02 * exact[1]).all()  # straight up (+Y): 2 % of itself


def test_studio_is_lit_neutrally_and_softly():
    env = se.studio_radiance(se.equirect_directions(512, 256))
    assert env.dtype == np.float32 and env.min() > 0.15
    assert 3.0 < env.max() < 20.0  # light panels for a mirror to show
    up = se.sh_irradiance(se.sh9(env), np.array([0.0, 1.0, 0.0]))
    assert 0.8 < up.mean() < 1.5 and up.max() / up.min() < 1.05
    jumps = max(np.abs(np.diff(env, axis=0)).max(), np.abs(np.diff(env, axis=1)).max())
    assert jumps < 0.5 * env.max()  # every edge spreads over several texels: no hard, aliasing step
    np.testing.assert_array_equal(env, se.studio_radiance(se.equirect_directions(512, 256)))


def brute_lut(ndotv: float, roughness: float, n: int = 600) -> tuple[float, float]:
    """(A, B) by a midpoint grid over light directions (uniform in cos θ_l and φ), straight from the BRDF."""
    a2 = roughness**4
    mu, phi = np.meshgrid((np.arange(n) + 0.5) / n, 2 * np.pi * (np.arange(2 * n) + 0.5) / (2 * n), indexing="ij")
    light = np.stack([np.sqrt(1 - mu * mu) * np.cos(phi), np.sqrt(1 - mu * mu) * np.sin(phi), mu], axis=-1)
    view = np.array([np.sqrt(1 - ndotv**2), 0.0, ndotv])
    half = light + view
    half /= np.linalg.norm(half, axis=-1, keepdims=True)
    nh, vh = half[..., 2], half @ view
    d = a2 / (np.pi * (nh * nh * (a2 - 1) + 1) ** 2)
    vis = 0.5 / (mu * np.sqrt(ndotv**2 * (1 - a2) + a2) + ndotv * np.sqrt(mu * mu * (1 - a2) + a2))
    f = d * vis * mu * (1.0 / n) * (np.pi / n)
    fc = (1 - vh) ** 5
    return float(((1 - fc) * f).sum()), float((fc * f).sum())


@pytest.fixture(scope="module")
def lut() -> np.ndarray:
    return se.brdf_lut()


def test_brdf_lut_range_and_limits(lut):
    assert lut.shape == (64, 64, 2) and lut.dtype == np.float32
    assert lut.min() >= 0.0 and lut.max() <= 1.0
    assert (lut.sum(-1) <= 1.0 + 1e-3).all()
    assert (lut[0, 32:].sum(-1) > 0.99).all()  # nearly a mirror: all energy comes back
    assert lut[0, -1, 0] == pytest.approx(1.0, abs=2e-3) and lut[0, -1, 1] < 1e-3
    assert (np.diff(lut.sum(-1)[:, 48], axis=0) < 1e-3).all()  # rougher loses more (multiple scattering)


@pytest.mark.parametrize("row, col", [(31, 40), (44, 1), (10, 20), (63, 63)])
def test_brdf_lut_matches_brute_force(lut, row, col):
    # (44, 1) is grazing: plain GGX half-vector sampling at 512 samples is 0.03 off there
    expected = brute_lut((col + 0.5) / 64, (row + 0.5) / 64)
    np.testing.assert_allclose(lut[row, col], expected, atol=2e-3)


def test_write_and_load_round_trip(tmp_path, capsys):
    baked = se.bake(64, 4)
    assert [lv.shape for lv in baked["levels"]] == [(32, 64, 3), (16, 32, 3), (8, 16, 3), (4, 8, 3)]
    path = se.write(tmp_path / "env.npz", baked)
    back = se.load(path)
    assert sorted(np.load(path).files) == ["level0", "level1", "level2", "level3", "lut", "sh"]
    for a, b in zip(back["levels"] + [back["sh"], back["lut"]], baked["levels"] + [baked["sh"], baked["lut"]]):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-4)
    assert se.main(["--out", str(tmp_path / "cli.npz"), "--width", "32", "--levels", "2"]) == 0
    assert "cli.npz" in capsys.readouterr().out and (tmp_path / "cli.npz").is_file()


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        se.prefilter(np.ones((10, 20, 3)), 3)  # 10 is not divisible by 4
    with pytest.raises(ValueError):
        se.prefilter(np.ones((16, 16, 3)), 2)  # not 2:1


def test_shipped_asset_matches_the_code():
    baked = se.load()
    levels = baked["levels"]
    assert [lv.shape for lv in levels] == [(256 >> k, 512 >> k, 3) for k in range(6)]
    assert baked["sh"].shape == (9, 3) and baked["lut"].shape == (64, 64, 2)
    for a in levels + [baked["lut"]]:
        assert np.isfinite(a).all() and a.min() >= 0.0
    assert np.isfinite(baked["sh"]).all()
    np.testing.assert_allclose(levels[0], se.studio_radiance(se.equirect_directions(512, 256)), rtol=1e-3)
    for stored, fresh in zip(levels[1:], se.prefilter(levels[0], 6)[1:]):
        np.testing.assert_allclose(stored, fresh, rtol=2e-3)
    np.testing.assert_allclose(baked["sh"], se.sh9(levels[0]), rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(baked["lut"], se.brdf_lut(), rtol=1e-3, atol=1e-4)
