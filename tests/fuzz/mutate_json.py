"""Generic JSON mutations: any number, any key, any index, any ``extras``, anywhere in the document.

These know nothing about glTF beyond which property names hold indices; they find the rules the
validator forgot (a count that is a float, a required key that is gone, an index one past the end) and
the numbers that overflow what comes after validation (2**63 into int64, 1e308 into float32).
Each function takes (rng, mutant), edits ``mutant.doc`` and returns a one-line description.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

BIG_INT = int("9" * 401)  # 401 digits: more than a float64 holds, less than Python's int-parsing limit
HUGE = [1e308, 1e300, 3.4e38, 2**31, 2**32, 2**63, BIG_INT, 2**31 - 1, 2**32 - 1, 2**64]
WRONG_TYPES: list[Any] = ["7", "", None, [], [1], {}, {"a": 1}, True, False]

# property → the top-level collection its value indexes (None: an index into something local)
INDEX_KEYS = {
    "node": "nodes",
    "mesh": "meshes",
    "skin": "skins",
    "camera": "cameras",
    "scene": "scenes",
    "bufferView": "bufferViews",
    "buffer": "buffers",
    "source": "images",
    "material": "materials",
    "indices": "accessors",
    "inverseBindMatrices": "accessors",
    "skeleton": "nodes",
    "input": "accessors",
    "output": "accessors",
    "index": "textures",
    "sampler": None,
}
INDEX_LISTS = {"children": "nodes", "joints": "nodes", "nodes": "nodes"}  # lists of indices
INDEX_MAPS = {"attributes": "accessors"}  # objects whose values are indices (targets are lists of these)

REQUIRED = {
    "asset",
    "version",
    "byteLength",
    "buffer",
    "componentType",
    "count",
    "type",
    "channels",
    "samplers",
    "sampler",
    "target",
    "path",
    "input",
    "output",
    "primitives",
    "attributes",
    "joints",
    "indices",
    "values",
    "uri",
    "bufferView",
    "perspective",
    "orthographic",
    "yfov",
    "znear",
    "zfar",
    "xmag",
    "ymag",
}

MAX_WALK = 20000  # leaves looked at; a doc with 100 000 nodes is sampled, not walked whole


def leaves(doc: Any, path: str = "") -> Iterator[tuple[Any, Any, str]]:
    """(container, key, pointer) of every value below ``doc``, depth first, up to MAX_WALK of them."""
    stack = [(doc, path)]
    seen = 0
    while stack and seen < MAX_WALK:
        node, where = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            seen += 1
            yield node, key, f"{where}/{key}"
            if isinstance(value, (dict, list)):
                stack.append((value, f"{where}/{key}"))


def _pick(rng: random.Random, found: list) -> Any:
    return found[rng.randrange(len(found))] if found else None


def huge_value(rng: random.Random, current: Any) -> Any:
    """A number that breaks assumptions: huge, negative, zero, or a float where an int belongs."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(HUGE)
    if kind == 1:
        return -rng.choice(HUGE + [1, 1.5])
    if kind == 2:
        return rng.choice([0, 0.0, -0.0])
    base = current if isinstance(current, (int, float)) and not isinstance(current, bool) else 1
    return rng.choice([float(base) + 0.5, float(base), 1e-320, 5e-324])


def replace_number(rng: random.Random, m) -> str | None:
    """Any number in the document → huge / negative / zero / fractional."""
    found = [(c, k, p) for c, k, p in leaves(m.doc) if isinstance(c[k], (int, float)) and not isinstance(c[k], bool)]
    hit = _pick(rng, found)
    if hit is None:
        return None
    container, key, where = hit
    old, new = container[key], huge_value(rng, container[key])
    container[key] = new if repr(new) != repr(old) else rng.choice(HUGE)
    return f"{where}: {_short(old)} -> {_short(container[key])}"


def wrong_type(rng: random.Random, m) -> str | None:
    """Any number or string → a value of another JSON type."""
    found = [(c, k, p) for c, k, p in leaves(m.doc) if isinstance(c[k], (int, float, str))]
    hit = _pick(rng, found)
    if hit is None:
        return None
    container, key, where = hit
    container[key] = rng.choice(WRONG_TYPES + [1.0 if isinstance(container[key], str) else "x"])
    return f"{where} -> {_short(container[key])}"


def delete_key(rng: random.Random, m) -> str | None:
    """Delete a key, a required one three times in four when there is one."""
    found = [(c, k, p) for c, k, p in leaves(m.doc) if isinstance(c, dict)]
    required = [f for f in found if f[1] in REQUIRED]
    hit = _pick(rng, required if required and rng.random() < 0.75 else found)
    if hit is None:
        return None
    container, key, where = hit
    del container[key]
    return f"deleted {where}"


def bad_index(rng: random.Random, m) -> str | None:
    """An index property (or an item of children/joints/nodes/attributes) → −1, len, len+1 or 2**31."""
    found = []
    for container, key, where in leaves(m.doc):
        value = container[key]
        if isinstance(container, dict) and key in INDEX_KEYS and isinstance(value, int):
            found.append((container, key, where, INDEX_KEYS[key]))
        elif isinstance(container, list) and isinstance(value, int) and where.rsplit("/", 2)[-2] in INDEX_LISTS:
            found.append((container, key, where, INDEX_LISTS[where.rsplit("/", 2)[-2]]))
        elif isinstance(container, dict) and where.rsplit("/", 2)[-2] in INDEX_MAPS and isinstance(value, int):
            found.append((container, key, where, "accessors"))
    hit = _pick(rng, found)
    if hit is None:
        return None
    container, key, where, collection = hit
    items = m.doc.get(collection) if collection else None
    n = len(items) if isinstance(items, list) else container[key] + 1
    container[key] = rng.choice([-1, n, n + 1, 2**31, 2**32, -(2**31)])
    return f"{where} -> {container[key]} ({collection or 'local'} has {n})"


def extras_not_object(rng: random.Random, m) -> str | None:
    """``extras`` on a random object → a string, number, list or null."""
    found = [(m.doc, "")] + [(c[k], p) for c, k, p in leaves(m.doc) if isinstance(c[k], dict)]
    target, where = _pick(rng, found)
    target["extras"] = rng.choice(["extra", 1e308, [1, 2], None, True, 7])
    return f"{where or '/'}/extras -> {_short(target['extras'])}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:20] + f"…({len(text)} chars)"
