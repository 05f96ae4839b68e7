"""The file's animations as the animation layer's objects: ``Clip`` → ``Channel`` → ``Curve`` (times float64,
values float32 as stored, else float64).

Apart from ``scene.py`` because it is the one place that reads samplers, key accessors and
KHR_animation_pointer targets, and it needs nothing of the scene model: only the validated ``Document``
and ``viewer.animation``. ``scene.build_scene`` calls ``read_clip`` once per animation; nothing here
imports ``scene``.
"""

from __future__ import annotations

import numpy as np

from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import Curve
from viewer.gltf import Document, pointer_rules


def read_clip(doc: Document, anim: dict, index: int) -> Clip:
    """Channels of one animation in file order, without the ones validation set aside.

    Validation already warned about (and listed in ``doc.ignored_channels``) channels with no target
    node, paths this viewer cannot animate, and earlier duplicates of a (node, path): the later wins.
    """
    channels = []
    times: dict[int, np.ndarray] = {}  # input accessor → its float64 times, one array however many samplers share it
    for ci, ch in enumerate(anim["channels"]):
        if (index, ci) in doc.ignored_channels:
            continue
        sampler = anim["samplers"][ch["sampler"]]
        node, path = ch["target"].get("node"), ch["target"]["path"]
        if path == "pointer":
            channels.append(_pointer_channel(doc, ch, sampler, times))
        elif node is not None and path in ("translation", "rotation", "scale", "weights"):
            channels.append(Channel(node, path, _curve(doc, sampler, path == "rotation", times), ch["sampler"]))
    return Clip(anim.get("name") or f"animation {index}", index, channels)


def _pointer_channel(doc: Document, channel: dict, sampler: dict, times: dict[int, np.ndarray]) -> Channel:
    """A KHR_animation_pointer channel validation accepted: a node's TRS / weights / visibility exactly as a
    plain channel would carry it, or a material's, camera's or light's property (node -1)."""
    text = channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
    target = pointer_rules.resolve(doc.raw, text)
    prop = target.property
    curve = _curve(doc, sampler, prop.consumer == "node" and prop.field == "rotation", times, prop.type)
    node = target.index if prop.consumer == "node" else -1
    return Channel(
        node,
        prop.field,
        curve,
        channel["sampler"],
        pointer=text,
        element=target.element,
        consumer=prop.consumer,
        index=target.index,
    )


def _curve(doc: Document, sampler: dict, rotation: bool, shared: dict[int, np.ndarray], kind: str = "float") -> Curve:
    """The sampler's keys: times float64, values float32 where the file stores float32 (else float64). ``kind``
    is the Object Model type: booleans and integers step in every mode, and a boolean's unsigned bytes read as
    0.0 / 1.0. Samplers with one input accessor get one times
    array (``shared``): a take whose channels all share their key times holds them once."""
    if sampler["input"] not in shared:
        shared[sampler["input"]] = np.asarray(doc.accessor(sampler["input"]), dtype=np.float64)
    times = shared[sampler["input"]]
    # float32 keys stay as the file holds them (a read-only view, no copy): a float64 copy of an hour-long take
    # was 400 MB, twice the file; every evaluator reads them as float64 (``modes``, ``table``), the same numbers.
    out = np.asarray(doc.accessor(sampler["output"]))
    if out.dtype != np.float32 or kind != "float":
        out = out.astype(np.float64)
    if kind == "bool":
        out = (out != 0.0).astype(np.float64)
    n = times.shape[0]
    interp = sampler.get("interpolation", "LINEAR")
    cubic = interp == "CUBICSPLINE"
    values = out.reshape(n, 3 if cubic else 1, -1)
    return Curve(
        times=times,
        values=np.ascontiguousarray(values[:, 1 if cubic else 0]),
        in_tangents=np.ascontiguousarray(values[:, 0]) if cubic else None,
        out_tangents=np.ascontiguousarray(values[:, 2]) if cubic else None,
        rotation=rotation,
        interpolation=interp,
        discrete=kind in ("bool", "int"),
    )
