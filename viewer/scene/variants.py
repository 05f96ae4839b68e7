"""KHR_materials_variants: the file's named material variants, and the material each primitive takes in each.

One reading of the extension for every consumer — ``inspect``, ``--variant`` on the viewer and ``render``, the
library's previews, the View section's chooser and the renderer — so they cannot disagree on its rules: a
primitive with no mapping for the chosen variant keeps its own ``material``, and with no variant chosen every
primitive does. Plain JSON reading, no GL: the renderer only asks which material index a primitive takes.

A user names a variant the way ``--animation`` names a clip: by its exact name first, else by its 0-based index,
so a variant named "2" is found by name before variant 2 is by index.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.base.errors import UsageError, shorten

EXTENSION = "KHR_materials_variants"
LISTED = 12  # variants an error line names before "…" (a file may hold thousands)


@dataclass(frozen=True, eq=False)
class Variants:
    """The variants of one file.

    Attributes:
        names: each variant's name, by index.
        own: ``own[mesh][primitive]``: the primitive's own ``material`` (None: the default material).
        mapped: ``mapped[mesh][primitive]``: variant index → material index, for the variants its mappings name.
    """

    names: tuple[str, ...] = ()
    own: tuple[tuple[int | None, ...], ...] = ()
    mapped: tuple[tuple[dict[int, int], ...], ...] = ()

    def __len__(self) -> int:
        return len(self.names)

    def material(self, mesh: int, primitive: int, variant: int | None) -> int | None:
        """The material index the primitive draws with in ``variant`` (None, or an index the file lacks — a
        second file in the compare view may have fewer variants —: its own)."""
        return self.mapped[mesh][primitive].get(variant, self.own[mesh][primitive])

    def choices(self, mesh: int, primitive: int) -> tuple[int | None, ...]:
        """Every material the primitive can take, its own first, each once: what must be ready on the GPU
        before a click switches variants (tangents for a variant's normal map, say)."""
        return tuple(dict.fromkeys((self.own[mesh][primitive], *self.mapped[mesh][primitive].values())))

    def materials(self, variant: int | None) -> list[list[int | None]]:
        """``[mesh][primitive]`` → the material index drawn in ``variant``."""
        return [[self.material(m, p, variant) for p in range(len(prims))] for m, prims in enumerate(self.own)]

    def mapping_count(self, variant: int) -> int:
        """Primitives whose mappings name ``variant``."""
        return sum(variant in mapped for prims in self.mapped for mapped in prims)

    def changed_count(self, variant: int) -> int:
        """Primitives that draw another material in ``variant`` than their own (a mapping may name the own one:
        MaterialsVariantsShoe's first variant is its default look)."""
        return sum(
            variant in mapped and mapped[variant] != own
            for owns, prims in zip(self.own, self.mapped)
            for own, mapped in zip(owns, prims)
        )

    def find(self, text: str) -> int | None:
        """The index of the variant ``text`` names — its exact name, else a 0-based index —, None for none: a
        library's files differ, and one without that variant is no error there."""
        if text in self.names:
            return self.names.index(text)
        if text.isascii() and text.isdigit() and int(text) < len(self.names):
            return int(text)
        return None

    def resolve(self, text: str, where: str, path: object) -> int:
        """``find``, for one file a user named: a variant it lacks is a usage error.

        Args:
            where: who is asking, for the message ("animview render").
            path: the file, for the message.

        Raises:
            UsageError: the file has no variants, or none of that name or index (the message lists them).
        """
        if not self.names:
            raise UsageError(f"{where}: {path} has no material variants ({EXTENSION}); leave out --variant")
        found = self.find(text)
        if found is not None:
            return found
        listed = ", ".join(f"{k}:{shorten(n, 40)!r}" for k, n in enumerate(self.names[:LISTED]))
        more = " …" if len(self.names) > LISTED else ""
        hint = "; --variant all is for render --outdir" if text == "all" else ""
        raise UsageError(f"{where}: --variant {shorten(text)} is not in {path} (it has {listed}{more}){hint}")


def read_variants(raw: dict) -> Variants:
    """The variants of a validated glTF JSON (``Document.raw``). Validation has checked every index; a variant
    named by two mappings of one primitive (the spec forbids it) takes the first."""
    root = (raw.get("extensions") or {}).get(EXTENSION) or {}
    names = tuple(str(v.get("name", "")) for v in root.get("variants", []))
    own, mapped = [], []
    for mesh in raw.get("meshes", []):
        own.append(tuple(p.get("material") for p in mesh.get("primitives", [])))
        mapped.append(tuple(_mappings(p) for p in mesh.get("primitives", [])))
    return Variants(names, tuple(own), tuple(mapped))


def _mappings(primitive: dict) -> dict[int, int]:
    ext = (primitive.get("extensions") or {}).get(EXTENSION) or {}
    out: dict[int, int] = {}
    for mapping in ext.get("mappings", []):
        for variant in mapping["variants"]:
            out.setdefault(int(variant), int(mapping["material"]))
    return out
