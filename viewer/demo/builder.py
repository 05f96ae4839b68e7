"""The demo scenes' layer over ``viewer.files.writer``: materials, meshes, nodes and animations as pygltflib objects.

``DemoWriter`` is a ``writer.ModelWriter`` (a ``pygltflib.GLTF2`` plus one binary buffer); ``dumps``
gives a self-contained ``.gltf`` (the buffer as a base64 ``data:`` URI). Output is byte-for-byte
reproducible: see ``viewer.files.writer``. Only what differs from the spec's defaults is written (an absent
``doubleSided`` is false), so the files stay small and readable.

Matrices are given in math convention (``M[row][col]``, column vectors) and stored column-major,
as glTF requires. Quaternions are ``[x, y, z, w]``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from pygltflib import Attributes, Material, Mesh, Node, PbrMetallicRoughness, Primitive, Scene

from viewer.files import writer
from viewer.files.writer import ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, f32_list

GENERATOR = "animview demo_assets"


class DemoWriter(writer.ModelWriter):
    """Accumulates one demo scene; ``dumps(roots)`` gives the finished file's text."""

    def __init__(self) -> None:
        super().__init__(generator=GENERATOR)

    def material(
        self,
        name: str,
        color: Sequence[float],
        double_sided: bool = False,
        metallic: float = 0.0,
        roughness: float = 0.6,
    ) -> int:
        """A plain PBR material: ``color`` is linear RGBA baseColorFactor."""
        pbr = PbrMetallicRoughness(
            baseColorFactor=[float(c) for c in color], metallicFactor=metallic, roughnessFactor=roughness
        )
        return self.add(
            "materials",
            Material(
                name=name,
                pbrMetallicRoughness=pbr,
                emissiveFactor=None,
                alphaMode=None,
                doubleSided=double_sided or None,
            ),
        )

    def mesh(
        self,
        name: str,
        positions: np.ndarray,
        normals: np.ndarray,
        indices: np.ndarray,
        material: int,
        extra_attributes: dict[str, int] | None = None,
        targets: list[dict[str, np.ndarray]] | None = None,
        weights: Sequence[float] | None = None,
        target_names: Sequence[str] | None = None,
    ) -> int:
        """A one-primitive triangle mesh. Morph ``targets`` are (n, 3) deltas keyed by semantic."""
        attributes = Attributes(
            POSITION=self.add_accessor(positions, target=ARRAY_BUFFER, min_max=True),
            NORMAL=self.add_accessor(normals, target=ARRAY_BUFFER),
            **(extra_attributes or {}),
        )
        index_type = np.uint16 if len(positions) < 65536 else np.uint32
        index = self.add_accessor(np.asarray(indices, index_type).reshape(-1), target=ELEMENT_ARRAY_BUFFER)
        # POSITION deltas need min/max too (§3.7.2.2: "required for POSITION").
        morphs = [
            Attributes(**{k: self.add_accessor(v, target=ARRAY_BUFFER, min_max=k == "POSITION") for k, v in t.items()})
            for t in targets or ()
        ]
        prim = Primitive(attributes=attributes, indices=index, material=material, targets=morphs)
        return self.add(
            "meshes",
            Mesh(
                name=name,
                primitives=[prim],
                weights=None if weights is None else [float(w) for w in weights],
                extras={"targetNames": list(target_names)} if target_names else {},
            ),
        )

    def node(
        self,
        name: str,
        translation: Sequence[float] | None = None,
        rotation: Sequence[float] | None = None,
        **extra: Any,
    ) -> int:
        """A node; ``extra`` may hold mesh, skin, children."""
        return self.add(
            "nodes",
            Node(
                name=name,
                translation=None if translation is None else f32_list(translation),
                rotation=None if rotation is None else f32_list(rotation),
                **extra,
            ),
        )

    def animation(self, name: str, channels: list[dict[str, Any]]) -> int:
        """One animation; each channel: node, path, times (k,), values (k·(3 if cubic), W), interpolation.

        Values are (k, W) vectors, or (k·W,) scalars for weights. Channels with equal key times share
        one input accessor.
        """
        channels = [dict(ch, interpolation=ch.get("interpolation", "LINEAR")) for ch in channels]
        return self.add_animation(channels, name, share_inputs=True)

    def dumps(self, roots: Sequence[int]) -> str:
        """The file's text with one scene of ``roots``: indented JSON ending in a newline."""
        self.gltf.scene = 0
        self.gltf.scenes = [Scene(nodes=list(roots))]
        return writer.gltf_text(self.to_dict(), self.bin_bytes(), indent=1)


def quat_about(axis: Sequence[float], angles: np.ndarray) -> np.ndarray:
    """Quaternions [x, y, z, w] (k, 4) for rotations by ``angles`` (k,) radians about a unit ``axis``."""
    half = 0.5 * np.asarray(angles, dtype=np.float64)[:, None]
    return np.concatenate([np.sin(half) * np.asarray(axis, np.float64), np.cos(half)], axis=1)


def quat_about_rate(axis: Sequence[float], angles: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """d/dt of ``quat_about(axis, θ(t))`` where θ = ``angles`` and dθ/dt = ``rates`` (rad/s): (k, 4) per second.

    CUBICSPLINE rotation tangents are component-wise quaternion derivatives (glTF 2.0 Appendix C).
    """
    half = 0.5 * np.asarray(angles, dtype=np.float64)[:, None]
    d = np.concatenate([np.cos(half) * np.asarray(axis, np.float64), -np.sin(half)], axis=1)
    return 0.5 * np.asarray(rates, dtype=np.float64)[:, None] * d
