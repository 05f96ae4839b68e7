"""``animview diff`` on pairs of files made here, each with the answer worked out independently in the test:
forward kinematics written out with plain trigonometry, morph and colour changes by their definition.

The rig: root → j0 → j1 → j2 → j3, a chain of unit bones up +y; a skinned strip with one vertex per joint
(each bound wholly to its joint, 0.2 to the side of it); a morphed triangle whose one target lifts vertex 0
by 1 in z; material 0's base colour animated by KHR_animation_pointer. Clip "Wave" turns j1 about z by 30° at
t = 1 s and back (LINEAR keys at 0, 1, 2 s), drives the morph weight 0 → 1 → 0 and fades the red channel.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder
from viewer.cli import main
from viewer.compare.diff import diff_scenes, diff_times
from viewer.compare.matching import match_nodes, node_paths
from viewer.scene.scene import load

NAMES = ("root", "j0", "j1", "j2", "j3", "skinned", "morphed")
CHILDREN = {0: [1, 5, 6], 1: [2], 2: [3], 3: [4]}
BASE = "/materials/0/pbrMetallicRoughness/baseColorFactor"


def z_turn(degrees: float) -> list[float]:
    half = math.radians(degrees) / 2
    return [0.0, 0.0, math.sin(half), math.cos(half)]


def rig(
    tmp_path,
    name: str = "a.gltf",
    order: tuple[int, ...] = tuple(range(7)),
    extra_deg: float = 0.0,
    root_offset=(0.0, 0.0, 0.0),
    time_scale: float = 1.0,
    weight_peak: float = 1.0,
    red_end: float = 0.0,
    extra_clip: bool = False,
    hide: bool = False,
    mesh_child: bool = False,
):
    """The rig above, written with node i of the story at file index ``order[i]`` (so a reordered copy has
    the same name paths); the other arguments change one thing of clip "Wave" in a known way."""
    b = GltfBuilder()
    b.doc["materials"] = [{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}}]
    b.doc["extensionsUsed"] = ["KHR_animation_pointer", "KHR_node_visibility"]
    strip = np.array([[0.2, float(k), 0.0] for k in range(4)] + [[-0.2, 0.0, 0.0]], np.float32)
    joints = b.add_accessor(np.array([[k, 0, 0, 0] for k in range(4)] + [[0, 0, 0, 0]], np.uint8), target=34962)
    weights = b.add_accessor(np.array([[1, 0, 0, 0]] * 5, np.float32), target=34962)
    skinned = b.add_mesh(strip, [0, 1, 4, 1, 2, 4, 2, 3, 4], attributes={"JOINTS_0": joints, "WEIGHTS_0": weights})
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    lift = np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32)
    morphed = b.add_mesh(tri, [0, 1, 2], targets=[lift], weights=[0.0])
    for m in (skinned, morphed):
        b.doc["meshes"][m]["primitives"][0]["material"] = 0
    at = list(order)
    story = [
        dict(translation=list(root_offset)),
        dict(),
        dict(translation=[0.0, 1.0, 0.0]),
        dict(translation=[0.0, 1.0, 0.0]),
        dict(translation=[0.0, 1.0, 0.0]),
        dict(mesh=skinned, skin=0),
        dict(mesh=morphed, extensions={"KHR_node_visibility": {"visible": True}}),
    ]
    nodes = [None] * 7
    for i, props in enumerate(story):
        if i in CHILDREN:
            props["children"] = [at[c] for c in CHILDREN[i]]
        nodes[at[i]] = dict(name=NAMES[i], **props)
    weights_node = at[6]
    if mesh_child:  # as gltfpack writes it: the mesh moved into a new, unnamed child of its node
        weights_node = len(nodes)
        nodes[at[6]]["children"] = [weights_node]
        nodes.append(dict(mesh=nodes[at[6]].pop("mesh")))
    for props in nodes:
        b.add_node(**props)
    ibm = np.stack([np.eye(4)] * 4)
    ibm[:, 1, 3] = -np.arange(4)
    b.add_skin([at[1], at[2], at[3], at[4]], ibm)
    keys = [0.0 * time_scale, 1.0 * time_scale, 2.0 * time_scale]
    wave = [
        dict(node=at[2], path="rotation", times=keys, values=[z_turn(0), z_turn(30 + extra_deg), z_turn(0)]),
        dict(node=weights_node, path="weights", times=keys, values=[[0.0], [weight_peak], [0.0]]),
        dict(pointer=BASE, times=[0.0, 2.0 * time_scale], values=[[1, 1, 1, 1], [red_end, 1, 1, 1]]),
    ]
    if hide:
        vis = f"/nodes/{at[6]}/extensions/KHR_node_visibility/visible"
        wave.append(
            dict(
                pointer=vis,
                interpolation="STEP",
                times=[0, 1.5],
                values=np.array([1, 0], np.uint8),
                component_type=5121,
            )
        )
    b.add_animation(wave, name="Wave")
    if extra_clip:
        b.add_animation([dict(node=at[1], path="rotation", times=[0, 1], values=[z_turn(0), z_turn(5)])], name="Extra")
    b.add_scene([at[0]])
    return b.write_gltf(tmp_path, name)


def report(tmp_path, **change):
    return diff_scenes(load(rig(tmp_path)), load(rig(tmp_path, "b.gltf", **change)))


def node_row(clip: dict, name: str) -> dict:
    return next(n for n in clip["nodes"] if n["name"] == name)


def test_identical_files_are_zero_everywhere(tmp_path):
    r = report(tmp_path)
    (c,) = r["clips"]
    assert r["max_distance"] == 0 and not r["differs"]
    assert all(n["max_distance"] == 0 and n["max_angle_deg"] == 0 for n in c["nodes"])
    assert c["vertices"]["max_distance"] == 0 and c["vertices"]["matched_by"] == "index"
    assert c["weights"] == [] and c["pointers"] == [] and c["visibility"] == []
    assert c["first_over"] is None
    assert all(d == 0 for _, d in c["over_time"])
    assert r["unmatched"] == {"clips_a": [], "clips_b": [], "nodes_a": [], "nodes_b": []}


def test_reordered_nodes_match_by_path_and_are_zero(tmp_path):
    order = (6, 3, 0, 5, 1, 4, 2)
    a, b = load(rig(tmp_path)), load(rig(tmp_path, "b.gltf", order=order))
    match = match_nodes(a, b)
    assert match.by_path.all() and len(match.a) == 7
    assert [b.nodes.names[j] for j in match.b] == list(NAMES)
    assert node_paths(a)[4] == "root/j0/j1/j2/j3"
    r = diff_scenes(a, b)
    assert r["max_distance"] == 0 and not r["differs"] and r["matched_nodes"] == {"by_path": 7, "by_index": 0}


def test_one_key_turned_moves_that_joints_subtree_by_forward_kinematics(tmp_path):
    theta = 4.0
    r = report(tmp_path, extra_deg=theta)
    (c,) = r["clips"]
    # At t = 1 j1 is turned 30° (A) or 30° + θ (B) about z; j2 and j3 sit 1 and 2 up the bone from it.
    for name, length in (("j2", 1.0), ("j3", 2.0)):
        a = np.array([-math.sin(math.radians(30)), math.cos(math.radians(30))]) * length
        b = np.array([-math.sin(math.radians(30 + theta)), math.cos(math.radians(30 + theta))]) * length
        row = node_row(c, name)
        assert row["max_distance"] == pytest.approx(np.linalg.norm(a - b), rel=0.01)
        assert row["t"] == pytest.approx(1.0)
    assert node_row(c, "j1")["max_distance"] == 0 and node_row(c, "j1")["max_angle_deg"] == pytest.approx(theta, 0.01)
    for name in ("root", "j0", "morphed"):
        assert node_row(c, name)["max_distance"] == 0 and node_row(c, name)["max_angle_deg"] == 0
    assert c["nodes"][0]["name"] == "j3" and c["worst"]["t"] == pytest.approx(1.0)
    # The strip's top vertex is 0.2 beside j3: 2 up and 0.2 across from j1, turned θ further.
    reach = math.hypot(0.2, 2.0)
    assert c["vertices"]["max_distance"] == pytest.approx(2 * reach * math.sin(math.radians(theta) / 2), rel=0.01)
    over = np.array(c["over_time"])
    assert over[over[:, 1].argmax(), 0] == pytest.approx(1.0)
    assert 0 < c["first_over"] < 1.0 and r["differs"]


def test_root_offset_moves_every_node_by_it(tmp_path):
    r = report(tmp_path, root_offset=(0.0, 0.0, 0.5))
    (c,) = r["clips"]
    assert all(n["max_distance"] == pytest.approx(0.5) for n in c["nodes"])
    assert c["vertices"]["max_distance"] == pytest.approx(0.5)
    assert r["max_distance_rel"] == pytest.approx(0.5 / r["size"])


def test_retimed_clip_differs_and_is_measured_over_the_longer_clip(tmp_path):
    r = report(tmp_path, time_scale=1.5)
    (c,) = r["clips"]
    assert c["duration_a"] == pytest.approx(2.0) and c["duration_b"] == pytest.approx(3.0)
    assert r["differs"] and c["over_time"][-1][0] == pytest.approx(3.0)
    # At t = 1 A's j1 is at its 30° key, B's is 2/3 of the way there: j3's distance follows.
    at_one = [d for t, d in c["over_time"] if abs(t - 1.0) < 1e-12]
    assert at_one and at_one[0] > 0


def test_clip_on_one_side_only_is_structural_not_an_error(tmp_path):
    r = report(tmp_path, extra_clip=True)
    assert r["unmatched"]["clips_b"] == ["Extra"] and not r["differs"]
    assert [c["a"] for c in r["clips"]] == ["Wave"] and r["clips"][0]["matched_by"] == "name"


def test_morph_weight_change_is_its_difference_times_the_target(tmp_path):
    r = report(tmp_path, weight_peak=0.5)
    (c,) = r["clips"]
    assert c["weights"][0]["node"] == "morphed" and c["weights"][0]["max_difference"] == pytest.approx(0.5)
    assert c["weights"][0]["t"] == pytest.approx(1.0)
    morph = next(m for m in c["meshes"] if m["node"] == "morphed")
    assert morph["max_distance"] == pytest.approx(0.5) and r["differs"]


def test_pointer_property_change_is_in_its_own_units(tmp_path):
    r = report(tmp_path, red_end=0.5)
    (c,) = r["clips"]
    assert c["pointers"] == [{"pointer": BASE, "max_difference": pytest.approx(0.5), "unit": "value", "t": 2.0}]
    assert r["max_distance"] == 0 and r["differs"]


def test_visibility_flip_is_counted_from_its_first_time(tmp_path):
    a, b = load(rig(tmp_path, hide=False)), load(rig(tmp_path, "b.gltf", hide=True))
    (c,) = diff_scenes(a, b)["clips"]
    (flip,) = c["visibility"]
    assert flip["node"] == "morphed" and flip["first_t"] == pytest.approx(1.5) and flip["flips"] > 0
    assert "/nodes/6/extensions/KHR_node_visibility/visible" not in c["structure"]["pointers_b"]
    assert c["structure"]["channels_b"] == ["root/morphed.visible"]


def test_times_are_both_clips_keys_their_midpoints_and_the_grid(tmp_path):
    a, b = load(rig(tmp_path)), load(rig(tmp_path, "b.gltf", time_scale=1.5))
    times = diff_times(a.clips[0], b.clips[0], 2.0)
    keys = [0.0, 1.0, 1.5, 2.0, 3.0]
    grid = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    mids = [0.5, 1.25, 1.75, 2.5]
    assert times.tolist() == sorted(set(keys + grid + mids))
    assert diff_times(None, None, 120.0).tolist() == [0.0]


def test_cli_exit_codes_text_and_json(tmp_path, capsys):
    a, same, moved = rig(tmp_path), rig(tmp_path, "same.gltf"), rig(tmp_path, "moved.gltf", extra_deg=4.0)
    assert main(["diff", str(a), str(same)]) == 0
    assert "same: max distance 0" in capsys.readouterr().out
    assert main(["diff", str(a), str(moved), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert {"a", "b", "max_distance", "max_distance_rel", "clips", "unmatched"} <= doc.keys()
    clip = doc["clips"][0]
    assert {
        "a",
        "b",
        "mode",
        "max_distance",
        "max_distance_rel",
        "worst",
        "nodes",
        "vertices",
        "over_time",
    } <= clip.keys()
    assert {"name", "a", "b", "max_distance", "max_angle_deg", "t"} <= clip["nodes"][0].keys()
    assert main(["diff", str(a), str(moved), "--fail-above", "50%"]) == 0
    text = capsys.readouterr().out
    assert "j3" in text and "same" in text.splitlines()[-1]
    assert main(["diff", str(a), str(moved), "--fail-above", "0.001"]) == 1
    assert "DIFFERENT" in capsys.readouterr().out


def test_file_that_does_not_load_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.gltf"
    bad.write_text('{"asset": {"version": "2.0"}, "nodes": [{"children": [7]}]}')
    assert main(["diff", str(rig(tmp_path)), str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad.gltf" in err and "/nodes/0/children" in err and len(err.splitlines()) == 1
    assert main(["diff", str(rig(tmp_path)), str(tmp_path / "absent.glb")]) == 2
    assert main(["diff", str(rig(tmp_path)), str(rig(tmp_path)), "--fail-above", "x%"]) == 2
    assert main(["diff", str(rig(tmp_path)), str(rig(tmp_path)), "--animation", "Nope"]) == 2


def test_each_file_in_its_own_mode(tmp_path):
    a, b = load(rig(tmp_path)), load(rig(tmp_path, "b.gltf"))
    same = diff_scenes(a, b, mode="step", mode_b="step")
    assert same["max_distance"] == 0 and same["clips"][0]["mode_b"] == "step"
    parted = diff_scenes(a, b, mode="step", mode_b="authored")["clips"][0]
    # STEP holds j1 at 0° until t = 1; LINEAR is at 15° at t = 0.5: j3, 2 up the bone, is 2·2·sin(7.5°) away.
    at_half = dict(map(tuple, parted["over_time"]))[0.5]
    assert at_half >= 4 * math.sin(math.radians(7.5)) * (1 - 1e-9)
    assert parted["mode"] == "step" and parted["mode_b"] == "authored"


def test_chunks_of_times_give_the_same_report_as_one(tmp_path, monkeypatch):
    from viewer.compare import diff_measure

    a, b = load(rig(tmp_path)), load(rig(tmp_path, "b.gltf", extra_deg=3.0, weight_peak=0.7, red_end=0.2))
    whole = diff_scenes(a, b)
    monkeypatch.setattr(diff_measure, "WORLD_FLOATS", 16 * 7 * 3)  # three times a chunk
    assert diff_measure.chunk_length(7, 7) == 3
    assert diff_scenes(a, b) == whole


def test_reordered_vertices_match_by_nearest_rest_position(tmp_path):
    from viewer.compare import diff_meshes

    a = load(rig(tmp_path))
    b_path = rig(tmp_path, "b.gltf")
    doc = json.loads(b_path.read_text())
    morphed = doc["meshes"][1]["primitives"][0]
    # Rotate the triangle's vertex order (positions, the target and the indices together): the same shape.
    binary = bytearray((tmp_path / "b.bin").read_bytes())
    from tests.gltf_builder import overwrite_accessor

    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    lift = np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32)
    overwrite_accessor(doc, binary, morphed["attributes"]["POSITION"], np.roll(tri, 1, axis=0))
    overwrite_accessor(doc, binary, morphed["targets"][0]["POSITION"], np.roll(lift, 1, axis=0))
    overwrite_accessor(doc, binary, morphed["indices"], np.array([1, 2, 0], np.uint16))
    (tmp_path / "b.bin").write_bytes(bytes(binary))
    b_path.write_text(json.dumps(doc))
    (c,) = diff_scenes(a, load(b_path))["clips"]
    mesh = next(m for m in c["meshes"] if m["node"] == "morphed")
    assert mesh["matched_by"] == "nearest" and mesh["rest_gap"] == 0 and mesh["max_distance"] == 0
    assert diff_meshes.nearest(np.array([[0.9, 0.1, 0.0]]), tri.astype(np.float64))[0].tolist() == [1]


def test_huge_meshes_are_measured_on_an_even_subset_said_in_the_report(tmp_path, monkeypatch):
    from viewer.compare import diff_meshes

    monkeypatch.setattr(diff_meshes, "VERTEX_BUDGET", 3)
    (c,) = report(tmp_path, extra_deg=4.0)["clips"]
    strip = next(m for m in c["meshes"] if m["node"] == "skinned")
    assert (strip["measured"], strip["of"]) == (4, 5)  # three spread evenly and one more outermost vertex
    assert diff_meshes.even_subset(5, 3).tolist() == [0, 2, 4]


def test_a_subset_keeps_the_outermost_vertex_an_even_spread_skips():
    from viewer.compare import diff_meshes

    points = np.zeros((9, 3))
    points[5] = (10.0, 0.0, 0.0)  # a far corner between the evenly spread picks 0, 4 and 8
    assert diff_meshes.even_subset(9, 3).tolist() == [0, 4, 8]
    assert 5 in diff_meshes.spread(points, 3).tolist()
    assert diff_meshes.spread(points, 9).tolist() == list(range(9))  # all of them when they fit


def test_unnamed_nodes_are_named_by_their_place_among_siblings(tmp_path):
    b = GltfBuilder()
    b.add_node(children=[1, 2])
    b.add_node(name="x")
    b.add_node()
    b.add_node()
    b.add_scene([0, 3])
    scene = load(b.write_gltf(tmp_path))
    assert tuple(node_paths(scene)) == ("#0", "#0/x", "#0/#1", "#1")


def test_a_chosen_clip_of_b_is_compared_whatever_the_names_say(tmp_path):
    scene = load(rig(tmp_path, extra_clip=True))
    wave, extra = scene.clips
    (c,) = diff_scenes(scene, scene, only=wave, clip_b=extra)["clips"]
    assert (c["a"], c["b"], c["matched_by"]) == ("Wave", "Extra", "chosen")
    # Extra turns j0 by 5° at t = 1 while Wave turns j1 by 30°: j3 is 3 (Extra) or 2 (Wave) up from them.
    assert c["max_distance"] > 0 and c["duration_b"] == 1.0
    assert diff_scenes(scene, scene, only=wave, clip_b=wave)["max_distance"] == 0


def test_a_mesh_moved_into_a_new_child_node_is_still_measured(tmp_path):
    r = report(tmp_path, mesh_child=True, weight_peak=0.5)
    (c,) = r["clips"]
    assert r["unmatched"]["nodes_b"] == ["root/morphed/#0"]
    morph = next(m for m in c["meshes"] if m["node"] == "morphed")
    assert morph["max_distance"] == pytest.approx(0.5) and morph["t"] == pytest.approx(1.0)
    assert c["structure"]["channels_a"] == ["root/morphed.weights"]
    assert c["structure"]["channels_b"] == ["root/morphed/#0.weights"]


def _rigid(tmp_path, name: str, rebased: bool = False, scale_end: float = 2.0, extra_name: str = "spare"):
    """A rigid triangle scaled 1 → ``scale_end`` over 1 s by its node; ``rebased``: the node carries a
    translation and scale that its vertices undo (as an optimizer's dequantization does), so the world is
    the same; a second, still node named ``extra_name``."""
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    shift, factor = np.array([-0.5, -0.5, -0.5]), 0.5
    positions = (tri - shift) / factor if rebased else tri
    mesh = b.add_mesh(positions, [0, 1, 2])
    holder = b.add_node(name="holder", children=[1])
    b.add_node(name="tri", mesh=mesh, **(dict(translation=shift.tolist(), scale=[factor] * 3) if rebased else {}))
    b.add_node(name=extra_name, translation=[5.0, 0.0, 0.0])
    b.add_animation([dict(node=holder, path="scale", times=[0, 1], values=[[1, 1, 1], [scale_end] * 3])], name="Grow")
    b.add_scene([0, 2])
    return load(b.write_gltf(tmp_path, name))


def test_rigid_meshes_count_by_their_vertices_not_their_origin(tmp_path):
    a = _rigid(tmp_path, "a.gltf")
    r = diff_scenes(a, _rigid(tmp_path, "b.gltf", rebased=True))
    (c,) = r["clips"]
    tri = node_row(c, "tri")
    assert tri["geometry"] and tri["max_distance"] > 0.8  # its origin moved, its vertices did not
    assert r["max_distance"] == pytest.approx(0, abs=1e-12) and not r["differs"]
    (mesh,) = c["meshes"]
    assert mesh["deforms"] is False and mesh["matched_by"] == "nearest" and mesh["rest_gap"] < 1e-12
    # Scaled to 3 rather than 2 at t = 1: the vertex at (1, 0, 0) lands 1 further (the origin never moves).
    (c,) = diff_scenes(a, _rigid(tmp_path, "c.gltf", scale_end=3.0))["clips"]
    assert c["max_distance"] == pytest.approx(1.0) and c["worst"]["kind"] == "vertices" and c["worst"]["t"] == 1.0
    assert node_row(c, "tri")["max_distance"] == 0


def test_index_fallback_never_pairs_differently_named_nodes(tmp_path):
    a, b = _rigid(tmp_path, "a.gltf"), _rigid(tmp_path, "b.gltf", extra_name="other")
    r = diff_scenes(a, b)
    assert r["unmatched"]["nodes_a"] == ["spare"] and r["unmatched"]["nodes_b"] == ["other"]
    assert r["matched_nodes"] == {"by_path": 2, "by_index": 0} and not r["differs"]


def test_a_clip_missing_from_b_differs(tmp_path, capsys):
    a, b = rig(tmp_path, extra_clip=True), rig(tmp_path, "b.gltf")
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "clips only in A: 'Extra'" in out and "DIFFERENT" in out
    assert main(["diff", str(b), str(a)]) == 0  # a clip B adds changes none of A's


def test_a_long_clip_is_measured_in_bounded_memory(tmp_path, monkeypatch):
    """Ten minutes at 120 fps is 72 000 times: measured all at once this rig's diff peaks at ~415 MB (each
    side's world matrices alone are 64 MB); in chunks of 2 000 times, at ~14 MB (mostly the report's error over
    time). tracemalloc sees numpy's buffers."""
    import tracemalloc

    from viewer.compare import diff_measure

    monkeypatch.setattr(diff_measure, "WORLD_FLOATS", 16 * 7 * 2000)  # chunks of 2 000 times for this rig
    a, b = load(rig(tmp_path, time_scale=300.0)), load(rig(tmp_path, "b.gltf", time_scale=300.0, extra_deg=2.0))
    tracemalloc.start()
    try:
        r = diff_scenes(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    (c,) = r["clips"]
    assert c["times"] > 72_000 and c["worst"]["t"] == pytest.approx(300.0)
    assert peak < 30e6, f"peak {peak / 1e6:.1f} MB"


def test_past_the_deforming_budget_meshes_are_measured_as_rigid(tmp_path):
    from viewer.compare import diff_meshes

    scene = load(rig(tmp_path))
    nodes = match_nodes(scene, scene)
    groups = diff_meshes.mesh_pairs(scene, scene, nodes, (256, 1024, 4, 1))
    kinds = [type(g).__name__ for g in groups]
    assert kinds == ["MeshPair", "RigidPairs"]  # the skinned strip one by one, the morphed triangle with the rigid
    assert [e["node"] for g in groups for e in g.entries] == ["skinned", "morphed"]
    assert len(diff_meshes.mesh_pairs(scene, scene, nodes)) == 2  # unbounded: both deform one by one


def test_a_deep_chain_is_matched_by_path_and_its_paths_are_written_short(tmp_path, monkeypatch):
    from viewer.compare.matching import NodePaths

    monkeypatch.setattr(NodePaths, "SHOWN", 6)
    monkeypatch.setattr(NodePaths, "HEAD", 2)
    b = GltfBuilder()
    for k in range(20):
        b.add_node(name=f"j{k}", **({"children": [k + 1]} if k < 19 else {}))
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path))
    paths = node_paths(scene)
    assert paths[3] == "j0/j1/j2/j3" and paths[19] == "j0/j1/…14 more…/j16/j17/j18/j19"
    match = match_nodes(scene, scene)
    assert match.by_path.all() and len(match.a) == 20
