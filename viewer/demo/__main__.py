"""Generate the built-in demo scenes into ``assets/``: ``python -m viewer.demo [--out DIR]``.

The demos are made by code, not downloaded, so they can be read, changed and regenerated. The output
is deterministic: running the generator twice gives byte-identical files (a test checks that the
committed ``assets/*.gltf`` match a fresh run). Each file is self-contained glTF 2.0 JSON with its
one buffer embedded as a base64 ``data:`` URI.

| file | shows |
|---|---|
| ``triangle.gltf`` | the glTF tutorial's rotating triangle (5 LINEAR rotation keys over 1 s) |
| ``interpolation.gltf`` | one set of keys played STEP / LINEAR / CUBICSPLINE side by side (the default demo) |
| ``irregular.gltf`` | a ball on a zig-zag with irregular key times, where Catmull-Rom and linear differ |
| ``skinned_arm.gltf`` | a three-joint skinned arm waving |
| ``morph_shape.gltf`` | a box with two morph targets (bulge, twist) animated by weights |
| ``materials.gltf`` | seven turning spheres, one PBR material each (clearcoat, sheen, glass …), a sweeping spot |
| ``pointers.gltf`` | KHR_animation_pointer: colour, emissive strength, texture offset, spot cone, yfov, visibility |
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable, Sequence

from viewer.base.resources import REPO_ROOT
from viewer.demo import basic, deform, materials, pointers

DEMOS: dict[str, Callable[[], str]] = {
    "triangle.gltf": basic.triangle,
    "interpolation.gltf": basic.interpolation,
    "irregular.gltf": basic.irregular,
    "skinned_arm.gltf": deform.skinned_arm,
    "morph_shape.gltf": deform.morph_shape,
    "materials.gltf": materials.materials,
    "pointers.gltf": pointers.pointers,
}


def build_all() -> dict[str, str]:
    """Every demo's file name → its glTF JSON text."""
    return {name: make() for name, make in DEMOS.items()}


def write_all(out_dir: str | Path) -> list[Path]:
    """Write every demo into ``out_dir`` (created if missing); returns the paths written.

    Files are written as UTF-8 with ``\\n`` line ends whatever the platform, so they compare byte for byte.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in build_all().items():
        path = out / name
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser("python -m viewer.demo", description="Generate the built-in demo glTF scenes.")
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO_ROOT / "assets",
        help="folder to write into (default: the repository's assets/)",
    )
    args = parser.parse_args(argv)
    for path in write_all(args.out):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
