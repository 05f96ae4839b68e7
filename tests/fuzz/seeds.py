"""Seed files the mutator starts from: real models, the repo's demo files, and files built by code.

Mutating valid files (rather than random bytes) gets past the first checks and into the deep code:
accessors, skins, animation tables, the renderer. A seed keeps its JSON, its buffer 0 bytes and the
other files it needs apart, so a mutant can be written as .gltf + .bin, embedded .gltf or .glb, and the
binary buffer can be edited as data rather than as text.

Sources, in a fixed order (case k's choice of seed depends on it):
  * ``khronos/<Model>``: each subfolder of ``$ANIMVIEW_KHRONOS`` (default ``<repo>/../shared/assets/
    khronos``); absent folder → no such seeds, nothing fails;
  * ``assets/<name>``: the repo's demo ``assets/*.gltf``;
  * ``built/<name>``: small files made with ``tests/gltf_builder.py``, each aimed at a feature the
    models above lack (sparse, strided, matrix nodes, one morph target, cameras).
"""

from __future__ import annotations

import base64
import fnmatch
import json
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

import numpy as np

from tests.gltf_builder import GltfBuilder, minimal_animated

REPO_ROOT = Path(__file__).resolve().parents[2]


def khronos_dir() -> Path:
    """Where the shared Khronos sample models are (the same setting ``tests/conftest.py`` reads)."""
    return Path(os.environ.get("ANIMVIEW_KHRONOS", REPO_ROOT.parent / "shared" / "assets" / "khronos"))


@dataclass
class Seed:
    """One starting file.

    Attributes:
        name: "khronos/Fox", "assets/triangle", "built/sparse", …
        doc: the glTF JSON; buffer 0 has no ``uri`` (the writer gives it one) when ``bin`` is set.
        bin: buffer 0's bytes, or None when the file has no buffer.
        glb: the seed was a .glb (mutants keep that container most of the time).
        extras: file name → path of the other files it names (textures, more buffers); copied into
            each case folder, never written in place, so the shared models stay untouched.
    """

    name: str
    doc: dict
    bin: bytes | None
    glb: bool = False
    extras: dict[str, Path] = field(default_factory=dict)


def load_seeds(pattern: str | None = None) -> list[Seed]:
    """Every seed, in the fixed order; ``pattern`` (fnmatch, or a plain substring) keeps some."""
    seeds = khronos_seeds(khronos_dir()) + asset_seeds(REPO_ROOT / "assets") + built_seeds()
    if pattern:
        seeds = [s for s in seeds if fnmatch.fnmatch(s.name, pattern) or pattern in s.name]
    return seeds


def khronos_seeds(root: Path) -> list[Seed]:
    if not root.is_dir():
        return []
    seeds = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        files = sorted(folder.glob("*.gltf")) + sorted(folder.glob("*.glb"))
        if files:
            seeds.append(seed_from_file(f"khronos/{folder.name}", files[0]))
    return seeds


def asset_seeds(folder: Path) -> list[Seed]:
    return [seed_from_file(f"assets/{p.stem}", p) for p in sorted(folder.glob("*.gltf"))]


def seed_from_file(name: str, path: Path) -> Seed:
    """Read a .gltf (buffer 0 from its data: URI or file) or a .glb (JSON and BIN chunks)."""
    data = path.read_bytes()
    if data[:4] == b"glTF":
        doc, bin_data = split_glb(data)
        return Seed(name, doc, bin_data, glb=True, extras=_other_files(path, set()))
    doc = json.loads(data)
    bin_data, used = None, set()
    buffers = doc.get("buffers", [])
    if buffers and "uri" in buffers[0]:
        uri = buffers[0].pop("uri")
        if uri.startswith("data:"):
            bin_data = base64.b64decode(uri.partition(",")[2])
        else:
            used.add(unquote(uri))
            bin_data = (path.parent / unquote(uri)).read_bytes()
    return Seed(name, doc, bin_data, extras=_other_files(path, used))


def split_glb(data: bytes) -> tuple[dict, bytes | None]:
    """The JSON and BIN chunk of a well-formed .glb (seeds are trusted files)."""
    offset, doc, bin_data = 12, None, None
    while offset + 8 <= len(data):
        length, kind = struct.unpack_from("<II", data, offset)
        chunk = data[offset + 8 : offset + 8 + length]
        if kind == 0x4E4F534A:
            doc = json.loads(chunk)
        elif kind == 0x004E4942:
            bin_data = chunk
        offset += 8 + length
    return doc, bin_data


