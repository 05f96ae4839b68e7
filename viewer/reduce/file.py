"""A reduced copy of a file written, read back and measured with ``animview diff``: no output over E.

The copy keeps everything but the reduced animations' samplers: channels point at new samplers (equal key
times share one input accessor), dropped channels go, and the old accessors and their bytes go with them
(``files.prune``). The written file is then loaded like any other and diffed against the original at the diff's
own times (keys, midpoints, 120 fps) on its own vertex subsets — an evaluator independent of the boxes the
reduction bounded. A clip the diff finds over E is reduced again at half its shares; after ``RETRIES`` it is
written as the file had it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from viewer.compare.diff import diff_scenes, prepare, scene_size
from viewer.files import writer
from viewer.files.bake import copy_document
from viewer.files.prune import prune
from viewer.gltf.accessors import element_size
from viewer.pose.pose import Pose
from viewer.reduce import channels as chans
from viewer.reduce.clips import Reduced, reduce_clip, stored_types
from viewer.reduce.levers import point_boxes
from viewer.reduce.measure import verify_times
from viewer.reduce.views import merge_animation_views
from viewer.scene.scene import Scene, load

RETRIES = 3
FILTER_KEY = "_animview_filter"  # marks an accessor holding filtered data until the views are compressed
SLACK = 1e-9  # relative: float32 round-off in the diff's own arithmetic is not an error of the reduction


@dataclass
class Outcome:
    """What ``reduce_file`` did: the clips' plans and errors, the diff of the written file, sizes and time."""

    source: Path
    path: Path
    error: float
    size: float
    reduced: list[Reduced]
    diff: dict
    file_before: int
    file_after: int
    seconds: float
    pruned: str | None = None
    retries: dict[int, int] = field(default_factory=dict)
    source_doc: dict = field(default_factory=dict, repr=False)
    written_doc: dict = field(default_factory=dict, repr=False)
    names: tuple = ()


def reduce_file(
    scene: Scene, out_path: str | Path, error: float, animation: int | None = None, meshopt: bool = False
) -> Outcome:
    """Write ``scene``'s file to ``out_path`` with every clip (or only ``animation``) reduced so that nothing
    that shows moves more than ``error`` scene units from where the original puts it. ``meshopt``: rotations
    and translations through the meshopt filters where their rounding fits, every animation view compressed
    (EXT_meshopt_compression)."""
    if not (math.isfinite(error) and error >= 0):
        raise ValueError(f"--max-error must be a finite distance of at least 0, got {error!r}")
    if Path(out_path).suffix.lower() not in (".glb", ".gltf"):
        raise ValueError(f"output file must end in .glb or .gltf, got {Path(out_path).name!r}")
    start = time.perf_counter()
    chosen = list(range(len(scene.clips))) if animation is None else [animation]
    if not scene.clips:
        raise ValueError(f"{scene.name} has no animations to reduce")
    with np.errstate(all="ignore"):  # a pose beyond float range is refused below, by the clip it comes from
        pose, size = Pose(scene), scene_size(scene)
        boxes = point_boxes(scene, _weight_max(scene))
    shares = {a: 1.0 for a in chosen}
    retries: dict[int, int] = {}
    for attempt in range(RETRIES + 1):
        done = [
            _reduce(pose, scene.clips[a], error, boxes, size, shares[a], attempt > RETRIES - 1, meshopt) for a in chosen
        ]
        path, pruned, doc = write(scene, out_path, done, meshopt)
        report = verify(scene, path, error, chosen)
        worst = {c["a"]: c["max_distance"] for c in report["clips"]}
        over = [a for a in chosen if worst.get(scene.clips[a].name, 0.0) > error * (1 + SLACK) + 1e-12 * size]
        if not over:
            break
        for a in over:
            shares[a] *= 0.5
            retries[a] = retries.get(a, 0) + 1
    before = Path(scene.path).stat().st_size if Path(scene.path).is_file() else 0
    seconds = time.perf_counter() - start
    after = path.stat().st_size
    raw, names = scene.document.raw, scene.nodes.names
    return Outcome(
        scene.path, path, error, size, done, report, before, after, seconds, pruned, retries, raw, doc, names
    )


def _reduce(pose, clip, error, boxes, size, share, exact, meshopt) -> Reduced:
    stored = stored_types(pose.scene.document, clip)
    return reduce_clip(pose, clip, 0.0 if exact else error * share, boxes, size, stored, meshopt)


def _weight_max(scene: Scene) -> dict[int, float]:
    """The largest |weight| each morphed node reaches in any clip or at rest (at least 1)."""
    out: dict[int, float] = {}
    for clip in scene.clips:
        for ch in clip.channels:
            if ch.consumer == "node" and ch.path == "weights":
                top = float(np.abs(ch.curve.values).max(initial=0.0))
                out[ch.node] = max(out.get(ch.node, 1.0), top)
    return out


def verify(scene: Scene, path: Path, error: float, chosen: list[int]) -> dict:
    """``animview diff`` of the written file against the original, as the command runs it (its times — every
    key, the midpoints and a 120 fps grid (``verify_times``: the copy's keys are the original's) —, its vertex
    subsets), per reduced clip: a user who diffs the two files gets these numbers."""
    written = load(path)
    prepared = prepare(scene, written)
    clips = []
    for a in chosen:
        clip = scene.clips[a]
        one = diff_scenes(scene, written, only=clip, prepared=prepared, fail_above=error, times=verify_times(clip))
        clips += one["clips"]
    return {"clips": clips, "max_distance": max((c["max_distance"] for c in clips), default=0.0)}


