"""KHR_animation_pointer channels: loaded into the same packed tables as TRS, sampled in every mode, posed onto
nodes, materials, cameras and lights, reported by ``sample --json`` and ``inspect``; bad pointers are set aside
with their reason while the rest plays. Files are built here; expected values come from the spec's formulas,
written out below, not from the code under test."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder
from viewer.cli import main
from viewer.files.sampling import sample_animations
from viewer.pose.pose import Pose
from viewer.scene.scene import load

QUAD = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], np.float32)
BASE = "/materials/0/pbrMetallicRoughness/baseColorFactor"
VISIBLE = "/nodes/0/extensions/KHR_node_visibility/visible"


def visibility(values: list[int], interpolation: str = "STEP") -> dict:
    """A KHR_node_visibility channel of node 0: booleans as unsigned bytes, a key a second from 0."""
    times = list(range(len(values)))
    return dict(
        pointer=VISIBLE,
        interpolation=interpolation,
        times=times,
        values=np.array(values, np.uint8),
        component_type=5121,
    )


def _scene_file(tmp_path, channels, name="p.gltf", extra=None):
    """Node 0: a quad with material 0 (and a light, KHR_lights_punctual spot 0); node 1: a morphed quad (2
    targets), child of node 0; node 2: perspective camera 0 (with zfar); node 3: orthographic camera 1."""
    b = GltfBuilder()
    b.doc["materials"] = [
        {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0.5}, "emissiveFactor": [0, 0, 0]}
    ]
    b.doc["cameras"] = [
        {"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "zfar": 100}},
        {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0.1, "zfar": 50}},
    ]
    b.doc["extensions"] = {
        "KHR_lights_punctual": {
            "lights": [{"type": "spot", "intensity": 5, "spot": {"innerConeAngle": 0.1, "outerConeAngle": 0.5}}]
        }
    }
    b.doc["extensionsUsed"] = ["KHR_animation_pointer", "KHR_lights_punctual", "KHR_node_visibility"]
    mesh = b.add_mesh(positions=QUAD, indices=[0, 1, 2, 2, 1, 3])
    b.doc["meshes"][mesh]["primitives"][0]["material"] = 0
    morph = b.add_mesh(
        positions=QUAD, indices=[0, 1, 2, 2, 1, 3], targets=[QUAD * 0.5, QUAD * -0.5], weights=[0.25, 0.5]
    )
    b.add_node(
        name="quad.with.dots",
        mesh=mesh,
        children=[1],
        extensions={"KHR_lights_punctual": {"light": 0}, "KHR_node_visibility": {}},
    )
    b.add_node(mesh=morph)  # unnamed
    b.add_node(camera=0, translation=[0, 0, 5])
    b.add_node(camera=1, translation=[0, 0, 6])
    b.add_scene([0, 2, 3])
    b.add_animation(channels, name="pointers")
    for key, value in (extra or {}).items():
        b.doc[key] = value
    tmp_path.mkdir(parents=True, exist_ok=True)
    return b.write_gltf(tmp_path, name)


def _lerp(a, b, u):
    return (1 - u) * np.asarray(a, float) + u * np.asarray(b, float)


def _hermite(p0, m0, p1, m1, u, dt):
    """Appendix C's cubic Hermite spline, tangents scaled by the keyframe interval."""
    u2, u3 = u * u, u * u * u
    return (
        (2 * u3 - 3 * u2 + 1) * np.asarray(p0, float)
        + (u3 - 2 * u2 + u) * dt * np.asarray(m0, float)
        + (-2 * u3 + 3 * u2) * np.asarray(p1, float)
        + (u3 - u2) * dt * np.asarray(m1, float)
    )


def test_material_colour_linear_matches_the_spec_formula(tmp_path):
    colours = [[1, 0, 0, 1], [0, 0, 1, 0.5], [0, 1, 0, 1]]
    path = _scene_file(tmp_path, [dict(pointer=BASE, times=[0, 1, 3], values=colours)])
    scene = load(path)
    clip = scene.clips[0]
    (ch,) = clip.channels
    assert (ch.node, ch.consumer, ch.index, ch.path, ch.pointer) == (-1, "material", 0, "baseColorFactor", BASE)
    for t, want in (
        (-1.0, colours[0]),
        (0.0, colours[0]),
        (0.5, _lerp(colours[0], colours[1], 0.5)),
        (1.0, colours[1]),
        (2.2, _lerp(colours[1], colours[2], 0.6)),
        (3.0, colours[2]),
        (9.0, colours[2]),
    ):
        np.testing.assert_allclose(clip.sample(t)[0, :4], want, atol=1e-7)
        pose = Pose(scene)
        pose.set_time(clip, t)
        np.testing.assert_allclose(pose.properties[("material", 0)]["baseColorFactor"], want, atol=1e-7)


