"""What the engine tests share: one animated node (and a morphed triangle when weights are animated) built in
code, and three STEP keys that every engine's STEP rules can be read on."""

from __future__ import annotations

import numpy as np

from tests.gltf_builder import GltfBuilder
from viewer import engines
from viewer.scene.scene import load

STEP_KEYS = dict(
    node=0, path="translation", interpolation="STEP", times=[0, 1, 2], values=[[0, 0, 0], [1, 0, 0], [2, 0, 0]]
)


def one_node(tmp_path, channels, rest=(0.0, 0.0, 0.0), targets=0):
    """Node 0 "n" (rest translation ``rest``) animated by ``channels`` in clip "c"; with ``targets``, it holds a
    triangle with that many morph targets (target k the triangle scaled k + 1), default weights 0."""
    b = GltfBuilder()
    props = dict(name="n", translation=list(rest))
    if targets:
        tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
        shapes = [tri * (k + 1) for k in range(targets)]
        props["mesh"] = b.add_mesh(tri, [0, 1, 2], targets=shapes, weights=[0.0] * targets)
    b.add_node(**props)
    b.add_animation(channels, name="c")
    b.add_scene([0])
    return load(b.write_gltf(tmp_path))


def x_as(name, scene, times, row=0):
    """The x component of channel ``row`` at ``times`` as engine ``name`` plays the scene's first clip."""
    return engines.get(name).sample(scene.clips[0], scene, np.asarray(times, np.float64))[:, row, 0].tolist()
