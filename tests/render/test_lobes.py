"""The material lobes of issue 27 — KHR_materials_anisotropy, _iridescence, _dispersion, _diffuse_transmission —
measured in pictures of a sphere: each changes what its specification says it changes, creates no energy in a
uniform white environment (furnace), and at its "off" value draws the same pixels as a material without it.
Renders without MSAA, tone mapping or exposure, so a pixel's linear value is the shader's radiance."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.render.conftest import srgb_decode, uniform_environment
from tests.render.test_pbr import disc, render_in, sphere_file

DIRECTIONAL = [{"type": "directional", "intensity": 3.0}]
FACING = [{"light": 0}]  # the light's node unrotated: it travels down -Z, toward the surface facing the camera
BEHIND = [{"light": 0, "rotation": [0.0, 1.0, 0.0, 0.0]}]  # turned about Y: it travels +Z, from behind


def material(metallic: float, roughness: float, base=(1.0, 1.0, 1.0, 1.0), **extensions) -> dict:
    m = {
        "pbrMetallicRoughness": {
            "baseColorFactor": list(base),
            "metallicFactor": metallic,
            "roughnessFactor": roughness,
        }
    }
    return m | ({"extensions": extensions} if extensions else {})


def picture(gl, tmp_path, m: dict, name: str, lights=None, nodes=(), environment: bool = True, backdrop=None):
    # a backdrop's left edge runs down the middle, behind the sphere: black left of it, white right
    scene = sphere_file(tmp_path / name, m, lights=lights, light_nodes=nodes, backdrop=backdrop, backdrop_at=(4, 0, -2))
    return srgb_decode(render_in(gl, scene, uniform_environment(), environment=environment))


FURNACE = {
    "anisotropy metal": material(1.0, 0.4, KHR_materials_anisotropy={"anisotropyStrength": 1.0}),
    "anisotropy dielectric": material(0.0, 0.2, KHR_materials_anisotropy={"anisotropyStrength": 0.8}),
    "iridescence metal": material(1.0, 0.2, KHR_materials_iridescence={"iridescenceFactor": 1.0}),
    "iridescence dielectric": material(
        0.0, 0.1, KHR_materials_iridescence={"iridescenceFactor": 1.0, "iridescenceThicknessMaximum": 800}
    ),
    "diffuse transmission": material(0.0, 0.6, KHR_materials_diffuse_transmission={"diffuseTransmissionFactor": 1.0}),
}


@pytest.mark.parametrize("name", FURNACE)
def test_furnace_no_lobe_makes_light(gl, tmp_path, name):
    """A white surface in a white environment of radiance 1 shows at most 1 (and a lossless lobe exactly 1)."""
    linear = picture(gl, tmp_path, FURNACE[name], "furnace")[disc()]
    assert linear.max() < 1.0 + 0.02, linear.max()
    if name.startswith(("anisotropy", "diffuse")):  # these only move light around: none is lost either
        assert linear.min() > 1.0 - 0.02, linear.min()
    else:  # a film's Fresnel is single scattering: it may lose a little at grazing angles, never gain
        assert np.median(linear) > 0.85


OFF = {
    "anisotropy": ({"anisotropyStrength": 0.0, "anisotropyRotation": 1.0}, "KHR_materials_anisotropy"),
    "iridescence": ({"iridescenceFactor": 0.0, "iridescenceIor": 1.8}, "KHR_materials_iridescence"),
    "diffuse transmission": ({"diffuseTransmissionFactor": 0.0}, "KHR_materials_diffuse_transmission"),
}


@pytest.mark.parametrize("name", OFF)
def test_an_extension_at_its_off_value_draws_the_same_pixels(gl, tmp_path, name):
    ext, key = OFF[name]
    plain = material(0.3, 0.35, base=(0.8, 0.4, 0.2, 1.0))
    lights = {"lights": DIRECTIONAL, "nodes": BEHIND if "diffuse" in name else FACING}
    a = picture(gl, tmp_path, plain, "plain", **lights)
    b = picture(gl, tmp_path, plain | {"extensions": {key: ext}}, "off", **lights)
    assert np.abs(a - b).max() < 0.004  # below one 8-bit step where it is darkest


def highlight_shape(linear: np.ndarray) -> tuple[float, float]:
    """(elongation, angle in degrees of the long axis from +x, y up) of the brightest blob's second moments."""
    lum = linear.mean(axis=-1)
    w = np.where(lum > 0.35 * lum.max(), lum, 0.0)
    y, x = np.mgrid[0 : lum.shape[0], 0 : lum.shape[1]]
    y = -y  # image rows run down; angles are measured with y up
    total = w.sum()
    mx, my = (w * x).sum() / total, (w * y).sum() / total
    cov = np.cov(np.stack([(x - mx).ravel(), (y - my).ravel()]), aweights=w.ravel())
    values, vectors = np.linalg.eigh(cov)
    long_axis = vectors[:, 1]
    angle = math.degrees(math.atan2(long_axis[1], long_axis[0])) % 180.0
    return math.sqrt(values[1] / max(values[0], 1e-9)), angle


