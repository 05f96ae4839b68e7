"""Drop the accessors and bufferViews a glTF document no longer references, and the bytes they held.

``animview reduce`` (and any edit that replaces samplers, as ``bake`` does) leaves the old accessors in the
file: removing one renumbers every later one, so the writer never does it. This module does it once, for a
``JsonWriter`` whose bufferViews all live in its one buffer (``w.bin``, as ``bake.copy_document`` makes it).

Pruning is only safe when every reference is known, so it refuses (and changes nothing) when the file uses
an extension outside ``KNOWN_EXTENSIONS`` (one could hold an index we would not renumber), a
KHR_animation_pointer aims at an accessor or bufferView, a bufferView lies outside ``w.bin``, or a reference
is not a valid index. ``w.doc["buffers"]`` is left to ``JsonWriter.to_dict``, which rebuilds it from
``w.bin``; only a ``byteLength`` already there is updated, so the dict stays consistent in between.
"""

from __future__ import annotations

from typing import Any, Iterator

from viewer.files.writer import JsonWriter

# Extensions whose index references are all listed below, or that reference no accessor or bufferView.
KNOWN_EXTENSIONS = frozenset(
    {
        "KHR_texture_transform",
        "KHR_texture_basisu",
        "EXT_texture_webp",
        "EXT_texture_avif",
        "KHR_lights_punctual",
        "KHR_mesh_quantization",
        "EXT_mesh_gpu_instancing",
        "KHR_animation_pointer",
        "KHR_node_visibility",
        "KHR_draco_mesh_compression",
        "KHR_xmp_json_ld",
        "KHR_materials_variants",
    }
)
MESHOPT = ("EXT_meshopt_compression", "KHR_meshopt_compression")

Site = tuple[Any, Any]  # (container, key): container[key] is an index


def prune(w: JsonWriter) -> str | None:
    """Remove unreferenced accessors and bufferViews from w in place (w.doc and w.bin), renumbering references.
    Returns None when pruned, or a one-line reason why nothing was removed (e.g. the file uses an extension
    whose accessor/bufferView references this module does not know, so removing could break it).

    None also when nothing was unreferenced: then ``w`` is left exactly as it was, bytes included.
    """
    doc = w.doc
    reason = _refusal(doc, len(w.bin))
    if reason:
        return reason
    accessors, views = doc.get("accessors", []), doc.get("bufferViews", [])
    accessor_sites = list(_accessor_sites(doc))
    reason = _bad_site(accessor_sites, len(accessors), "accessor")
    if reason:
        return reason
    kept_accessors = sorted({c[k] for c, k in accessor_sites})
    view_sites = list(_view_sites(doc, [accessors[i] for i in kept_accessors]))
    reason = _bad_site(view_sites, len(views), "bufferView")
    if reason:
        return reason
    kept_views = sorted({c[k] for c, k in view_sites})
    if len(kept_accessors) == len(accessors) and len(kept_views) == len(views):
        return None
    _renumber(doc, "accessors", kept_accessors, accessor_sites)
    _renumber(doc, "bufferViews", kept_views, view_sites)
    _repack(w, doc.get("bufferViews", []))
    return None


def _refusal(doc: dict, bin_length: int) -> str | None:
    """Why pruning could break ``doc`` (None when it cannot): unknown extensions, a pointer into the
    accessors or bufferViews, or a bufferView that is not a slice of the writer's buffer."""
    names = set(doc.get("extensionsUsed", [])) | set(doc.get("extensionsRequired", [])) | set(_extension_names(doc))
    for name in sorted(names, key=str):
        if name in MESHOPT:
            return f"{name} is still present: its bufferViews refer to buffers, not to the writer's one buffer"
        if not (name in KNOWN_EXTENSIONS or str(name).startswith("KHR_materials_")):
            return f"the file uses extension {name!r}, whose accessor/bufferView references are not known"
    for animation in doc.get("animations", []):
        for channel in animation.get("channels", []):
            target = channel.get("target", {})
            pointer = target.get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer", "")
            if isinstance(pointer, str) and pointer.startswith(("/accessors", "/bufferViews")):
                return f"KHR_animation_pointer {pointer!r} aims at data that would be renumbered"
    for i, view in enumerate(doc.get("bufferViews", [])):
        start, length = view.get("byteOffset", 0), view.get("byteLength")
        if view.get("buffer") != 0 or not _is_index(start) or not _is_index(length):
            return f"bufferView {i} is not a plain slice of buffer 0, the only buffer rewritten"
        if start + length > bin_length:
            return f"bufferView {i} ends at byte {start + length}, past the writer's buffer ({bin_length} bytes)"
    return None


