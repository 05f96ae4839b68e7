"""KHR_draco_mesh_compression: Draco primitives load as the data they compress (``viewer/gltf/draco.py``).

Files are built here with DracoPy's encoder from known arrays (``minimal_animated``'s meshes, a small grid
with normals, texcoords, colours, joints and weights); the loaded arrays must equal the originals within
Draco's quantization step, and everything after loading (skins, morph targets, sampling, pictures) must
behave as with the uncompressed file. Tests that need DracoPy skip without it, except the ones about its
absence, which hide it.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT, khronos_model_names
from tests.gltf_builder import GltfBuilder, minimal_animated, overwrite_accessor, write_glb, write_gltf
from tests.render.conftest import LEVEL_TOLERANCE, MAX_FRACTION_OFF, front_ortho_camera, pixels_off, render_plain
from viewer.base.errors import GltfError, GltfWarning
from viewer.files.sampling import sample_animations
from viewer.gltf import load_document
from viewer.gltf.draco import EXTENSION, INSTALL
from viewer.pose.pose import Pose
from viewer.scene.scene import load

HERE = "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression"
TRIANGLE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
JOINTS = np.array([[0, 1, 0, 0]] * 3, np.uint8)
WEIGHTS = np.array([[0.5, 0.5, 0, 0]] * 3, np.float32)
BITS = 11  # DracoPy's default position quantization


@pytest.fixture
def dracopy():
    return pytest.importorskip("DracoPy")


def step(values: np.ndarray, bits: int) -> float:
    """Draco's quantization step for ``values`` in ``bits`` bits (the largest extent split in 2^bits - 1)."""
    return float(np.ptp(values, axis=0).max()) / (2**bits - 1)


# -- building Draco files ----------------------------------------------------------------------------


def add_draco_primitive(
    b: GltfBuilder,
    dracopy,
    positions,
    indices=None,
    *,
    normals=None,
    texcoords=None,
    generic=(),
    bits: int = BITS,
    fallback: bool = False,
) -> dict:
    """A primitive whose attributes and indices are Draco data in ``b``; returned, not yet in a mesh.

    Args:
        normals, texcoords: float arrays, Draco NORMAL (10 bits) and TEX_COORD (12 bits) attributes.
        generic: ``(semantic, stored values, componentType, normalized)`` kept as lossless generic attributes.
        fallback: the accessors also get bufferViews with the uncompressed values (else they have none).
    """
    positions = np.asarray(positions, np.float32)
    faces = np.arange(len(positions)) if indices is None else np.asarray(indices)
    data = dracopy.encode(
        positions,
        faces.reshape(-1, 3),
        quantization_bits=bits,
        preserve_order=True,
        normals=None if normals is None else np.asarray(normals, np.float64),
        tex_coord=None if texcoords is None else np.asarray(texcoords, np.float64),
        normal_quantization_bits=10,
        tex_coord_quantization_bits=12,
        generic_attributes={k: np.asarray(g[1]) for k, g in enumerate(generic)} or None,
    )
    decoded = dracopy.decode(data)
    kinds = {0: "POSITION", 1: "NORMAL", 3: "TEXCOORD_0"}  # DracoPy.AttributeType
    ids = {kinds[a["attribute_type"]]: a["unique_id"] for a in decoded.attributes if a["attribute_type"] in kinds}
    ids.update({g[0]: k for k, g in enumerate(generic)})

    def accessor(values, component_type: int, normalized: bool = False, bounds: bool = False) -> int:
        values = np.asarray(values)
        if fallback:
            return b.add_accessor(values, None, component_type, normalized=normalized, min_max=bounds)
        kind = "SCALAR" if values.ndim == 1 else f"VEC{values.shape[1]}"
        acc = {"componentType": component_type, "count": len(values), "type": kind}
        if normalized:
            acc["normalized"] = True
        if bounds:
            acc["min"], acc["max"] = decoded.points.min(0).tolist(), decoded.points.max(0).tolist()
        return b.add("accessors", acc)

    attributes = {"POSITION": accessor(positions, 5126, bounds=True)}
    if normals is not None:
        attributes["NORMAL"] = accessor(np.asarray(normals, np.float32), 5126)
    if texcoords is not None:
        attributes["TEXCOORD_0"] = accessor(np.asarray(texcoords, np.float32), 5126)
    for semantic, values, component_type, normalized in generic:
        attributes[semantic] = accessor(values, component_type, normalized)
    prim = {
        "attributes": attributes,
        "extensions": {EXTENSION: {"bufferView": b.add_buffer_view(data), "attributes": ids}},
    }
    if indices is not None:
        prim["indices"] = accessor(np.asarray(indices, np.uint16), 5123)
    return prim


