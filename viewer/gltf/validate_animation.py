"""Validation of animations: samplers, key times, output formats and counts (glTF 2.0 §3.11).

Decisions, documented here because the animation code relies on them:

* A channel whose ``target.path`` is ``"pointer"`` (KHR_animation_pointer) is ignored with a
  ``GltfWarning`` when the extension is only used; if it is *required*, ``validate`` already refused
  the file (the extension is not supported).
* A channel without ``target.node`` is ignored with a warning, as the spec says it should be.
* When several channels of one animation target the same (node, path), the last one wins and the
  earlier ones are ignored with a warning (the spec forbids the repeat; a warning keeps such files
  viewable; "last wins" is the rule the project's issue states and ``scene.py`` follows).

Ignored channels are returned as ``(animation, channel)`` pairs and exposed as
``Document.ignored_channels``; every other channel is guaranteed valid.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from viewer.errors import GltfError, GltfWarning, pointer
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


def check_animations(raw: dict, file: Path, reader: AccessorReader) -> frozenset[tuple[int, int]]:
    """Check every sampler's input, then every channel's target and output.

    Returns:
        ``(animation, channel)`` pairs that are ignored (see the module docstring).
    """
    ignored: set[tuple[int, int]] = set()
    for a, animation in enumerate(raw.get("animations", [])):
        for s, sampler in enumerate(animation["samplers"]):
            _check_input(raw, sampler["input"], ("animations", a, "samplers", s, "input"), file, reader)
        winners: dict[tuple[int, str], int] = {}  # (node, path) → channel that animates it
        for c, channel in enumerate(animation["channels"]):
            if _is_ignored(raw, animation, channel, a, c, file):
                ignored.add((a, c))
                continue
            key = (channel["target"]["node"], channel["target"]["path"])
            if key in winners:
                earlier = winners[key]
                ignored.add((a, earlier))
                _warn(file, ("animations", a, "channels", earlier), f"targets (node {key[0]}, {key[1]}) like the "
                      f"later channel {c}, which wins")
            winners[key] = c
            _check_output(raw, animation, channel, a, file, reader)
    return frozenset(ignored)


def _check_input(raw: dict, a: int, where: tuple, file: Path, reader: AccessorReader) -> None:
    """Key times: SCALAR float, finite, >= 0 and strictly increasing, in seconds."""
    accessor = raw["accessors"][a]
    if accessor["type"] != "SCALAR" or accessor["componentType"] != FLOAT or accessor.get("normalized", False):
        raise GltfError(file, pointer(*where), f"input accessor {a} must be SCALAR float (5126), got "
                                               f"{accessor['type']} {accessor['componentType']}")
    times = reader.read(a)
    bad = np.flatnonzero(~np.isfinite(times))
    if bad.size:
        raise GltfError(file, pointer(*where), f"input accessor {a} key time {bad[0]} is {times[bad[0]]}, "
                                               "key times must be finite")
    bad = np.flatnonzero(times < 0)
    if bad.size:
        raise GltfError(file, pointer(*where), f"input accessor {a} key time {bad[0]} is {times[bad[0]]}, "
                                               "key times must be >= 0")
    bad = np.flatnonzero(np.diff(times) <= 0)
    if bad.size:
        k = int(bad[0]) + 1
        raise GltfError(file, pointer(*where), f"input accessor {a} key times must strictly increase: time {k} is "
                                               f"{times[k]} after {times[k - 1]}")


def _is_ignored(raw: dict, animation: dict, channel: dict, a: int, c: int, file: Path) -> bool:
    """Check the channel's sampler and target; True (with a warning) for a channel to skip."""
    here = ("animations", a, "channels", c)
    if channel["sampler"] >= len(animation["samplers"]):
        raise GltfError(file, pointer(*here, "sampler"), f"sampler {channel['sampler']} is out of range: "
                                                         f"animation {a} has {len(animation['samplers'])} samplers")
    target = channel["target"]
    path = target["path"]
    if path == POINTER_PATH:
        _warn(file, here, "targets a KHR_animation_pointer, which is not supported")
        return True
    if path not in OUTPUT_FORMATS:
        raise GltfError(file, pointer(*here, "target", "path"),
                        f"target path {path!r} is not one of {', '.join(OUTPUT_FORMATS)}")
    if "node" not in target:
        _warn(file, here, "has no target node")
        return True
    node = raw["nodes"][target["node"]]
    if "matrix" in node and path != "weights":
        raise GltfError(file, pointer(*here, "target", "node"),
                        f"channel animates {path} of node {target['node']}, which has a matrix (animated nodes use TRS)")
    if path == "weights":
        if "mesh" not in node or morph_target_count(raw["meshes"][node["mesh"]]) == 0:
            raise GltfError(file, pointer(*here, "target", "path"),
                            f"channel animates weights but node {target['node']} has no mesh with morph targets")
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
        raise GltfError(file, where, f"{path} output accessor {o} must be {kind} float or normalized integer "
                                     f"as the spec allows, got {accessor['type']} of componentType {found[0]}"
                                     f"{' normalized' if found[1] else ''}")
    keys = raw["accessors"][sampler["input"]]["count"]
    interpolation = sampler.get("interpolation", "LINEAR")
    expected, formula = keys, f"{keys} keys"
    if interpolation == "CUBICSPLINE":
        expected, formula = expected * 3, formula + " × 3 (CUBICSPLINE)"
    if path == "weights":
        targets = morph_target_count(raw["meshes"][raw["nodes"][channel["target"]["node"]]["mesh"]])
        expected, formula = expected * targets, formula + f" × {targets} morph targets"
    if accessor["count"] != expected:
        raise GltfError(file, where, f"{path} output accessor {o} has {accessor['count']} elements, expected "
                                     f"{expected} = {formula}")
    values = reader.read(o)
    bad = np.flatnonzero(~np.isfinite(values.reshape(len(values), -1)).all(axis=1))
    if bad.size:
        raise GltfError(file, where, f"output accessor {o} value {bad[0]} is not finite: {values[bad[0]].tolist()}")


def _warn(file: Path, here: tuple, what: str) -> None:
    warnings.warn(f"{file}:{pointer(*here)}: channel {what}; it is ignored", GltfWarning, stacklevel=5)
