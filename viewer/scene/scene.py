"""The immutable scene model: what a validated glTF document holds, as numpy arrays.

Nodes keep glTF indices (so errors, the CLI and the UI all speak the file's numbers); ``order``
lists them parents-first so world matrices can be composed level by level. Rest TRS and animated
values are kept apart: the scene holds the rest values, ``pose.py`` the animated ones.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from viewer.animation.clip import Clip
from viewer.base import math3d
from viewer.base.errors import GltfWarning, pointer
from viewer.gltf import Document, load_document
from viewer.scene.clips import read_clip
from viewer.scene.lights import Light, LightSet, node_lights, parse_lights, static_light_rows
from viewer.scene.variants import Variants, read_variants


@dataclass(frozen=True)
class Primitive:
    """One drawable piece of a mesh; arrays straight from its accessors.

    Attributes:
        attributes: semantic ("POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", …) → (n, k) array.
        indices: (m,) vertex indices or None.
        mode: glTF primitive mode (4 = TRIANGLES).
        material: material index or None.
        targets: morph targets, each semantic → (n, 3) deltas.
    """

    attributes: dict[str, np.ndarray]
    indices: np.ndarray | None
    mode: int
    material: int | None
    targets: tuple[dict[str, np.ndarray], ...]

    @cached_property
    def position_deltas(self) -> np.ndarray:
        """(T, V·3) float32: every target's POSITION deltas (zeros where a target has none), stacked once for
        bounds — re-stacked per pose they were most of a 64-target mesh's first picture. float32, as the GPU
        morphs: a float64 copy of 64 targets × 1 M coordinates would be half a gigabyte."""
        pos = self.attributes["POSITION"]
        out = np.zeros((len(self.targets), pos.size), np.float32)
        for k, target in enumerate(self.targets):
            if "POSITION" in target:
                out[k] = np.asarray(target["POSITION"], np.float32).reshape(-1)
        return out


@dataclass(frozen=True)
class Mesh:
    name: str
    primitives: tuple[Primitive, ...]
    weights: np.ndarray  # default morph weights (targets,), zeros when the mesh gives none
    target_names: tuple[str, ...] = ()  # ``extras.targetNames`` when the file gives one name per target

    @property
    def target_count(self) -> int:
        return len(self.primitives[0].targets) if self.primitives else 0


@dataclass(frozen=True)
class Skin:
    name: str
    joints: np.ndarray  # (J,) node indices
    inverse_bind: np.ndarray  # (J, 4, 4), math convention; identity when the file gives none
    skeleton: int | None


@dataclass(frozen=True)
class Camera:
    name: str
    type: str  # "perspective" or "orthographic"
    yfov: float = 0.8  # radians
    aspect: float | None = None
    znear: float = 0.01
    zfar: float | None = None
    xmag: float = 1.0
    ymag: float = 1.0


@dataclass(frozen=True)
class Nodes:
    """Per-node arrays indexed by glTF node index (N nodes)."""

    names: tuple[str, ...]
    parent: np.ndarray  # (N,) parent index, -1 for roots
    order: np.ndarray  # (N,) parents before children
    depth: np.ndarray  # (N,) 0 for roots
    translation: np.ndarray  # (N, 3) rest
    rotation: np.ndarray  # (N, 4) rest [x, y, z, w]
    scale: np.ndarray  # (N, 3) rest
    matrix: np.ndarray  # (N, 4, 4) rest local matrix (from `matrix` or T·R·S)
    has_matrix: np.ndarray  # (N,) bool: the node gave `matrix` rather than TRS
    mesh: np.ndarray  # (N,) mesh index or -1
    skin: np.ndarray  # (N,) skin index or -1
    camera: np.ndarray  # (N,) camera index or -1
    light: np.ndarray  # (N,) KHR_lights_punctual light index or -1
    weights: tuple[np.ndarray | None, ...]  # rest morph weights per node (node.weights over mesh.weights)
    visible: np.ndarray  # (N,) bool: KHR_node_visibility's own ``visible`` (a hidden node hides its subtree)

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Scene:
    """A loaded file. ``document`` stays available for what only the renderer needs (materials, images)."""

    path: Path
    document: Document
    nodes: Nodes
    roots: np.ndarray  # (R,) root nodes of the displayed scene
    shown: np.ndarray  # (N,) bool: the node is under one of ``roots`` (others are neither drawn nor lit)
    meshes: tuple[Mesh, ...]
    skins: tuple[Skin, ...]
    cameras: tuple[Camera, ...]
    lights: tuple[Light, ...]  # KHR_lights_punctual, placed by ``nodes.light``
    clips: tuple[Clip, ...] = field(default_factory=tuple)
    # JSON pointers already warned about while posing (a GltfWarning per fault, not per frame).
    warned: set[str] = field(default_factory=set, compare=False, repr=False)

    def warn_once(self, where: str, message: str) -> None:
        """Warn (``GltfWarning``) about the place ``where`` in the file, the first time only."""
        if where not in self.warned:
            self.warned.add(where)
            warnings.warn(f"{self.path}:{where}: {message}", GltfWarning, stacklevel=3)

    @property
    def name(self) -> str:
        return self.path.name

    @cached_property
    def light_table(self) -> LightSet:
        """The pose-independent rows of ``placed_lights.world_lights``, built on first use."""
        return static_light_rows(self.lights, self.nodes.light, self.shown)

    @cached_property
    def variants(self) -> Variants:
        """KHR_materials_variants (``variants.py``), read on first use: most commands never ask."""
        return read_variants(self.document.raw)


def load(path: str | Path, allow_outside_folder: bool = False) -> Scene:
    """Load and validate a .gltf/.glb. Raises ``GltfError`` naming the file and the JSON pointer.

    Args:
        allow_outside_folder: let the file's URIs name files outside its folder tree (refused by
            default: a downloaded model must not make the viewer read ``../../etc/passwd``).
    """
    return build_scene(load_document(path, allow_outside_folder))


def build_scene(doc: Document) -> Scene:
    """Scene model from a validated document. Reads the raw JSON: pygltflib's ``Node`` drops ``weights``."""
    g = doc.raw
    meshes = tuple(_mesh(doc, i, m) for i, m in enumerate(g.get("meshes", [])))
    nodes = _nodes(g.get("nodes", []), meshes)
    scenes = g.get("scenes", [])
    if scenes:
        roots = np.array(scenes[g.get("scene", 0)].get("nodes", []), dtype=np.int64)
    else:
        roots = np.flatnonzero(nodes.parent < 0)
    return Scene(
        path=doc.path,
        document=doc,
        nodes=nodes,
        roots=roots,
        shown=shown_nodes(nodes.parent, roots),
        meshes=meshes,
        skins=tuple(_skin(doc, s, i) for i, s in enumerate(g.get("skins", []))),
        cameras=tuple(_camera(c, i) for i, c in enumerate(g.get("cameras", []))),
        clips=tuple(read_clip(doc, a, i) for i, a in enumerate(g.get("animations", []))),
        lights=parse_lights(g),
    )


