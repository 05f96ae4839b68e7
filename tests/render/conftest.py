"""Shared pieces of the picture tests: the EGL context, golden-image comparison, vertex-id decoding.

Golden rule (stated once, used by every picture test): a rendered image matches its baseline when
fewer than ``MAX_FRACTION_OFF`` (1 %) of its pixels differ from the baseline by more than
``LEVEL_TOLERANCE`` (8/255) in any channel. On failure the actual image and a diff image (pixels off
by more than the level in red over a dimmed baseline) are written to ``tests/images/_failures/``
(git-ignored). ``ANIMVIEW_UPDATE_GOLDEN=1`` rewrites the baselines instead — look at every one
before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.conftest import GL
from tests.gltf_builder import GltfBuilder
from viewer.cli.main import main
from viewer.scene.scene import load

IMAGES = Path(__file__).resolve().parents[1] / "images"
FAILURES = IMAGES / "_failures"
LEVEL_TOLERANCE = 8  # out of 255, per channel
MAX_FRACTION_OFF = 0.01  # of all pixels
UPDATE = os.environ.get("ANIMVIEW_UPDATE_GOLDEN") == "1"


def cli_render(path, out, *flags) -> np.ndarray:
    """``animview render PATH -o OUT --no-grid --no-axes FLAGS...`` in this process, as a user runs it; the PNG it
    wrote as (H, W, 3) uint8. Asserts the command exits 0."""
    assert main(["render", str(path), "-o", str(out), "--no-grid", "--no-axes", *map(str, flags)]) == 0
    return np.asarray(Image.open(out).convert("RGB"))


def gl_error(gl: GL) -> str:
    """The context's GL error flag (read with the context current: tests may make others in between)."""
    with gl.ctx:
        return gl.ctx.error


def pixels_off(actual: np.ndarray, expected: np.ndarray, level: int = LEVEL_TOLERANCE) -> np.ndarray:
    """(h, w) bool: pixels whose largest channel difference exceeds ``level``."""
    return np.abs(actual.astype(np.int16) - expected.astype(np.int16)).max(axis=-1) > level