def test_camera_yfov_cubicspline_and_discrete_visibility(tmp_path):
    # CUBICSPLINE triplets (in-tangent, value, out-tangent) per key
    yfov = [[0.0], [0.5], [0.3], [-0.2], [1.0], [0.0]]
    channels = [
        dict(
            pointer="/cameras/0/perspective/yfov",
            interpolation="CUBICSPLINE",
            times=[0, 2],
            values=np.array(yfov, np.float32).reshape(-1),
        ),
        visibility([1, 0, 1]),
    ]
    scene = load(_scene_file(tmp_path, channels))
    clip = scene.clips[0]
    fov, visible = clip.channels
    assert (fov.consumer, fov.path) == ("camera", "yfov") and (visible.node, visible.path) == (0, "visible")
    for t in (0.0, 0.5, 1.3, 2.0, 5.0):
        u = min(max(t / 2.0, 0.0), 1.0)
        np.testing.assert_allclose(clip.sample(t)[0, 0], _hermite(0.5, 0.3, 1.0, -0.2, u, 2.0), atol=1e-6)
    pose = Pose(scene)
    for t, shown in ((0.0, True), (0.99, True), (1.0, False), (1.5, False), (2.0, True)):
        for mode in ("authored", "linear", "catmull-rom", "cubic-zero"):  # booleans step in every mode
            pose.set_time(clip, t, mode)
            assert pose.own_visible[0] == shown and pose.visible[1] == shown, (t, mode)  # node 1 inherits
            assert pose.visible[2]


def test_pointer_trs_equals_the_plain_channel(tmp_path):
    quarter = [0, 0, math.sqrt(0.5), math.sqrt(0.5)]
    keys = dict(times=[0, 1, 2.5], interpolation="LINEAR")
    trs = {
        "translation": [[0, 0, 0], [1, 2, 3], [-1, 0, 4]],
        "rotation": [[0, 0, 0, 1], quarter, [1, 0, 0, 0]],
        "scale": [[1, 1, 1], [2, 3, 4], [0.5, 0.5, 0.5]],
    }
    plain = load(_scene_file(tmp_path / "a", [dict(node=0, path=p, values=v, **keys) for p, v in trs.items()]))
    pointed = load(
        _scene_file(tmp_path / "b", [dict(pointer=f"/nodes/0/{p}", values=v, **keys) for p, v in trs.items()])
    )
    times = np.linspace(-0.5, 3.0, 29)
    for mode in ("authored", "step", "linear", "cubicspline", "catmull-rom", "cubic-zero"):
        a = Pose(plain).world_at(plain.clips[0], times, mode)
        b = Pose(pointed).world_at(pointed.clips[0], times, mode)
        np.testing.assert_allclose(b, a, atol=1e-9, rtol=0)


def test_one_weight_by_pointer_leaves_the_others_at_rest(tmp_path):
    channels = [dict(pointer="/nodes/1/weights/1", times=[0, 1], values=[0.0, 1.0])]
    scene = load(_scene_file(tmp_path, channels))
    pose = Pose(scene)
    pose.set_time(scene.clips[0], 0.25)
    np.testing.assert_allclose(pose.node_weights(1), [0.25, 0.25])  # element 0 rests at the mesh's 0.25
    report = sample_animations(scene, times=[0.25])["animations"][0]
    assert report["samples"][0]["nodes"] == {"1": {"weights": [0.25, 0.25]}}


