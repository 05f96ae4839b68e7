"""glTF materials as GPU state: factors, the base colour texture (decoded by Pillow) and its sampler.

Only what the look needs (glTF 2.0 §3.9): baseColorFactor × baseColorTexture × COLOR_0, metallic and
roughness factors, emissiveFactor, alphaMode / alphaCutoff, doubleSided, and the extensions the loader
accepts: KHR_materials_unlit, KHR_materials_emissive_strength, KHR_texture_transform (base colour).
The base colour texture is uploaded as sRGB (GL_SRGB8_ALPHA8) so sampling returns linear values, with
the sampler's wrap and filters and a mip chain when the min filter uses one. Textures are cached per
(image, sampler) so materials that share an image share one upload.

An image that cannot be decoded (broken bytes, a decompression bomb) is a ``GltfError`` naming
``/images/i`` (one line, exit 2 in the CLI). An image larger than the GPU's maximum texture size is
scaled down to fit, with a ``GltfWarning``, rather than uploaded as an invalid texture (GL_INVALID_VALUE).
"""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import moderngl
import numpy as np
from PIL import Image

from viewer.errors import GltfError, GltfWarning, pointer
from viewer.scene import Scene

GL_SRGB8_ALPHA8 = 0x8C43
NEAREST, LINEAR = 9728, 9729
MIPMAP_FILTERS = {9984, 9985, 9986, 9987}
REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT = 10497, 33071, 33648
# glTF leaves filters to the viewer when the sampler omits them: trilinear looks best
DEFAULT_MIN_FILTER, DEFAULT_MAG_FILTER = 9987, LINEAR


@dataclass(frozen=True)
class Material:
    """What the mesh shader needs from one glTF material (linear colours)."""

    base_color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    metallic: float = 1.0
    roughness: float = 1.0
    emissive: tuple[float, float, float] = (0.0, 0.0, 0.0)
    alpha_mode: str = "OPAQUE"
    alpha_cutoff: float = 0.5
    double_sided: bool = False
    unlit: bool = False
    base_texture: moderngl.Texture | None = None
    uv_set: int | None = None  # TEXCOORD_n the base colour texture uses
    mirror: tuple[bool, bool] = (False, False)  # MIRRORED_REPEAT on s, t (folded in the shader)
    uv_transform: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)  # mat3, column-major

    def defines(self) -> dict[str, str]:
        """Shader #defines this material switches on."""
        d: dict[str, str] = {}
        if self.alpha_mode == "MASK":
            d["ALPHA_MASK"] = ""
        elif self.alpha_mode == "BLEND":
            d["ALPHA_BLEND"] = ""
        if self.unlit:
            d["UNLIT"] = ""
        if self.mirror[0]:
            d["MIRROR_U"] = ""
        if self.mirror[1]:
            d["MIRROR_V"] = ""
        return d

    def uniforms(self) -> tuple[tuple[str, object], ...]:
        """(uniform name, value) of the mesh shader's material uniforms: one list for every draw path."""
        return (("u_base_color", self.base_color), ("u_metallic", self.metallic), ("u_roughness", self.roughness),
                ("u_emissive", self.emissive), ("u_alpha_cutoff", self.alpha_cutoff),
                ("u_uv_transform", self.uv_transform))


DEFAULT_MATERIAL = Material()  # glTF 2.0 §3.9.6: the default material when a primitive names none


