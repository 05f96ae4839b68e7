"""viewer/files/prune.py: unreferenced accessors and bufferViews leave the file; every reference still reads the same.

The reduce case is played out on the builder's files and the shared Khronos models: every animation sampler
gets new accessors (copies of the old data), so the old ones become unreferenced. The pruned file is compared,
reference by reference, with the unpruned one read back from disk.
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path

import numpy as np
import pytest

import viewer
from tests.conftest import KHRONOS_DIR, khronos_model, khronos_model_names
from tests.gltf_builder import minimal_animated
from viewer.files import writer
from viewer.files.bake import copy_document
from viewer.files.prune import prune
from viewer.gltf.document import Document, load_document

KHRONOS = [name for name in khronos_model_names() if any((KHRONOS_DIR / name).glob("*.gl*"))]


def _refs(raw: dict) -> list[tuple[str, int]]:
    """Every accessor reference of the file, labelled by where it is (written apart from prune's own walk)."""
    out = []
    for m, mesh in enumerate(raw.get("meshes", [])):
        for p, prim in enumerate(mesh["primitives"]):
            out += [(f"mesh {m}/{p} {k}", a) for k, a in prim["attributes"].items()]
            out += [(f"mesh {m}/{p} indices", prim["indices"])] if "indices" in prim else []
            for t, target in enumerate(prim.get("targets", [])):
                out += [(f"mesh {m}/{p} target {t} {k}", a) for k, a in target.items()]
    out += [
        (f"skin {s}", skin["inverseBindMatrices"])
        for s, skin in enumerate(raw.get("skins", []))
        if "inverseBindMatrices" in skin
    ]
    for a, anim in enumerate(raw.get("animations", [])):
        for s, sampler in enumerate(anim["samplers"]):
            out += [(f"animation {a}/{s} input", sampler["input"]), (f"animation {a}/{s} output", sampler["output"])]
    return out


def _load_document(path: Path) -> Document:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_document(path)


def _load(path: Path) -> viewer.Scene:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return viewer.load(path)


def _reduce(w: writer.JsonWriter, doc: Document) -> int:
    """What ``animview reduce`` does to the JSON: every sampler gets new accessors; return how many went unused."""
    old = {i for anim in w.doc.get("animations", []) for s in anim["samplers"] for i in (s["input"], s["output"])}
    for anim in w.doc.get("animations", []):
        for sampler in anim["samplers"]:
            for key in ("input", "output"):
                accessor = w.doc["accessors"][sampler[key]]
                sampler[key] = w.add_accessor(
                    doc.accessor(sampler[key]).copy(), accessor["type"], min_max=key == "input"
                )
    return len(old - {i for _, i in _refs(w.doc) if i in old})


def _save(w: writer.JsonWriter, path: Path) -> Path:
    doc = w.to_dict()
    if not w.bin:
        doc.pop("buffers", None)
    return writer.save(doc, w.bin_bytes(), path)


def _snapshot(w: writer.JsonWriter) -> tuple[dict, bytes]:
    return copy.deepcopy(w.doc), bytes(w.bin)


def assert_same_references(before: Document, after: Document) -> None:
    want, got = _refs(before.raw), _refs(after.raw)
    assert [label for label, _ in got] == [label for label, _ in want]
    for (label, i), (_, j) in zip(want, got):
        np.testing.assert_array_equal(after.accessor(j), before.accessor(i), err_msg=label)


def assert_same_scene(before: viewer.Scene, after: viewer.Scene) -> None:
    assert len(after.meshes) == len(before.meshes) and len(after.skins) == len(before.skins)
    for mesh, source in zip(after.meshes, before.meshes):
        np.testing.assert_array_equal(mesh.weights, source.weights)
        for prim, src in zip(mesh.primitives, source.primitives, strict=True):
            assert prim.attributes.keys() == src.attributes.keys()
            for key in src.attributes:
                np.testing.assert_array_equal(prim.attributes[key], src.attributes[key])
            assert (prim.indices is None) == (src.indices is None)
            if src.indices is not None:
                np.testing.assert_array_equal(prim.indices, src.indices)
            for target, src_target in zip(prim.targets, src.targets, strict=True):
                for key in src_target:
                    np.testing.assert_array_equal(target[key], src_target[key])
    for skin, source in zip(after.skins, before.skins):
        np.testing.assert_array_equal(skin.joints, source.joints)
        np.testing.assert_array_equal(skin.inverse_bind, source.inverse_bind)
    for clip, source in zip(after.clips, before.clips, strict=True):
        times = np.linspace(0.0, source.duration, 7)
        np.testing.assert_array_equal(clip.sample(times), source.sample(times))


def check_reduce_then_prune(source: Path, tmp_path: Path, also_unused: int = 0) -> writer.JsonWriter:
    """Reduce, prune and compare; ``also_unused``: accessors the source itself leaves unreferenced."""
    doc = _load_document(source)
    w = copy_document(doc)
    unused = _reduce(w, doc) + also_unused
    unpruned = _save(w, tmp_path / "unpruned.glb")
    accessors = len(w.doc["accessors"])
    assert prune(w) is None
    pruned = _save(w, tmp_path / "pruned.glb")
    assert len(w.doc["accessors"]) == accessors - unused
    assert unused == 0 or pruned.stat().st_size < unpruned.stat().st_size
    before, after = _load_document(unpruned), _load_document(pruned)
    assert_same_references(before, after)
    assert [after.image_bytes(i) for i in range(len(after.raw.get("images", [])))] == [
        before.image_bytes(i) for i in range(len(before.raw.get("images", [])))
    ]
    assert_same_scene(_load(unpruned), _load(pruned))
    assert prune(w) is None and len(w.doc["accessors"]) == accessors - unused  # nothing left to drop
    return w


def test_reduce_then_prune_builder_file(tmp_path: Path) -> None:
    b = minimal_animated()
    source = b.write_glb(tmp_path / "source.glb")
    w = check_reduce_then_prune(source, tmp_path)
    assert len(w.doc["bufferViews"]) == len(w.doc["accessors"])  # one view per accessor; the old ones went too
    assert all(view["byteOffset"] % 4 == 0 for view in w.doc["bufferViews"])


@pytest.mark.parametrize("name", KHRONOS)
def test_reduce_then_prune_khronos(name: str, tmp_path: Path) -> None:
    check_reduce_then_prune(khronos_model(name), tmp_path)


def test_sparse_accessors_and_images_kept(tmp_path: Path) -> None:
    b = minimal_animated()
    sparse = b.add_sparse_accessor(3, [1], np.float32([[0, 0, 2]]), base=np.ones((3, 3), np.float32))
    zero_based = b.add_sparse_accessor(3, [0, 2], np.float32([[1, 0, 0], [0, 1, 0]]))
    mesh = b.add_mesh(np.eye(3, dtype=np.float32), [0, 1, 2], weights=[0.0, 0.0])
    b.doc["meshes"][mesh]["primitives"][0]["targets"] = [{"POSITION": sparse}, {"POSITION": zero_based}]
    b.doc["scenes"][0]["nodes"].append(b.add_node(mesh=mesh))
    b.add_sparse_accessor(
        3, [2], np.float32([[5, 5, 5]]), base=np.zeros((3, 3), np.float32)
    )  # unreferenced: 3 views go
    b.add_buffer_view(b"unused bytes")  # a view nothing references
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
    image = b.add_image(png)
    b.doc["textures"] = [{"source": image}]
    source = b.write_glb(tmp_path / "source.glb")
    views = len(b.doc["bufferViews"])
    w = check_reduce_then_prune(source, tmp_path, also_unused=1)
    # 8 old sampler accessors (input and output per sampler) and the unreferenced sparse accessor's 3 + 1 views
    assert len(w.doc["bufferViews"]) == views - 8 + 8 - 4
    after = _load_document(tmp_path / "pruned.glb")
    targets = after.raw["meshes"][mesh]["primitives"][0]["targets"]
    np.testing.assert_array_equal(after.accessor(targets[0]["POSITION"]), [[1, 1, 1], [0, 0, 2], [1, 1, 1]])
    np.testing.assert_array_equal(after.accessor(targets[1]["POSITION"]), [[1, 0, 0], [0, 0, 0], [0, 1, 0]])
    assert all("sparse" in after.raw["accessors"][t["POSITION"]] for t in targets)
    assert after.image_bytes(0) == png


def test_draco_and_instancing_references_renumbered() -> None:
    w = writer.JsonWriter()
    dead = w.add_accessor(np.zeros((2, 3), np.float32))
    position = w.add_accessor(np.ones((3, 3), np.float32), min_max=True)
    translation = w.add_accessor(np.full((2, 3), 2.0, np.float32))
    draco_view = w.add_buffer_view(b"draco bytes!")
    w.doc["accessors"].append({"componentType": 5126, "count": 3, "type": "VEC3"})  # decoded by draco: no view
    w.doc["extensionsUsed"] = ["KHR_draco_mesh_compression", "EXT_mesh_gpu_instancing", "KHR_materials_unlit"]
    draco = {"bufferView": draco_view, "attributes": {"POSITION": 0}}
    prim = {"attributes": {"POSITION": 3}, "extensions": {"KHR_draco_mesh_compression": draco}}
    w.doc["meshes"] = [{"primitives": [prim]}, {"primitives": [{"attributes": {"POSITION": position}}]}]
    instancing = {"attributes": {"TRANSLATION": translation}}
    w.doc["nodes"] = [{"mesh": 1, "extensions": {"EXT_mesh_gpu_instancing": instancing}}]
    w.doc["materials"] = [{"extensions": {"KHR_materials_unlit": {}}}]
    w.doc["buffers"] = [{"byteLength": len(w.bin_bytes())}]
    assert dead == 0 and prune(w) is None
    assert len(w.doc["accessors"]) == 3 and len(w.doc["bufferViews"]) == 3
    assert (prim["attributes"]["POSITION"], draco["attributes"]["POSITION"], draco["bufferView"]) == (2, 0, 2)
    assert w.doc["meshes"][1]["primitives"][0]["attributes"]["POSITION"] == 0 and instancing["attributes"] == {
        "TRANSLATION": 1
    }
    view = w.doc["bufferViews"][2]
    assert bytes(w.bin[view["byteOffset"] : view["byteOffset"] + view["byteLength"]]) == b"draco bytes!"
    assert w.doc["buffers"][0]["byteLength"] == len(w.bin_bytes()) == 36 + 24 + 12


def test_nothing_unreferenced_leaves_it_unchanged() -> None:
    b = minimal_animated()
    before = _snapshot(b)
    assert prune(b) is None
    assert _snapshot(b) == before


def test_everything_unreferenced_leaves_no_arrays() -> None:
    w = writer.JsonWriter()
    w.add_accessor(np.zeros(4, np.float32))
    w.doc["buffers"] = [{"byteLength": 16}]
    assert prune(w) is None
    assert set(w.doc) == {"asset"} and not w.bin


def _unknown_extension(w: writer.JsonWriter) -> None:
    w.doc["extensionsUsed"] = ["EXT_structural_metadata"]


def _undeclared_extension(w: writer.JsonWriter) -> None:
    w.doc["nodes"][0]["extensions"] = {"EXT_holds_an_accessor": {"accessor": 5}}


def _meshopt(w: writer.JsonWriter) -> None:
    w.doc["bufferViews"][0]["extensions"] = {"EXT_meshopt_compression": {"buffer": 1}}


def _other_buffer(w: writer.JsonWriter) -> None:
    w.doc["bufferViews"][0]["buffer"] = 1


def _outside_bin(w: writer.JsonWriter) -> None:
    w.doc["bufferViews"][-1]["byteLength"] += 4


def _pointer_to_accessor(w: writer.JsonWriter) -> None:
    w.doc["extensionsUsed"] = ["KHR_animation_pointer"]
    target = {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/accessors/0/min"}}}
    w.doc["animations"][0]["channels"][0]["target"] = target


def _bad_reference(w: writer.JsonWriter) -> None:
    w.doc["skins"][0]["inverseBindMatrices"] = 999


@pytest.mark.parametrize(
    "spoil, words",
    [
        (_unknown_extension, "EXT_structural_metadata"),
        (_undeclared_extension, "EXT_holds_an_accessor"),
        (_meshopt, "EXT_meshopt_compression"),
        (_other_buffer, "bufferView 0"),
        (_outside_bin, "past the writer's buffer"),
        (_pointer_to_accessor, "/accessors/0/min"),
        (_bad_reference, "999"),
    ],
)
def test_refuses_and_changes_nothing(spoil, words: str) -> None:
    b = minimal_animated()
    b.add_accessor(np.zeros(4, np.float32))  # unreferenced: would go, were pruning safe
    spoil(b)
    before = _snapshot(b)
    reason = prune(b)
    assert reason is not None and words in reason and "\n" not in reason
    assert _snapshot(b) == before
