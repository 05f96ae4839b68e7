"""A glTF material's numbers as the renderer's ``Material`` fields: one reading of the specification's rules
(defaults, emissive strength, ior 0, which extension needs which) shared by the file's values and the values an
animation writes (``animated_material``), so a factor means the same whichever of the two set it. Pure Python and
numpy: the texture side lives in ``materials``."""

from __future__ import annotations

import numpy as np


def dig(obj: dict, path: tuple[str, ...]):
    """The value at ``path`` inside nested dicts, None where a key is missing."""
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj


def _floats(value, default) -> tuple[float, ...]:
    return tuple(float(x) for x in (default if value is None else value))


def material_factors(m: dict) -> dict[str, object]:
    """The ``Material`` fields a glTF material's JSON sets, textures aside: one reading for the file's values
    and for the values an animation (KHR_animation_pointer) writes into a copy of it."""
    pbr = m.get("pbrMetallicRoughness", {})
    ext = m.get("extensions", {})
    strength = float(ext.get("KHR_materials_emissive_strength", {}).get("emissiveStrength", 1.0))
    clearcoat = sheen = transmission = volume = None
    if "KHR_materials_clearcoat" in ext:
        c = ext["KHR_materials_clearcoat"]
        clearcoat = (
            float(c.get("clearcoatFactor", 0.0)),
            float(c.get("clearcoatRoughnessFactor", 0.0)),
            float(c.get("clearcoatNormalTexture", {}).get("scale", 1.0)),
        )
    if "KHR_materials_sheen" in ext:
        sh = ext["KHR_materials_sheen"]
        sheen = (*_floats(sh.get("sheenColorFactor"), (0.0, 0.0, 0.0)), float(sh.get("sheenRoughnessFactor", 0.0)))
    if "KHR_materials_transmission" in ext:
        transmission = float(ext["KHR_materials_transmission"].get("transmissionFactor", 0.0))
        if "KHR_materials_volume" in ext:
            v = ext["KHR_materials_volume"]
            volume = (
                *_floats(v.get("attenuationColor"), (1.0, 1.0, 1.0)),
                float(v.get("attenuationDistance", 0.0)),
                float(v.get("thicknessFactor", 0.0)),
            )
    spec = ext.get("KHR_materials_specular", {})
    anisotropy = iridescence = dispersion = diffuse_transmission = None
    if "KHR_materials_anisotropy" in ext:
        a = ext["KHR_materials_anisotropy"]
        anisotropy = (float(a.get("anisotropyStrength", 0.0)), float(a.get("anisotropyRotation", 0.0)))
    if "KHR_materials_iridescence" in ext:
        i = ext["KHR_materials_iridescence"]
        iridescence = (
            float(i.get("iridescenceFactor", 0.0)),
            float(i.get("iridescenceIor", 1.3)),
            float(i.get("iridescenceThicknessMinimum", 100.0)),
            float(i.get("iridescenceThicknessMaximum", 400.0)),
        )
    if "KHR_materials_dispersion" in ext and volume is not None:  # the extension acts on volumes only
        dispersion = float(ext["KHR_materials_dispersion"].get("dispersion", 0.0))
    if "KHR_materials_diffuse_transmission" in ext:
        d = ext["KHR_materials_diffuse_transmission"]
        diffuse_transmission = (
            *_floats(d.get("diffuseTransmissionColorFactor"), (1.0, 1.0, 1.0)),
            float(d.get("diffuseTransmissionFactor", 0.0)),
        )
    ior = float(ext.get("KHR_materials_ior", {}).get("ior", 1.5))
    return dict(
        base_color=_floats(pbr.get("baseColorFactor"), (1.0, 1.0, 1.0, 1.0)),
        metallic=float(pbr.get("metallicFactor", 1.0)),
        roughness=float(pbr.get("roughnessFactor", 1.0)),
        emissive=tuple(strength * x for x in _floats(m.get("emissiveFactor"), (0.0, 0.0, 0.0))),
        alpha_mode=m.get("alphaMode", "OPAQUE"),
        alpha_cutoff=float(m.get("alphaCutoff", 0.5)),
        double_sided=bool(m.get("doubleSided", False)),
        unlit="KHR_materials_unlit" in ext,
        normal_scale=float(m.get("normalTexture", {}).get("scale", 1.0)),
        occlusion_strength=float(m.get("occlusionTexture", {}).get("strength", 1.0)),
        ior=ior if ior >= 1.0 else 1e6,  # ior 0 is the extension's "infinitely dense": a perfect mirror F0 = 1
        specular=(*_floats(spec.get("specularColorFactor"), (1.0, 1.0, 1.0)), float(spec.get("specularFactor", 1.0))),
        clearcoat=clearcoat,
        sheen=sheen,
        transmission=transmission,
        volume=volume,
        anisotropy=anisotropy,
        iridescence=iridescence,
        dispersion=dispersion,
        diffuse_transmission=diffuse_transmission,
    )


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