def anisotropic(gl, tmp_path, strength: float, rotation: float = 0.0) -> np.ndarray:
    ext = {"anisotropyStrength": strength, "anisotropyRotation": rotation}
    m = material(0.0, 0.3, base=(0.0, 0.0, 0.0, 1.0), KHR_materials_anisotropy=ext)
    return picture(gl, tmp_path, m, f"aniso{strength}_{rotation}", DIRECTIONAL, FACING, environment=False)


def test_anisotropy_stretches_the_highlight_with_strength_along_the_tangent(gl, tmp_path):
    shapes = [highlight_shape(anisotropic(gl, tmp_path, s)) for s in (0.0, 0.4, 0.8)]
    elongations = [e for e, _ in shapes]
    assert elongations[0] < 1.15  # isotropic: a round highlight
    assert elongations[0] < elongations[1] < elongations[2]
    assert elongations[2] > 2.0
    # the UV sphere's tangent (+u) runs around +Y: horizontal where the sphere faces the camera
    assert min(abs(shapes[2][1] - 0.0), abs(shapes[2][1] - 180.0)) < 10.0, shapes[2]


def test_anisotropy_rotation_turns_the_highlight(gl, tmp_path):
    _, flat = highlight_shape(anisotropic(gl, tmp_path, 0.8, 0.0))
    _, turned = highlight_shape(anisotropic(gl, tmp_path, 0.8, math.pi / 2))
    _, diagonal = highlight_shape(anisotropic(gl, tmp_path, 0.8, math.pi / 4))
    assert abs(turned - flat - 90.0) < 10.0 or abs(flat - turned - 90.0) < 10.0
    assert 35.0 < diagonal < 55.0 or 125.0 < diagonal < 145.0


def test_iridescence_colour_shifts_with_the_view_angle(gl, tmp_path):
    """A black dielectric shows only its Fresnel: white-grey without a film; with one, a hue that changes from
    the centre (normal incidence) to the rim (grazing)."""
    film = {"iridescenceFactor": 1.0, "iridescenceIor": 1.3, "iridescenceThicknessMaximum": 400.0}
    black = (0.0, 0.0, 0.0, 1.0)
    plain = picture(gl, tmp_path, material(0.0, 0.2, base=black), "plain")
    irid = picture(gl, tmp_path, material(0.0, 0.2, base=black, KHR_materials_iridescence=film), "film")

    def chroma(region):
        c = region.reshape(-1, 3).mean(axis=0)
        return c / c.sum()

    centre, rim = disc(inner=0.3), disc(inner=0.85) & ~disc(inner=0.7)
    assert np.abs(chroma(plain[centre]) - 1 / 3).max() < 0.01  # no film: neutral
    assert np.abs(chroma(irid[centre]) - 1 / 3).max() > 0.05  # the film colours it
    assert np.abs(chroma(irid[centre]) - chroma(irid[rim])).max() > 0.05  # and the colour moves with angle


def test_diffuse_transmission_lets_a_light_behind_through_tinted(gl, tmp_path):
    red = {"diffuseTransmissionFactor": 1.0, "diffuseTransmissionColorFactor": [1.0, 0.2, 0.2]}
    m = material(0.0, 0.6)
    dark = picture(gl, tmp_path, m, "opaque", DIRECTIONAL, BEHIND, environment=False)[disc(inner=0.5)]
    lit = picture(
        gl,
        tmp_path,
        m | {"extensions": {"KHR_materials_diffuse_transmission": red}},
        "thin",
        DIRECTIONAL,
        BEHIND,
        environment=False,
    )[disc(inner=0.5)]
    assert dark.max() < 0.01  # an opaque surface lit from behind is black on this side
    r, g, b = lit.mean(axis=0)
    assert r > 0.3 and g < 0.3 * r and b < 0.3 * r  # lit through, in the colour it is tinted