def use_extension(b: GltfBuilder, required: bool = True) -> None:
    b.doc["extensionsUsed"] = [EXTENSION]
    if required:
        b.doc["extensionsRequired"] = [EXTENSION]


def minimal_draco(dracopy, bits: int = BITS) -> GltfBuilder:
    """``minimal_animated()`` with both meshes Draco-compressed: the morphed triangle (its targets stay plain
    accessors) and the skinned one (JOINTS_0 uint8 and WEIGHTS_0 float as generic attributes)."""
    b = minimal_animated()
    morphed = add_draco_primitive(b, dracopy, TRIANGLE, [0, 1, 2], bits=bits)
    morphed["targets"] = b.doc["meshes"][0]["primitives"][0]["targets"]
    b.doc["meshes"][0]["primitives"][0] = morphed
    b.doc["meshes"][1]["primitives"][0] = add_draco_primitive(
        b,
        dracopy,
        TRIANGLE,
        [0, 1, 2],
        bits=bits,
        generic=[("JOINTS_0", JOINTS, 5121, False), ("WEIGHTS_0", WEIGHTS, 5126, False)],
    )
    use_extension(b)
    return b


def grid(n: int = 6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An n×n vertex grid over [-0.9, 0.9]² (z on a bump): positions, uint16 triangle indices, texcoords."""
    u, v = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n))
    uv = np.stack([u.ravel(), v.ravel()], axis=1)
    z = 0.3 * np.sin(np.pi * uv[:, 0]) * np.sin(np.pi * uv[:, 1])
    positions = np.c_[uv * 1.8 - 0.9, z].astype(np.float32)
    quads = (np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]).ravel()
    indices = np.stack([quads, quads + 1, quads + n, quads + 1, quads + n + 1, quads + n], axis=1).ravel()
    return positions, indices.astype(np.uint16), uv.astype(np.float32)


def grid_normals(positions: np.ndarray, indices: np.ndarray) -> np.ndarray:
    tri = positions[indices.reshape(-1, 3)]
    face = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    normals = np.zeros_like(positions)
    np.add.at(normals, indices.reshape(-1, 3), face[:, None, :])
    return (normals / np.linalg.norm(normals, axis=1, keepdims=True)).astype(np.float32)


def grid_draco(dracopy, fallback: bool = False) -> tuple[GltfBuilder, dict]:
    """One grid primitive with every kind of attribute; returns the builder and the arrays it encodes."""
    positions, indices, uv = grid()
    n = len(positions)
    rng = np.random.default_rng(7)
    arrays = dict(
        POSITION=positions,
        indices=indices,
        NORMAL=grid_normals(positions, indices),
        TEXCOORD_0=uv,
        TEXCOORD_1=(uv * 65535).round().astype(np.uint16),
        COLOR_0=rng.integers(0, 256, (n, 4)).astype(np.uint8),
        JOINTS_0=rng.integers(0, 3, (n, 4)).astype(np.uint16),
        WEIGHTS_0=np.tile(np.array([[128, 127, 0, 0]], np.uint8), (n, 1)),
    )
    b = GltfBuilder()
    prim = add_draco_primitive(
        b,
        dracopy,
        positions,
        indices,
        normals=arrays["NORMAL"],
        texcoords=uv,
        fallback=fallback,
        generic=[
            ("TEXCOORD_1", arrays["TEXCOORD_1"], 5123, True),
            ("COLOR_0", arrays["COLOR_0"], 5121, True),
            ("JOINTS_0", arrays["JOINTS_0"], 5123, False),
            ("WEIGHTS_0", arrays["WEIGHTS_0"], 5121, True),
        ],
    )
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_node(name="joint0")
    b.add_node(name="joint1")
    b.add_node(name="joint2")
    b.add_skin([1, 2, 3])
    b.doc["nodes"][0]["skin"] = 0
    b.add_scene([0, 1, 2, 3])
    use_extension(b, required=not fallback)
    return b, arrays


def load_error(path) -> GltfError:
    with pytest.raises(GltfError) as info:
        load(path)
    return info.value


# -- decoded values ----------------------------------------------------------------------------------


def test_minimal_animated_compressed_matches_the_original(tmp_path, dracopy):
    plain = load(minimal_animated().write_gltf(tmp_path, "plain.gltf"))
    draco = load(minimal_draco(dracopy).write_gltf(tmp_path, "draco.gltf"))
    atol = step(TRIANGLE, BITS)
    for mp, md in zip(plain.meshes, draco.meshes):
        (pp,), (pd,) = mp.primitives, md.primitives
        assert set(pd.attributes) == set(pp.attributes)
        np.testing.assert_allclose(pd.attributes["POSITION"], pp.attributes["POSITION"], atol=atol)
        assert pd.indices.dtype == pp.indices.dtype and np.array_equal(pd.indices, pp.indices)
        assert len(pd.targets) == len(pp.targets)
        for tp, td in zip(pp.targets, pd.targets):
            assert np.array_equal(tp["POSITION"], td["POSITION"])
    skinned_p, skinned_d = plain.meshes[1].primitives[0], draco.meshes[1].primitives[0]
    assert skinned_d.attributes["JOINTS_0"].dtype == np.uint8
    assert np.array_equal(skinned_d.attributes["JOINTS_0"], skinned_p.attributes["JOINTS_0"])
    assert np.array_equal(skinned_d.attributes["WEIGHTS_0"], skinned_p.attributes["WEIGHTS_0"])
    assert sample_animations(draco) == sample_animations(plain)
    for t in (0.0, 0.5, 1.3):  # skinning and morphing see the decoded arrays
        poses = [Pose(s) for s in (plain, draco)]
        for pose, scene in zip(poses, (plain, draco)):
            pose.set_time(scene.clips[0], t)
        for node, mesh in ((1, 0), (4, 1)):
            cpu = [
                pose.primitive_positions(node, s.meshes[mesh].primitives[0]) for pose, s in zip(poses, (plain, draco))
            ]
            np.testing.assert_allclose(cpu[1], cpu[0], atol=4 * atol)


def test_accessors_without_a_buffer_view_hold_the_decoded_data(tmp_path, dracopy):
    path = minimal_draco(dracopy).write_gltf(tmp_path, "draco.gltf")
    raw = json.loads(path.read_text())
    prim = raw["meshes"][1]["primitives"][0]
    assert all("bufferView" not in raw["accessors"][a] for a in [*prim["attributes"].values(), prim["indices"]])
    doc = load_document(path)
    assert np.array_equal(doc.accessor(prim["attributes"]["JOINTS_0"]), JOINTS)
    assert not doc.accessor(prim["attributes"]["POSITION"]).flags.writeable


def test_normals_texcoords_colours_and_integer_formats(tmp_path, dracopy):
    b, arrays = grid_draco(dracopy)
    prim = load(b.write_glb(tmp_path / "grid.glb")).meshes[0].primitives[0]
    a = prim.attributes
    np.testing.assert_allclose(a["POSITION"], arrays["POSITION"], atol=step(arrays["POSITION"], BITS))
    assert np.array_equal(prim.indices, arrays["indices"])
    assert np.degrees(np.arccos(np.clip((a["NORMAL"] * arrays["NORMAL"]).sum(1), -1, 1))).max() < 1.0
    np.testing.assert_allclose(a["TEXCOORD_0"], arrays["TEXCOORD_0"], atol=step(arrays["TEXCOORD_0"], 12))
    # integers keep the accessor's componentType; normalized ones are dequantized like plain accessors
    assert a["JOINTS_0"].dtype == np.uint16 and np.array_equal(a["JOINTS_0"], arrays["JOINTS_0"])
    for name, scale in (("TEXCOORD_1", 65535), ("COLOR_0", 255), ("WEIGHTS_0", 255)):
        assert a[name].dtype == np.float32
        np.testing.assert_array_equal(a[name], (arrays[name] / np.float32(scale)).astype(np.float32))


def test_draco_data_wins_over_the_fallback(tmp_path, dracopy):
    """With DracoPy, a loader must decode the Draco data even where uncompressed fallback data is given."""
    b, arrays = grid_draco(dracopy, fallback=True)
    position = b.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
    bin_data = bytearray(b.bin_bytes())
    overwrite_accessor(b.doc, bin_data, position, arrays["POSITION"] * 2)  # the fallback now differs
    path = write_gltf(b.to_dict(), bytes(bin_data), tmp_path, "fallback.gltf")
    with warnings.catch_warnings():
        warnings.simplefilter("error", GltfWarning)
        got = load(path).meshes[0].primitives[0].attributes["POSITION"]
    np.testing.assert_allclose(got, arrays["POSITION"], atol=step(arrays["POSITION"], BITS))


def test_unindexed_primitive_and_attributes_left_uncompressed(tmp_path, dracopy):
    """No indices accessor (the Draco triangles must take the vertices in order); an attribute the extension
    does not name is read from its accessor as usual."""
    b = GltfBuilder()
    prim = add_draco_primitive(b, dracopy, TRIANGLE)
    prim["attributes"]["_EXTRA"] = b.add_accessor(np.array([1.0, 2.0, 3.0], np.float32))
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    use_extension(b)
    p = load(b.write_gltf(tmp_path, "plain_list.gltf")).meshes[0].primitives[0]
    assert p.indices is None
    np.testing.assert_allclose(p.attributes["POSITION"], TRIANGLE, atol=step(TRIANGLE, BITS))
    assert p.attributes["_EXTRA"].tolist() == [1.0, 2.0, 3.0]


def test_unknown_compressed_attribute_is_ignored_with_a_warning(tmp_path, dracopy):
    """Khronos's own Box (glTF-Draco) names a TEXCOORD_0 its primitive does not have."""
    b = GltfBuilder()
    prim = add_draco_primitive(b, dracopy, TRIANGLE, [0, 1, 2])
    prim["extensions"][EXTENSION]["attributes"]["TEXCOORD_0"] = 7
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    use_extension(b)
    with pytest.warns(GltfWarning, match="TEXCOORD_0"):
        scene = load(b.write_gltf(tmp_path, "extra.gltf"))
    assert set(scene.meshes[0].primitives[0].attributes) == {"POSITION"}


# -- mismatches and bad data -------------------------------------------------------------------------


def single(dracopy, **options) -> tuple[GltfBuilder, dict]:
    b = GltfBuilder()
    prim = add_draco_primitive(b, dracopy, TRIANGLE, [0, 1, 2], **options)
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    use_extension(b)
    return b, prim


def test_vertex_count_mismatch_names_the_attribute(tmp_path, dracopy):
    b, prim = single(dracopy)
    b.doc["accessors"][prim["attributes"]["POSITION"]]["count"] = 4
    err = load_error(b.write_gltf(tmp_path, "count.gltf"))
    assert err.pointer == f"{HERE}/attributes/POSITION"
    assert "3 elements" in err.message and "count 4" in err.message


def test_index_count_mismatch(tmp_path, dracopy):
    b, prim = single(dracopy)
    b.doc["accessors"][prim["indices"]]["count"] = 6
    err = load_error(b.write_gltf(tmp_path, "indices.gltf"))
    assert err.pointer == HERE and "3 indices" in err.message and "count 6" in err.message


def test_component_count_mismatch(tmp_path, dracopy):
    b, prim = single(dracopy, generic=[("_VALUE", np.ones((3, 2), np.float32), 5126, False)])
    b.doc["accessors"][prim["attributes"]["_VALUE"]]["type"] = "VEC3"
    err = load_error(b.write_gltf(tmp_path, "width.gltf"))
    assert err.pointer == f"{HERE}/attributes/_VALUE" and "2 components" in err.message


def test_integer_values_must_fit_the_component_type(tmp_path, dracopy):
    joints = np.array([[0, 300, 0, 0]] * 3, np.uint16)
    b, prim = single(dracopy, generic=[("JOINTS_0", joints, 5121, False)])
    err = load_error(b.write_gltf(tmp_path, "range.gltf"))
    assert err.pointer == f"{HERE}/attributes/JOINTS_0" and "300" in err.message


def test_float_data_for_an_integer_accessor(tmp_path, dracopy):
    b, prim = single(dracopy, generic=[("JOINTS_0", JOINTS.astype(np.float32), 5121, False)])
    err = load_error(b.write_gltf(tmp_path, "float.gltf"))
    assert err.pointer == f"{HERE}/attributes/JOINTS_0" and "float32" in err.message


def test_decoded_joints_are_validated_like_plain_ones(tmp_path, dracopy):
    """JOINTS_0 decoded from Draco data is checked against the skin's joint count (validate_scene)."""
    b = minimal_animated()
    bad = np.array([[0, 5, 0, 0]] * 3, np.uint8)
    b.doc["meshes"][1]["primitives"][0] = add_draco_primitive(
        b, dracopy, TRIANGLE, [0, 1, 2], generic=[("JOINTS_0", bad, 5121, False), ("WEIGHTS_0", WEIGHTS, 5126, False)]
    )
    use_extension(b)
    err = load_error(b.write_gltf(tmp_path, "joints.gltf"))
    assert err.pointer == "/meshes/1/primitives/0/attributes/JOINTS_0" and "joint index 5" in err.message


@pytest.mark.parametrize(
    "edit,where,words",
    [
        (lambda ext, prim: ext.update(bufferView=99), "/bufferView", "out of range"),
        (lambda ext, prim: ext.pop("attributes"), "/attributes", "missing"),
        (lambda ext, prim: ext["attributes"].update(POSITION=-1), "/attributes/POSITION", "integer"),
        (lambda ext, prim: ext["attributes"].update(POSITION=42), "/attributes/POSITION", "no attribute with id 42"),
        (lambda ext, prim: prim.update(mode=1), "mode", "TRIANGLES"),
    ],
)
def test_malformed_extension(tmp_path, dracopy, edit, where, words):
    b, prim = single(dracopy)
    edit(b.doc["meshes"][0]["primitives"][0]["extensions"][EXTENSION], b.doc["meshes"][0]["primitives"][0])
    err = load_error(b.write_gltf(tmp_path, "bad.gltf"))
    expected = "/meshes/0/primitives/0/mode" if where == "mode" else HERE + where
    assert err.pointer == expected and words in err.message


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda data: data[: len(data) // 2],
        lambda data: b"\0" * len(data),
        lambda data: b"DRACO" + bytes(range(256)) * 2,
        lambda data: data[:8] + bytes(255 - c for c in data[8:]),
    ],
    ids=["truncated", "zeros", "header-then-junk", "inverted-body"],
)
def test_corrupt_draco_data_is_a_gltf_error(tmp_path, dracopy, corrupt):
    b, prim = single(dracopy)
    view = b.doc["bufferViews"][prim["extensions"][EXTENSION]["bufferView"]]
    data = b.bin_bytes()[view["byteOffset"] : view["byteOffset"] + view["byteLength"]]
    new = b.add_buffer_view(corrupt(data))
    b.doc["meshes"][0]["primitives"][0]["extensions"][EXTENSION]["bufferView"] = new
    err = load_error(b.write_gltf(tmp_path, "corrupt.gltf"))
    assert err.pointer.startswith(HERE)


