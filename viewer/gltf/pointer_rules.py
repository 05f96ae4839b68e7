"""KHR_animation_pointer pointers resolved against a file: the extension's validity rules.

``resolve`` applies the extension's rules to one pointer and either returns where its values go (``Target``)
or one line saying why the channel is not animated; ``check_output`` does the same for the sampler's output
accessor. What a pointer may name at all is the Object Model's table (``object_model.PROPERTIES``); these
rules live apart from it because only the loader (``scene.py``), the validator (``validate_animation.py``) and
``inspect`` apply them. Sources: the KHR_animation_pointer, KHR_node_visibility, KHR_lights_punctual and
KHR_materials_ior READMEs.

Decisions beyond the spec text:

* ``/meshes/{}/weights`` left the Object Model (KhronosGroup/glTF#2550, 2026); such pointers are refused with a
  hint to target the nodes' weights instead.
* Node weights have no schema default, yet are always defined for a node whose mesh has morph targets: their
  rest value follows the core rule (node weights, else mesh weights, else zeros).
* A node with a ``matrix`` cannot have its TRS animated: the core spec forbids ``matrix`` on an animated node, and
  the extension gives no exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from viewer.base.errors import MAX_POINTER_CHARS, shorten
from viewer.gltf.object_model import PROPERTIES, TYPES, Property


@dataclass(frozen=True)
class Target:
    """What a valid pointer animates, with the value it has when no animation plays."""

    pointer: str  # as written in the file
    property: Property
    index: int  # the node / material / camera / light (the first "{}")
    element: int | None  # /nodes/N/weights/K -> K
    width: int  # floats per key
    rest: np.ndarray  # (width,) float64; bool as 0.0 / 1.0


# Where each consumer's objects live in the JSON, and how a reason names them.
_COLLECTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "node": (("nodes",), "nodes"),
    "interaction": (("nodes",), "nodes"),
    "material": (("materials",), "materials"),
    "camera": (("cameras",), "cameras"),
    "light": (("extensions", "KHR_lights_punctual", "lights"), "KHR_lights_punctual lights"),
}
_INDEX = re.compile(r"0|[1-9][0-9]*")  # RFC 6901 array index: no sign, no leading zero
_NUMBER_LIKE = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?")
_ESCAPE = re.compile(r"~(?![01])")
_BY_SHAPE: dict[tuple[str, ...], Property] = {tuple(p.template.split("/")[1:]): p for p in PROPERTIES}
_MESH_WEIGHTS = (("meshes", "{}", "weights"), ("meshes", "{}", "weights", "{}"))
_INTEGERS = (5120, 5121, 5122, 5123, 5125)
_FLOAT_FORMATS = frozenset({(5126, False), *((c, False) for c in _INTEGERS), *((c, True) for c in _INTEGERS[:4])})
_UNSIGNED_BYTE = 5121


def show(text: object) -> str:
    """A pointer as messages quote it: shortened when long, ``repr`` when it is not a non-empty string."""
    return shorten(text, MAX_POINTER_CHARS) if isinstance(text, str) and text else repr(text)


def parse_pointer(text: str) -> tuple[str, ...] | None:
    """RFC 6901 tokens ("~1" -> "/", "~0" -> "~"), or None when malformed (not a str, no leading "/", a "~" not
    followed by 0 or 1)."""
    if not isinstance(text, str) or (text and not text.startswith("/")) or _ESCAPE.search(text):
        return None
    if not text:
        return ()  # the whole document
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in text[1:].split("/"))


def resolve(raw: dict, text: str) -> Target | str:
    """The property `text` names in the glTF JSON `raw`, or one line saying why it is not animated."""
    name = show(text)
    tokens = parse_pointer(text)
    if tokens is None:
        return f"{name}: is not a valid JSON pointer (it must start with '/' and escape '~' as ~0, '/' as ~1)"
    shape = tuple("{}" if _INDEX.fullmatch(t) else t for t in tokens)
    if shape in _MESH_WEIGHTS:
        return (
            f"{name}: mesh weights left the glTF Object Model in 2026; target /nodes/{{}}/weights of the nodes "
            f"using mesh {tokens[1]}"
        )
    prop = _BY_SHAPE.get(shape)
    if prop is None:
        return f"{name}: {_unmatched(raw, tokens, shape)}"
    index = int(tokens[shape.index("{}")])
    items = _collection(raw, prop.consumer)
    if index >= len(items) or not isinstance(items[index], dict):
        n, noun = len(items), _COLLECTIONS[prop.consumer][1]
        return f"{name}: {prop.consumer} {index} does not exist (the file has {n} {noun if n != 1 else noun[:-1]})"
    obj = items[index]
    if prop.field == "weights":
        return _weights(raw, name, text, prop, index, tokens)
    why = _undefined(obj, prop, index)
    if why:
        return f"{name}: {why}"
    if prop.consumer == "node" and prop.field in ("translation", "rotation", "scale") and "matrix" in obj:
        return f"{name}: node {index} has a matrix (animated nodes use TRS)"
    value = _dig(obj, _relative(prop))
    if prop.field == "ior" and value == 0:
        return (
            f"{name}: material {index} has ior 0 in the file, and KHR_materials_ior says animation of it "
            "must be ignored"
        )
    width = TYPES[prop.type][1] or 1  # float[] is only the weights, handled above
    rest = np.array(prop.default, dtype=np.float64) if value is None else _rest(value, prop.type, width)
    if rest is None:
        return f"{name}: the file's value {shorten(repr(value))} is not a {prop.type}"
    return Target(text, prop, index, None, width, rest)


def check_output(target: Target, accessor: dict, interpolation: str, keys: int) -> str | None:
    """None when a sampler's output accessor (its JSON dict: type, componentType, normalized, count) with
    `interpolation` ("STEP"/"LINEAR"/"CUBICSPLINE") and `keys` input keys fits the target; else one line why not."""
    prop = target.property
    name = shorten(target.pointer, MAX_POINTER_CHARS)
    kind = TYPES[prop.type][0]
    if accessor.get("type") != kind:
        return f"{name}: a {prop.type} property needs a {kind} output accessor, found {accessor.get('type')}"
    found = (accessor.get("componentType"), bool(accessor.get("normalized", False)))
    described = f"componentType {found[0]}{' normalized' if found[1] else ''}"
    if prop.type == "bool" and found != (_UNSIGNED_BYTE, False):
        return f"{name}: a bool property needs unsigned byte (5121, not normalized) output, found {described}"
    if prop.type == "int" and (found[0] not in _INTEGERS or found[1]):
        return f"{name}: an int property needs a non-normalized integer output, found {described}"
    if prop.type not in ("bool", "int") and found not in _FLOAT_FORMATS:
        return f"{name}: a {prop.type} property needs float or integer output, found {described}"
    if interpolation not in ("STEP", "LINEAR", "CUBICSPLINE"):
        return f"{name}: interpolation {shorten(repr(interpolation))} is not STEP, LINEAR or CUBICSPLINE"
    if prop.type in ("bool", "int") and interpolation != "STEP":
        return f"{name}: a {prop.type} property needs STEP interpolation, found {interpolation}"
    expected, formula = keys, f"{keys} keys"
    if interpolation == "CUBICSPLINE":
        expected, formula = expected * 3, formula + " × 3 (CUBICSPLINE)"
    if prop.type == "float[]":
        expected, formula = expected * target.width, formula + f" × {target.width} values"
    count = accessor.get("count")
    if count != expected:
        return f"{name}: the output accessor has {count} elements, expected {expected} = {formula}"
    return None


def _unmatched(raw: dict, tokens: tuple[str, ...], shape: tuple[str, ...]) -> str:
    """Why a pointer matching no template is refused: a vector component, a JSON value that is not animatable,
    or nothing at all."""
    vector = _BY_SHAPE.get(shape[:-1])
    if vector is not None and shape[-1] == "{}" and vector.type in ("float2", "float3", "float4"):
        return (
            f"names one component of a {vector.type}; the Object Model animates only whole vectors ({vector.template})"
        )
    found = True
    value: object = raw
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and _INDEX.fullmatch(token) and int(token) < len(value):
            value = value[int(token)]
        else:
            found = False
            break
    if found:
        return "is not animatable (read-only or not in the glTF Object Model)"
    hint = ""
    if any(_NUMBER_LIKE.fullmatch(t) and not _INDEX.fullmatch(t) for t in tokens):
        hint = " (array indices are written without sign, decimals or leading zeros)"
    return "names no property of the glTF Object Model" + hint


def _collection(raw: dict, consumer: str) -> list:
    items = _dig(raw, _COLLECTIONS[consumer][0])
    return items if isinstance(items, list) else []


def _undefined(obj: dict, prop: Property, index: int) -> str | None:
    """Why the property is not defined in the file (AP: "present explicitly, or it has a default value and its
    enclosing object is present"); None when it is."""
    path = _relative(prop)
    for depth in range(1, len(path)):
        if not isinstance(_dig(obj, path[:depth]), dict):
            return _missing(obj, prop, index, path[:-1])
    if prop.default is None and _dig(obj, path) is None:
        return (
            f"{prop.consumer} {index} does not write {'/'.join(path)}, which has no default value (only "
            "properties in the file are animatable)"
        )
    return None


def _missing(obj: dict, prop: Property, index: int, path: tuple[str, ...]) -> str:
    """The reason for an absent enclosing object, in the consumer's terms where they tell more."""
    if prop.consumer == "camera":
        kind = obj.get("type") or next((k for k in ("perspective", "orthographic") if k in obj), None)
        if kind is not None and kind != path[0]:
            return f"camera {index} is {kind}, so it has no {path[0]}/{prop.field}"
    if prop.consumer == "light" and obj.get("type") not in (None, "spot"):
        return f"light {index} is a {obj['type']} light; only spot lights have spot/{prop.field}"
    return f"{prop.consumer} {index} has no {'/'.join(path)} object (the enclosing object must be present)"


def _relative(prop: Property) -> tuple[str, ...]:
    """The template's path inside the indexed object."""
    tokens = prop.template.split("/")[1:]
    return tuple(tokens[tokens.index("{}") + 1 :])


def _weights(raw: dict, name: str, text: str, prop: Property, index: int, tokens: tuple[str, ...]) -> Target | str:
    """Morph weights: the node's mesh must have morph targets; the rest value is the core default chain."""
    node = _collection(raw, "node")[index]
    meshes = raw.get("meshes") if isinstance(raw.get("meshes"), list) else []
    m = node.get("mesh")
    mesh = meshes[m] if isinstance(m, int) and 0 <= m < len(meshes) and isinstance(meshes[m], dict) else {}
    primitives = mesh.get("primitives") or [{}]
    count = len(primitives[0].get("targets", [])) if isinstance(primitives[0], dict) else 0
    if count == 0:
        return f"{name}: node {index} has no mesh with morph targets"
    rest = None
    for source in (node.get("weights"), mesh.get("weights")):
        if source is not None:
            rest = _rest(source, "float[]", count)
            if rest is None:
                return f"{name}: the file's weights {shorten(repr(source))} are not {count} numbers"
            break
    rest = np.zeros(count) if rest is None else rest
    if len(tokens) == 3:
        return Target(text, prop, index, None, count, rest)
    element = int(tokens[3])
    if element >= count:
        return f"{name}: weight {element} is out of range, node {index}'s mesh has {count} morph targets"
    return Target(text, prop, index, element, 1, rest[element : element + 1].copy())


def _rest(value: object, type_: str, width: int | None) -> np.ndarray | None:
    """The JSON value as (width,) float64, or None when it is not of the property's type."""
    if type_ == "bool":
        return np.array([1.0 if value else 0.0]) if isinstance(value, bool) else None
    if type_ in ("float", "int"):
        value = [value]
    if not isinstance(value, list) or len(value) != width:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return None
    return np.array(value, dtype=np.float64)


def _dig(obj: object, path: tuple[str, ...]) -> object:
    """The value at ``path`` (keys of nested dicts), or None."""
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj
