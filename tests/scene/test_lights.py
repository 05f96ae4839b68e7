"""KHR_lights_punctual: validation (exit 2 at the exact pointer), defaults, lights placed by the pose, inspect."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder
from viewer import load
from viewer.cli import main
from viewer.pose.pose import Pose
from viewer.scene.lights import DIRECTIONAL, POINT, SPOT
from viewer.scene.placed_lights import world_lights
from viewer.scene.scene import shown_nodes

EXT = "KHR_lights_punctual"
LIGHTS = f"/extensions/{EXT}/lights"
S45 = math.sqrt(0.5)


def carrying(light: int, **properties) -> dict:
    return {"extensions": {EXT: {"light": light}}, **properties}


def lit_file() -> GltfBuilder:
    """Lights 0 spot, 1 point, 2 directional. Nodes: 0 root (children 1, 2), 1 spot, 2 point, 3 root with the
    directional light; scene 0 = [0, 3]."""
    b = GltfBuilder()
    b.doc["extensionsUsed"] = [EXT]
    b.doc["extensions"] = {
        EXT: {
            "lights": [
                {
                    "type": "spot",
                    "name": "Spot",
                    "intensity": 5,
                    "spot": {"innerConeAngle": 0.2, "outerConeAngle": 0.6},
                },
                {"type": "point", "color": [1, 0.5, 0.25], "intensity": 2, "range": 10},
                {"type": "directional"},
            ]
        }
    }
    b.add_node(name="rig", children=[1, 2], translation=[10, 0, 0])
    b.add_node(**carrying(0, name="spot", translation=[1, 2, 3], rotation=[0, S45, 0, S45], scale=[1, 1, 3]))
    b.add_node(**carrying(1, name="bulb"))
    b.add_node(**carrying(2, name="sun"))
    b.add_scene([0, 3])
    return b


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# -- validation ----------------------------------------------------------------------------------------


def _set(path: tuple, value):
    def edit(doc):
        *parents, key = path
        target = doc
        for p in parents:
            target = target[p]
        if value is None:
            del target[key]
        else:
            target[key] = value

    return edit


def _lights(*path):
    return ("extensions", EXT, "lights", *path)


@pytest.mark.parametrize(
    "edit, where",
    [
        (_set(_lights(1, "type"), "area"), f"{LIGHTS}/1/type"),
        (_set(_lights(2, "type"), None), f"{LIGHTS}/2/type"),
        (_set(_lights(0, "spot", "innerConeAngle"), 0.6), f"{LIGHTS}/0/spot/innerConeAngle"),
        (_set(_lights(0, "spot"), {"innerConeAngle": 1.0}), f"{LIGHTS}/0/spot/innerConeAngle"),  # default outer π/4
        (_set(_lights(0, "spot"), {"outerConeAngle": 0}), f"{LIGHTS}/0/spot/outerConeAngle"),
        (_set(_lights(0, "spot", "outerConeAngle"), 1.6), f"{LIGHTS}/0/spot/outerConeAngle"),
        (_set(_lights(0, "spot", "innerConeAngle"), -0.1), f"{LIGHTS}/0/spot/innerConeAngle"),
        (_set(_lights(1, "intensity"), -1), f"{LIGHTS}/1/intensity"),
        (_set(_lights(1, "color"), [1, 1, 2]), f"{LIGHTS}/1/color/2"),
        (_set(_lights(1, "color"), [1, 1]), f"{LIGHTS}/1/color"),
        (_set(_lights(1, "range"), 0), f"{LIGHTS}/1/range"),
        (_set(_lights(0, "spot"), None), f"{LIGHTS}/0/spot"),
        (_set(_lights(1, "spot"), {}), f"{LIGHTS}/1/spot"),
        (_set(_lights(0, "name"), 7), f"{LIGHTS}/0/name"),
        (_set(("extensions", EXT, "lights"), None), LIGHTS),
        (_set(("nodes", 3, "extensions", EXT, "light"), 3), f"/nodes/3/extensions/{EXT}/light"),
        (_set(("nodes", 3, "extensions", EXT, "light"), -1), f"/nodes/3/extensions/{EXT}/light"),
        (_set(("nodes", 3, "extensions", EXT), {}), f"/nodes/3/extensions/{EXT}/light"),
        (_set(("extensions",), None), f"/nodes/1/extensions/{EXT}/light"),  # no lights at all
    ],
)
def test_bad_light_is_one_line_exit_2_at_its_pointer(capsys, tmp_path, edit, where):
    b = lit_file()
    edit(b.doc)
    path = b.write_gltf(tmp_path)
    code, out, err = run(capsys, "inspect", path)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}:{where}: "), err


def test_lights_parse_with_defaults(tmp_path):
    b = lit_file()
    b.doc["extensions"][EXT]["lights"] = [
        {"type": "spot", "spot": {}},
        {"type": "point"},
        {"type": "directional", "range": 3},
    ]
    scene = load(b.write_gltf(tmp_path))
    spot, point, sun = scene.lights
    assert (spot.name, spot.type, spot.intensity, spot.range) == ("light 0", "spot", 1.0, None)
    assert (spot.inner_cone, spot.outer_cone) == (0.0, pytest.approx(math.pi / 4))
    np.testing.assert_array_equal(point.color, [1, 1, 1])
    assert point.range is None and point.inner_cone == point.outer_cone == math.pi
    assert sun.range is None  # range means nothing to a directional light
    assert scene.nodes.light.tolist() == [-1, 0, 1, 2]


def test_a_file_without_lights_has_none(tmp_path):
    b = GltfBuilder()
    b.add_node()
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path))
    assert scene.lights == () and scene.nodes.light.tolist() == [-1]
    got = world_lights(scene, Pose(scene).world)
    assert len(got) == 0 and got.position.shape == (0, 3) and got.radiance.shape == (0, 3)


# -- world_lights --------------------------------------------------------------------------------------


def test_lights_are_placed_by_their_nodes(tmp_path):
    scene = load(lit_file().write_gltf(tmp_path))
    got = world_lights(scene, Pose(scene).world)
    assert got.node.tolist() == [1, 2, 3] and got.kind.tolist() == [SPOT, POINT, DIRECTIONAL]
    # spot: rig at x=10, then (1, 2, 3); −Z turned 90° about +Y is −X (the 3× scale on z only lengthens it)
    np.testing.assert_allclose(got.position, [[11, 2, 3], [10, 0, 0], [0, 0, 0]], atol=1e-12)
    np.testing.assert_allclose(got.direction, [[-1, 0, 0], [0, 0, -1], [0, 0, -1]], atol=1e-12)
    np.testing.assert_allclose(got.radiance, [[5, 5, 5], [2, 1, 0.5], [1, 1, 1]])
    np.testing.assert_allclose(got.range, [0, 10, 0])
    np.testing.assert_allclose(got.cos_inner, [math.cos(0.2), -1, -1])
    np.testing.assert_allclose(got.cos_outer, [math.cos(0.6), -1, -1])


@pytest.mark.parametrize("t, angle", [(0.0, 0.0), (0.5, math.pi / 4), (1.0, math.pi / 2)])
def test_lights_follow_the_animation(tmp_path, t, angle):
    b = lit_file()
    b.add_animation([dict(node=0, path="rotation", times=[0, 1], values=[[0, 0, 0, 1], [0, 0, S45, S45]])])
    scene = load(b.write_gltf(tmp_path))
    pose = Pose(scene)
    pose.set_time(scene.clips[0], t)
    got = world_lights(scene, pose.world)
    c, s = math.cos(angle), math.sin(angle)  # the rig turns by `angle` about +Z
    np.testing.assert_allclose(got.position[0], [10 + c * 1 - s * 2, s * 1 + c * 2, 3], atol=1e-9)
    np.testing.assert_allclose(got.direction[0], [-c, -s, 0], atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(got.direction, axis=1), 1.0)


def test_lights_outside_the_shown_scene_are_left_out(tmp_path):
    b = lit_file()
    b.add_node(**carrying(1, children=[5]))  # 4: a root of no shown scene, as is its child 5
    b.add_node(**carrying(0))
    b.add_scene([4], default=False)
    scene = load(b.write_gltf(tmp_path))
    assert scene.shown.tolist() == [True, True, True, True, False, False]
    assert world_lights(scene, Pose(scene).world).node.tolist() == [1, 2, 3]


def test_degenerate_lights_keep_their_row_and_are_switched_off(tmp_path):
    b = lit_file()
    b.doc["nodes"][1]["scale"] = [1, 1, 0]  # the spot's −Z flattened to nothing
    b.doc["nodes"][2]["scale"] = [0, 0, 0]  # a point light needs no direction: still on
    b.doc["nodes"][3].update(scale=[1e200] * 3, children=[4])  # huge, but its direction is sound
    b.add_node(**carrying(1, translation=[1e200, 0, 0]))  # 4: a point light whose world position overflows
    scene = load(b.write_gltf(tmp_path))
    with pytest.warns(Warning):  # pose.py's own warning about the overflowing node
        world = Pose(scene).world
    got = world_lights(scene, world)
    assert got.node.tolist() == [1, 2, 3, 4]
    assert np.isfinite(got.position).all() and np.isfinite(got.direction).all()
    np.testing.assert_allclose(np.linalg.norm(got.direction, axis=1), 1.0)
    np.testing.assert_allclose(got.direction[:3], [[0, 0, -1]] * 3)
    np.testing.assert_allclose(got.radiance, [[0, 0, 0], [2, 1, 0.5], [1, 1, 1], [0, 0, 0]])
    np.testing.assert_allclose(got.position[3], [0, 0, 0])


def test_shown_nodes_on_a_deep_chain_and_several_roots():
    depth = 5000
    parent = np.arange(-1, depth - 1)  # a chain 0 → 1 → … → depth-1
    parent = np.concatenate([parent, [-1, depth]])  # plus root `depth` with one child
    shown = shown_nodes(parent, np.array([depth]))
    assert shown.sum() == 2 and shown[depth:].all()
    assert shown_nodes(parent, np.array([0])).sum() == depth
    assert shown_nodes(np.zeros(0, np.int64), np.zeros(0, np.int64)).shape == (0,)


# -- inspect -------------------------------------------------------------------------------------------


def test_inspect_lists_lights(capsys, tmp_path):
    b = lit_file()
    b.add_node(**carrying(1))  # node 4 carries the point light too (outside the scene: still listed)
    path = b.write_gltf(tmp_path)
    code, out, _ = run(capsys, "inspect", path, "--json")
    assert code == 0
    lights = json.loads(out)["lights"]
    assert [(x["index"], x["name"], x["type"], x["nodes"]) for x in lights] == [
        (0, "Spot", "spot", [1]),
        (1, "light 1", "point", [2, 4]),
        (2, "light 2", "directional", [3]),
    ]
    assert lights[0]["inner_cone_deg"] == pytest.approx(math.degrees(0.2))
    assert lights[0]["outer_cone_deg"] == pytest.approx(math.degrees(0.6))
    assert lights[1]["color"] == [1, 0.5, 0.25] and lights[1]["intensity"] == 2 and lights[1]["range"] == 10
    assert lights[2]["range"] is None and lights[2]["inner_cone_deg"] is None

    code, out, _ = run(capsys, "inspect", path)
    assert code == 0 and "lights 3" in out
    assert ("light 0 'Spot': spot, colour (1, 1, 1), intensity 5, range unlimited, cone 11.46°–34.38°; nodes 1") in out
    assert "light 1 'light 1': point, colour (1, 0.5, 0.25), intensity 2, range 10; nodes 2, 4" in out
    assert "light 2 'light 2': directional" in out
