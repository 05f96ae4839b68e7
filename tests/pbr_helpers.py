"""Files and environments for the shading tests: a UV sphere with any material (and lights), and a uniform
environment for the furnace test. Built by code, so every case says exactly what it contains."""
from __future__ import annotations

import numpy as np
from gltf_builder import GltfBuilder

from viewer.scene import load

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


def sphere_file(tmp_path, material: dict, name: str = "sphere.gltf", extensions: tuple[str, ...] = (),
                lights: list[dict] | None = None, light_nodes: list[dict] = (), images: list[bytes] = (),
                shape=uv_sphere, backdrop: dict | None = None, animate=None):
    """A file with one unit sphere (or ``shape``) at the origin wearing ``material``; ``lights``
    (KHR_lights_punctual) are placed by ``light_nodes`` (node properties, each with its ``light`` index);
    ``backdrop``: the material of a large square behind it (z = −2); ``animate(builder, nodes)`` adds
    animations (``builder.add_animation``) once every node exists."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    b = GltfBuilder()
    pos, nrm, uv, idx = shape()
    for data in images:
        image = b.add_image(data)
        b.add("textures", {"source": image})
    prim = {"attributes": {"POSITION": b.add_accessor(pos, target=34962, min_max=True),
                           "NORMAL": b.add_accessor(nrm, target=34962),
                           "TEXCOORD_0": b.add_accessor(uv, target=34962)},
            "indices": b.add_accessor(idx.astype(np.uint16), target=34963),
            "material": b.add("materials", material)}
    nodes = [b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))]
    if backdrop is not None:
        bp, bn, buv, bi = plane(4.0)
        back = {"attributes": {"POSITION": b.add_accessor(bp, target=34962, min_max=True),
                               "NORMAL": b.add_accessor(bn, target=34962)},
                "indices": b.add_accessor(bi.astype(np.uint16), target=34963), "material": b.add("materials", backdrop)}
        nodes.append(b.add_node(mesh=b.add("meshes", {"primitives": [back]}), translation=[0.0, 0.0, -2.0]))
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
