"""Stress models for issue 14 ("big meshes stay fast"): ``python tools/stress_models.py OUT_DIR [names...]``.

Writes, deterministically (no randomness, byte-identical on every run):

| file | what |
|---|---|
| ``mesh_100k.glb`` | a lumpy torus of 99 856 triangles with NORMAL, turning once in 4 s |
| ``mesh_1m.glb`` | the same torus at 1 000 000 triangles (500 000 vertices) |
| ``morph_8.glb``, ``morph_16.glb`` | a smooth torus of 100 352 vertices with 8 / 16 POSITION + NORMAL ripples |
| ``morph_64.glb`` | the same torus with 64 POSITION ripples (82 MB) |

Why these shapes: a torus is closed with no poles (no degenerate triangles), so the closed-surface test, the
back-face culling it allows and the anti-aliasing choice all see a real case; lumps and ripples make a
wrong normal, a missing target or a stuck weight visible in a picture. Each morph target is a plane wave
over the surface (its own direction and wavelength) pushing vertices along their normal, with the normal
delta of that push; the "Ripple" clip keeps every weight between 0.2 and 1 and moving, each on its own
phase, so no target is skipped by the shader's zero-weight test. Materials are double-sided, as Blender
exports them by default: the viewer then has to prove a surface closed before it may cull back faces.
morph_64's targets carry POSITION only: with NORMAL it would be 155 MB, not the ~80 MB asked for; its
waves are shallower, so shading by the rest normals stays plausible.

Built on ``viewer.demo.builder.DemoWriter`` (so on ``viewer.files.writer``) and written as one .glb each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pygltflib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer.demo.builder import DemoWriter, quat_about  # noqa: E402
from viewer.files import writer  # noqa: E402

MAJOR, MINOR = 1.0, 0.38  # torus radii
CLIP_SECONDS = 4.0
CLIP_KEYS = 33  # per clip: smooth enough under LINEAR interpolation


def torus_grid(rings: int, segments: int) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) angles of a rings × segments vertex grid and its CCW-outward triangles, indices wrapping
    around both seams (no duplicated seam vertices: the surface is closed by index, exactly)."""
    u = 2.0 * np.pi * np.arange(segments) / segments  # around the main axis (Y)
    v = 2.0 * np.pi * np.arange(rings) / rings  # around the tube
    vv, uu = np.meshgrid(v, u, indexing="ij")
    r, c = np.meshgrid(np.arange(rings), np.arange(segments), indexing="ij")
    a = r * segments + c
    b = r * segments + (c + 1) % segments
    d = ((r + 1) % rings) * segments + c
    e = ((r + 1) % rings) * segments + (c + 1) % segments
    tri = np.concatenate([np.stack([a, e, d], -1), np.stack([a, b, e], -1)], axis=1).reshape(-1, 3)
    return np.stack([uu.reshape(-1), vv.reshape(-1)], axis=1), tri


def torus_points(uv: np.ndarray, lumps: float = 0.0) -> np.ndarray:
    """Torus positions at (u, v), the tube radius modulated by ``lumps`` (a 9 × 7 pattern of bumps)."""
    u, v = uv[:, 0], uv[:, 1]
    tube = MINOR * (1.0 + lumps * np.sin(9.0 * u) * np.sin(7.0 * v))
    ring = MAJOR + tube * np.cos(v)
    return np.stack([ring * np.cos(u), tube * np.sin(v), -ring * np.sin(u)], axis=1)


def surface_normals(uv: np.ndarray, lumps: float) -> np.ndarray:
    """Unit normals of ``torus_points`` from central differences in (u, v): smooth and outward."""
    h = 1e-5
    du = torus_points(uv + [h, 0.0], lumps) - torus_points(uv - [h, 0.0], lumps)
    dv = torus_points(uv + [0.0, h], lumps) - torus_points(uv - [0.0, h], lumps)
    n = np.cross(du, dv)
    return n / np.linalg.norm(n, axis=1, keepdims=True)