def test_bad_pointers_are_ignored_with_reasons_and_the_rest_plays(tmp_path, capsys):
    good = dict(pointer=BASE, times=[0, 1], values=[[1, 0, 0, 1], [0, 1, 0, 1]])
    bad = [
        dict(pointer="/materials/7/pbrMetallicRoughness/baseColorFactor", times=[0, 1], values=[[1, 1, 1, 1]] * 2),
        dict(pointer="/nodes/0/mesh", times=[0, 1], values=[0.0, 1.0]),
        dict(pointer="/cameras/1/perspective/yfov", times=[0, 1], values=[0.1, 0.2]),
        dict(pointer="/materials/0/emissiveFactor", times=[0, 1], values=[0.5, 0.5]),  # SCALAR for a float3
        visibility([1, 0], "LINEAR"),
        dict(pointer=BASE, times=[0, 1], values=[[0, 0, 0, 1]] * 2),  # a second channel on the same colour
        dict(pointer="/meshes/1/weights", times=[0, 1], values=[0.0, 0.0, 1.0, 1.0]),
    ]
    with pytest.warns(Warning):
        scene = load(_scene_file(tmp_path, [good] + bad))
    clip = scene.clips[0]
    assert [ch.pointer for ch in clip.channels] == [BASE]
    ignored = scene.document.ignored_channels
    assert sorted(ignored) == [(0, k) for k in range(1, 8)]
    for (_, c), word in zip(
        sorted(ignored), ("does not exist", "not animatable", "perspective", "VEC3", "STEP", "already animates", "2026")
    ):
        assert word in ignored[(0, c)], (c, ignored[(0, c)])
        assert bad[c - 1]["pointer"] in ignored[(0, c)] or c == 6
    code = main(["sample", str(tmp_path / "p.gltf"), "--json", "--times", "0.5"])
    out = json.loads(capsys.readouterr().out)["animations"][0]
    assert code == 0
    assert out["samples"][0]["pointers"] == {BASE: [0.5, 0.5, 0.0, 1.0]}
    assert set(out["ignored"]) == {f"/animations/0/channels/{k}" for k in range(1, 8)}
    code = main(["inspect", str(tmp_path / "p.gltf"), "--json"])
    info = json.loads(capsys.readouterr().out)["animations"][0]
    assert info["channels"][0]["pointer"] == BASE and info["channels"][0]["type"] == "float4"
    assert info["channels"][0]["target"] == "material 0 · baseColorFactor" and info["channels"][0]["node"] is None
    assert [i["channel"] for i in info["ignored"]] == [f"/animations/0/channels/{k}" for k in range(1, 8)]
    main(["inspect", str(tmp_path / "p.gltf")])
    text = capsys.readouterr().out
    assert f"pointer {BASE} (float4)" in text and "ignored /animations/0/channels/2:" in text


def test_bake_resamples_pointer_channels_and_keeps_booleans(tmp_path):
    from viewer.files.bake import bake_file

    channels = [
        dict(pointer=BASE, times=[0, 1, 2], values=[[1, 0, 0, 1], [0, 0, 1, 1], [0, 1, 0, 1]]),
        dict(pointer="/cameras/0/perspective/yfov", times=[0, 2], values=[0.5, 1.0]),
        dict(pointer="/nodes/1/weights/1", times=[0, 2], values=[0.0, 1.0]),
        visibility([1, 0]),
    ]
    scene = load(_scene_file(tmp_path, channels))
    out = bake_file(scene, tmp_path / "baked.glb", "catmull-rom", fps=10).path
    baked = load(out)
    assert baked.document.ignored_channels == {}
    assert [ch.pointer for ch in baked.clips[0].channels] == [ch.pointer for ch in scene.clips[0].channels]
    times = np.linspace(0, 2, 21)
    np.testing.assert_allclose(baked.clips[0].sample(times), scene.clips[0].sample(times, "catmull-rom"), atol=1e-6)


class _Pose:
    """Just the animated values a consumer reads (``Pose.properties``)."""

    def __init__(self, properties):
        self.properties = properties


