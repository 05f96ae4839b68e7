"""Validation of animations: samplers, key times, output formats and counts (glTF 2.0 §3.11).

Decisions, documented here because the animation code relies on them:

* A channel whose ``target.path`` is ``"pointer"`` (KHR_animation_pointer) is resolved against the glTF
  Object Model (``viewer.gltf.pointer_rules``). Whatever is wrong with it — a malformed pointer, a property that is
  not animatable, undefined or missing, an output of the wrong type or count, a boolean or integer sampled
  other than STEP, values that are not finite — the channel is ignored with a warning that says why, and the
  other channels play: a file is never refused for one pointer.
* A channel without ``target.node`` is ignored with a warning, as the spec says it should be.
* Two channels of one animation on the same property (the spec forbids it): between two plain channels the
  last one wins and the earlier one is ignored (the rule an earlier issue set and ``scene.py`` follows); where a
  pointer channel is one of the two — the same pointer twice, a weights array and one of its elements, a node
  property by pointer and by path — the later channel is the one ignored.

Ignored channels are returned as ``{(animation, channel): reason}`` and exposed as
``Document.ignored_channels``; every other channel is guaranteed valid.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from viewer.base.errors import GltfError, GltfWarning, pointer
from viewer.gltf import object_model, pointer_rules
from viewer.gltf.accessors import FLOAT, AccessorReader
from viewer.gltf.validate_mesh import morph_target_count

_FLOAT = frozenset({(5126, False)})
_NORMALIZED = frozenset({(5120, True), (5121, True), (5122, True), (5123, True)})
OUTPUT_FORMATS: dict[str, tuple[str, frozenset[tuple[int, bool]]]] = {  # §3.11 "Animations", table of paths
    "translation": ("VEC3", _FLOAT),
    "rotation": ("VEC4", _FLOAT | _NORMALIZED),
    "scale": ("VEC3", _FLOAT),
    "weights": ("SCALAR", _FLOAT | _NORMALIZED),
}
POINTER_PATH = "pointer"  # KHR_animation_pointer
POINTER_EXTENSION = "KHR_animation_pointer"

Key = object_model.PropertyKey


def check_animations(raw: dict, file: Path, reader: AccessorReader) -> dict[tuple[int, int], str]:
    """Check every sampler's input, then every channel's target and output.

    Returns:
        ``{(animation, channel): reason}`` for the channels that are ignored (see the module docstring); each
        was warned about.
    """
    ignored: dict[tuple[int, int], str] = {}
    for a, animation in enumerate(raw.get("animations", [])):
        for s, sampler in enumerate(animation["samplers"]):
            _check_input(raw, sampler["input"], ("animations", a, "samplers", s, "input"), file, reader)
        # property → (channel that animates it, how it was named), grouped by (consumer, index, field): only a
        # group's own members can be the same property, so each channel is compared with a handful, not all
        taken: dict[tuple, dict[Key, tuple[int, str]]] = {}
        for c, channel in enumerate(animation["channels"]):
            here = ("animations", a, "channels", c)
            found = _target_key(raw, animation, channel, a, c, file, reader)
            if isinstance(found, str):
                ignored[(a, c)] = found
                _warn(file, here, found)
                continue
            key, name = found
            group = taken.setdefault(key[:3], {})
            clash = next(((k, v) for k, v in group.items() if object_model.same_property(k, key)), None)
            if clash is None:
                group[key] = (c, name)
                continue
            (other_key, (earlier, other_name)) = clash
            via_pointer = name.startswith("/") or other_name.startswith("/")
            if via_pointer:  # the second channel on a property is not applied
                reason = f"{name}: channel {earlier} of this animation already animates {other_name}"
                ignored[(a, c)] = reason
                _warn(file, here, reason)
                continue
            reason = f"targets {other_name} like the later channel {c}, which wins"
            ignored[(a, earlier)] = reason
            _warn(file, ("animations", a, "channels", earlier), reason)
            del group[other_key]
            group[key] = (c, name)
    return ignored


def _target_key(
    raw: dict, animation: dict, channel: dict, a: int, c: int, file: Path, reader: AccessorReader
) -> tuple[Key, str] | str:
    """What the channel animates and how to name it (a JSON pointer for pointer channels, "(node N, path)"
    for plain ones), or why it is ignored. Raises ``GltfError`` for a plain channel that breaks the spec."""
    if _is_ignored(raw, animation, channel, a, c, file):
        return "has no target node"
    target = channel["target"]
    if target["path"] == POINTER_PATH:
        return _pointer_key(raw, animation, channel, reader)
    _check_output(raw, animation, channel, a, file, reader)
    return ("node", target["node"], target["path"], None), f"(node {target['node']}, {target['path']})"


def _pointer_key(raw: dict, animation: dict, channel: dict, reader: AccessorReader) -> tuple[Key, str] | str:
    """A KHR_animation_pointer channel resolved, its output checked; or the one line why it is not applied."""
    target = channel["target"]
    extension = (target.get("extensions") or {}).get(POINTER_EXTENSION)
    text = extension.get("pointer") if isinstance(extension, dict) else None
    if not isinstance(text, str):
        return f'target path is "pointer" but its {POINTER_EXTENSION} extension gives no pointer string'
    if "node" in target:
        return f"{pointer_rules.show(text)}: a pointer target must not also name a node (target.node is set)"
    resolved = pointer_rules.resolve(raw, text)
    if isinstance(resolved, str):
        return resolved
    sampler = animation["samplers"][channel["sampler"]]
    o = sampler["output"]
    keys = raw["accessors"][sampler["input"]]["count"]
    reason = pointer_rules.check_output(resolved, raw["accessors"][o], sampler.get("interpolation", "LINEAR"), keys)
    if reason is not None:
        return reason
    values = np.asarray(reader.read(o))
    if values.dtype.kind == "f":
        bad = np.flatnonzero(~np.isfinite(values.reshape(len(values), -1)).all(axis=1))
        if bad.size:
            return f"{pointer_rules.show(text)}: output accessor {o} value {bad[0]} is not finite"
    p = resolved.property
    return (p.consumer, resolved.index, p.field, resolved.element), text


def _check_input(raw: dict, a: int, where: tuple, file: Path, reader: AccessorReader) -> None:
    """Key times: SCALAR float, finite, >= 0 and strictly increasing, in seconds."""
    accessor = raw["accessors"][a]
    if accessor["type"] != "SCALAR" or accessor["componentType"] != FLOAT or accessor.get("normalized", False):
        raise GltfError(
            file,
            pointer(*where),
            f"input accessor {a} must be SCALAR float (5126), got {accessor['type']} {accessor['componentType']}",
        )
    times = reader.read(a)
    bad = np.flatnonzero(~np.isfinite(times))
    if bad.size:
        raise GltfError(
            file, pointer(*where), f"input accessor {a} key time {bad[0]} is {times[bad[0]]}, key times must be finite"
        )
    bad = np.flatnonzero(times < 0)
    if bad.size:
        raise GltfError(
            file, pointer(*where), f"input accessor {a} key time {bad[0]} is {times[bad[0]]}, key times must be >= 0"
        )
    bad = np.flatnonzero(np.diff(times) <= 0)
    if bad.size:
        k = int(bad[0]) + 1
        raise GltfError(
            file,
            pointer(*where),
            f"input accessor {a} key times must strictly increase: time {k} is {times[k]} after {times[k - 1]}",
        )


def _is_ignored(raw: dict, animation: dict, channel: dict, a: int, c: int, file: Path) -> bool:
    """Check the channel's sampler and target; True (with a warning) for a channel to skip."""
    here = ("animations", a, "channels", c)
    if channel["sampler"] >= len(animation["samplers"]):
        raise GltfError(
            file,
            pointer(*here, "sampler"),
            f"sampler {channel['sampler']} is out of range: animation {a} has {len(animation['samplers'])} samplers",
        )
    target = channel["target"]
    path = target["path"]
    if path == POINTER_PATH:
        return False  # resolved by _pointer_key
    if path not in OUTPUT_FORMATS:
        raise GltfError(
            file, pointer(*here, "target", "path"), f"target path {path!r} is not one of {', '.join(OUTPUT_FORMATS)}"
        )
    if "node" not in target:
        return True
    node = raw["nodes"][target["node"]]
    if "matrix" in node and path != "weights":
        raise GltfError(
            file,
            pointer(*here, "target", "node"),
            f"channel animates {path} of node {target['node']}, which has a matrix (animated nodes use TRS)",
        )
    if path == "weights":
        if "mesh" not in node or morph_target_count(raw["meshes"][node["mesh"]]) == 0:
            raise GltfError(
                file,
                pointer(*here, "target", "path"),
                f"channel animates weights but node {target['node']} has no mesh with morph targets",
            )
    return False


