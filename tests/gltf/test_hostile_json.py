"""JSON that is valid but hostile: huge integer literals, extensions and extras of odd types.

Each is either valid glTF (and loads) or a clear one-line ``GltfError`` at its pointer — never the
catch-all "cannot validate file (OverflowError …)".
"""

from __future__ import annotations

import pytest

from tests.gltf_builder import minimal_animated, write_gltf
from viewer import GltfError, load

HUGE = "1" + "0" * 400  # a 401-digit integer literal: Python reads it, float() cannot


def _write(tmp_path, mutate, huge: bool = False):
    """The minimal animated file, changed by ``mutate``; a ``"HUGE"`` string becomes the huge literal."""
    b = minimal_animated()
    raw = b.to_dict()
    mutate(raw)
    path = write_gltf(raw, b.bin_bytes(), tmp_path)
    if huge:
        path.write_text(path.read_text(encoding="utf-8").replace('"HUGE"', HUGE), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "where, mutate",
    [
        ("/nodes/0/mesh", lambda r: r["nodes"][0].__setitem__("mesh", "HUGE")),
        ("/accessors/0/count", lambda r: r["accessors"][0].__setitem__("count", "HUGE")),
        ("/nodes/2/translation/0", lambda r: r["nodes"][2].__setitem__("translation", ["HUGE", 0, 0])),
        ("/meshes/0/weights/0", lambda r: r["meshes"][0].__setitem__("weights", ["HUGE", 0])),
    ],
)
def test_huge_integer_literals_are_refused_at_their_pointer(tmp_path, where, mutate):
    with pytest.raises(GltfError) as err:
        load(_write(tmp_path, mutate, huge=True))
    assert err.value.pointer == where
    assert "401 digits" in err.value.message and len(str(err.value)) < 400


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.__setitem__("extras", 5),
        lambda r: r["nodes"][0].__setitem__("extras", "text"),
        lambda r: r["meshes"][0].__setitem__("extras", [1, 2]),
        lambda r: r["asset"].__setitem__("extras", None),
    ],
)
def test_extras_of_any_type_load(tmp_path, mutate):
    load(_write(tmp_path, mutate))


@pytest.mark.parametrize(
    "where, mutate",
    [
        ("/nodes/0/extensions", lambda r: r["nodes"][0].__setitem__("extensions", "x")),
        ("/extensions/EXT_x", lambda r: r.__setitem__("extensions", {"EXT_x": 3})),
        (
            "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
            lambda r: (
                r.__setitem__(
                    "materials",
                    [
                        {
                            "pbrMetallicRoughness": {
                                "baseColorTexture": {
                                    "index": 0,
                                    "extensions": {"KHR_texture_transform": {"offset": "left"}},
                                }
                            }
                        }
                    ],
                )
                or r.__setitem__("textures", [{}])
            ),
        ),
        (
            "/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength",
            lambda r: r.__setitem__(
                "materials", [{"extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": -1}}}]
            ),
        ),
    ],
)
def test_extensions_must_be_objects_and_read_extensions_are_checked(tmp_path, where, mutate):
    with pytest.raises(GltfError) as err:
        load(_write(tmp_path, mutate))
    assert err.value.pointer == where, str(err.value)
