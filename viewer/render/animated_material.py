"""A material's uniforms with what an animation (KHR_animation_pointer) writes into it this frame.

The animated values are written into a copy of the material's JSON at the places their pointers name, and the
copy is read by the same ``materials.material_factors`` (and ``texture_transform``) that read the file: one
reading of glTF's material rules, whether a value came from the file or from a channel — emissive × strength,
the IOR's special zero, a texture transform's offset / rotation / scale.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from viewer.gltf.object_model import PROPERTIES, TEXTURE_SLOTS
from viewer.render.material_factors import dig, material_factors, texture_transform
from viewer.render.materials import Material

# field → the JSON path inside a material its pointer names (after "/materials/N/")
MATERIAL_PATHS: dict[str, tuple[str, ...]] = {
    p.field: tuple(p.template.split("/")[3:]) for p in PROPERTIES if p.consumer == "material" and p.shown
}


# The last uniforms made per material, with the values they were made from: every primitive (and pane) drawing
# a material in one frame shares them. ``Pose`` makes a new values dict per update, so identity says "same frame".
_LAST: dict[int, tuple[dict, Material, tuple]] = {}
_MAX_CACHED = 256


def material_uniforms(material: Material, index: int | None, pose) -> tuple[tuple[str, object], ...]:
    """``material.uniforms()``, with the animated values of glTF material ``index`` now (``pose.properties``)."""
    fields = pose.properties.get(("material", index)) if index is not None else None
    if not fields:
        return material.uniforms()
    last = _LAST.get(id(material))
    if last is not None and last[0] is fields and last[1] is material:
        return last[2]
    if len(_LAST) >= _MAX_CACHED:
        _LAST.clear()
    uniforms = _animated_uniforms(material, fields)
    _LAST[id(material)] = (fields, material, uniforms)
    return uniforms


def _animated_uniforms(material: Material, fields: dict[str, np.ndarray]) -> tuple[tuple[str, object], ...]:
    source = animated_json(material.source, fields)
    uniforms = dict(replace(material, **material_factors(source)).uniforms())
    for name in material.slots:
        ext = dig(source, TEXTURE_SLOTS[name] + ("extensions", "KHR_texture_transform"))
        if ext is not None:
            uniforms[f"u_{name}_uv"] = texture_transform(ext)
    return tuple(uniforms.items())


def animated_json(source: dict, fields: dict[str, np.ndarray]) -> dict:
    """A copy of a material's JSON with each animated field written where its pointer points (a scalar as a
    number, a vector as a list); the enclosing objects exist, since a pointer resolves only where they do."""
    out = copy.deepcopy(source)
    for field, value in fields.items():
        path = MATERIAL_PATHS.get(field)
        if path is None:
            continue
        obj = out
        for key in path[:-1]:
            obj = obj.setdefault(key, {})
        obj[path[-1]] = float(value[0]) if len(value) == 1 else [float(x) for x in value]  # float / floatN
    return out