def assert_matches_golden(name: str, rgb: np.ndarray) -> None:
    """Compare ``rgb`` (h, w, 3) uint8 with ``tests/images/<name>.png`` under the golden rule."""
    path = IMAGES / f"{name}.png"
    if UPDATE:
        IMAGES.mkdir(exist_ok=True)
        Image.fromarray(rgb).save(path, optimize=True)
        return
    assert path.is_file(), f"no baseline {path}; render it with ANIMVIEW_UPDATE_GOLDEN=1 and look at it"
    expected = np.asarray(Image.open(path).convert("RGB"))
    assert expected.shape == rgb.shape, f"{name}: size {rgb.shape[1::-1]} != baseline {expected.shape[1::-1]}"
    off = pixels_off(rgb, expected)
    fraction = float(off.mean())
    if fraction >= MAX_FRACTION_OFF:
        FAILURES.mkdir(parents=True, exist_ok=True)
        Image.fromarray(rgb).save(FAILURES / f"{name}.actual.png")
        diff = (expected // 3).copy()
        diff[off] = (255, 0, 0)
        Image.fromarray(diff).save(FAILURES / f"{name}.diff.png")
        pytest.fail(
            f"{name}: {fraction:.2%} of pixels differ by more than {LEVEL_TOLERANCE}/255 "
            f"(allowed {MAX_FRACTION_OFF:.0%}); see {FAILURES}/{name}.actual.png and .diff.png"
        )


def project(points: np.ndarray, view: np.ndarray, proj: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(n, 2) pixel coordinates (x right, y down from the top row; pixel centres at +0.5) of world points."""
    p = np.c_[np.asarray(points, np.float64), np.ones(len(points))]
    clip = p @ (proj @ view).T
    ndc = clip[:, :3] / clip[:, 3:]
    w, h = size
    return np.stack([(ndc[:, 0] + 1.0) * 0.5 * w, (1.0 - ndc[:, 1]) * 0.5 * h], axis=1)


def decode_vertex_ids(rgba: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pixels written by the ``debug_vertex_ids`` pass: (ys, xs, vertex ids, draw numbers)."""
    img = rgba.astype(np.int64)
    ys, xs = np.nonzero(img[..., 3] > 0)
    ids = img[ys, xs, 0] + 256 * img[ys, xs, 1] + 65536 * img[ys, xs, 2] - 1
    return ys, xs, ids, img[ys, xs, 3] - 1


class FixedCamera:
    """A camera with given view and projection matrices (math convention)."""

    def __init__(self, view: np.ndarray, proj: np.ndarray) -> None:
        self.view, self.proj = np.asarray(view, np.float64), np.asarray(proj, np.float64)

    def matrices(self, pose, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        return self.view, self.proj


def front_ortho_camera(half: float = 1.0) -> FixedCamera:
    """Looks down -Z at the XY square [-half, half]² (x right, y up), depth range z ∈ [-10, 10]."""
    from viewer.render.camera import orthographic

    view = np.eye(4)
    view[2, 3] = -10.0
    return FixedCamera(view, orthographic(half, half, 0.01, 20.0))


def render_plain(
    gl: GL,
    scene,
    camera=None,
    size: tuple[int, int] = (64, 64),
    samples: int = 0,
    background=(0.0, 0.0, 0.0),
    clip=None,
    t: float = 0.0,
    fxaa: bool = False,
    **look,
) -> np.ndarray:
    """(h, w, 3) picture of ``scene`` with no grid or gizmo (default: ``front_ortho_camera``, no MSAA, no
    FXAA); ``look``: other ``RenderOptions`` fields (tonemap, exposure, environment, lights, …)."""
    from viewer.pose.pose import Pose
    from viewer.render.renderer import Look, Renderer, RenderOptions
    from viewer.render.target import OffscreenTarget

    with gl.ctx:
        renderer = Renderer(gl.ctx, scene, gl.programs)
        target = OffscreenTarget(gl.ctx, size, samples, fxaa, gl.programs)
        try:
            pose = Pose(scene)
            pose.set_time(clip, t)
            options = RenderOptions(background=background, grid=False, axes=False, look=Look(**look))
            renderer.render(pose, camera or front_ortho_camera(), target.fbo, options)
            rgb = target.read(3)
        finally:
            renderer.release()
            target.release()
        assert gl.ctx.error == "GL_NO_ERROR"
    return rgb


def srgb_encode(linear: np.ndarray) -> np.ndarray:
    """IEC 61966-2-1 encoding of linear values in [0, 1], as 0..255 floats."""
    c = np.clip(np.asarray(linear, np.float64), 0.0, 1.0)
    return 255.0 * np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def srgb_decode(value8: np.ndarray) -> np.ndarray:
    """0..255 sRGB values → linear [0, 1]."""
    c = np.asarray(value8, np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


# a 4-vertex quad as strip order: 0 bottom-left, 1 bottom-right, 2 top-left, 3 top-right
STRIP = np.array([[-0.8, -0.8, 0], [0.8, -0.8, 0], [-0.8, 0.8, 0], [0.8, 0.8, 0]], np.float32)
UNLIT = {"extensions": {"KHR_materials_unlit": {}}, "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0, 1]}}


def one_primitive(
    tmp_path,
    positions,
    mode: int,
    indices=None,
    index_dtype=np.uint16,
    material: dict | None = None,
    attributes: dict | None = None,
    name: str = "p.gltf",
):
    """A file with one primitive of ``mode``; ``attributes`` maps semantic → array."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    prim = {
        "attributes": {"POSITION": b.add_accessor(np.asarray(positions, np.float32), target=34962, min_max=True)},
        "mode": mode,
    }
    for semantic, (array, normalized) in (attributes or {}).items():
        prim["attributes"][semantic] = b.add_accessor(array, normalized=normalized, target=34962)
    if indices is not None:
        prim["indices"] = b.add_accessor(np.asarray(indices, index_dtype), target=34963)
    mat = material if material is not None else UNLIT
    prim["material"] = b.add("materials", mat)
    if "extensions" in mat:
        b.doc["extensionsUsed"] = sorted(mat["extensions"])
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    return load(b.write_gltf(tmp_path, name))


def lit_quad_file(tmp_path, material: dict):
    """A lit quad facing the camera (+Z), normals computed (none given)."""
    return one_primitive(tmp_path, STRIP, 4, [0, 1, 3, 0, 3, 2], material=material)


# Shading-test files and environments (a UV sphere with any material, a uniform furnace environment).
SH_UNIFORM = 4.0 * np.pi * 0.282095  # the Y00 coefficient of radiance 1 in every direction


def uv_sphere(lat: int = 32, lon: int = 64, radius: float = 1.0):
    """(positions, normals, uvs, indices) of a UV sphere: u runs around +Y, v from the north pole down."""
    v = np.linspace(0.0, 1.0, lat + 1)
    u = np.linspace(0.0, 1.0, lon + 1)
    uu, vv = np.meshgrid(u, v)
    theta, phi = vv * np.pi, uu * 2.0 * np.pi
    n = np.stack([np.sin(theta) * np.sin(phi), np.cos(theta), np.sin(theta) * np.cos(phi)], axis=-1).reshape(-1, 3)
    uv = np.stack([uu, vv], axis=-1).reshape(-1, 2)
    i, j = np.meshgrid(np.arange(lat), np.arange(lon), indexing="ij")
    a = i * (lon + 1) + j
    b, c, d = a + lon + 1, a + 1, a + lon + 2
    tris = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3), np.stack([c, b, d], -1).reshape(-1, 3)])
    return (n * radius).astype(np.float32), n.astype(np.float32), uv.astype(np.float32), tris.reshape(-1)


def plane(half: float = 2.0):
    """(positions, normals, uvs, indices) of a square in the XY plane facing +Z."""
    pos = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]], np.float32)
    uv = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    return pos, np.tile(np.float32([0, 0, 1]), (4, 1)), uv, np.array([0, 1, 2, 0, 2, 3])


def sphere_file(
    tmp_path,
    material: dict,
    name: str = "sphere.gltf",
    extensions: tuple[str, ...] = (),
    lights: list[dict] | None = None,
    light_nodes: list[dict] = (),
    images: list[bytes] = (),
    shape=uv_sphere,
    backdrop: dict | None = None,
    animate=None,
    backdrop_at=(0.0, 0.0, -2.0),
):
    """A file with one unit sphere (or ``shape``) at the origin wearing ``material``; ``lights``
    (KHR_lights_punctual) are placed by ``light_nodes`` (node properties, each with its ``light`` index);
    ``backdrop``: the material of a large square behind it (centred at ``backdrop_at``);
    ``animate(builder, nodes)`` adds animations (``builder.add_animation``) once every node exists."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    pos, nrm, uv, idx = shape()
    for data in images:
        image = b.add_image(data)
        b.add("textures", {"source": image})
    prim = {
        "attributes": {
            "POSITION": b.add_accessor(pos, target=34962, min_max=True),
            "NORMAL": b.add_accessor(nrm, target=34962),
            "TEXCOORD_0": b.add_accessor(uv, target=34962),
        },
        "indices": b.add_accessor(idx.astype(np.uint16), target=34963),
        "material": b.add("materials", material),
    }
    nodes = [b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))]
    if backdrop is not None:
        bp, bn, buv, bi = plane(4.0)
        back = {
            "attributes": {
                "POSITION": b.add_accessor(bp, target=34962, min_max=True),
                "NORMAL": b.add_accessor(bn, target=34962),
            },
            "indices": b.add_accessor(bi.astype(np.uint16), target=34963),
            "material": b.add("materials", backdrop),
        }
        nodes.append(b.add_node(mesh=b.add("meshes", {"primitives": [back]}), translation=list(backdrop_at)))
    used = set(extensions)
    if lights:
        b.doc["extensions"] = {"KHR_lights_punctual": {"lights": lights}}
        used.add("KHR_lights_punctual")
        for props in light_nodes:
            props = dict(props)
            light = props.pop("light")
            nodes.append(b.add_node(**props, extensions={"KHR_lights_punctual": {"light": light}}))
    if animate is not None:
        animate(b, nodes)
    if used:
        b.doc["extensionsUsed"] = sorted(used)
    b.add_scene(nodes)
    return load(b.write_gltf(tmp_path, name))


def uniform_environment(radiance: float = 1.0, width: int = 64, levels: int = 6) -> dict:
    """An environment of the same radiance in every direction, in ``studio_env.load()``'s layout."""
    from viewer.render import studio_env

    chain = [np.full((max(width >> (k + 1), 1), max(width >> k, 1), 3), radiance, np.float32) for k in range(levels)]
    sh = np.zeros((9, 3), np.float32)
    sh[0] = SH_UNIFORM * radiance
    return {"levels": chain, "sh": sh, "lut": studio_env.brdf_lut(32, 256)}
