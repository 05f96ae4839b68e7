"""The studio environment for image-based lighting, made by code: radiance, GGX mip chain, SH9, BRDF LUT.

Pure numpy (no GL), so every rule is tested without a context. Made by code rather than downloaded, the
studio is licence-free and small, and the tests hold the baked ``assets/studio_env.npz`` (float16 arrays
level0 … levelN-1, sh, lut; ``python -m viewer.render.studio_env`` writes it) to this code. Linear RGB radiance.

Conventions the GLSL must share. World is glTF's: +Y up, right-handed. For a unit direction d:
    u = atan2(d.x, -d.z) / (2π) + 0.5,   v = acos(clamp(d.y, -1, 1)) / π
Row 0 is v ≈ 0 (+Y), column 0 is u ≈ 0 (the seam at +Z); -Z is u = 0.5, +X u = 0.75, -X u = 0.25.
Texel (row i, col j) is centred at ((j + 0.5)/W, (i + 0.5)/H), W = 2H. Mip k is W/2^k × H/2^k, prefiltered
for perceptual roughness k/(N − 1) of N levels: textureLod(env, uv, roughness · (N − 1)).

Diffuse, SH9 (x, y, z: the world components of the unit normal n, no axis swap; c_i: row i of "sh"):
    Y0 = 0.282095      Y1 = 0.488603 y    Y2 = 0.488603 z    Y3 = 0.488603 x    Y4 = 1.092548 x y
    Y5 = 1.092548 y z  Y6 = 0.315392 (3 z² − 1)  Y7 = 1.092548 x z  Y8 = 0.546274 (x² − y²)
    diffuse(n) = Σ_i c_i · A_band(i)/π · Y_i(n),  A/π = 1 (i = 0), 2/3 (i = 1..3), 1/4 (i = 4..8)
    diffuse radiance = albedo · diffuse(n)   (irradiance / π; a uniform radiance 1 gives 1)
SH9 drops the soft boxes' bands ≥ 4. Against a brute-force cosine sum over all normals of the studio:
median 1.8 % off, at most 3.9 % of the brightest irradiance, up to 13 % of a dim normal's own value.

Specular, split sum: prefiltered(R, roughness) · (F0·A + B), (A, B) = texture(lut, vec2(NdotV, roughness)).rg;
lut[row, col]: col ↔ NdotV = (col + 0.5)/size, row ↔ roughness = (row + 0.5)/size, row 0 uploaded first.

Measured on a 2-core machine (numpy 2.4): bake() at 512 × 256 with 6 levels 0.7–1.0 s (peak ~110 MB),
brdf_lut() alone 0.05 s; load() 7 ms the first time in a process (3.5 of them importing zipfile), 2 ms
after; the npz is 1.07 MB.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from viewer.base.resources import REPO_ROOT, asset_path

ASSET_NAME = "studio_env.npz"
# Room: the viewer stands at the origin of a closed box (metres); floor darker than the walls.
ROOM_MIN, ROOM_MAX = np.array([-7.0, -1.2, -7.0]), np.array([7.0, 5.0, 7.0])
WALL, FLOOR, CEILING = 0.36, 0.26, 0.30
COVE = 0.6  # metres over which floor and ceiling blend into the walls: no hard, aliasing edge
EDGE = 0.12  # half-width of a panel's soft edge, metres (≥ 3 texels at 512 wide from every panel)
# Soft boxes facing the origin: centre (m), width × height (m), radiance RGB. Camera side is +Z.
# Large and not too hot: compact lights put energy in SH bands ≥ 4, which SH9 diffuse cannot hold.
LIGHTS = (
    ((0.0, 3.6, 1.2), 4.2, 2.6, (3.6, 3.6, 3.6)),  # large overhead-front soft box
    ((-3.0, 1.8, 3.0), 1.8, 2.6, (7.2, 7.0, 6.6)),  # key, front-left, a touch warm
    ((3.2, 1.6, -3.4), 0.9, 3.1, (5.6, 5.9, 6.2)),  # rim strip, back-right, a touch cool
    ((3.8, 0.6, 2.6), 2.8, 2.8, (1.3, 1.3, 1.3)),  # weak fill, front-right
)
SH_C = (
    0.5 / np.sqrt(np.pi),
    np.sqrt(3 / (4 * np.pi)),
    0.5 * np.sqrt(15 / np.pi),
    0.25 * np.sqrt(5 / np.pi),
    0.25 * np.sqrt(15 / np.pi),
)  # 0.282095 0.488603 1.092548 0.315392 0.546274
SH_BAND_OVER_PI = np.array([1.0] + [2 / 3] * 3 + [1 / 4] * 5)  # Â_l / π for l = 0, 1, 2 (clamped cosine)


def equirect_directions(width: int, height: int) -> np.ndarray:
    """(height, width, 3) float64 unit directions at the texel centres (module conventions)."""
    theta = (np.pi * (np.arange(height) + 0.5) / height)[:, None]
    phi = 2 * np.pi * ((np.arange(width) + 0.5) / width - 0.5)[None, :]
    return np.stack(
        np.broadcast_arrays(np.sin(theta) * np.sin(phi), np.cos(theta), -np.sin(theta) * np.cos(phi)), axis=-1
    )


def direction_to_uv(d: np.ndarray) -> np.ndarray:
    """(..., 2) equirect (u, v) of directions (..., 3); they need not be unit length."""
    d = np.asarray(d, np.float64)
    d = d / np.linalg.norm(d, axis=-1, keepdims=True)
    u = np.arctan2(d[..., 0], -d[..., 2]) / (2 * np.pi) + 0.5
    return np.stack([u, np.arccos(np.clip(d[..., 1], -1.0, 1.0)) / np.pi], axis=-1)


def _row_solid_angle(width: int, height: int) -> np.ndarray:
    """(height,) exact solid angle of one texel in each row: (2π/W)(cos θ_top − cos θ_bottom), sums to 4π."""
    edges = np.cos(np.pi * np.arange(height + 1) / height)
    return (2 * np.pi / width) * (edges[:-1] - edges[1:])


def _smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def studio_radiance(directions: np.ndarray) -> np.ndarray:
    """(..., 3) float32 radiance seen along unit ``directions`` (..., 3) from the centre of the studio.

    The room is a ray-box hit whose colour is a continuous function of the hit point, and every panel
    edge is a smoothstep a few texels wide, so the map has no discontinuity to alias at any resolution.
    """
    d = np.asarray(directions, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_axes = np.where(d > 0, ROOM_MAX / d, np.where(d < 0, ROOM_MIN / d, np.inf))
    height = t_axes.min(axis=-1) * d[..., 1]
    floor = _smoothstep(ROOM_MIN[1] + COVE, ROOM_MIN[1], height)
    ceiling = _smoothstep(ROOM_MAX[1] - COVE, ROOM_MAX[1], height)
    gray = WALL + (FLOOR - WALL) * floor + (CEILING - WALL) * ceiling
    out = np.repeat(gray[..., None], 3, axis=-1)
    for centre, width, tall, rgb in LIGHTS:
        c = np.asarray(centre, np.float64)
        normal = c / np.linalg.norm(c)
        right = np.cross([0.0, 1.0, 0.0], normal)
        right /= np.linalg.norm(right)
        up = np.cross(normal, right)
        facing = d @ normal
        p = d * (np.linalg.norm(c) / np.maximum(facing, 1e-9))[..., None] - c  # on the panel's plane
        x, y = p @ right, p @ up  # metres from the panel's centre
        mask = (
            _smoothstep(width / 2 + EDGE, width / 2 - EDGE, np.abs(x))
            * _smoothstep(tall / 2 + EDGE, tall / 2 - EDGE, np.abs(y))
            * (facing > 0)
        )
        hot = 1.1 - 0.2 * np.minimum((2 * x / width) ** 2 + (2 * y / tall) ** 2, 1.0)  # brighter middle
        out += mask[..., None] * (hot[..., None] * np.asarray(rgb) - out)
    return out.astype(np.float32)


def _ggx_level(spectrum: np.ndarray, h: int, w: int, th: int, alpha: float, budget: int = 1 << 21) -> np.ndarray:
    """(th, 2·th, 3) one prefiltered level from the source rows' FFT ``spectrum`` (h, w//2+1, 3).

    The weight D(n·h)·max(n·l, 0)·dΩ depends on n·l alone (n = v: n·h = sqrt((1 + n·l)/2)), so for a
    target row it is one kernel over (source row, azimuth offset): a circular correlation along each
    source row, done by FFT. Exact for the discrete map, no samples (no noise, no banding), and divided
    by the kernel's sum, so a uniform map stays uniform.
    """
    tw, step = 2 * th, w // (2 * th)
    theta_s = np.pi * (np.arange(h) + 0.5) / h
    sin_s, cos_s = np.sin(theta_s)[:, None], np.cos(theta_s)[:, None]
    cos_dphi = np.cos(2 * np.pi * ((np.arange(w) + 0.5) / w - 0.5 / tw))  # source column − target column 0
    d_omega = _row_solid_angle(w, h)[:, None]
    a2 = alpha * alpha
    theta_t = np.pi * (np.arange(th) + 0.5) / th
    out = np.empty((th, tw, 3), np.float32)
    rows = max(1, budget // (h * w))  # bounds the (rows, h, w) kernel block: ~16 MB a block
    for i0 in range(0, th, rows):
        t = theta_t[i0 : i0 + rows, None, None]
        nl = np.sin(t) * sin_s * cos_dphi + np.cos(t) * cos_s
        nh2 = 0.5 * (1.0 + nl)
        kernel = a2 / (np.pi * (nh2 * (a2 - 1.0) + 1.0) ** 2) * np.maximum(nl, 0.0) * d_omega
        fk = np.conj(np.fft.rfft(kernel, axis=2)).transpose(2, 0, 1)  # (F, rows, h)
        filtered = np.fft.irfft(fk @ spectrum.transpose(1, 0, 2), n=w, axis=0)  # (w, rows, 3)
        out[i0 : i0 + rows] = (filtered[::step] / kernel.sum(axis=(1, 2))[None, :, None]).transpose(1, 0, 2)
    return out


def prefilter(level0: np.ndarray, levels: int) -> list[np.ndarray]:
    """GGX mip chain of an equirect map (h, 2h, 3): level k is (h/2^k, 2h/2^k, 3) float32 at perceptual
    roughness k/(levels − 1) (α = r²), split-sum N = V = R; level 0 is the source (a mirror).
    Every level is convolved from the full-resolution source, so narrow lobes see all its detail."""
    src = np.asarray(level0, np.float64)
    h, w = src.shape[:2]
    if src.shape != (h, 2 * h, 3) or levels < 1 or h % (1 << (levels - 1)):
        raise ValueError(f"need an (h, 2h, 3) map with h divisible by 2^(levels-1); got {src.shape}, {levels}")
    spectrum = np.fft.rfft(src, axis=1)
    return [src.astype(np.float32)] + [
        _ggx_level(spectrum, h, w, h >> k, (k / (levels - 1)) ** 2) for k in range(1, levels)
    ]


def sh_basis(n: np.ndarray) -> np.ndarray:
    """(..., 9) real SH bands 0–2 of unit directions (..., 3), in the module docstring's order."""
    x, y, z = np.moveaxis(np.asarray(n, np.float64), -1, 0)
    c0, c1, c2, c3, c4 = SH_C
    return np.stack(
        [
            np.full_like(x, c0),
            c1 * y,
            c1 * z,
            c1 * x,
            c2 * x * y,
            c2 * y * z,
            c3 * (3 * z * z - 1),
            c2 * x * z,
            c4 * (x * x - y * y),
        ],
        axis=-1,
    )


