"""Malformed files, built by code: each must raise GltfError at the exact JSON pointer.

Every case starts from ``gltf_builder.minimal_animated()`` (see its docstring for the indices used
here) and breaks one thing. The same cases run through ``python -m viewer inspect``, which must exit 2
with one line on stderr.
"""

from __future__ import annotations

import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from tests.gltf_builder import GltfBuilder, minimal_animated, overwrite_accessor, write_glb, write_gltf
from viewer.base.errors import GltfError
from viewer.gltf import load_document

REPO_ROOT = Path(__file__).resolve().parents[2]
BASE = minimal_animated().to_dict()
NEXT_ACCESSOR = len(BASE["accessors"])  # index of the first accessor a case adds
SAMPLERS = BASE["animations"][0]["samplers"]
MESH0 = BASE["meshes"][0]["primitives"][0]
MESH1 = BASE["meshes"][1]["primitives"][0]
ID4 = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


@dataclass(frozen=True)
class Case:
    """One malformed file: ``make(tmp_path)`` writes it and returns its path."""

    name: str
    make: Callable[[Path], Path]
    pointer: str
    word: str

    def __str__(self) -> str:
        return self.name


def broken(mutate: Callable[[dict, bytearray], object], container: str = "gltf") -> Callable[[Path], Path]:
    """A maker that breaks the minimal file's JSON / buffer with ``mutate(doc, bin)`` and writes it."""

    def make(tmp: Path) -> Path:
        b = minimal_animated()
        doc, data = b.to_dict(), bytearray(b.bin_bytes())
        mutate(doc, data)
        if container == "glb":
            return write_glb(doc, bytes(data), tmp / "bad.glb")
        return write_gltf(doc, bytes(data), tmp, "bad.gltf", embed=(container == "embedded"))

    return make


def glb_bytes(transform: Callable[[bytearray], bytes | bytearray]) -> Callable[[Path], Path]:
    """A maker that writes the minimal file as GLB and then edits its raw bytes."""

    def make(tmp: Path) -> Path:
        path = minimal_animated().write_glb(tmp / "bad.glb")
        path.write_bytes(bytes(transform(bytearray(path.read_bytes()))))
        return path

    return make


def built(extend: Callable[[GltfBuilder], object]) -> Callable[[Path], Path]:
    """A maker that adds to the minimal file through the builder (for broken binary structures)."""

    def make(tmp: Path) -> Path:
        b = minimal_animated()
        extend(b)
        return b.write_gltf(tmp, "bad.gltf")

    return make


def text(content: bytes, name: str = "bad.gltf") -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        (tmp / name).write_bytes(content)
        return tmp / name

    return make


def setitem(path: tuple, value: object) -> Callable[[dict, bytearray], None]:
    """A mutation that sets ``doc[path[0]][path[1]]… = value``."""

    def mutate(doc: dict, _: bytearray) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def delitem(path: tuple) -> Callable[[dict, bytearray], None]:
    def mutate(doc: dict, _: bytearray) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def overwrite(accessor: int, values: object) -> Callable[[dict, bytearray], None]:
    return lambda doc, data: overwrite_accessor(doc, data, accessor, values)


def _set_u32(data: bytearray, offset: int, value: int) -> bytearray:
    data[offset : offset + 4] = struct.pack("<I", value)
    return data


def _cycle(doc: dict, _: bytearray) -> None:
    doc["nodes"][0]["children"] = [1]  # detach joint0 from the root …
    doc["nodes"][3]["children"] = [2]  # … and make joint1 its parent: 2 → 3 → 2


def _third_target_without_mesh_weights(doc: dict, _: bytearray) -> None:
    mesh = doc["meshes"][0]
    mesh["primitives"][0]["targets"].append(dict(mesh["primitives"][0]["targets"][0]))
    del mesh["weights"]


def _matrix_on_animated_node(doc: dict, _: bytearray) -> None:
    del doc["nodes"][3]["translation"]
    doc["nodes"][3]["matrix"] = ID4


def _required_extension(doc: dict, _: bytearray) -> None:
    doc["extensionsUsed"] = doc["extensionsRequired"] = ["EXT_example_unsupported"]  # a name no reader supports