def _extension_names(item: Any) -> Iterator[str]:
    """Every extension name used anywhere (not only those declared), skipping ``extras``, which are free-form."""
    if isinstance(item, dict):
        for key, value in item.items():
            if key == "extensions" and isinstance(value, dict):
                yield from value
            if key != "extras":
                yield from _extension_names(value)
    elif isinstance(item, list):
        for value in item:
            yield from _extension_names(value)


def _accessor_sites(doc: dict) -> Iterator[Site]:
    for mesh in doc.get("meshes", []):
        for primitive in mesh.get("primitives", []):
            yield from _values(primitive.get("attributes", {}))
            if "indices" in primitive:
                yield primitive, "indices"
            for target in primitive.get("targets", []):
                yield from _values(target)
    for skin in doc.get("skins", []):
        if "inverseBindMatrices" in skin:
            yield skin, "inverseBindMatrices"
    for animation in doc.get("animations", []):
        for sampler in animation.get("samplers", []):
            yield from ((sampler, key) for key in ("input", "output") if key in sampler)
    for node in doc.get("nodes", []):
        instancing = node.get("extensions", {}).get("EXT_mesh_gpu_instancing", {})
        yield from _values(instancing.get("attributes", {}))


def _view_sites(doc: dict, kept_accessors: list[dict]) -> Iterator[Site]:
    """bufferView references, counting only the accessors that stay (a dropped accessor's view goes too)."""
    for accessor in kept_accessors:
        if "bufferView" in accessor:
            yield accessor, "bufferView"
        sparse = accessor.get("sparse", {})
        yield from (
            (sparse[part], "bufferView") for part in ("indices", "values") if "bufferView" in sparse.get(part, {})
        )
    for image in doc.get("images", []):
        if "bufferView" in image:
            yield image, "bufferView"
    for mesh in doc.get("meshes", []):
        for primitive in mesh.get("primitives", []):
            draco = primitive.get("extensions", {}).get("KHR_draco_mesh_compression", {})
            if "bufferView" in draco:
                yield draco, "bufferView"


def _values(mapping: dict) -> Iterator[Site]:
    return ((mapping, key) for key in mapping)


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _bad_site(sites: list[Site], count: int, kind: str) -> str | None:
    """A reason when a reference is not an index of an existing item: renumbering it would only hide the error."""
    for container, key in sites:
        if not _is_index(container[key]) or container[key] >= count:
            return f"a reference to {kind} {container[key]!r} does not name one of the {count} {kind}s"
    return None


def _renumber(doc: dict, collection: str, kept: list[int], sites: list[Site]) -> None:
    new_index = {old: new for new, old in enumerate(kept)}
    for container, key in sites:
        container[key] = new_index[container[key]]
    items = [doc[collection][i] for i in kept] if collection in doc else []
    if items:
        doc[collection] = items
    else:
        doc.pop(collection, None)  # glTF arrays, when present, hold at least one item


def _repack(w: JsonWriter, views: list[dict]) -> None:
    """Copy the kept views' bytes, in order, into a new buffer (4-byte aligned: no component is wider)."""
    old, new = bytes(w.bin), bytearray()
    for view in views:
        start = view.get("byteOffset", 0)
        new.extend(b"\0" * (-len(new) % 4))
        if "byteOffset" in view or len(new):
            view["byteOffset"] = len(new)
        new.extend(old[start : start + view["byteLength"]])
    had_data = bool(w.bin)
    w.bin[:] = new
    buffers = w.doc.get("buffers", [])
    if had_data and not new:
        w.doc.pop("buffers", None)  # no bytes left, and a buffer must hold at least one
    elif buffers and "byteLength" in buffers[0]:
        buffers[0]["byteLength"] = len(w.bin_bytes())