def test_material_uniforms_take_the_animated_values_through_the_file_s_rules():
    from viewer.render.animated_material import material_uniforms
    from viewer.render.materials import Material, TextureSlot, material_factors, texture_transform

    source = {
        "emissiveFactor": [1, 0.5, 0],
        "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]},
        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 2.0}},
        "normalTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"scale": [2, 2]}}},
    }
    slot = TextureSlot(None, 0, texture_transform({"scale": [2, 2]}), (False, False))
    material = Material(**material_factors(source), slots={"normal": slot}, source=source)
    assert material_uniforms(material, 0, _Pose({})) == material.uniforms()
    fields = {
        "baseColorFactor": np.array([0.2, 0.4, 0.6, 1.0]),
        "emissiveStrength": np.array([4.0]),
        "normal.offset": np.array([0.25, 0.5]),
        "metallicFactor": np.array([0.3]),
    }
    u = dict(material_uniforms(material, 0, _Pose({("material", 0): fields})))
    np.testing.assert_allclose(u["u_base_color"], [0.2, 0.4, 0.6, 1.0])
    np.testing.assert_allclose(u["u_emissive"], [4.0, 2.0, 0.0])  # the file's factor × the animated strength
    np.testing.assert_allclose(u["u_metallic"], 0.3)
    # offset animated, the file's scale kept: column-major T(offset)·S(scale)
    np.testing.assert_allclose(u["u_normal_uv"], [2, 0, 0, 0, 2, 0, 0.25, 0.5, 1])
    assert material.source["extensions"]["KHR_materials_emissive_strength"]["emissiveStrength"] == 2.0  # untouched
    assert dict(material_uniforms(material, 1, _Pose({("material", 0): fields})))["u_metallic"] == 1.0
    # the next frame's values (a new dict, as every pose update makes) are not served from the last frame's
    later = dict(fields, metallicFactor=np.array([0.9]))
    assert dict(material_uniforms(material, 0, _Pose({("material", 0): later})))["u_metallic"] == pytest.approx(0.9)


def test_camera_and_lights_take_animated_values_and_visibility(tmp_path):
    from viewer.render.camera import gltf_camera
    from viewer.scene.placed_lights import world_lights

    scene = load(_scene_file(tmp_path, [dict(pointer=BASE, times=[0, 1], values=[[1, 1, 1, 1]] * 2)]))
    pose = Pose(scene)
    camera = gltf_camera(scene, 0)
    pose.properties = {("camera", 0): {"yfov": np.array([0.25]), "zfar": np.array([10.0])}}
    now = camera.now(pose)
    assert (now.yfov, now.zfar, now.znear) == (0.25, 10.0, 0.1)
    _, proj = camera.matrices(pose, 1.0)
    assert proj[1, 1] == pytest.approx(1.0 / math.tan(0.125))  # the spec's perspective matrix with the new yfov
    base = world_lights(scene, pose.world)
    pose.properties = {
        ("light", 0): {
            "color": np.array([1.0, 0.5, 0.0]),
            "intensity": np.array([2.0]),
            "outerConeAngle": np.array([0.05]),
            "innerConeAngle": np.array([0.3]),
        }
    }
    lit = world_lights(scene, pose.world, pose.properties, pose.visible)
    np.testing.assert_allclose(base.radiance[0], [5.0, 5.0, 5.0])
    np.testing.assert_allclose(lit.radiance[0], [2.0, 1.0, 0.0])
    assert lit.cos_inner[0] > lit.cos_outer[0] == pytest.approx(math.cos(0.05))  # inner clamped below outer
    hidden = pose.visible.copy()
    hidden[0] = False
    assert (world_lights(scene, pose.world, None, hidden).radiance[0] == 0).all()


# -- every pointer type in every mode, against the definitions --------------------------------------------------

TYPED = [  # pointer, components, rotation (slerp)
    ("/materials/0/pbrMetallicRoughness/metallicFactor", 1, False),
    ("/materials/0/emissiveFactor", 3, False),
    (BASE, 4, False),
    ("/cameras/1/orthographic/xmag", 1, False),
    ("/extensions/KHR_lights_punctual/lights/0/color", 3, False),
    ("/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle", 1, False),
    ("/nodes/1/weights", 2, False),
    ("/nodes/0/rotation", 4, True),
]


