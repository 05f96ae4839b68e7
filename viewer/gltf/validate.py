"""All validation of a glTF document, run once at load: the entry points and the structural pass.

Order matters, because each stage may rely on the ones before it:

1. ``check_structure`` (here): JSON types, required properties, enums, ranges and every index
   into a top-level array, walking ``schema.GLTF``; then the asset version and extensions.
2. buffers are loaded (``resources``), which checks URIs, data: URIs and files.
3. ``check_content`` (here, calling ``validate_data``, ``validate_scene``, ``validate_mesh``,
   ``validate_animation``):
   sizes of buffers, bufferViews and accessors before anything is allocated from a count, then the
   node graph, cameras, lights, meshes, skins and animations, reading accessor data where a rule needs values.

Every fault raises ``GltfError(file, pointer, message)`` with the JSON pointer of the offending property.
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

from viewer.base.errors import GltfError, GltfWarning, pointer, shorten
from viewer.gltf import validate_animation, validate_data, validate_mesh, validate_scene
from viewer.gltf.accessors import AccessorReader
from viewer.gltf.resources import FileAccess
from viewer.gltf.schema import GLTF, NESTED_ARRAYS
from viewer.gltf.schema_spec import Spec

SUPPORTED_EXTENSIONS = frozenset(
    {
        "KHR_mesh_quantization",
        "KHR_materials_emissive_strength",
        "KHR_texture_transform",
        "KHR_materials_unlit",
        "KHR_texture_basisu",  # KTX2 images transcoded by opengl_basisu (render/image_decode.decode_ktx2)
        "KHR_draco_mesh_compression",  # decoded by gltf/draco.py with DracoPy (optional: animview[compressed])
        "EXT_meshopt_compression",  # compressed bufferViews, decoded by gltf/meshopt.py (numpy, no dependency)
        "KHR_meshopt_compression",
        "KHR_lights_punctual",  # lights read by lights.py, placed by their nodes' world matrices
        "KHR_materials_ior",
        "KHR_materials_specular",
        "KHR_materials_clearcoat",
        "KHR_materials_sheen",
        "KHR_materials_transmission",
        "KHR_materials_volume",
        "KHR_materials_anisotropy",
        "KHR_materials_iridescence",
        "KHR_materials_dispersion",
        "KHR_materials_diffuse_transmission",
        "KHR_materials_variants",  # the variant chooser: scene/variants.py
        "KHR_animation_pointer",  # channels resolved against the Object Model (object_model.py)
        "KHR_node_visibility",  # nodes hidden with their subtrees, statically and animated
    }
)

_JSON_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "a boolean",
    "object": "an object",
    "map": "an object",
    "array": "an array",
}


def check_structure(raw: object, file: Path) -> None:
    """Check JSON types, required properties, ranges and indices, then version and extensions.

    Raises:
        GltfError: at the pointer of the first offending property.
    """
    if not isinstance(raw, dict):
        raise GltfError(file, "", f"the glTF JSON must be an object, got {_json_type(raw)}")
    for key, spec in (GLTF.fields or {}).items():  # top-level arrays first, so index checks can count them
        if spec.kind == "array" and key in raw and not isinstance(raw[key], list):
            raise GltfError(file, pointer(key), f"{key} must be an array, got {_json_type(raw[key])}")
    counts = {key: len(value) for key, value in raw.items() if isinstance(value, list)}
    counts.update(_nested_counts(raw))
    _Walker(file, counts).check(raw, GLTF, ())
    _check_version(raw["asset"], file)
    _check_extensions(raw, file)


def check_content(
    raw: dict, access: FileAccess, buffers: list[bytes], reader: AccessorReader
) -> dict[tuple[int, int], str]:
    """Check everything that needs loaded buffers or several properties at once.

    Args:
        raw: glTF JSON that passed ``check_structure``.
        access: the .gltf/.glb (for errors) and the policy for the image files it names.
        buffers: loaded buffer bytes, one per ``raw["buffers"]``.
        reader: reads accessor values for the rules that need them (times, indices).

    Returns:
        ``(animation, channel)`` pairs to ignore (KHR_animation_pointer channels, channels without a
        target node, earlier channels of a repeated target), each announced with a ``GltfWarning``.
    """
    file = access.model
    quantized = "KHR_mesh_quantization" in raw.get("extensionsUsed", [])
    validate_data.check_buffers(raw, file, buffers)
    validate_data.check_buffer_views(raw, file)
    validate_data.check_accessors(raw, file, reader)
    validate_data.check_images(raw, access)
    validate_scene.check_nodes(raw, file)
    validate_scene.check_cameras(raw, file)
    validate_scene.check_lights(raw, file)
    validate_scene.check_visibility(raw, file)
    validate_mesh.check_meshes(raw, file, reader, quantized)
    validate_scene.check_skins(raw, file, reader)
    return validate_animation.check_animations(raw, file, reader)


def _nested_counts(raw: dict) -> dict[str, int]:
    """Lengths of the ``schema.NESTED_ARRAYS`` the file has (an index into one that is absent is out of range)."""
    counts = {}
    for name, path in NESTED_ARRAYS.items():
        value: object = raw
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list):
            counts[name] = len(value)
    return counts


def _check_version(asset: dict, file: Path) -> None:
    """asset.version must be 2.x; asset.minVersion, when given, must be 2.0 (the version we read)."""
    if not asset["version"].startswith("2."):
        raise GltfError(file, "/asset/version", f"glTF version {asset['version']!r} is not supported, expected 2.x")
    if asset.get("minVersion", "2.0") != "2.0":
        raise GltfError(file, "/asset/minVersion", f"file needs glTF {asset['minVersion']!r}, this reader has 2.0")


def _check_extensions(raw: dict, file: Path) -> None:
    """A required extension we lack is an error; an unknown used one is a warning (glTF 2.0 §3.12)."""
    for k, name in enumerate(raw.get("extensionsRequired", [])):
        if name not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise GltfError(
                file,
                pointer("extensionsRequired", k),
                f"required extension {name} is not supported (supported: {supported})",
            )
    for name in raw.get("extensionsUsed", []):
        if name not in SUPPORTED_EXTENSIONS:
            warnings.warn(
                f"{file}: extension {name} is used but not supported; its data is ignored", GltfWarning, stacklevel=4
            )


_EXPECTED = {
    "integer": int,
    "number": (int, float),
    "string": str,
    "boolean": bool,
    "object": dict,
    "map": dict,
    "array": list,
}
_NUMERIC = ("integer", "number")


class _Walker:
    """Walks JSON against a ``Spec`` tree, raising at the first value that does not fit."""

    def __init__(self, file: Path, counts: dict[str, int]) -> None:
        self.file = file
        self.counts = counts

    def check(self, value: object, spec: Spec, path: tuple) -> None:
        self._check_type(value, spec, path)
        if spec.kind in ("integer", "number"):
            self._check_number(value, spec, path)  # type: ignore[arg-type]
        elif spec.kind == "string" and spec.enum and value not in spec.enum:
            self._fail(path, f"{_label(path)} {value!r} is not one of {', '.join(spec.enum)}")
        elif spec.kind == "array":
            self._check_array(value, spec, path)  # type: ignore[arg-type]
        elif spec.kind == "map":
            self._check_map(value, spec, path)  # type: ignore[arg-type]
        elif spec.kind == "object":
            self._check_object(value, spec, path)  # type: ignore[arg-type]

    def _check_type(self, value: object, spec: Spec, path: tuple) -> None:
        if not isinstance(value, _EXPECTED[spec.kind]) or (isinstance(value, bool) and spec.kind in _NUMERIC):
            self._fail(
                path, f"{_label(path)} must be {_JSON_TYPE_NAMES[spec.kind]}, got {_json_type(value)} {_short(value)}"
            )

    def _check_number(self, value: float, spec: Spec, path: tuple) -> None:
        if spec.plain and not (isinstance(value, int) and abs(value) > sys.float_info.max) and math.isfinite(value):
            return  # the usual number: no bound, enum or reference to check (its label is made only on failure)
        label = _label(path)
        if isinstance(value, int) and abs(value) > sys.float_info.max:  # Python reads any digit count
            self._fail(
                path,
                f"{label} is an integer of {len(str(abs(value)))} digits, too large for any number "
                "a glTF reader can hold",
            )
        if not math.isfinite(value):  # JSON has no NaN/Infinity, but Python reads 1e999 as inf
            self._fail(path, f"{label} {value} is not a finite number")
        if spec.enum and value not in spec.enum:
            self._fail(path, f"{label} {value} is not one of {', '.join(map(str, spec.enum))}")
        if value in spec.also:
            return
        if spec.also and spec.minimum is not None and value < spec.minimum:
            also = " or ".join(map(str, spec.also))
            self._fail(path, f"{label} {value} must be {also} or at least {spec.minimum}")
        if spec.minimum is not None and value < spec.minimum:
            self._fail(path, f"{label} {value} is less than the minimum {spec.minimum}")
        if spec.maximum is not None and value > spec.maximum:
            self._fail(path, f"{label} {value} is more than the maximum {spec.maximum}")
        if spec.positive and value <= 0:
            self._fail(path, f"{label} {value} must be greater than 0")
        if spec.multiple_of and value % spec.multiple_of:
            self._fail(path, f"{label} {value} is not a multiple of {spec.multiple_of}")
        if spec.ref is not None and value >= self.counts.get(spec.ref, 0):
            self._fail(path, f"{label} {value} is out of range: the file has {self.counts.get(spec.ref, 0)} {spec.ref}")

    def _check_array(self, value: list, spec: Spec, path: tuple) -> None:
        if spec.length is not None and len(value) != spec.length:
            self._fail(path, f"{_label(path)} must have {spec.length} items, has {len(value)}")
        if len(value) < spec.min_items:
            self._fail(path, f"{_label(path)} must have at least {spec.min_items} item(s), has {len(value)}")
        assert spec.items is not None
        for i, item in enumerate(value):
            self.check(item, spec.items, (*path, i))

    def _check_map(self, value: dict, spec: Spec, path: tuple) -> None:
        if len(value) < spec.min_items:
            self._fail(path, f"{_label(path)} must have at least {spec.min_items} entry, has {len(value)}")
        assert spec.items is not None
        for key, item in value.items():
            self.check(item, spec.items, (*path, key))

    def _check_object(self, value: dict, spec: Spec, path: tuple) -> None:
        extensions = value.get("extensions")
        if extensions is not None:  # every glTF object's extensions: an object of objects (extras: anything)
            if not isinstance(extensions, dict):
                self._fail((*path, "extensions"), f"extensions must be an object, got {_json_type(extensions)}")
            for name, ext in extensions.items():
                if not isinstance(ext, dict):
                    self._fail(
                        (*path, "extensions", name),
                        f"extension {_short(name)} must be an object, got {_json_type(ext)}",
                    )
        for key, field in (spec.fields or {}).items():
            if key in value:
                self.check(value[key], field, (*path, key))
            elif field.required:
                self._fail((*path, key), f"required property {key} is missing")

    def _fail(self, path: tuple, message: str) -> None:
        raise GltfError(self.file, pointer(*path), message)


def _label(path: tuple) -> str:
    """A readable name for the value at ``path``: "count", "children[2]", "the document"."""
    if not path:
        return "the document"
    if isinstance(path[-1], int):
        return f"{path[-2]}[{path[-1]}]" if len(path) > 1 else f"item {path[-1]}"
    return str(path[-1])


def _json_type(value: object) -> str:
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _short(value: object) -> str:
    return shorten(repr(value), 40)