def shown_nodes(parent: np.ndarray, roots: np.ndarray) -> np.ndarray:
    """(N,) bool: which nodes lie under one of ``roots``. A file may hold several scenes; only one is shown.

    Pointer jumping (every node takes over its target's target) finds each node's root in
    ⌈log2(depth + 1)⌉ passes, so a 30 000-deep chain costs 15 array passes, not 30 000 Python steps.
    """
    top = np.where(parent < 0, np.arange(len(parent)), parent)
    while True:
        above = top[top]
        if np.array_equal(above, top):
            return np.isin(top, roots)
        top = above


def _mesh(doc: Document, index: int, mesh: dict) -> Mesh:
    prims = []
    for p in mesh["primitives"]:
        attrs = {k: doc.accessor(v) for k, v in p["attributes"].items()}
        targets = tuple({k: doc.accessor(v) for k, v in t.items()} for t in p.get("targets", []))
        indices = doc.accessor(p["indices"]) if "indices" in p else None
        prims.append(Primitive(attrs, indices, int(p.get("mode", 4)), p.get("material"), targets))
    count = len(prims[0].targets) if prims else 0
    weights = np.asarray(mesh.get("weights") or np.zeros(count), dtype=np.float64)
    return Mesh(mesh.get("name") or f"mesh {index}", tuple(prims), weights, _target_names(mesh, count))


def _target_names(mesh: dict, count: int) -> tuple[str, ...]:
    """``extras.targetNames`` (the de-facto convention of Blender and three.js), if it names every target;
    extras may hold anything, so anything else is ignored."""
    extras = mesh.get("extras")
    names = extras.get("targetNames") if isinstance(extras, dict) else None
    if isinstance(names, list) and len(names) == count and all(isinstance(n, str) for n in names):
        return tuple(names)
    return ()


