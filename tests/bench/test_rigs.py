"""tools/bench_rigs.py: the two speed-comparison rigs (50 Foxes, a 10 000-node tree) are valid files that
animview loads with the expected nodes, skins and channels, and are written byte for byte the same each time."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from tests.conftest import khronos_model
from tools import bench_rigs
from viewer.gltf import load_document
from viewer.scene.scene import load


def glb_json(path) -> dict:
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20 : 20 + length])


@pytest.fixture(scope="module")
def rigs(tmp_path_factory):
    fox = khronos_model("Fox")  # skips when the shared models are absent
    folder = tmp_path_factory.mktemp("rigs")
    foxes, tree = bench_rigs.write_rigs(folder, fox)
    return fox, foxes, tree


def test_foxes_load_as_50_skinned_copies_with_one_clip(rigs):
    fox, foxes, _ = rigs
    assert foxes.name == "foxes_50.glb"
    scene = load(foxes)
    assert len(scene.nodes.names) == 50 * 27 == 1350
    assert len(scene.skins) == 50 and all(len(s.joints) == 24 for s in scene.skins)
    joint_sets = [set(s.joints.tolist()) for s in scene.skins]
    assert len(set().union(*joint_sets)) == 50 * 24  # every copy has its own joints
    (clip,) = scene.clips
    assert clip.name == "Run" and len(clip.channels) == 50 * 21

    doc = glb_json(foxes)
    assert "images" not in doc and "textures" not in doc
    assert doc["asset"]["copyright"] == load_document(fox).raw["asset"]["copyright"]
    assert "PixelMannen" in doc["asset"]["copyright"] and "CC0 1.0" in doc["asset"]["extras"]["license"]
    targets = {(c["target"]["node"] - 1) // 27 for c in doc["animations"][0]["channels"]}
    assert targets == set(range(50))  # channels reach every copy


def test_tree_has_10000_animated_nodes(rigs):
    _, _, tree = rigs
    assert tree.name == "tree_10000.glb"
    scene = load(tree)
    assert len(scene.nodes.names) == 10_000
    (clip,) = scene.clips
    assert clip.duration == pytest.approx(2.0)
    doc = glb_json(tree)
    channels = doc["animations"][0]["channels"]
    rotated = sorted(c["target"]["node"] for c in channels if c["target"]["path"] == "rotation")
    assert rotated == list(range(10_000))
    assert len(channels) == 10_000 + 1_000 + 400  # rotation everywhere, translation every 10th, scale every 25th
    sampler = doc["animations"][0]["samplers"][0]
    assert sampler["interpolation"] == "LINEAR" and doc["accessors"][sampler["input"]]["count"] == 30
    assert sum("mesh" in n for n in doc["nodes"]) >= 3
    parents = bench_rigs.tree_parents(10_000)
    depth = np.zeros(10_000, int)
    for i in range(1, 10_000):
        depth[i] = depth[parents[i]] + 1
    assert depth.max() > 1000  # the long chains hang below the 12-level tree


def test_rigs_are_deterministic(rigs, tmp_path):
    fox, foxes, _ = rigs
    doc, data = bench_rigs.fox_copies(fox, 50)
    assert bench_rigs.writer.glb_bytes(doc, data) == foxes.read_bytes()
    doc, data = bench_rigs.tree_rig(10_000)
    assert bench_rigs.writer.glb_bytes(doc, data) == rigs[2].read_bytes()
