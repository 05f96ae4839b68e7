"""glTF materials as GPU state: factors, every texture slot (decoded by Pillow) and its sampler.

The metallic-roughness model of glTF 2.0 §3.9 — base colour × COLOR_0, metallic (B) and roughness (G),
normal (with its scale), occlusion (R, with its strength), emissive × KHR_materials_emissive_strength —
and the extensions the shader implements: KHR_materials_unlit, _ior, _specular, _clearcoat, _sheen,
_transmission, _volume; KHR_texture_transform and texCoord on every slot. Colour textures (base, emissive,
sheen colour, specular colour) are uploaded as sRGB (GL_SRGB8_ALPHA8) so sampling returns linear values;
data textures (metallic-roughness, normal, occlusion, …) as plain RGBA8, because decoding their numbers as
sRGB would bend every roughness and normal. Textures are cached per (image, sampler, colour space) so
materials that share an image share one upload.

Images are decoded by ``image_decode`` (a broken one is a ``GltfError``; one too large for the GPU is scaled
down to fit, with a ``GltfWarning``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import moderngl
import numpy as np

from viewer.base.errors import GltfError
from viewer.gltf.object_model import TEXTURE_SLOTS
from viewer.render.image_decode import decode_ktx2, decode_texels
from viewer.render.material_factors import dig, material_factors, texture_transform
from viewer.scene.scene import Scene

GL_SRGB8_ALPHA8, GL_RGBA8 = 0x8C43, 0x8058
NEAREST, LINEAR = 9728, 9729
MIPMAP_FILTERS = {9984, 9985, 9986, 9987}
REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT = 10497, 33071, 33648
# glTF leaves filters to the viewer when the sampler omits them: trilinear looks best
DEFAULT_MIN_FILTER, DEFAULT_MAG_FILTER = 9987, LINEAR
IDENTITY3 = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)

# slot name (shader: TEX_<NAME>, u_<name>_tex/_uv/_set) → (JSON path inside the material, colour data?)
SRGB_SLOTS = frozenset(
    {"base", "emissive", "sheen_color", "specular_color", "diffuse_transmission_color"}
)  # colour data; the rest is linear
SLOTS: dict[str, tuple[tuple[str, ...], bool]] = {
    name: (path, name in SRGB_SLOTS) for name, path in TEXTURE_SLOTS.items()
}
# Texture units: 0 base colour, 1 joints, 2–4 morph deltas, 5–7 environment, BRDF table and the opaque pass
# (gpu_mesh.py), then the other slots; the everyday ones stay below 16, the minimum any GL 3.3 GPU offers.
FIRST_SLOT_UNIT = 8
SLOT_UNITS = {name: (0 if name == "base" else FIRST_SLOT_UNIT + k - 1) for k, name in enumerate(SLOTS)}


@dataclass(frozen=True)
class TextureSlot:
    """One texture a material samples, with how it reads its coordinates."""

    texture: moderngl.Texture
    uv_set: int  # TEXCOORD_n (after KHR_texture_transform's texCoord override)
    transform: tuple[float, ...]  # KHR_texture_transform as a column-major mat3
    mirror: tuple[bool, bool]  # MIRRORED_REPEAT on s, t (folded in the shader)


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
    normal_scale: float = 1.0
    occlusion_strength: float = 1.0
    ior: float = 1.5
    specular: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)  # specularColorFactor, specularFactor
    clearcoat: tuple[float, float, float] | None = None  # factor, roughness, normal scale
    sheen: tuple[float, float, float, float] | None = None  # colour, roughness
    transmission: float | None = None
    volume: tuple[float, float, float, float, float] | None = None  # attenuation colour, distance (0: ∞), thickness
    anisotropy: tuple[float, float] | None = None  # strength, rotation (radians)
    iridescence: tuple[float, float, float, float] | None = None  # factor, film IOR, thickness min, max (nm)
    dispersion: float | None = None  # 20 / Abbe number; only on a volume
    diffuse_transmission: tuple[float, float, float, float] | None = None  # colour, factor
    slots: dict[str, TextureSlot] = field(default_factory=dict)
    source: dict = field(default_factory=dict, compare=False, repr=False)  # the material's JSON in the file

    def uv_sets(self) -> set[int]:
        """The TEXCOORD sets this material's textures read."""
        return {slot.uv_set for slot in self.slots.values()}

    def defines(self, uv_sets: set[int] | frozenset[int] = frozenset()) -> dict[str, str]:
        """Shader #defines of this material on a primitive that has the TEXCOORD sets ``uv_sets``: a slot
        whose coordinates the primitive lacks is left out (glTF gives it no meaning there)."""
        d: dict[str, str] = {}
        if self.alpha_mode == "MASK":
            d["ALPHA_MASK"] = ""
        elif self.alpha_mode == "BLEND":
            d["ALPHA_BLEND"] = ""
        if self.unlit:
            d["UNLIT"] = ""
            return d | ({"TEX_BASE": ""} if "base" in self.slots and self.slots["base"].uv_set in uv_sets else {})
        for name, slot in self.slots.items():
            if slot.uv_set in uv_sets:
                d[f"TEX_{name.upper()}"] = ""
        if self.clearcoat is not None:
            d["CLEARCOAT"] = ""
        if self.sheen is not None:
            d["SHEEN"] = ""
        if self.transmission is not None:
            d["TRANSMISSION"] = ""
            if self.volume is not None:
                d["VOLUME"] = ""
                if self.dispersion is not None:
                    d["DISPERSION"] = ""
        if self.anisotropy is not None:
            d["ANISOTROPY"] = ""
        if self.iridescence is not None:
            d["IRIDESCENCE"] = ""
        if self.diffuse_transmission is not None:
            d["DIFFUSE_TRANSMISSION"] = ""
        return d

    def uniforms(self) -> tuple[tuple[str, object], ...]:
        """(uniform name, value) of the mesh shader's material uniforms: one list for every draw path, made
        once per material (every draw of every frame reads it)."""
        return self._uniforms

    @cached_property
    def _uniforms(self) -> tuple[tuple[str, object], ...]:
        volume = self.volume or (1.0, 1.0, 1.0, 0.0, 0.0)
        out = [
            ("u_base_color", self.base_color),
            ("u_metallic", self.metallic),
            ("u_roughness", self.roughness),
            ("u_emissive", self.emissive),
            ("u_alpha_cutoff", self.alpha_cutoff),
            ("u_normal_scale", self.normal_scale),
            ("u_occlusion_strength", self.occlusion_strength),
            ("u_ior", self.ior),
            ("u_specular", self.specular),
            ("u_clearcoat", self.clearcoat or (0.0, 0.0, 1.0)),
            ("u_sheen", self.sheen or (0.0, 0.0, 0.0, 0.0)),
            ("u_transmission", self.transmission or 0.0),
            ("u_volume", volume[:4]),
            ("u_thickness", volume[4]),
        ]
        # the new lobes' uniforms only where their define is on: a material without them sets nothing more
        if self.anisotropy is not None:
            r = self.anisotropy[1]
            out.append(("u_anisotropy", (float(np.cos(r)), float(np.sin(r)), self.anisotropy[0])))
        if self.iridescence is not None:
            out.append(("u_iridescence", self.iridescence))
        if self.dispersion is not None:
            out.append(("u_dispersion", self.dispersion))
        if self.diffuse_transmission is not None:
            out.append(("u_diffuse_transmission", self.diffuse_transmission))
        for name, slot in self.slots.items():
            out.append((f"u_{name}_uv", slot.transform))
            out.append((f"u_{name}_set", (float(slot.uv_set), float(slot.mirror[0]), float(slot.mirror[1]))))
        return tuple(out)

    def bind(self) -> None:
        """Bind every texture of the material to its slot's fixed unit (``SLOT_UNITS``)."""
        for name, slot in self.slots.items():
            slot.texture.use(SLOT_UNITS[name])


