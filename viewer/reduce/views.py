"""The copy's animation data in a few bufferViews, not one per accessor.

The writer gives every accessor a view of its own; a reduced clip of sixty channels is then a hundred and twenty
views, each a JSON entry (and, with ``--meshopt``, a compressed stream with its own header and extension
entry). Exporters and gltfpack keep a file's animation data in a few views; so does the copy: the views that
hold one animation accessor and nothing else are merged per element size and meshopt filter (a compressed
view's elements must share one stride and filter), each accessor at its offset in its view. Run before
``files.prune``, which then drops the emptied views and their bytes.
"""

from __future__ import annotations

from viewer.files import writer
from viewer.gltf.accessors import element_size


def merge_animation_views(w: writer.JsonWriter, filter_key: str) -> int:
    """Merge the views of ``w`` that hold exactly one accessor, read only by animation samplers; returns how
    many views there are now for that data."""
    doc = w.doc
    accessors, views = doc.get("accessors", []), doc.get("bufferViews", [])
    animated = {
        a for anim in doc.get("animations", []) for s in anim.get("samplers", []) for a in (s["input"], s["output"])
    }
    readers: dict[int, list[int]] = {}
    for i, acc in enumerate(accessors):
        if isinstance(acc.get("bufferView"), int):
            readers.setdefault(acc["bufferView"], []).append(i)
    shown = {img.get("bufferView") for img in doc.get("images", [])}
    groups: dict[tuple, list[int]] = {}
    for view, users in readers.items():
        if len(users) != 1 or users[0] not in animated or view in shown:
            continue
        acc = accessors[users[0]]
        v = views[view]
        if "sparse" in acc or v.get("byteStride") or v.get("buffer", 0) != 0 or acc.get("byteOffset"):
            continue
        size = element_size(acc["type"], acc["componentType"])
        groups.setdefault((size, acc.get(filter_key)), []).append(users[0])
    for members in groups.values():
        if len(members) < 2:
            continue
        parts, offsets, at = [], [], 0
        for a in members:
            data = bytes(
                w.bin[views[accessors[a]["bufferView"]]["byteOffset"] :][
                    : views[accessors[a]["bufferView"]]["byteLength"]
                ]
            )
            pad = -at % 4
            parts.append(b"\0" * pad + data)
            at += pad
            offsets.append(at)
            at += len(data)
        merged = w.add_buffer_view(b"".join(parts))
        for a, offset in zip(members, offsets):
            accessors[a]["bufferView"] = merged
            if offset:
                accessors[a]["byteOffset"] = offset
    return len(groups)