def test_random_corruptions_never_crash(tmp_path, dracopy):
    """Byte flips, overwrites and truncations of real Draco data: a GltfError or a file that loads, in a
    child process, so a crash in the decoder would show as a failure instead of ending the test run."""
    b, _ = grid_draco(dracopy)
    path = b.write_glb(tmp_path / "grid.glb")
    script = f"""
import numpy as np, pathlib, sys
from viewer.base.errors import GltfError
from viewer.scene.scene import load
from viewer.files.writer import glb_bytes
import json
from viewer.gltf.glb import split_glb
src = pathlib.Path({str(path)!r})
json_bytes, bin_data = split_glb(src, src.read_bytes())
doc = json.loads(json_bytes)
view = doc["bufferViews"][doc["meshes"][0]["primitives"][0]["extensions"]["{EXTENSION}"]["bufferView"]]
start, end = view.get("byteOffset", 0), view.get("byteOffset", 0) + view["byteLength"]
rng = np.random.default_rng(1)
out = pathlib.Path({str(tmp_path / "fuzz.glb")!r})
counts = {{"loaded": 0, "error": 0}}
for k in range(300):
    data = bytearray(bin_data)
    kind = k % 3
    if kind == 0:
        for _ in range(1 + k % 4):
            data[start + int(rng.integers(end - start))] = int(rng.integers(256))
    elif kind == 1:
        i = start + int(rng.integers(end - start))
        data[i] ^= 1 << int(rng.integers(8))
    else:
        cut = int(rng.integers(end - start))
        data[start + cut:end] = bytes(end - start - cut)
    out.write_bytes(glb_bytes(doc, bytes(data)))
    try:
        load(out)
        counts["loaded"] += 1
    except GltfError as exc:
        assert "\\n" not in str(exc)
        counts["error"] += 1
print(json.dumps(counts))
"""
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    counts = json.loads(proc.stdout.strip().splitlines()[-1])
    assert counts["error"] > 0 and sum(counts.values()) == 300


