"""Files the reduce tests are built on: each one a case the issue names (a sine, a step channel, a half turn and
more, a deep chain, morph weights, pointer properties, a loop, duplicate keys), written in code."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.gltf_builder import GltfBuilder

BOX = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float32) * 0.05
BOX_FACES = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3]


def axis_angle(axis, angles) -> np.ndarray:
    """Unit quaternions [x, y, z, w] for turns of ``angles`` (radians) about ``axis``."""
    axis = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    a = np.asarray(angles, np.float64)[:, None] / 2.0
    return np.concatenate([np.sin(a) * axis, np.cos(a)], axis=1)


def one_node(path: Path, channels: list[dict], mesh: bool = True, name: str = "clip") -> Path:
    """A box node (node 0) animated by ``channels`` (dicts for ``add_animation`` without ``node``)."""
    b = GltfBuilder()
    if mesh:
        b.add_mesh(BOX, BOX_FACES)
    b.add_node(name="box", **({"mesh": 0} if mesh else {}))
    b.add_animation([dict(node=0, **c) for c in channels], name=name)
    b.add_scene([0])
    return b.write_glb(path)


def sine_file(path: Path, fps: float = 60.0, seconds: float = 2.0, amplitude: float = 0.1) -> Path:
    t = np.arange(int(seconds * fps) + 1) / fps
    values = np.zeros((len(t), 3))
    values[:, 0] = amplitude * np.sin(2 * np.pi * t / seconds)
    return one_node(path, [dict(path="translation", times=t, values=values)])


def chain_file(path: Path, joints: int = 20, fps: float = 60.0, seconds: float = 2.0, seed: int = 3) -> Path:
    """A chain of ``joints`` nodes 0.1 apart, each turning a little (a sine and jitter) about z; a box at its end."""
    rng = np.random.default_rng(seed)
    b = GltfBuilder()
    b.add_mesh(BOX, BOX_FACES)
    for j in range(joints):
        extra = {"children": [j + 1]} if j + 1 < joints else {"mesh": 0}
        b.add_node(name=f"j{j}", translation=[0.0, 0.1 if j else 0.0, 0.0], **extra)
    t = np.arange(int(seconds * fps) + 1) / fps
    channels = []
    for j in range(joints):
        angle = np.radians(2.0) * np.sin(2 * np.pi * t / seconds + j) + np.radians(0.02) * rng.standard_normal(len(t))
        channels.append(dict(node=j, path="rotation", times=t, values=axis_angle([0, 0, 1], angle)))
    b.add_animation(channels, name="wave")
    b.add_scene([0])
    return b.write_glb(path)


def morph_file(path: Path, fps: float = 60.0, seconds: float = 2.0) -> Path:
    b = GltfBuilder()
    b.add_mesh(BOX, BOX_FACES, targets=[BOX * 2.0, np.roll(BOX, 1, axis=1) * 0.5], weights=[0.0, 0.0])
    b.add_node(name="blob", mesh=0)
    t = np.arange(int(seconds * fps) + 1) / fps
    w = np.stack([0.5 + 0.5 * np.sin(2 * np.pi * t / seconds), np.clip(np.sin(np.pi * t / seconds), 0, 1)], axis=1)
    b.add_animation([dict(node=0, path="weights", times=t, values=w)], name="breathe")
    b.add_scene([0])
    return b.write_glb(path)


def pointer_file(path: Path, fps: float = 60.0, seconds: float = 2.0) -> Path:
    """A material's base colour and a camera's field of view, animated through KHR_animation_pointer."""
    b = GltfBuilder()
    b.add_mesh(BOX, BOX_FACES)
    b.doc["meshes"][0]["primitives"][0]["material"] = 0
    b.doc["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}]
    b.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.01}}]
    b.add_node(name="box", mesh=0)
    b.add_node(name="eye", camera=0, translation=[0, 0, 3])
    t = np.arange(int(seconds * fps) + 1) / fps
    s = np.sin(2 * np.pi * t / seconds)
    colour = np.stack([0.5 + 0.4 * s, 0.5 - 0.4 * s, np.full_like(t, 0.5), np.ones_like(t)], axis=1)
    b.add_animation(
        [
            dict(pointer="/materials/0/pbrMetallicRoughness/baseColorFactor", times=t, values=colour),
            dict(pointer="/cameras/0/perspective/yfov", times=t, values=0.8 + 0.2 * s),
        ],
        name="glow",
    )
    b.doc["extensionsUsed"] = ["KHR_animation_pointer"]
    b.add_scene([0, 1])
    return b.write_glb(path)
