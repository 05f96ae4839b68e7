"""KHR_materials_variants read from the JSON: each variant's material per primitive (a primitive without a mapping
for it keeps its own), the counts ``inspect`` lists, and a variant named by a user (name, else index)."""

from __future__ import annotations

import pytest

from tests.conftest import ext_model
from tests.gltf_builder import GltfBuilder
from viewer.base.errors import UsageError
from viewer.scene.scene import load
from viewer.scene.variants import Variants, read_variants

EXT = "KHR_materials_variants"


def mapped(*pairs) -> dict:
    """A primitive's extension object from (material, [variants]) pairs."""
    return {"extensions": {EXT: {"mappings": [{"material": m, "variants": list(v)} for m, v in pairs]}}}


RAW = {
    "extensions": {EXT: {"variants": [{"name": "red"}, {"name": "blue"}, {"name": "2"}]}},
    "meshes": [
        {
            "primitives": [
                {"material": 0, **mapped((1, [0]), (2, [1, 2]))},
                {"material": 3},  # no mappings: its own in every variant
            ]
        },
        {"primitives": [{**mapped((4, [1]))}]},  # no own material: the default material but in variant 1
    ],
}


def test_each_variant_gives_each_primitive_its_mapped_material_else_its_own():
    v = read_variants(RAW)
    assert v.names == ("red", "blue", "2") and len(v) == 3
    assert v.materials(None) == [[0, 3], [None]]
    assert v.materials(0) == [[1, 3], [None]]
    assert v.materials(1) == [[2, 3], [4]]
    assert v.materials(2) == [[2, 3], [None]]
    assert v.materials(9) == [[0, 3], [None]]  # a variant the file lacks (B in the compare view): the own ones
    assert v.choices(0, 0) == (0, 1, 2) and v.choices(0, 1) == (3,) and v.choices(1, 0) == (None, 4)


def test_counts_say_how_many_primitives_a_variant_maps_and_changes():
    v = read_variants(RAW)
    assert [v.mapping_count(k) for k in range(3)] == [1, 2, 1]
    assert [v.changed_count(k) for k in range(3)] == [1, 2, 1]
    same = read_variants({**RAW, "meshes": [{"primitives": [{"material": 5, **mapped((5, [0]))}]}]})
    assert same.mapping_count(0) == 1 and same.changed_count(0) == 0  # mapped to its own material


def test_a_variant_named_twice_in_one_primitive_takes_the_first_mapping():
    v = read_variants({**RAW, "meshes": [{"primitives": [{"material": 0, **mapped((1, [0]), (2, [0, 1]))}]}]})
    assert v.materials(0) == [[1]] and v.materials(1) == [[2]]


def test_a_file_without_the_extension_has_no_variants():
    v = read_variants({"meshes": [{"primitives": [{"material": 2}, {}]}]})
    assert v.names == () and not v and v.materials(None) == [[2, None]] and v.choices(0, 0) == (2,)
    assert read_variants({}).names == () and read_variants({}).materials(None) == []


def test_a_user_names_a_variant_by_exact_name_first_then_by_index():
    v = read_variants(RAW)
    assert v.resolve("blue", "animview render", "f.gltf") == 1
    assert v.resolve("0", "animview render", "f.gltf") == 0
    assert v.resolve("2", "animview render", "f.gltf") == 2  # the name "2" and index 2 agree here
    named = Variants(("1", "x"), ((None,),), ({},))
    assert named.resolve("1", "animview", "f") == 0  # the name wins over the index
    assert named.find("Blue") is None and named.find("-1") is None and named.find("٣") is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("green", "animview render: --variant green is not in f.gltf (it has 0:'red', 1:'blue', 2:'2')"),
        ("3", "animview render: --variant 3 is not in f.gltf"),
        ("all", "; --variant all is for render --outdir"),
        ("", "--variant  is not in f.gltf"),
    ],
)
def test_an_unknown_variant_is_one_line_naming_the_ones_there_are(text, expected):
    with pytest.raises(UsageError) as info:
        read_variants(RAW).resolve(text, "animview render", "f.gltf")
    message = str(info.value)
    assert expected in message and "\n" not in message


def test_asking_a_file_without_variants_for_one_says_so():
    with pytest.raises(UsageError, match=r"^animview: f\.gltf has no material variants \(KHR_materials_variants\)"):
        read_variants({}).resolve("0", "animview", "f.gltf")


def test_a_long_list_is_cut_and_long_names_shortened():
    v = Variants(tuple(f"variant number {k} " + "x" * 100 for k in range(40)), (), ())
    with pytest.raises(UsageError) as info:
        v.resolve("nope", "animview", "f.gltf")
    assert len(str(info.value)) < 800 and str(info.value).count(":'") == 12 and " …)" in str(info.value)


def test_a_loaded_file_reads_its_variants_once(tmp_path):
    b = GltfBuilder()
    b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2])
    b.doc["meshes"][0]["primitives"][0].update(material=0, **mapped((1, [0])))
    b.doc["materials"] = [{"name": "own"}, {"name": "other"}]
    b.doc["extensions"] = {EXT: {"variants": [{"name": "other look"}]}}
    b.doc["extensionsUsed"] = [EXT]
    b.add_node(mesh=0)
    b.add_scene([0])
    scene = load(b.write_gltf(tmp_path, "v.gltf"))
    assert scene.variants is scene.variants and scene.variants.names == ("other look",)
    assert scene.variants.materials(0) == [[1]]


def test_the_shoe_has_three_variants_of_its_one_primitive():
    scene = load(ext_model("MaterialsVariantsShoe"))
    v = scene.variants
    assert v.names == ("midnight", "beach", "street")
    assert [v.materials(k) for k in (None, 0, 1, 2)] == [[[0]], [[0]], [[1]], [[2]]]
    assert [v.changed_count(k) for k in range(3)] == [0, 1, 1]  # midnight is the shoe's own look
