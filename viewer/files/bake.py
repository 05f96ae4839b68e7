"""``animview bake``: resample clips in a chosen interpolation mode and write a self-contained copy of the file.

The viewer plays any clip in modes the file does not hold (Catmull-Rom, cubic with zero tangents, STEP or
LINEAR instead of the authored one). Another engine only plays what is written, so baking writes the
chosen motion as plain glTF samplers:

* at the keys (the default): one key per original key. Hermite modes (cubicspline, catmull-rom,
  cubic-zero) become CUBICSPLINE with the mode's own tangents (per second, as glTF Appendix C wants
  them), so the curve is the same between keys too, not only at them; linear becomes LINEAR (a rotation
  slerps, which is glTF's LINEAR) and step STEP, also exact everywhere.
* at ``fps``: times 0, 1/fps, 2/fps … up to the clip's end, plus every key time, written LINEAR (STEP
  for step): exact at those times, and close between them.

Everything else in the file is kept: the JSON is copied as it was (pygltflib's model would drop
``node.weights`` and empty values), every bufferView's bytes go into one new buffer, images held in
other files or data: URIs are embedded, and the baked samplers are appended. Channels the viewer sets
aside (no target node, KHR_animation_pointer, repeated targets) keep their samplers. The old samplers'
accessors stay in the file, unused: removing them would renumber every accessor reference.
"""

from __future__ import annotations

import copy
import math
import numbers
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from viewer.animation import modes
from viewer.animation.clip import Clip
from viewer.files import writer
from viewer.gltf import meshopt
from viewer.gltf.document import Document
from viewer.scene.scene import Scene

HERMITE_MODES = ("cubicspline", "catmull-rom", "cubic-zero")
MAX_FRAMES = 10_000_000  # baked times per animation: F × channels × width float64 must fit in memory
IMAGE_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"\xabKTX 20\xbb", "image/ktx2"))


@dataclass(frozen=True)
class BakedChannel:
    """One channel's new sampler: key times (k,), output rows (k, or 3k for CUBICSPLINE, × width)."""

    times: np.ndarray
    values: np.ndarray
    interpolation: str


@dataclass(frozen=True)
class BakeSummary:
    """What ``bake_file`` wrote: per baked animation (index, name, channels, keys written in all)."""

    path: Path
    mode: str
    fps: float | None
    animations: tuple[tuple[int, str, int, int], ...]
    size: int

    def __str__(self) -> str:
        at = f"at {self.fps:g} fps" if self.fps is not None else "at the keys"
        lines = [f"wrote {self.path} ({self.size} bytes): mode {self.mode} {at}"]
        lines += [
            f"  animation {a} {name!r}: {channels} channels, {keys} keys" for a, name, channels, keys in self.animations
        ]
        return "\n".join(lines)


def check_options(out_path: str | Path, mode: str, fps: float | None, keys: bool) -> None:
    """A one-line ``ValueError`` for options no file could meet: the mode, the frame rate, the output name."""
    if mode not in modes.MODES:
        raise ValueError(f"unknown interpolation mode {mode!r}; choose from {', '.join(modes.MODES)}")
    if fps is not None and keys:
        raise ValueError("bake either at the keys or at a frame rate, not both")
    if fps is not None and not (_is_number(fps, numbers.Real) and math.isfinite(fps) and fps > 0):
        raise ValueError(f"fps must be a finite number above 0, got {fps!r}")
    if Path(out_path).suffix.lower() not in (".glb", ".gltf"):
        raise ValueError(f"output file must end in .glb or .gltf, got {Path(out_path).name!r}")


def chosen_animations(scene: Scene, fps: float | None, animation: int | None) -> list[int]:
    """The animation indices to bake; a one-line ``ValueError`` when ``scene`` has no animations, none of index
    ``animation``, or one with too many frames at ``fps``."""
    count = len(scene.clips)
    if count == 0:
        raise ValueError(f"{scene.name} has no animations to bake")
    if animation is not None and not (_is_number(animation, numbers.Integral) and 0 <= animation < count):
        raise ValueError(f"no animation {animation} in {scene.name}: it has {count} (indices 0 to {count - 1})")
    chosen = list(range(count)) if animation is None else [animation]
    for a in chosen:
        frames = scene.clips[a].duration * fps if fps is not None else 0.0
        if frames >= MAX_FRAMES:
            raise ValueError(
                f"{fps:g} fps over animation {a}'s {scene.clips[a].duration:g} s is "
                f"{math.floor(frames) + 1} frames, over the limit of {MAX_FRAMES}"
            )
    return chosen


