"""Write the tiny KTX2 files the KHR_texture_basisu tests read (``tests/data/ktx2/``).

    python tools/make_ktx2.py [OUTDIR]

Encoded by Basis Universal through the ``alktx2`` package (``pip install alktx2``; not a dependency of animview,
which only transcodes): a 16×16 gradient with a hard edge in ETC1S and UASTC, sRGB and linear, with a full mip
chain, and one without mips. The PNG of the same pixels is written beside them, so a test can compare a KTX2
texture's picture with the PNG's. Kept in the repository (under 4 kB in all) so the tests need no encoder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

SIZE = 16


def pixels() -> np.ndarray:
    """(16, 16, 4) RGBA: red rising left to right, green top to bottom, a blue square, opaque."""
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    rgba = np.zeros((SIZE, SIZE, 4), np.uint8)
    rgba[..., 0] = x * 255 // (SIZE - 1)
    rgba[..., 1] = y * 255 // (SIZE - 1)
    rgba[4:12, 4:12, 2] = 255
    rgba[..., 3] = 255
    return rgba


def main(out: Path) -> None:
    import alktx2
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    rgba = pixels()
    Image.fromarray(rgba).save(out / "gradient.png")
    for codec in ("etc1s", "uastc"):
        for space in ("srgb", "linear"):
            data = alktx2.encode_raw_rgba_to_ktx2(
                rgba.tobytes(), SIZE, SIZE, codec=codec, mipmaps=True, srgb=space == "srgb", linear=space == "linear"
            )
            (out / f"{codec}_{space}.ktx2").write_bytes(data)
    flat = alktx2.encode_raw_rgba_to_ktx2(rgba.tobytes(), SIZE, SIZE, codec="uastc", mipmaps=False)
    (out / "uastc_nomips.ktx2").write_bytes(flat)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "tests" / "data" / "ktx2")