def test_dispersion_splits_the_refracted_backdrop_into_colour(gl, tmp_path):
    """A glass sphere in front of a black-to-white edge: without dispersion the refracted edge stays grey; with
    it red and blue bend apart, so the edge shows colour. Dispersion 0 draws what no extension draws."""
    glass = material(0.0, 0.0)
    glass["extensions"] = {
        "KHR_materials_transmission": {"transmissionFactor": 1.0},
        "KHR_materials_volume": {"thicknessFactor": 1.5},
        "KHR_materials_ior": {"ior": 1.5},
    }
    edge = {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}, "extensions": {"KHR_materials_unlit": {}}}
    plain = picture(gl, tmp_path, glass, "glass", environment=False, backdrop=edge)
    zero = dict(glass, extensions=glass["extensions"] | {"KHR_materials_dispersion": {"dispersion": 0.0}})
    strong = dict(glass, extensions=glass["extensions"] | {"KHR_materials_dispersion": {"dispersion": 5.0}})
    assert np.abs(picture(gl, tmp_path, zero, "zero", environment=False, backdrop=edge) - plain).max() < 0.004
    split = picture(gl, tmp_path, strong, "split", environment=False, backdrop=edge)
    inside = disc(inner=0.9)
    spread = lambda img: np.abs(img[..., 0] - img[..., 2])[inside].max()  # noqa: E731
    assert spread(plain) < 0.02
    assert spread(split) > 0.1


@pytest.mark.parametrize(
    "pointer,key,start,end",
    [
        ("KHR_materials_anisotropy/anisotropyStrength", "KHR_materials_anisotropy", 0.0, 0.9),
        ("KHR_materials_iridescence/iridescenceFactor", "KHR_materials_iridescence", 0.0, 1.0),
        ("KHR_materials_diffuse_transmission/diffuseTransmissionFactor", "KHR_materials_diffuse_transmission", 0, 1),
    ],
)
def test_an_animated_pointer_to_a_new_property_is_drawn(gl, tmp_path, pointer, key, start, end):
    """KHR_animation_pointer into each new extension: at the first key the picture is the file's own at that value,
    at the last key it is the file's own at the other value."""
    from tests.render.conftest import front_ortho_camera, render_plain

    def animate(b, nodes):
        times, values = np.array([0.0, 1.0], np.float32), np.array([start, end], np.float32)
        b.add_animation([{"pointer": f"/materials/0/extensions/{pointer}", "times": times, "values": values}])
        b.doc["extensionsUsed"] = sorted(set(b.doc.get("extensionsUsed", [])) | {"KHR_animation_pointer"})

    field = pointer.split("/")[1]
    base = material(0.0, 0.3, base=(0.1, 0.1, 0.1, 1.0))
    lights = {"lights": DIRECTIONAL, "light_nodes": BEHIND if "diffuse" in key else FACING}

    def shot(scene, t=0.0):
        clip = scene.clips[0] if scene.clips else None
        camera = front_ortho_camera(1.2)
        return render_plain(gl, scene, camera, (96, 96), clip=clip, t=t, tonemap="none", lights="file")

    animated = sphere_file(tmp_path / "anim", base | {"extensions": {key: {field: start}}}, animate=animate, **lights)
    still = [sphere_file(tmp_path / f"s{v}", base | {"extensions": {key: {field: v}}}, **lights) for v in (start, end)]
    first, last = shot(animated, 0.0), shot(animated, 1.0)
    assert np.abs(first.astype(int) - shot(still[0])).max() <= 1
    assert np.abs(last.astype(int) - shot(still[1])).max() <= 1
    assert np.abs(first.astype(int) - last).max() > 20


def test_anisotropy_gets_tangents_without_a_normal_texture():
    """Its direction is in tangent space: a mesh without TANGENT gets generated ones, on the texture's own set."""
    from viewer.render.gpu_mesh import tangent_uv_set
    from viewer.render.materials import Material, TextureSlot

    assert tangent_uv_set(Material()) is None
    assert tangent_uv_set(Material(anisotropy=(0.5, 0.0))) == 0
    slot = TextureSlot(texture=None, uv_set=1, transform=(), mirror=(False, False))
    assert tangent_uv_set(Material(anisotropy=(0.5, 0.0), slots={"anisotropy": slot})) == 1
    assert tangent_uv_set(Material(anisotropy=(0.5, 0.0), unlit=True)) is None