def _nodes(src: list[dict], meshes: tuple[Mesh, ...]) -> Nodes:
    n = len(src)
    parent, depth = _hierarchy(src)
    t = np.array([node.get("translation", [0.0, 0.0, 0.0]) for node in src], dtype=np.float64).reshape(n, 3)
    r = np.array([node.get("rotation", [0.0, 0.0, 0.0, 1.0]) for node in src], dtype=np.float64).reshape(n, 4)
    # Unit length is the spec's rule, and exporters round; scaling by the largest component first keeps
    # the norm finite for any finite quaternion (1e300 squared is inf).
    r = math3d.quat_normalize(r / np.maximum(np.abs(r).max(axis=1, initial=0.0), 1e-300)[:, None]) if n else r
    s = np.array([node.get("scale", [1.0, 1.0, 1.0]) for node in src], dtype=np.float64).reshape(n, 3)
    has_matrix = np.array(["matrix" in node for node in src], dtype=bool)
    matrix = math3d.compose_trs(t, r, s)
    for i in np.flatnonzero(has_matrix):
        m = np.asarray(src[i]["matrix"], dtype=np.float64).reshape(4, 4).T  # glTF stores column-major
        matrix[i] = m
        t[i], r[i], s[i] = math3d.decompose_trs(m)
    mesh_idx = np.array([node.get("mesh", -1) for node in src], dtype=np.int64)
    weights = []
    for node, m in zip(src, mesh_idx):
        if "weights" in node:
            weights.append(np.asarray(node["weights"], dtype=np.float64))
        else:
            weights.append(meshes[m].weights.copy() if m >= 0 and meshes[m].target_count else None)
    return Nodes(
        names=tuple(node.get("name") or f"node {i}" for i, node in enumerate(src)),
        parent=parent,
        order=np.argsort(depth, kind="stable"),
        depth=depth,
        translation=t,
        rotation=r,
        scale=s,
        matrix=matrix,
        has_matrix=has_matrix,
        mesh=mesh_idx,
        skin=np.array([node.get("skin", -1) for node in src], dtype=np.int64),
        camera=np.array([node.get("camera", -1) for node in src], dtype=np.int64),
        light=node_lights(src),
        weights=tuple(weights),
        visible=np.array([_visible(node) for node in src], dtype=bool),
    )


def _visible(node: dict) -> bool:
    ext = (node.get("extensions") or {}).get("KHR_node_visibility")
    return ext.get("visible", True) if isinstance(ext, dict) else True


def _hierarchy(src: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Parent (N,) (-1 for roots) and depth (N,) of every node, in time linear in the node count.

    Validation guarantees one parent at most and no cycle, so a breadth-first walk from the roots
    reaches every node exactly once; walking up from each node instead is quadratic on deep chains.
    """
    n = len(src)
    children = [node.get("children", []) for node in src]
    counts = np.fromiter((len(c) for c in children), dtype=np.int64, count=n)
    parent = np.full(n, -1, dtype=np.int64)
    if counts.sum():
        parent[np.concatenate([np.asarray(c, dtype=np.int64) for c in children if c])] = np.repeat(np.arange(n), counts)
    depth = np.zeros(n, dtype=np.int64)
    level, d = np.flatnonzero(parent < 0), 0
    while len(level):
        depth[level] = d
        level = np.concatenate(
            [np.asarray(children[i], dtype=np.int64) for i in level if children[i]] or [np.zeros(0, np.int64)]
        )
        d += 1
    return parent, depth


def _skin(doc: Document, skin: dict, index: int) -> Skin:
    joints = np.asarray(skin["joints"], dtype=np.int64)
    if "inverseBindMatrices" in skin:
        ibm = np.asarray(doc.accessor(skin["inverseBindMatrices"]), dtype=np.float64)[: len(joints)]
        bad = np.flatnonzero(~np.isfinite(ibm).all(axis=(1, 2)))
        if bad.size:
            warnings.warn(
                f"{doc.path}:{pointer('skins', index, 'inverseBindMatrices')}: inverse bind matrix "
                f"{bad[0]} (joint {joints[bad[0]]}) is not finite; meshes with this skin are not drawn",
                GltfWarning,
                stacklevel=4,
            )
    else:
        ibm = np.broadcast_to(np.eye(4), (len(joints), 4, 4)).copy()
    return Skin(skin.get("name") or f"skin {index}", joints, ibm, skin.get("skeleton"))


def _camera(cam: dict, index: int) -> Camera:
    name = cam.get("name") or f"camera {index}"
    if cam.get("type") == "orthographic":
        o = cam["orthographic"]
        return Camera(name, "orthographic", znear=o["znear"], zfar=o["zfar"], xmag=o["xmag"], ymag=o["ymag"])
    p = cam["perspective"]
    return Camera(
        name, "perspective", yfov=p["yfov"], aspect=p.get("aspectRatio"), znear=p["znear"], zfar=p.get("zfar")
    )