def ripple_targets(p: np.ndarray, n: np.ndarray, count: int, normals: bool) -> list[dict[str, np.ndarray]]:
    """``count`` plane-wave targets: displacement along the normal, with the first-order normal delta."""
    targets = []
    # without normal deltas the shading keeps the rest normals: shallower waves keep that plausible
    amplitude = (0.12 if normals else 0.05) / np.sqrt(count)
    for k in range(count):
        # directions spread on the sphere by the golden angle; wavelengths cycle through 4 sizes
        z = 1.0 - (2.0 * k + 1.0) / count
        phi = k * np.pi * (3.0 - np.sqrt(5.0))
        d = np.array([np.sqrt(1.0 - z * z) * np.cos(phi), z, np.sqrt(1.0 - z * z) * np.sin(phi)])
        freq = (6.0, 9.0, 13.0, 18.0)[k % 4]
        phase = freq * (p @ d) + 0.7 * k
        t = {"POSITION": (amplitude * np.sin(phase))[:, None] * n}
        if normals:  # n' ≈ n − tangential gradient of the height field
            g = (amplitude * freq * np.cos(phase))[:, None] * d
            t["NORMAL"] = -(g - n * np.einsum("ij,ij->i", n, g)[:, None])
        targets.append({k_: v.astype(np.float32) for k_, v in t.items()})
    return targets


def finish(w: DemoWriter, root: int, path: Path) -> Path:
    """One scene of ``root``, written as a .glb."""
    w.gltf.scene = 0
    w.gltf.scenes = [pygltflib.Scene(nodes=[root])]
    return writer.save(w.to_dict(), w.bin_bytes(), path)


def lumpy_torus(path: Path, triangles: int) -> Path:
    """A lumpy torus of about ``triangles`` triangles (rings : segments = 1 : 2), turning about Y."""
    rings = int(round(np.sqrt(triangles / 4.0)))
    uv, tri = torus_grid(rings, 2 * rings)
    p = torus_points(uv, 0.08)
    w = DemoWriter()
    clay = w.material("clay", (0.8, 0.55, 0.35, 1.0), double_sided=True)
    mesh = w.mesh("torus", p, surface_normals(uv, 0.08), tri, clay)
    node = w.node("torus", mesh=mesh, rotation=(0.0, 0.0, 0.0, 1.0))
    times = np.linspace(0.0, CLIP_SECONDS, CLIP_KEYS)
    w.animation(
        "Turn",
        [
            dict(
                node=node,
                path="rotation",
                times=times,
                values=quat_about((0.0, 1.0, 0.0), 2.0 * np.pi * times / CLIP_SECONDS),
            )
        ],
    )
    return finish(w, node, path)


def rippling_torus(path: Path, count: int, normals: bool = True, rings: int = 224) -> Path:
    """A smooth torus of rings × 2·rings vertices (224: 100 352) with ``count`` ripple targets."""
    uv, tri = torus_grid(rings, 2 * rings)
    p, n = torus_points(uv), surface_normals(uv, 0.0)
    w = DemoWriter()
    targets = ripple_targets(p, n, count, normals)
    water = w.material("water", (0.25, 0.5, 0.85, 1.0), double_sided=True, roughness=0.35)
    mesh = w.mesh("ripples", p, n, tri, water, targets=targets, weights=[0.5] * count)
    node = w.node("ripples", mesh=mesh)
    times = np.linspace(0.0, CLIP_SECONDS, CLIP_KEYS)
    phase = 2.0 * np.pi * (times[:, None] / CLIP_SECONDS + np.arange(count)[None, :] / count)
    weights = 0.6 + 0.4 * np.sin(phase)  # in [0.2, 1]: never 0, every one moving
    w.animation("Ripple", [dict(node=node, path="weights", times=times, values=weights.reshape(-1))])
    return finish(w, node, path)


MODELS = {
    "mesh_100k.glb": lambda out: lumpy_torus(out, 100_000),
    "mesh_1m.glb": lambda out: lumpy_torus(out, 1_000_000),
    "morph_8.glb": lambda out: rippling_torus(out, 8),
    "morph_16.glb": lambda out: rippling_torus(out, 16),
    "morph_64.glb": lambda out: rippling_torus(out, 64, normals=False),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path, help="folder to write into (made if missing)")
    p.add_argument("names", nargs="*", help=f"which files (default: all of {', '.join(MODELS)})")
    args = p.parse_args(argv)
    unknown = [n for n in args.names if n not in MODELS]
    if unknown:
        p.error(f"unknown model {unknown[0]!r}")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or MODELS:
        path = MODELS[name](args.out / name)
        print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