DEFAULT_MATERIAL = Material()  # glTF 2.0 §3.9.6: the default material when a primitive names none


class MaterialLibrary:
    """Every material of a scene, with its textures uploaded once."""

    def __init__(self, ctx: moderngl.Context, scene: Scene) -> None:
        self.ctx = ctx
        self.scene = scene
        self._textures: dict[tuple[int, int | None, bool], moderngl.Texture] = {}
        self._pixels: dict[int, tuple] = {}  # decoded once even when uploaded in both colour spaces
        self.materials = [self._material(i, m) for i, m in enumerate(scene.document.raw.get("materials", []))]
        self._pixels.clear()

    def get(self, index: int | None) -> Material:
        return DEFAULT_MATERIAL if index is None else self.materials[index]

    def _material(self, index: int, m: dict) -> Material:
        slots = {}
        for name, (path, srgb) in SLOTS.items():
            info = dig(m, path)
            if info is not None:
                slot = self._slot(info, srgb)
                if slot is not None:
                    slots[name] = slot
        return Material(**material_factors(m), slots=slots, source=m)

    def _slot(self, info: dict, srgb: bool) -> TextureSlot | None:
        """The texture of a textureInfo, its coordinates and transform (None: nothing to draw with)."""
        tex, mirror = self._texture(int(info["index"]), srgb)
        if tex is None:
            return None
        uv_set = int(info.get("texCoord", 0))
        transform = info.get("extensions", {}).get("KHR_texture_transform")
        uv_transform = IDENTITY3
        if transform is not None:
            uv_transform = texture_transform(transform)
            uv_set = int(transform.get("texCoord", uv_set))
        return TextureSlot(tex, uv_set, uv_transform, mirror)

    def _texture(self, index: int, srgb: bool) -> tuple[moderngl.Texture | None, tuple[bool, bool]]:
        """The GL texture of glTF texture ``index`` and its MIRRORED_REPEAT flags (s, t)."""
        raw = self.scene.document.raw
        texture = raw["textures"][index]
        source = texture.get("source")
        basisu = (texture.get("extensions") or {}).get("KHR_texture_basisu")
        if basisu is not None and self._ktx2(int(basisu["source"]), index):
            source = int(basisu["source"])  # the KTX2 image wins over a PNG/JPEG fallback, as the extension says
        if source is None:
            return None, (False, False)
        sampler_index = texture.get("sampler")
        sampler = raw["samplers"][sampler_index] if sampler_index is not None else {}
        wrap = (sampler.get("wrapS", REPEAT), sampler.get("wrapT", REPEAT))
        key = (source, sampler_index, srgb)
        if key not in self._textures:
            self._textures[key] = self._upload(source, sampler, wrap, srgb)
        return self._textures[key], (wrap[0] == MIRRORED_REPEAT, wrap[1] == MIRRORED_REPEAT)

    def _ktx2(self, source: int, texture: int) -> bool:
        """Whether KTX2 image ``source`` decodes; a warning at the texture's extension where it does not (the
        fallback image, if any, is drawn instead; else the texture is left out)."""
        if source not in self._pixels:
            limit = int(self.ctx.info["GL_MAX_TEXTURE_SIZE"])
            try:
                self._pixels[source] = decode_ktx2(self.scene, source, limit if limit > 0 else None)
            except GltfError as exc:
                self._pixels[source] = None
                self.scene.warn_once(
                    f"/textures/{texture}/extensions/KHR_texture_basisu",
                    f"{exc.message}; drawn with its fallback image, if any, else without this texture",
                )
        return self._pixels[source] is not None

    def _upload(self, source: int, sampler: dict, wrap: tuple[int, int], srgb: bool) -> moderngl.Texture:
        limit = int(self.ctx.info["GL_MAX_TEXTURE_SIZE"])  # moderngl caches it: 0 if first read off-context
        if source not in self._pixels:
            self._pixels[source] = decode_texels(self.scene, source, limit if limit > 0 else None)
        pixels = self._pixels[source]
        levels = pixels if isinstance(pixels, list) else None  # a KTX2 image: its own mip levels
        size, components, texels = (pixels[0][0], 4, pixels[0][1]) if levels else pixels
        # glTF's UV (0, 0) is the image's top-left; uploading the top row first puts it at GL's t = 0. Always
        # an RGBA texture: RGB rows are widened by GL (alpha 1), as converting them to RGBA first would do.
        fmt = GL_SRGB8_ALPHA8 if srgb else GL_RGBA8
        complete = levels is not None and len(levels) == max(size).bit_length()  # down to 1×1, as GL needs
        tex = self.ctx.texture(size, components, texels, internal_format=fmt)
        min_filter = sampler.get("minFilter", DEFAULT_MIN_FILTER)
        mag_filter = sampler.get("magFilter", DEFAULT_MAG_FILTER)
        if min_filter in MIPMAP_FILTERS:
            tex.build_mipmaps()  # allocates every level; a KTX2 image's own levels then replace GL's
            for k, (_, data) in enumerate(levels[1:] if complete else [], start=1):
                tex.write(data, level=k)
        tex.filter = (min_filter, mag_filter)
        tex.repeat_x = wrap[0] != CLAMP_TO_EDGE
        tex.repeat_y = wrap[1] != CLAMP_TO_EDGE
        return tex

    def release(self) -> None:
        for tex in self._textures.values():
            tex.release()
        self._textures.clear()