def bake_times(clip: Clip, fps: float) -> np.ndarray:
    """Times 0, 1/fps, … up to the clip's duration, and every key time: increasing float32 values (as float64).

    Rounded to float32 before they are used, so the baked file is sampled at exactly the times it stores.
    """
    grid = (np.arange(math.floor(clip.duration * fps) + 1) / fps).astype(np.float32)
    return np.union1d(grid.astype(np.float64), np.asarray(clip.key_times, np.float64))


def hermite_keys(curve: modes.Curve, mode: str) -> np.ndarray:
    """CUBICSPLINE output rows (3n, W) that reproduce ``curve`` in a Hermite ``mode`` exactly (n ≥ 2 keys).

    Each interval is ``c0 + c1·u + c2·u² + c3·u³`` in u ∈ [0, 1] (``modes.intervals``); glTF's out-tangent
    at its start is c1/Δt and its in-tangent at its end is (c1 + 2c2 + 3c3)/Δt, per second. The first
    in-tangent and the last out-tangent are never used and are written as zeros.
    """
    c0, c1, c2, c3 = np.moveaxis(modes.intervals(mode, curve).coef, 1, 0)
    dt = np.diff(np.asarray(curve.times, np.float64))[:, None]
    zero = np.zeros_like(c0[:1])
    values = np.concatenate([c0, c0[-1:] + c1[-1:] + c2[-1:] + c3[-1:]])
    out_tangents = np.concatenate([c1 / dt, zero])
    in_tangents = np.concatenate([zero, (c1 + 2.0 * c2 + 3.0 * c3) / dt])
    return np.stack([in_tangents, values, out_tangents], axis=1).reshape(-1, values.shape[1])


def bake_clip(clip: Clip, mode: str, fps: float | None = None) -> list[BakedChannel]:
    """Every channel of ``clip`` resampled in ``mode``: at its own keys (``fps`` None) or at ``bake_times``.

    The clip is sampled once, at all the times needed, for all channels (``Clip.sample``).
    """
    if not clip.channels:
        return []
    times = bake_times(clip, fps) if fps is not None else np.asarray(clip.key_times, np.float64)
    sampled = clip.sample(times, mode)
    baked = []
    for c, channel in enumerate(clip.channels):
        curve, concrete = channel.curve, modes.resolve(mode, channel.curve)
        own = times if fps is not None else np.asarray(curve.times, np.float64)
        if fps is None and concrete in HERMITE_MODES and len(own) >= 2:
            baked.append(BakedChannel(own, hermite_keys(curve, concrete), "CUBICSPLINE"))
            continue
        values = sampled[np.searchsorted(times, own), c, : channel.width]
        if curve.rotation:
            values = modes.same_hemisphere(values)  # the shortest arc between keys, whichever way a reader slerps
        baked.append(BakedChannel(own, values, "STEP" if concrete == "step" else "LINEAR"))
    return baked


def image_mime(data: bytes) -> str:
    """The media type of an encoded image from its first bytes (octet-stream when not known)."""
    for magic, mime in IMAGE_MAGIC:
        if data.startswith(magic):
            return mime
    return "image/webp" if data[:4] == b"RIFF" and data[8:12] == b"WEBP" else "application/octet-stream"