def write(
    scene: Scene, out_path: str | Path, done: list[Reduced], meshopt: bool = False
) -> tuple[Path, str | None, dict]:
    """The copy with the reduced clips' samplers; returns its path, why old accessors stayed (None: pruned) and
    its JSON. ``meshopt``: every animation sampler's views compressed last (``files.meshopt_pack``)."""
    w = copy_document(scene.document)
    for r in done:
        _replace(w, r, scene.document.ignored_channels, meshopt)
    merge_animation_views(w, FILTER_KEY)
    why = prune(w)
    if meshopt:
        from viewer.files.meshopt_pack import compress_views, packed_dict

        compress_views(w, _animation_views(w.doc))
        doc = packed_dict(w)
    else:
        doc = w.to_dict()
    for acc in doc.get("accessors", []):
        acc.pop(FILTER_KEY, None)
    if not w.bin:
        doc.pop("buffers", None)
    return writer.save(doc, w.bin_bytes(), out_path), why, doc


def _animation_views(doc: dict) -> dict[int, str | None]:
    """The bufferViews only animation samplers read, with the filter their data was encoded for; views of
    elements that are not a multiple of 4 bytes (a byte per weight) stay plain (ATTRIBUTES needs it)."""
    accessors, used = doc.get("accessors", []), {}
    for anim in doc.get("animations", []):
        for sampler in anim.get("samplers", []):
            for a in (sampler.get("input"), sampler.get("output")):
                acc = accessors[a]
                if "sparse" in acc or not isinstance(acc.get("bufferView"), int):
                    continue
                size = element_size(acc["type"], acc["componentType"])
                if size % 4 == 0:
                    used[acc["bufferView"]] = acc.get(FILTER_KEY)
    return {v: f for v, f in used.items() if _only_animation(doc, v)}


def _only_animation(doc: dict, view: int) -> bool:
    """No accessor outside the animations' samplers reads ``view`` (an image or mesh sharing it stays plain)."""
    readers = {i for i, acc in enumerate(doc.get("accessors", [])) if acc.get("bufferView") == view}
    animated = {
        a for anim in doc.get("animations", []) for s in anim.get("samplers", []) for a in (s["input"], s["output"])
    }
    images = any(img.get("bufferView") == view for img in doc.get("images", []))
    return readers <= animated and not images


def _replace(w: writer.JsonWriter, r: Reduced, ignored, meshopt: bool = False) -> None:
    """Animation ``r.clip.index``'s channels on new samplers; dropped channels removed; the channels the viewer
    sets aside keep their samplers."""
    index = r.clip.index
    anim = w.doc["animations"][index]
    position = {p.source.pointer or (p.source.node, p.source.path): k for k, p in enumerate(r.plans)}
    samplers, channels, kept, inputs = [], [], {}, {}
    for ci, channel in enumerate(anim["channels"]):
        target = channel["target"]
        via = target.get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer")
        k = position.get(via if target["path"] == "pointer" else (target.get("node"), target["path"]))
        # Booleans and integers keep the file's own sampler; every other channel is written anew, kept keys
        # too (values read back exactly: float32, or the same normalized integers), so the file's animation
        # bufferView — one for all its clips, in most exporters' files — is left to no one and goes.
        as_was = k is not None and r.plans[k].rule == "exact" and r.plans[k].source.curve.discrete
        if (index, ci) in ignored or k is None or as_was:
            if channel["sampler"] not in kept:
                kept[channel["sampler"]] = len(samplers)
                samplers.append(anim["samplers"][channel["sampler"]])
            channels.append(channel | {"sampler": kept[channel["sampler"]]})
            continue
        plan = r.plans[k]
        if plan.channel is None:
            continue
        sampler = _sampler(w, plan, target["path"], plan.stored, inputs)
        channels.append(channel | {"sampler": len(samplers)})
        samplers.append(sampler)
    anim["channels"], anim["samplers"] = channels, samplers


def _sampler(w: writer.JsonWriter, plan: chans.Planned, path: str, stored: chans.Stored, inputs: dict) -> dict:
    curve, ch = plan.channel.curve, plan.channel
    values = np.asarray(curve.values, np.float64)
    if curve.interpolation == "CUBICSPLINE":
        values = np.stack([curve.in_tangents, values, curve.out_tangents], axis=1).reshape(-1, values.shape[1])
    if path == "pointer" and (ch.width == 1 or ch.path == "weights"):
        values = values.reshape(-1)
    component = None
    if stored.filter is not None:  # the filter's encoded form; the reader decodes it (``Stored.round``)
        from viewer.files.meshopt_pack import encode_filtered

        values = encode_filtered(values.reshape(len(values), -1), stored.filter, stored.bits)
        component = 5122 if stored.filter == "QUATERNION" else None
        interp = None if curve.interpolation == "LINEAR" else curve.interpolation
        made = w.add_sampler(curve.times, values, path, interp, component, component is not None, inputs=inputs)
        w.doc["accessors"][made.output][FILTER_KEY] = stored.filter
        return writer.as_json(made)
    if stored.normalized and stored.component in chans.NORMALIZED:
        scale = chans.NORMALIZED[stored.component]
        dtype = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16}[stored.component]
        values = np.round(np.clip(values, -1.0, 1.0) * scale).astype(dtype)
        component = stored.component
    interp = None if curve.interpolation == "LINEAR" else curve.interpolation
    made = w.add_sampler(curve.times, values, path, interp, component, component is not None, inputs=inputs)
    return writer.as_json(made)