def sh9(equirect: np.ndarray) -> np.ndarray:
    """(9, 3) float32 SH coefficients of an equirect radiance map (h, w, 3), each texel weighted by its
    exact solid angle (the map's own integral, so a uniform 1 gives c_0 = 4π · 0.282095)."""
    env = np.asarray(equirect, np.float64)
    h, w = env.shape[:2]
    weighted = env * _row_solid_angle(w, h)[:, None, None]
    return np.einsum("hwk,hwc->kc", sh_basis(equirect_directions(w, h)), weighted).astype(np.float32)


def sh_irradiance(coeffs: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """(..., 3) irradiance / π at unit ``normals`` (..., 3): Σ_i c_i · Â_band(i)/π · Y_i(n) (Ramamoorthi
    & Hanrahan 2001); times a Lambert albedo it is the diffuse radiance. Uniform radiance 1 gives 1."""
    c = np.asarray(coeffs, np.float64) * SH_BAND_OVER_PI[:, None]
    return (sh_basis(normals) @ c).astype(np.float32)


def _hammersley(samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Hammersley set: ((i + 0.5)/N, base-2 radical inverse of i): even and deterministic."""
    i = np.arange(samples)
    inverse, bits, weight = np.zeros(samples), i.copy(), 0.5
    while bits.any():
        inverse += weight * (bits & 1)
        bits, weight = bits >> 1, weight / 2
    return (i + 0.5) / samples, inverse


def brdf_lut(size: int = 64, samples: int = 512) -> np.ndarray:
    """(size, size, 2) float32 split-sum (A, B): ∫ f_spec cosθ_l dω ≈ F0·A + B for GGX with Schlick's
    Fresnel and the height-correlated Smith V of glTF 2.0 Appendix B; rows roughness, columns NdotV.

    Half vectors follow the visible-normal distribution (Heitz 2018) from a Hammersley set, so a sample
    weighs G2/G1(V) = 2·V·NdotL·(NdotV + sqrt(α² + (1 − α²)NdotV²)) ≤ 1: at 512 samples it is within
    0.003 of a 65 536-sample table where plain GGX sampling is off by 0.04 at grazing NdotV.
    """
    u1, u2 = _hammersley(samples)
    t1, t2_disk = np.sqrt(u1) * np.cos(2 * np.pi * u2), np.sqrt(u1) * np.sin(2 * np.pi * u2)
    nv = ((np.arange(size) + 0.5) / size)[:, None]
    sv = np.sqrt(1 - nv * nv)  # V = (sv, 0, nv) in the tangent frame (N = +z)
    out = np.empty((size, size, 2))
    for row in range(size):
        a = ((row + 0.5) / size) ** 2
        a2 = a * a
        stretched = np.sqrt(a2 * sv * sv + nv * nv)
        vx, vz = a * sv / stretched, nv / stretched  # V in the hemisphere-stretched space
        s = 0.5 * (1 + vz)
        t2 = (1 - s) * np.sqrt(1 - t1 * t1) + s * t2_disk
        t3 = np.sqrt(np.maximum(0.0, 1 - t1 * t1 - t2 * t2))
        hx, hy, hz = a * (t3 * vx - t2 * vz), a * t1, np.maximum(t2 * vx + t3 * vz, 0.0)
        norm = np.sqrt(hx * hx + hy * hy + hz * hz)
        hx, hz = hx / norm, hz / norm
        vh = np.clip(sv * hx + nv * hz, 0.0, 1.0)
        nl = np.clip(2 * vh * hz - nv, 0.0, 1.0)
        vis = 0.5 / (nl * np.sqrt(nv * nv * (1 - a2) + a2) + nv * np.sqrt(nl * nl * (1 - a2) + a2))
        weight = 2 * vis * nl * (nv + np.sqrt(a2 + (1 - a2) * nv * nv))
        fc = (1 - vh) ** 5
        out[row, :, 0], out[row, :, 1] = ((1 - fc) * weight).mean(axis=1), (fc * weight).mean(axis=1)
    return out.astype(np.float32)


def bake(width: int = 512, levels: int = 6) -> dict:
    """{"levels": [(H/2^k, W/2^k, 3)], "sh": (9, 3), "lut": (64, 64, 2)}, all float32, H = W/2."""
    level0 = studio_radiance(equirect_directions(width, width // 2))
    return {"levels": prefilter(level0, levels), "sh": sh9(level0), "lut": brdf_lut()}


def write(path: str | Path, baked: dict | None = None) -> Path:
    """Write ``baked`` (default: a fresh ``bake()``) as an uncompressed float16 npz; returns the path.
    Uncompressed because loading is then a copy (a few ms) and float16 already keeps it near 1 MB."""
    baked = bake() if baked is None else baked
    arrays = {**{f"level{k}": a for k, a in enumerate(baked["levels"])}, "sh": baked["sh"], "lut": baked["lut"]}
    with open(path, "wb") as f:  # a file object: np.savez would append ".npz" to another suffix
        np.savez(f, **{name: np.asarray(a, np.float32).astype(np.float16) for name, a in arrays.items()})
    return Path(path)


def load(path: str | Path | None = None) -> dict:
    """The baked studio as ``bake()`` returns it (float32), from ``path`` or the shipped asset."""
    with np.load(asset_path(ASSET_NAME) if path is None else path) as npz:
        count = sum(1 for name in npz.files if name.startswith("level"))
        return {
            "levels": [npz[f"level{k}"].astype(np.float32) for k in range(count)],
            "sh": npz["sh"].astype(np.float32),
            "lut": npz["lut"].astype(np.float32),
        }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m viewer.render.studio_env", description="Bake the studio environment for image-based lighting."
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO_ROOT / "assets" / ASSET_NAME,
        help="npz to write (default: the repository's assets/studio_env.npz)",
    )
    parser.add_argument("--width", type=int, default=512, help="level-0 width (height is half)")
    parser.add_argument("--levels", type=int, default=6, help="mip levels, mirror to fully rough")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    path = write(args.out, bake(args.width, args.levels))
    baked, start = time.perf_counter() - start, time.perf_counter()
    load(path)
    print(
        f"baked in {baked:.2f} s, wrote {path} ({path.stat().st_size} bytes); "
        f"load() {1000 * (time.perf_counter() - start):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