def _other_files(main: Path, used: set[str]) -> dict[str, Path]:
    """Files beside the model it may name (textures, further buffers); not docs."""
    return {
        p.name: p
        for p in sorted(main.parent.iterdir())
        if p.is_file() and p != main and p.name not in used and p.suffix.lower() not in (".md", ".txt")
    }


def built_seeds() -> list[Seed]:
    """Small files made by code, each covering something the sample models do not."""
    makers = {
        "minimal_animated": minimal_animated,
        "sparse": _sparse,
        "strided": _strided,
        "matrix_nodes": _matrix_nodes,
        "one_morph_target": _one_morph_target,
        "camera": _camera,
    }
    seeds = []
    for name, make in makers.items():
        b = make()
        seeds.append(Seed(f"built/{name}", b.to_dict(), b.bin_bytes() or None))
    b = minimal_animated()
    seeds.append(Seed("built/minimal_animated_glb", b.to_dict(), b.bin_bytes(), glb=True))
    return seeds


TRIANGLE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)


def _sparse() -> GltfBuilder:
    """A sparse-accessor morph target and a sparse animation output."""
    b = GltfBuilder()
    target = b.add_sparse_accessor(3, [1, 2], [[0, 0.5, 0], [0.5, 0, 0]])
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2])
    b.doc["meshes"][mesh]["primitives"][0]["targets"] = [{"POSITION": target}]
    b.doc["meshes"][mesh]["weights"] = [0.0]
    node = b.add_node(mesh=mesh)
    b.add_animation([dict(node=node, path="weights", times=[0, 1, 2], values=[0, 1, 0])])
    anim = b.doc["animations"][0]["samplers"][0]
    anim["output"] = b.add_sparse_accessor(3, [1], [1.0], base=np.zeros(3, np.float32))
    b.add_scene([node])
    return b


def _strided() -> GltfBuilder:
    """Interleaved POSITION / NORMAL in one strided view, translated by a LINEAR channel."""
    b = GltfBuilder()
    pos, nrm = b.add_interleaved([TRIANGLE, np.tile([0, 0, 1], (3, 1)).astype(np.float32)])
    b.doc["accessors"][pos].update(min=[0, 0, 0], max=[1, 1, 0])
    mesh = b.add("meshes", {"primitives": [{"attributes": {"POSITION": pos, "NORMAL": nrm}}]})
    node = b.add_node(mesh=mesh)
    b.add_animation([dict(node=node, path="translation", times=[0, 0.5, 1], values=[[0, 0, 0], [1, 0, 0], [0, 0, 0]])])
    b.add_scene([node])
    return b


def _matrix_nodes() -> GltfBuilder:
    """A parent given by ``matrix`` over an animated child, and a STEP rotation."""
    b = GltfBuilder()
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2])
    child = b.add_node(mesh=mesh, rotation=[0, 0, 0, 1])
    root = b.add_node(children=[child], matrix=[2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1])
    b.add_animation(
        [dict(node=child, path="rotation", interpolation="STEP", times=[0, 1], values=[[0, 0, 0, 1], [0, 0, 1, 0]])]
    )
    b.add_scene([root])
    return b


def _one_morph_target() -> GltfBuilder:
    """A mesh with exactly one morph target, its weight animated with CUBICSPLINE."""
    b = GltfBuilder()
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2], targets=[TRIANGLE * 0.5], weights=[0.0])
    node = b.add_node(mesh=mesh)
    b.add_animation(
        [dict(node=node, path="weights", interpolation="CUBICSPLINE", times=[0, 1], values=[0, 0, 0, 0, 1, 0])]
    )
    b.add_scene([node])
    return b


def _camera() -> GltfBuilder:
    """A perspective and an orthographic camera on animated nodes."""
    b = GltfBuilder()
    b.add("cameras", {"type": "perspective", "perspective": {"yfov": 0.7, "znear": 0.1, "zfar": 100}})
    b.add("cameras", {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.1, "zfar": 10}})
    mesh = b.add_mesh(TRIANGLE, [0, 1, 2])
    tri = b.add_node(mesh=mesh)
    cam0 = b.add_node(camera=0, translation=[0, 0, 5])
    cam1 = b.add_node(camera=1, translation=[0, 0, 3])
    b.add_animation([dict(node=cam0, path="translation", times=[0, 1], values=[[0, 0, 5], [0, 1, 5]])])
    b.add_scene([tri, cam0, cam1])
    return b