def copy_document(doc: Document) -> writer.JsonWriter:
    """A writer holding a copy of ``doc``'s JSON with every bufferView moved into the writer's one buffer.

    Views keep their order, strides, targets and extensions (but meshopt's: their bytes are copied decoded);
    only ``buffer`` and ``byteOffset`` change (offsets 4-byte aligned, so every accessor stays aligned). Images
    given by uri are embedded as
    bufferViews, so the copy needs no other file.
    """
    w = writer.JsonWriter(copy.deepcopy(doc.raw))
    for i, view in enumerate(w.doc.get("bufferViews", [])):
        view["buffer"], view["byteOffset"] = 0, w.append(doc.buffer_view_bytes(i))
    meshopt.drop_compression(w.doc)  # the views now hold their decoded bytes
    for i, image in enumerate(w.doc.get("images", [])):
        if "uri" in image:
            data = doc.image_bytes(i)
            del image["uri"]
            image["mimeType"] = image.get("mimeType") or image_mime(data)
            image["bufferView"] = w.add_buffer_view(data)
    return w


def replace_samplers(
    w: writer.JsonWriter, index: int, clip: Clip, baked: list[BakedChannel], ignored: dict[tuple[int, int], str]
) -> None:
    """Point animation ``index``'s channels at new samplers holding ``baked``. Channels the clip skips keep
    theirs, and so do booleans and integers (KHR_animation_pointer): they step in every mode, so baking would
    change nothing but their accessor's type."""
    anim = w.doc["animations"][index]
    position = {ch.pointer or (ch.node, ch.path): k for k, ch in enumerate(clip.channels)}
    samplers: list[dict] = []
    kept: dict[int, int] = {}
    inputs: dict[bytes, int] = {}
    for ci, channel in enumerate(anim["channels"]):
        target = channel["target"]
        via = target.get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer")
        k = position.get(via if target["path"] == "pointer" else (target.get("node"), target["path"]))
        if (index, ci) in ignored or k is None or clip.channels[k].curve.discrete:
            if channel["sampler"] not in kept:
                kept[channel["sampler"]] = len(samplers)
                samplers.append(anim["samplers"][channel["sampler"]])
            channel["sampler"] = kept[channel["sampler"]]
            continue
        b, ch = baked[k], clip.channels[k]
        values = (
            b.values.reshape(-1)
            if target["path"] == "pointer" and (ch.width == 1 or ch.path == "weights")
            else b.values
        )  # a pointer's SCALAR output (a float, or a weights array) is one value per element
        channel["sampler"] = len(samplers)
        samplers.append(writer.as_json(w.add_sampler(b.times, values, target["path"], b.interpolation, inputs=inputs)))
    anim["samplers"] = samplers


def bake_file(
    scene: Scene,
    out_path: str | Path,
    mode: str,
    fps: float | None = None,
    keys: bool = False,
    animation: int | None = None,
) -> BakeSummary:
    """Write a copy of ``scene``'s file with its clips (all, or only ``animation``) resampled in ``mode``.

    Args:
        scene: a loaded ``viewer.Scene``.
        out_path: ``.glb`` (one BIN chunk) or ``.gltf`` (the buffer as a data: URI).
        mode: one of ``viewer.animation.modes.MODES``.
        fps: bake at this frame rate (plus every key); ``keys`` (or neither): at the clip's own keys.
        animation: the index of the one animation to bake; the others are copied unchanged.

    Raises:
        ValueError: unknown mode, fps not above 0, both fps and keys, animation index out of range, a
            file with no animations, or an output name that is not .glb/.gltf (one line each).
    """
    check_options(out_path, mode, fps, keys)
    chosen = chosen_animations(scene, fps, animation)
    w = copy_document(scene.document)
    rows = []
    for a in chosen:
        clip = scene.clips[a]
        baked = bake_clip(clip, mode, fps)
        replace_samplers(w, a, clip, baked, scene.document.ignored_channels)
        rows.append((a, clip.name, len(baked), sum(len(b.times) for b in baked)))
    doc = w.to_dict()
    if not w.bin:
        doc.pop("buffers", None)  # nothing binary at all: a buffer must have at least one byte
    path = writer.save(doc, w.bin_bytes(), out_path)
    return BakeSummary(Path(path), mode, fps, tuple(rows), path.stat().st_size)


def _is_number(value: object, kind: type) -> bool:
    """A number of ``kind`` (numpy scalars too), but not a bool: ``animation=True`` is a mistake, not 1."""
    return isinstance(value, kind) and not isinstance(value, bool)
