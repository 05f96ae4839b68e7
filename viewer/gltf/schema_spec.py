"""The vocabulary ``schema`` writes its tables in: ``Spec`` (what one JSON value must be) and its builders
(``integer``, ``index``, ``number``, ``string``, ``boolean``, ``array``, ``obj``, ``mapping``).

A module of its own because it is shared by two sides that know nothing of each other: ``schema``'s tables are
written with the builders, and ``validate``'s walk reads ``Spec`` fields without the tables' contents. Nothing
here names a glTF property; a rule of glTF belongs in ``schema`` (one property) or a ``validate_*`` module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Spec:
    """What one JSON value must be.

    Attributes:
        kind: "integer", "number", "string", "boolean", "object" (fixed keys), "map" (any keys, one
            value spec) or "array".
        required: the key must be present in its parent object.
        ref: for an index, the top-level array it points into ("nodes", "accessors", …).
        minimum, maximum: inclusive numeric bounds.
        positive: number must be > 0.
        also: numbers allowed besides the bounds (``ior``: 0, or at least 1).
        multiple_of: integer must be a multiple of this.
        enum: allowed values (empty: any).
        items: spec of each array item / map value.
        length: exact array length.
        min_items: least number of array items / map keys.
        fields: specs of an object's known keys.
    """

    kind: str
    required: bool = False
    ref: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    also: tuple = ()
    multiple_of: int | None = None
    enum: tuple = ()
    items: "Spec | None" = None
    length: int | None = None
    min_items: int = 0
    fields: Mapping[str, "Spec"] | None = None

    def __post_init__(self) -> None:
        # A number with nothing to check but its type and finiteness: the walk's fast path (most numbers of
        # a big file are node transforms and accessor bounds, and each would otherwise pay the full check).
        plain = not (self.enum or self.also or self.positive or self.multiple_of or self.ref is not None)
        object.__setattr__(self, "plain", plain and self.minimum is None and self.maximum is None)


def integer(
    required: bool = False,
    minimum: int | None = None,
    maximum: int | None = None,
    enum: tuple = (),
    multiple_of: int | None = None,
) -> Spec:
    """A JSON integer (booleans excluded) with optional bounds, allowed values and divisor."""
    return Spec("integer", required, minimum=minimum, maximum=maximum, enum=enum, multiple_of=multiple_of)


def index(collection: str, required: bool = False) -> Spec:
    """An index into the top-level array ``collection``."""
    return Spec("integer", required, ref=collection, minimum=0)


def number(
    required: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
    positive: bool = False,
    also: tuple = (),
) -> Spec:
    """A finite JSON number (integer or not) with optional bounds; ``also`` lists values allowed outside them."""
    return Spec("number", required, minimum=minimum, maximum=maximum, positive=positive, also=also)


def string(required: bool = False, enum: tuple = ()) -> Spec:
    """A JSON string, optionally one of ``enum``."""
    return Spec("string", required, enum=enum)


def boolean() -> Spec:
    """A JSON true/false."""
    return Spec("boolean")


def array(items: Spec, required: bool = False, length: int | None = None, min_items: int = 0) -> Spec:
    """A JSON array whose every item matches ``items``."""
    return Spec("array", required, items=items, length=length, min_items=min_items)


def obj(fields: Mapping[str, Spec], required: bool = False) -> Spec:
    """A JSON object with known keys; keys not in ``fields`` are not checked."""
    return Spec("object", required, fields=fields)


def mapping(values: Spec, required: bool = False, min_items: int = 0) -> Spec:
    """A JSON object used as a dictionary (mesh attributes): any keys, each value matching ``values``."""
    return Spec("map", required, items=values, min_items=min_items)