def _check_output(raw: dict, animation: dict, channel: dict, a: int, file: Path, reader: AccessorReader) -> None:
    """Output format per path, and count = keys × (3 if CUBICSPLINE) × (morph targets if weights); finite."""
    s, path = channel["sampler"], channel["target"]["path"]
    sampler = animation["samplers"][s]
    where = pointer("animations", a, "samplers", s, "output")
    o = sampler["output"]
    accessor = raw["accessors"][o]
    kind, formats = OUTPUT_FORMATS[path]
    found = (accessor["componentType"], accessor.get("normalized", False))
    if accessor["type"] != kind or found not in formats:
        raise GltfError(
            file,
            where,
            f"{path} output accessor {o} must be {kind} float or normalized integer "
            f"as the spec allows, got {accessor['type']} of componentType {found[0]}"
            f"{' normalized' if found[1] else ''}",
        )
    keys = raw["accessors"][sampler["input"]]["count"]
    interpolation = sampler.get("interpolation", "LINEAR")
    expected, formula = keys, f"{keys} keys"
    if interpolation == "CUBICSPLINE":
        expected, formula = expected * 3, formula + " × 3 (CUBICSPLINE)"
    if path == "weights":
        targets = morph_target_count(raw["meshes"][raw["nodes"][channel["target"]["node"]]["mesh"]])
        expected, formula = expected * targets, formula + f" × {targets} morph targets"
    if accessor["count"] != expected:
        raise GltfError(
            file, where, f"{path} output accessor {o} has {accessor['count']} elements, expected {expected} = {formula}"
        )
    values = reader.read(o)
    bad = np.flatnonzero(~np.isfinite(values.reshape(len(values), -1)).all(axis=1))
    if bad.size:
        raise GltfError(file, where, f"output accessor {o} value {bad[0]} is not finite: {values[bad[0]].tolist()}")


def _warn(file: Path, here: tuple, why: str) -> None:
    warnings.warn(f"{file}:{pointer(*here)}: channel ignored: {why}", GltfWarning, stacklevel=5)