@pytest.mark.parametrize("interpolation", ["STEP", "LINEAR", "CUBICSPLINE"])
def test_every_pointer_type_in_every_mode_matches_the_definitions(tmp_path, interpolation):
    from tests.animation.test_modes import reference_value

    rng = np.random.default_rng(7)
    channels, expected = [], []
    for k, (text, width, rotation) in enumerate(TYPED):
        n = 3 + k % 4  # unequal key counts and end times
        times = np.cumsum(rng.uniform(0.2, 1.5, n)) - 0.3
        times[0] = max(times[0], 0.0)
        values = rng.uniform(0.1, 1.0, (n, width))
        if rotation:  # unit quaternions (as the spec requires), in either hemisphere
            values = values / np.linalg.norm(values, axis=1, keepdims=True) * rng.choice([-1, 1], (n, 1))
        tangents = rng.uniform(-1, 1, (2, n, width)) if interpolation == "CUBICSPLINE" else None
        out = values if tangents is None else np.stack([tangents[0], values, tangents[1]], axis=1).reshape(-1, width)
        flat = out.reshape(-1) if width == 1 or "weights" in text else out
        channels.append(dict(pointer=text, times=times, values=flat.astype(np.float32), interpolation=interpolation))
        expected.append((times.astype(np.float32), values.astype(np.float32), rotation, tangents))
    scene = load(_scene_file(tmp_path, channels))
    clip = scene.clips[0]
    assert [ch.pointer for ch in clip.channels] == [t for t, _, _ in TYPED] and not scene.document.ignored_channels
    keys = np.unique(np.concatenate([e[0] for e in expected]))
    probe = np.concatenate([[-1.0], keys, 0.5 * (keys[1:] + keys[:-1]), [keys[-1] + 2.0]])
    for mode in ("authored", "step", "linear", "cubicspline", "catmull-rom", "cubic-zero"):
        got = clip.sample(probe, mode)
        concrete = (
            {"STEP": "step", "LINEAR": "linear", "CUBICSPLINE": "cubicspline"}[interpolation]
            if mode == "authored"
            else mode
        )
        for c, (times, values, rotation, tangents) in enumerate(expected):
            for f, t in enumerate(probe):
                want = reference_value(
                    times,
                    values,
                    concrete,
                    float(t),
                    rotation,
                    None if tangents is None else tangents[0].astype(np.float32),
                    None if tangents is None else tangents[1].astype(np.float32),
                )
                value = got[f, c, : values.shape[1]]
                if rotation:  # q and -q are one rotation
                    value = value * np.sign(np.dot(value, want) or 1.0)
                np.testing.assert_allclose(value, want, atol=2e-6, err_msg=f"{TYPED[c][0]} {mode} t={t}")


def test_normalized_and_sparse_outputs_are_read_as_floats(tmp_path):
    channels = [
        dict(
            pointer=BASE,
            times=[0, 1],
            values=np.array([[255, 0, 0, 255], [0, 0, 255, 128]], np.uint8),
            component_type=5121,
            normalized=True,
        ),
        dict(
            pointer="/materials/0/pbrMetallicRoughness/metallicFactor", times=[0, 1, 2], values=np.zeros(3, np.float32)
        ),
    ]
    path = _scene_file(tmp_path, channels)
    doc = json.loads(path.read_text())
    # the metallic output becomes a sparse accessor: zeros, with key 1 set to 0.75 and key 2 to 0.25
    b = GltfBuilder()
    sparse = b.add_sparse_accessor(3, [1, 2], np.array([0.75, 0.25], np.float32), type="SCALAR")
    doc["accessors"].append(dict(b.doc["accessors"][sparse]))
    offset = len(doc["bufferViews"])
    for view in b.doc["bufferViews"]:
        view = dict(view, buffer=1)
        doc["bufferViews"].append(view)
    for part in ("indices", "values"):
        doc["accessors"][-1]["sparse"][part]["bufferView"] += offset
    doc["buffers"].append({"byteLength": len(b.bin_bytes()), "uri": "sparse.bin"})
    (tmp_path / "sparse.bin").write_bytes(b.bin_bytes())
    doc["animations"][0]["samplers"][1]["output"] = len(doc["accessors"]) - 1
    path.write_text(json.dumps(doc))
    scene = load(path)
    clip = scene.clips[0]
    assert not scene.document.ignored_channels
    np.testing.assert_allclose(clip.sample(0.5)[0, :4], [0.5, 0.0, 0.5, (1 + 128 / 255) / 2], atol=1e-6)
    np.testing.assert_allclose(clip.sample(np.array([0.0, 1.0, 1.5, 2.0]))[:, 1, 0], [0.0, 0.75, 0.5, 0.25], atol=1e-7)
