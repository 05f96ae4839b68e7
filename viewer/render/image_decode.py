"""glTF images decoded to texels by Pillow, with the checks that keep a hostile or oversized image off the GPU.

An image that cannot be decoded (broken bytes, a decompression bomb) is a ``GltfError`` naming
``/images/i`` (one line, exit 2 in the CLI). An image larger than the GPU's maximum texture size is
scaled down to fit, with a ``GltfWarning``, rather than uploaded as an invalid texture (GL_INVALID_VALUE).

A module of its own because decoding needs no GL and no material: ``materials.MaterialLibrary`` uploads what
``decode_texels`` returns, and the tests read ``decode_image``'s pixels without a context.
"""

from __future__ import annotations

import io
import warnings

import numpy as np

from viewer.base.errors import GltfError, GltfWarning, pointer
from viewer.scene.scene import Scene

# A decompression bomb (a few KB of PNG that inflates to gigabytes) is refused from its header: 8192² pixels
# (256 MiB as RGBA) is more than any texture a GPU here takes at full size.
MAX_IMAGE_PIXELS = 8192 * 8192
KTX2_MAGIC = b"\xabKTX 20\xbb\r\n\x1a\n"


def decode_image(scene: Scene, index: int, max_size: int | None = None) -> np.ndarray:
    """(h, w, 4) uint8 RGBA of glTF image ``index``, rows top first; scaled down (aspect kept, with a
    ``GltfWarning``) so neither side exceeds ``max_size`` when given.

    Raises:
        GltfError: the bytes cannot be read or decoded (pointer ``/images/index``).
    """
    (w, h), _, texels = decode_texels(scene, index, max_size, keep_rgb=False)
    return np.frombuffer(texels, dtype=np.uint8).reshape(h, w, 4)


def decode_texels(
    scene: Scene, index: int, max_size: int | None = None, keep_rgb: bool = True
) -> tuple[tuple[int, int], int, bytes]:
    """``decode_image`` as ((w, h), components, bytes) for ``ctx.texture``: an RGB image stays 3 bytes a
    texel when ``keep_rgb`` (every other mode becomes RGBA). Widening RGB to RGBA in Pillow, then copying
    it through numpy, cost more than decoding a 2048² JPEG."""
    where = pointer("images", index)
    data = scene.document.image_bytes(index)
    if bytes(data[:12]) == KTX2_MAGIC:
        levels = decode_ktx2(scene, index, max_size)
        (w, h), texels = levels[0]
        return (w, h), 4, texels
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:  # reads the header only
            size = img.size
            if size[0] * size[1] > MAX_IMAGE_PIXELS:  # refused before a pixel is decoded
                raise GltfError(
                    scene.path,
                    where,
                    f"image is {size[0]}×{size[1]} pixels, more than the {MAX_IMAGE_PIXELS:,} this viewer decodes",
                )
            if max_size is not None and max(size) > max_size:
                img.draft(img.mode, (max_size, max_size))  # JPEG: decode at a reduced scale
                scale = max_size / max(img.size)  # each side at least 1 (thumbnail() fails on 20000×1)
                fit = tuple(min(max(1, round(side * scale)), max_size) for side in img.size)
                img = img.convert("RGBA").resize(fit, Image.Resampling.BOX)
            if img.mode != "RGBA" and not (keep_rgb and img.mode == "RGB"):
                img = img.convert("RGBA")
            decoded, components, texels = img.size, len(img.mode), img.tobytes()
    except GltfError:
        raise
    except Exception as exc:  # Pillow raises several types for broken data (and a DecompressionBombError)
        raise GltfError(scene.path, where, f"cannot decode image: {exc}") from exc
    if decoded != size:
        warnings.warn(
            f"{scene.path}:{where}: image is {size[0]}×{size[1]}, larger than the GPU's maximum texture "
            f"size {max_size}; scaled down to {decoded[0]}×{decoded[1]}",
            GltfWarning,
            stacklevel=3,
        )
    return decoded, components, texels


def decode_ktx2(scene: Scene, index: int, max_size: int | None = None) -> list[tuple[tuple[int, int], bytes]]:
    """A KTX2 image (KHR_texture_basisu: ETC1S or UASTC) transcoded to RGBA8 by Basis Universal
    (``opengl_basisu``), every mip level it stores from the largest that fits ``max_size`` down, rows top first.

    RGBA8 rather than a GPU block format: it samples the same on every driver (llvmpipe offers no BC7 or ASTC),
    and the textures of one model are a few megabytes either way.

    Raises:
        GltfError: not a 2D KTX2 texture (a cube map, an array, video), larger than ``MAX_IMAGE_PIXELS``,
            or data the transcoder refuses (pointer ``/images/index``).
    """
    import opengl_basisu

    where = pointer("images", index)
    try:
        tex = opengl_basisu.open(bytes(scene.document.image_bytes(index)))
        if tex.faces != 1 or tex.layers > 1 or tex.is_array or tex.is_video:
            raise GltfError(scene.path, where, "KTX2 image is a cube map, array or video, not a 2D texture")
        if tex.width * tex.height > MAX_IMAGE_PIXELS:
            raise GltfError(scene.path, where, f"KTX2 image is {tex.width}×{tex.height} pixels, too many to decode")
        first = 0
        while max_size is not None and max(tex.width >> first, tex.height >> first) > max_size:
            first += 1
        if first >= tex.levels:
            raise GltfError(scene.path, where, f"KTX2 image has no mip level within {max_size} pixels")
        out = []
        for level in range(first, tex.levels):
            img = tex.transcode("rgba8", level=level)
            rows = np.asarray(img.data, np.uint8).reshape(img.height, img.width, 4)
            if tex.y_flipped:  # stored bottom row first: glTF's UV (0, 0) is the top-left texel
                rows = rows[::-1]
            out.append(((img.width, img.height), np.ascontiguousarray(rows).tobytes()))
    except GltfError:
        raise
    except Exception as exc:  # the transcoder's BasisuError / UnsupportedError, and anything a hostile file raises
        raise GltfError(scene.path, where, f"cannot decode KTX2 image: {exc}") from exc
    if first:
        warnings.warn(
            f"{scene.path}:{where}: KTX2 image is {tex.width}×{tex.height}, larger than the GPU's maximum texture "
            f"size {max_size}; its mip level {first} is used",
            GltfWarning,
            stacklevel=3,
        )
    return out