def _drop_bin_chunk(data: bytearray) -> bytes:
    json_length = struct.unpack_from("<I", data, 12)[0]
    end = 20 + json_length
    return bytes(_set_u32(data[:end], 8, end))


INVALID_JSON = b'{"asset": {"version": "2.0"}, "nodes": [{]}'

CASES = [
    # the GLB container
    Case("glb_truncated", glb_bytes(lambda d: d[:10]), "", "truncated"),
    Case("glb_bad_magic", glb_bytes(lambda d: b"glTX" + d[4:]), "", "magic"),
    Case("glb_wrong_version", glb_bytes(lambda d: _set_u32(d, 4, 1)), "", "version"),
    Case("glb_length_mismatch", glb_bytes(lambda d: _set_u32(d, 8, len(d) + 4)), "", "header says"),
    Case("glb_first_chunk_not_json", glb_bytes(lambda d: _set_u32(d, 16, 0x004E4942)), "", "JSON"),
    Case("glb_chunk_past_end", glb_bytes(lambda d: _set_u32(d, 12, 1 << 20)), "", "past the end"),
    Case(
        "glb_chunk_misaligned",
        glb_bytes(lambda d: _set_u32(d, 12, struct.unpack_from("<I", d, 12)[0] - 2)),
        "",
        "multiple of 4",
    ),
    Case(
        "glb_bin_chunk_short",
        broken(setitem(("buffers", 0, "byteLength"), 100_000), "glb"),
        "/buffers/0/byteLength",
        "BIN",
    ),
    Case("glb_no_bin_chunk", glb_bytes(_drop_bin_chunk), "/buffers/0", "BIN"),
    # JSON itself
    Case("invalid_json", text(INVALID_JSON), "", "JSON"),
    Case("json_not_object", text(b"[1, 2]"), "", "object"),
    Case("json_nan_literal", text(b'{"asset": {"version": "2.0"}, "nodes": [{"scale": [NaN, 1, 1]}]}'), "", "NaN"),
    Case("json_not_utf8", text(b'{"asset": {"version": "2.0\xff"}}'), "", "UTF-8"),
    Case("file_not_found", lambda tmp: tmp / "nothing_here.gltf", "", "not found"),
    # asset and extensions
    Case("missing_asset", broken(delitem(("asset",))), "/asset", "missing"),
    Case("wrong_version", broken(setitem(("asset", "version"), "1.0")), "/asset/version", "1.0"),
    Case(
        "unsupported_required_extension",
        broken(_required_extension),
        "/extensionsRequired/0",
        "EXT_example_unsupported",
    ),
    # JSON types and required properties
    Case("missing_count", broken(delitem(("accessors", 0, "count"))), "/accessors/0/count", "missing"),
    Case("count_is_string", broken(setitem(("accessors", 0, "count"), "abc")), "/accessors/0/count", "integer"),
    Case("count_is_boolean", broken(setitem(("accessors", 0, "count"), True)), "/accessors/0/count", "integer"),
    Case(
        "missing_channel_path",
        broken(delitem(("animations", 0, "channels", 0, "target", "path"))),
        "/animations/0/channels/0/target/path",
        "missing",
    ),
    Case("no_channels", broken(setitem(("animations", 0, "channels"), [])), "/animations/0/channels", "at least"),
    Case(
        "bad_component_type",
        broken(setitem(("accessors", 0, "componentType"), 5124)),
        "/accessors/0/componentType",
        "5124",
    ),
    Case("bad_mode", broken(setitem(("meshes", 0, "primitives", 0, "mode"), 7)), "/meshes/0/primitives/0/mode", "7"),
    Case(
        "bad_interpolation",
        broken(setitem(("animations", 0, "samplers", 0, "interpolation"), "CUBIC")),
        "/animations/0/samplers/0/interpolation",
        "CUBIC",
    ),
    # indices out of range
    Case(
        "child_out_of_range", broken(setitem(("nodes", 0, "children"), [1, 99])), "/nodes/0/children/1", "out of range"
    ),
    Case("mesh_out_of_range", broken(setitem(("nodes", 1, "mesh"), 5)), "/nodes/1/mesh", "out of range"),
    Case(
        "attribute_accessor_out_of_range",
        broken(setitem(("meshes", 0, "primitives", 0, "attributes", "POSITION"), 999)),
        "/meshes/0/primitives/0/attributes/POSITION",
        "999",
    ),
    Case(
        "buffer_view_out_of_range",
        broken(setitem(("accessors", 0, "bufferView"), 999)),
        "/accessors/0/bufferView",
        "out of range",
    ),
    Case(
        "channel_sampler_out_of_range",
        broken(setitem(("animations", 0, "channels", 1, "sampler"), 7)),
        "/animations/0/channels/1/sampler",
        "out of range",
    ),
    Case(
        "channel_node_out_of_range",
        broken(setitem(("animations", 0, "channels", 1, "target", "node"), 5)),
        "/animations/0/channels/1/target/node",
        "out of range",
    ),
    Case("default_scene_out_of_range", broken(setitem(("scene",), 3)), "/scene", "out of range"),
    Case(
        "material_out_of_range",
        broken(setitem(("meshes", 0, "primitives", 0, "material"), 0)),
        "/meshes/0/primitives/0/material",
        "materials",
    ),
    Case(
        "skin_joint_out_of_range", broken(setitem(("skins", 0, "joints"), [2, 99])), "/skins/0/joints/1", "out of range"
    ),
    Case(
        "texture_source_out_of_range", broken(setitem(("textures",), [{"source": 3}])), "/textures/0/source", "images"
    ),
    # sizes and ranges of data
    Case("accessor_past_buffer_view", broken(setitem(("accessors", 0, "count"), 4)), "/accessors/0/count", "needs"),
    Case(
        "buffer_view_past_buffer",
        broken(lambda doc, _: doc["bufferViews"][1].update(byteLength=10_000)),
        "/bufferViews/1/byteLength",
        "buffer 0",
    ),
    Case(
        "huge_count_without_buffer_view",
        broken(setitem(("accessors", 0), {"componentType": 5126, "count": 2_000_000_000, "type": "VEC3"})),
        "/accessors/0/count",
        "limit",
    ),
    Case(
        "byte_stride_not_multiple_of_4",
        broken(setitem(("bufferViews", 0, "byteStride"), 6)),
        "/bufferViews/0/byteStride",
        "multiple of 4",
    ),
    Case(
        "misaligned_byte_offset",
        broken(setitem(("accessors", 0, "byteOffset"), 2)),
        "/accessors/0/byteOffset",
        "multiple",
    ),
    Case(
        "normalized_float",
        broken(setitem(("accessors", 0, "normalized"), True)),
        "/accessors/0/normalized",
        "normalized",
    ),
    Case("missing_bin_file", broken(setitem(("buffers", 0, "uri"), "missing.bin")), "/buffers/0/uri", "missing.bin"),
    Case(
        "bad_base64",
        broken(setitem(("buffers", 0, "uri"), "data:application/octet-stream;base64,@@@@")),
        "/buffers/0/uri",
        "base64",
    ),
    Case(
        "uri_scheme_http",
        broken(setitem(("buffers", 0, "uri"), "http://example.com/m.bin")),
        "/buffers/0/uri",
        "scheme",
    ),
    Case(
        "uri_with_newline",
        broken(setitem(("buffers", 0, "uri"), "two\nlines.bin")),
        "/buffers/0/uri",
        "two\\nlines.bin",
    ),
    Case(
        "number_too_big",
        text(b'{"asset": {"version": "2.0"}, "nodes": [{"translation": [1e999, 0, 0]}]}'),
        "/nodes/0/translation/0",
        "finite",
    ),
    Case("accessor_min_wrong_length", broken(setitem(("accessors", 0, "min"), [0, 0])), "/accessors/0/min", "VEC3"),
    Case(
        "image_uri_and_buffer_view",
        broken(setitem(("images",), [{"uri": "a.png", "bufferView": 0}])),
        "/images/0",
        "exactly one",
    ),
    Case(
        "image_buffer_view_without_mime_type",
        broken(setitem(("images",), [{"bufferView": 0}])),
        "/images/0/mimeType",
        "mimeType",
    ),
    Case(
        "camera_without_its_object",
        broken(setitem(("cameras",), [{"type": "perspective"}])),
        "/cameras/0/perspective",
        "perspective",
    ),
    Case(
        "zero_filled_accessors_too_big",
        broken(
            lambda doc, _: doc["accessors"].extend([{"componentType": 5126, "count": 8_000_000, "type": "MAT4"}] * 3)
        ),
        f"/accessors/{NEXT_ACCESSOR + 2}/count",
        "add up to",
    ),
    Case("image_file_missing", broken(setitem(("images",), [{"uri": "nope.png"}])), "/images/0/uri", "nope.png"),
    Case(
        "sparse_index_out_of_range",
        built(lambda b: b.add_sparse_accessor(5, [1, 9], [[1.0, 1, 1], [2.0, 2, 2]])),
        f"/accessors/{NEXT_ACCESSOR}/sparse/indices",
        "9",
    ),
    Case(
        "sparse_indices_not_increasing",
        built(lambda b: b.add_sparse_accessor(5, [3, 1], [[1.0, 1, 1]] * 2)),
        f"/accessors/{NEXT_ACCESSOR}/sparse/indices",
        "increase",
    ),
    Case(
        "sparse_count_over_count",
        built(lambda b: b.add_sparse_accessor(1, [0, 1], [[1.0, 1, 1]] * 2)),
        f"/accessors/{NEXT_ACCESSOR}/sparse/count",
        "more than",
    ),
    # node hierarchy
    Case("node_cycle", broken(_cycle), "/nodes/3/children/0", "cycle"),
    Case("node_is_own_child", broken(setitem(("nodes", 3, "children"), [3])), "/nodes/3/children/0", "itself"),
    Case("two_parents", broken(setitem(("nodes", 4, "children"), [3])), "/nodes/4/children/0", "parent"),
    Case("matrix_and_trs", broken(setitem(("nodes", 2, "matrix"), ID4)), "/nodes/2/matrix", "translation"),
    Case("matrix_15_numbers", broken(setitem(("nodes", 0, "matrix"), ID4[:15])), "/nodes/0/matrix", "16"),
    Case("rotation_3_numbers", broken(setitem(("nodes", 2, "rotation"), [0, 0, 1])), "/nodes/2/rotation", "4"),
    Case(
        "animated_node_has_matrix", broken(_matrix_on_animated_node), "/animations/0/channels/1/target/node", "matrix"
    ),
    Case("scene_root_is_child", broken(setitem(("scenes", 0, "nodes"), [0, 4, 2])), "/scenes/0/nodes/2", "child"),
    # meshes and skins
    Case(
        "index_value_out_of_range",
        broken(overwrite(MESH0["indices"], [0, 1, 3])),
        "/meshes/0/primitives/0/indices",
        "3 vertices",
    ),
    Case(
        "no_position",
        broken(delitem(("meshes", 1, "primitives", 0, "attributes", "POSITION"))),
        "/meshes/1/primitives/0/attributes",
        "POSITION",
    ),
    Case(
        "attribute_count_differs",
        broken(setitem(("meshes", 1, "primitives", 0, "attributes", "WEIGHTS_0"), SAMPLERS[1]["output"])),
        "/meshes/1/primitives/0/attributes/WEIGHTS_0",
        "POSITION has 3",
    ),
    Case("mesh_weights_length", broken(setitem(("meshes", 0, "weights"), [0.0])), "/meshes/0/weights", "morph targets"),
    Case(
        "node_weights_length", broken(setitem(("nodes", 1, "weights"), [1, 2, 3])), "/nodes/1/weights", "morph targets"
    ),
    Case(
        "joint_index_past_skin",
        broken(overwrite(MESH1["attributes"]["JOINTS_0"], [[0, 2, 0, 0]] * 3)),
        "/meshes/1/primitives/0/attributes/JOINTS_0",
        "joint index 2",
    ),
    Case("ibm_too_few", broken(setitem(("skins", 0, "joints"), [2, 3, 0])), "/skins/0/inverseBindMatrices", "3 joints"),
    Case(
        "ibm_not_mat4",
        broken(setitem(("skins", 0, "inverseBindMatrices"), MESH0["attributes"]["POSITION"])),
        "/skins/0/inverseBindMatrices",
        "MAT4",
    ),
    # animations
    Case(
        "times_not_increasing",
        broken(overwrite(SAMPLERS[0]["input"], [0, 1, 1])),
        "/animations/0/samplers/0/input",
        "increase",
    ),
    Case("time_nan", broken(overwrite(SAMPLERS[0]["input"], [0, np.nan, 2])), "/animations/0/samplers/0/input", "nan"),
    Case(
        "time_negative", broken(overwrite(SAMPLERS[0]["input"], [-1, 0, 1])), "/animations/0/samplers/0/input", ">= 0"
    ),
    Case(
        "input_not_float",
        broken(setitem(("animations", 0, "samplers", 0, "input"), MESH0["indices"])),
        "/animations/0/samplers/0/input",
        "float",
    ),
    Case(
        "cubicspline_count",
        broken(setitem(("animations", 0, "samplers", 0, "interpolation"), "CUBICSPLINE")),
        "/animations/0/samplers/0/output",
        "CUBICSPLINE",
    ),
    Case(
        "weights_count",
        broken(_third_target_without_mesh_weights),
        "/animations/0/samplers/2/output",
        "3 morph targets",
    ),
    Case(
        "bad_path",
        broken(setitem(("animations", 0, "channels", 0, "target", "path"), "position")),
        "/animations/0/channels/0/target/path",
        "position",
    ),
    Case(
        "rotation_output_vec3",
        broken(setitem(("animations", 0, "samplers", 1, "output"), SAMPLERS[0]["output"])),
        "/animations/0/samplers/1/output",
        "VEC4",
    ),
    Case(
        "weights_on_node_without_targets",
        broken(setitem(("animations", 0, "channels", 2, "target", "node"), 4)),
        "/animations/0/channels/2/target/path",
        "morph targets",
    ),
    Case(
        "output_nan",
        broken(overwrite(SAMPLERS[0]["output"], [[0, np.inf, 0]])),
        "/animations/0/samplers/0/output",
        "finite",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_malformed_file_raises_gltf_error_at_pointer(case: Case, tmp_path: Path) -> None:
    path = case.make(tmp_path)
    with pytest.raises(GltfError) as info:
        load_document(path)
    assert info.value.pointer == case.pointer, info.value.one_line()
    assert case.word in info.value.message, info.value.one_line()
    assert info.value.file == str(path)
    assert "\n" not in info.value.one_line()


def test_there_are_enough_malformed_cases() -> None:
    assert len(CASES) >= 30
    assert len({case.name for case in CASES}) == len(CASES)


def test_embedded_bad_buffer_length_points_at_byte_length(tmp_path: Path) -> None:
    path = broken(setitem(("buffers", 0, "byteLength"), 100_000), "embedded")(tmp_path)
    with pytest.raises(GltfError) as info:
        load_document(path)
    assert info.value.pointer == "/buffers/0/byteLength"


@pytest.fixture(scope="module")
def cli_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, subprocess.CompletedProcess]]:
    """Run ``python -m viewer inspect`` on every case at once (in parallel, to keep the suite fast)."""
    paths = {case.name: case.make(tmp_path_factory.mktemp(case.name)) for case in CASES}  # mktemp is not thread-safe

    def run(name: str) -> tuple[str, tuple[Path, subprocess.CompletedProcess]]:
        done = subprocess.run(
            [sys.executable, "-m", "viewer", "inspect", str(paths[name])],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return name, (paths[name], done)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(pool.map(run, paths))


@pytest.mark.skipif(not (REPO_ROOT / "viewer" / "__main__.py").exists(), reason="the CLI has not landed yet")
@pytest.mark.parametrize("case", CASES, ids=str)
def test_cli_inspect_exits_2_with_one_line(case: Case, cli_results: dict) -> None:
    path, done = cli_results[case.name]
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert path.name in lines[0] and case.pointer in lines[0]
    assert "Traceback" not in done.stderr