# -- without DracoPy ---------------------------------------------------------------------------------


def junk_draco_file(tmp_path, required: bool = True):
    """A triangle whose Draco bufferView holds junk (never decoded here); with uncompressed fallback
    accessors when not ``required``."""
    b = GltfBuilder()
    if required:
        attributes = {
            "POSITION": b.add(
                "accessors", {"componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}
            )
        }
    else:
        attributes = {"POSITION": b.add_accessor(TRIANGLE, min_max=True)}
    prim = {
        "attributes": attributes,
        "extensions": {EXTENSION: {"bufferView": b.add_buffer_view(b"not draco"), "attributes": {"POSITION": 0}}},
    }
    b.add_node(mesh=b.add("meshes", {"primitives": [prim]}))
    b.add_scene([0])
    use_extension(b, required)
    return b.write_gltf(tmp_path, "junk.gltf")


@pytest.fixture
def no_dracopy(monkeypatch):
    monkeypatch.setitem(sys.modules, "DracoPy", None)  # ``import DracoPy`` now raises ImportError


def test_missing_dracopy_names_the_install_command(tmp_path, no_dracopy):
    err = load_error(junk_draco_file(tmp_path))
    assert err.pointer == HERE
    assert EXTENSION in err.message and INSTALL == "pip install 'animview[compressed]'" and INSTALL in err.message


def test_missing_dracopy_at_the_cli_is_one_line_and_exit_2(tmp_path, no_dracopy, capsys):
    from viewer.cli import main

    code = main(["inspect", str(junk_draco_file(tmp_path))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert EXTENSION in err and "pip install 'animview[compressed]'" in err


def test_missing_dracopy_uses_the_fallback_when_allowed(tmp_path, no_dracopy):
    with pytest.warns(GltfWarning, match="DracoPy is not installed"):
        scene = load(junk_draco_file(tmp_path, required=False))
    assert np.array_equal(scene.meshes[0].primitives[0].attributes["POSITION"], TRIANGLE)


def test_dracopy_is_imported_only_for_draco_files(tmp_path):
    path = minimal_animated().write_gltf(tmp_path, "plain.gltf")
    code = f"import sys; from viewer.scene.scene import load; load({str(path)!r}); print('DracoPy' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


# -- pictures ----------------------------------------------------------------------------------------


def assert_same_picture(a: np.ndarray, b: np.ndarray) -> None:
    assert (a.max(axis=-1) > 0).mean() > 0.01, "nothing drawn: the comparison would prove nothing"
    fraction = float(pixels_off(a, b).mean())
    assert fraction < MAX_FRACTION_OFF, f"{fraction:.2%} of pixels off by more than {LEVEL_TOLERANCE}/255"


def test_compressed_renders_like_uncompressed(gl, tmp_path, dracopy):
    plain = load(minimal_animated().write_gltf(tmp_path, "plain.gltf"))
    draco = load(minimal_draco(dracopy).write_gltf(tmp_path, "draco.gltf"))
    camera = front_ortho_camera(2.5)
    for t in (0.0, 0.6, 1.4):
        pictures = [render_plain(gl, s, camera, size=(640, 480), clip=s.clips[0], t=t) for s in (plain, draco)]
        assert_same_picture(*pictures)
    b, _ = grid_draco(dracopy, fallback=True)
    fallback = b.write_glb(tmp_path / "grid.glb")
    raw = b.to_dict()
    del raw["meshes"][0]["primitives"][0]["extensions"]
    del raw["extensionsUsed"]
    plain_grid = write_glb(raw, b.bin_bytes(), tmp_path / "grid_plain.glb")
    pictures = [render_plain(gl, load(p), front_ortho_camera(1.0), size=(640, 480)) for p in (plain_grid, fallback)]
    assert_same_picture(*pictures)


# -- the shared Khronos models, compressed by tools/compress_models.py --------------------------------


def compress_tool():
    spec = importlib.util.spec_from_file_location("compress_models", REPO_ROOT / "tools" / "compress_models.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compressed_khronos(name: str, tmp_path):
    """(tool, original, compressed copy) of a shared Khronos model; skips when the models are absent."""
    if not KHRONOS_DIR.is_dir():
        pytest.skip(f"Khronos sample models not found at {KHRONOS_DIR}")
    tool = compress_tool()
    src = tool.model_file(KHRONOS_DIR / name)
    out, counts = tool.compress_file(src, tmp_path)
    assert counts["primitives"] > 0
    return tool, src, out


MODELS = khronos_model_names() or ["(no models)"]


@pytest.mark.parametrize("name", MODELS)
def test_khronos_models_compressed_load_and_sample_the_same(tmp_path, dracopy, name):
    tool, src, out = compressed_khronos(name, tmp_path)
    result = tool.check(src, out, pictures=False)
    assert result["same_samples"]
    assert result["position_error"] < 1e-4  # 14 bits: half a step is 3e-5 of the model's size


@pytest.mark.parametrize("name", MODELS)
def test_khronos_models_compressed_render_the_same(gl, tmp_path, dracopy, name):
    tool, src, out = compressed_khronos(name, tmp_path)
    fraction, frames = tool.pixels_off(load(src), load(out), gl.ctx, gl.programs)
    assert frames >= 3 and fraction < MAX_FRACTION_OFF