class MaterialLibrary:
    """Every material of a scene, with its textures uploaded once."""

    def __init__(self, ctx: moderngl.Context, scene: Scene) -> None:
        self.ctx = ctx
        self.scene = scene
        self._textures: dict[tuple[int, int | None], moderngl.Texture] = {}
        self.materials = [self._material(i, m) for i, m in enumerate(scene.document.raw.get("materials", []))]

    def get(self, index: int | None) -> Material:
        return DEFAULT_MATERIAL if index is None else self.materials[index]

    def _material(self, index: int, m: dict) -> Material:
        pbr = m.get("pbrMetallicRoughness", {})
        tex, uv_set, mirror, uv_transform = None, None, (False, False), Material.uv_transform
        info = pbr.get("baseColorTexture")
        if info is not None:
            tex, mirror = self._texture(info["index"])
            uv_set = int(info.get("texCoord", 0))
            transform = info.get("extensions", {}).get("KHR_texture_transform")
            if transform is not None:
                uv_transform = texture_transform(transform)
                uv_set = int(transform.get("texCoord", uv_set))
        ext = m.get("extensions", {})
        strength = float(ext.get("KHR_materials_emissive_strength", {}).get("emissiveStrength", 1.0))
        return Material(
            base_color=tuple(float(x) for x in pbr.get("baseColorFactor", (1.0, 1.0, 1.0, 1.0))),
            metallic=float(pbr.get("metallicFactor", 1.0)),
            roughness=float(pbr.get("roughnessFactor", 1.0)),
            emissive=tuple(strength * float(x) for x in m.get("emissiveFactor", (0.0, 0.0, 0.0))),
            alpha_mode=m.get("alphaMode", "OPAQUE"),
            alpha_cutoff=float(m.get("alphaCutoff", 0.5)),
            double_sided=bool(m.get("doubleSided", False)),
            unlit="KHR_materials_unlit" in ext,
            base_texture=tex, uv_set=uv_set, mirror=mirror, uv_transform=uv_transform,
        )

    def _texture(self, index: int) -> tuple[moderngl.Texture | None, tuple[bool, bool]]:
        """The GL texture of glTF texture ``index`` and its MIRRORED_REPEAT flags (s, t)."""
        raw = self.scene.document.raw
        texture = raw["textures"][index]
        source = texture.get("source")
        if source is None:  # only an extension's image (e.g. KHR_texture_basisu): not decoded here
            if "KHR_texture_basisu" in (texture.get("extensions") or {}):
                self.scene.warn_once(f"/textures/{index}/extensions/KHR_texture_basisu",
                                     "KTX2 / Basis Universal images are not decoded (no KTX2 transcoder for "
                                     "Python is available) and the texture names no fallback image: drawn "
                                     "without this texture")
            return None, (False, False)
        sampler_index = texture.get("sampler")
        sampler = raw["samplers"][sampler_index] if sampler_index is not None else {}
        wrap = (sampler.get("wrapS", REPEAT), sampler.get("wrapT", REPEAT))
        key = (source, sampler_index)
        if key not in self._textures:
            self._textures[key] = self._upload(source, sampler, wrap)
        return self._textures[key], (wrap[0] == MIRRORED_REPEAT, wrap[1] == MIRRORED_REPEAT)

    def _upload(self, source: int, sampler: dict, wrap: tuple[int, int]) -> moderngl.Texture:
        limit = int(self.ctx.info["GL_MAX_TEXTURE_SIZE"])  # moderngl caches it: 0 if first read off-context
        rgba = decode_image(self.scene, source, limit if limit > 0 else None)
        h, w = rgba.shape[:2]
        # glTF's UV (0, 0) is the image's top-left; uploading the top row first puts it at GL's t = 0
        tex = self.ctx.texture((w, h), 4, rgba.tobytes(), internal_format=GL_SRGB8_ALPHA8)
        min_filter = sampler.get("minFilter", DEFAULT_MIN_FILTER)
        mag_filter = sampler.get("magFilter", DEFAULT_MAG_FILTER)
        if min_filter in MIPMAP_FILTERS:
            tex.build_mipmaps()
        tex.filter = (min_filter, mag_filter)
        tex.repeat_x = wrap[0] != CLAMP_TO_EDGE
        tex.repeat_y = wrap[1] != CLAMP_TO_EDGE
        return tex

    def release(self) -> None:
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()


def texture_transform(ext: dict) -> tuple[float, ...]:
    """KHR_texture_transform as a column-major mat3 (9 floats): uv' = T(offset) · R(rotation) · S(scale) · uv.

    R = [[cos r, sin r], [-sin r, cos r]]: "counter-clockwise" in glTF's UV space, whose v axis points down.
    The extension's README listing has the transpose; this is what the sample model TextureTransformTest,
    three.js and the Khronos Sample Viewer do (KhronosGroup/glTF issue #1563).
    """
    ox, oy = (float(x) for x in ext.get("offset", (0.0, 0.0)))
    sx, sy = (float(x) for x in ext.get("scale", (1.0, 1.0)))
    r = float(ext.get("rotation", 0.0))
    c, s = np.cos(r), np.sin(r)
    m = np.array([[c * sx, s * sy, ox], [-s * sx, c * sy, oy], [0.0, 0.0, 1.0]])
    return tuple(float(x) for x in m.T.reshape(-1))


# A decompression bomb (a few KB of PNG that inflates to gigabytes) is refused from its header: 8192² pixels
# (256 MiB as RGBA) is more than any texture a GPU here takes at full size.
MAX_IMAGE_PIXELS = 8192 * 8192


def decode_image(scene: Scene, index: int, max_size: int | None = None) -> np.ndarray:
    """(h, w, 4) uint8 RGBA of glTF image ``index``, rows top first; scaled down (aspect kept, with a
    ``GltfWarning``) so neither side exceeds ``max_size`` when given.

    Raises:
        GltfError: the bytes cannot be read or decoded (pointer ``/images/index``).
    """
    where = pointer("images", index)
    data = scene.document.image_bytes(index)
    try:
        with Image.open(io.BytesIO(data)) as img:  # reads the header only
            size = img.size
            if size[0] * size[1] > MAX_IMAGE_PIXELS:  # refused before a pixel is decoded
                raise GltfError(scene.path, where, f"image is {size[0]}×{size[1]} pixels, more than the "
                                                   f"{MAX_IMAGE_PIXELS:,} this viewer decodes")
            if max_size is not None and max(size) > max_size:
                img.draft(img.mode, (max_size, max_size))  # JPEG: decode at a reduced scale
                scale = max_size / max(img.size)  # each side at least 1 (thumbnail() fails on 20000×1)
                fit = tuple(min(max(1, round(side * scale)), max_size) for side in img.size)
                img = img.convert("RGBA").resize(fit, Image.Resampling.BOX)
            rgba = np.asarray(img.convert("RGBA"), dtype=np.uint8)
    except GltfError:
        raise
    except Exception as exc:  # Pillow raises several types for broken data (and a DecompressionBombError)
        raise GltfError(scene.path, where, f"cannot decode image: {exc}") from exc
    if rgba.shape[1::-1] != size:
        warnings.warn(f"{scene.path}:{where}: image is {size[0]}×{size[1]}, larger than the GPU's maximum texture "
                      f"size {max_size}; scaled down to {rgba.shape[1]}×{rgba.shape[0]}", GltfWarning, stacklevel=2)
    return rgba
