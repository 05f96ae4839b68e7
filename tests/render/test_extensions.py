"""What each material extension and each kind of punctual light changes, measured in pictures of a unit
sphere (or a square) built by code, and one golden picture of them side by side.

Pictures are 96 × 96 (orthographic, no MSAA); "linear" values are decoded from the 8-bit sRGB picture.
Each test compares the same object with and without the feature, so the claim is the feature's effect, not
an absolute level.
"""

from __future__ import annotations

import numpy as np

from tests.render.conftest import front_ortho_camera, plane, render_plain, sphere_file, srgb_decode

SIZE = (96, 96)
RED_ROUGH = {
    "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.1, 0.1, 1], "metallicFactor": 0.0, "roughnessFactor": 1.0}
}
BLACK = {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0.0, "roughnessFactor": 0.3}}


def with_ext(material: dict, name: str, value: dict) -> dict:
    return {**material, "extensions": {**material.get("extensions", {}), name: value}}


def picture(gl, scene, **look) -> np.ndarray:
    return srgb_decode(render_plain(gl, scene, front_ortho_camera(1.2), SIZE, **{"tonemap": "none", **look}))


def ring(inner: float, outer: float) -> np.ndarray:
    """(h, w) bool: pixels whose distance from the centre (in sphere radii) lies in [inner, outer)."""
    y, x = np.mgrid[0 : SIZE[1], 0 : SIZE[0]]
    r = np.hypot((x + 0.5) / SIZE[0] * 2.0 - 1.0, (y + 0.5) / SIZE[1] * 2.0 - 1.0) * 1.2
    return (r >= inner) & (r < outer)


def test_clearcoat_adds_a_sharp_reflection_over_a_rough_base(gl, tmp_path):
    plain = picture(gl, sphere_file(tmp_path / "a", RED_ROUGH))
    coated = picture(
        gl,
        sphere_file(
            tmp_path / "b",
            with_ext(RED_ROUGH, "KHR_materials_clearcoat", {"clearcoatFactor": 1.0, "clearcoatRoughnessFactor": 0.0}),
            extensions=("KHR_materials_clearcoat",),
        ),
    )
    inside = ring(0.0, 0.9)
    sharpness = [np.hypot(*np.gradient(p.mean(axis=-1)))[inside].mean() for p in (plain, coated)]
    assert sharpness[1] > 1.5 * sharpness[0]
    assert coated[inside][:, 1].max() > plain[inside][:, 1].max() + 0.1  # the coat reflects white light


def test_sheen_brightens_the_rim_of_a_dark_cloth(gl, tmp_path):
    dark = {
        "pbrMetallicRoughness": {
            "baseColorFactor": [0.02, 0.02, 0.02, 1],
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        }
    }
    plain = picture(gl, sphere_file(tmp_path / "a", dark))
    cloth = picture(
        gl,
        sphere_file(
            tmp_path / "b",
            with_ext(dark, "KHR_materials_sheen", {"sheenColorFactor": [1.0, 1.0, 1.0], "sheenRoughnessFactor": 0.5}),
            extensions=("KHR_materials_sheen",),
        ),
    )
    rim, centre = ring(0.85, 0.97), ring(0.0, 0.3)
    assert cloth[rim].mean() > plain[rim].mean() + 0.05
    assert cloth[rim].mean() > cloth[centre].mean()  # sheen is a grazing-angle effect


def test_specular_factor_and_ior_set_the_dielectric_reflection(gl, tmp_path):
    plain = picture(gl, sphere_file(tmp_path / "a", BLACK))
    none = picture(
        gl,
        sphere_file(
            tmp_path / "b",
            with_ext(BLACK, "KHR_materials_specular", {"specularFactor": 0.0}),
            extensions=("KHR_materials_specular",),
        ),
    )
    ior1 = picture(
        gl,
        sphere_file(
            tmp_path / "c", with_ext(BLACK, "KHR_materials_ior", {"ior": 1.0}), extensions=("KHR_materials_ior",)
        ),
    )
    ior25 = picture(
        gl,
        sphere_file(
            tmp_path / "d", with_ext(BLACK, "KHR_materials_ior", {"ior": 2.5}), extensions=("KHR_materials_ior",)
        ),
    )
    assert none[ring(0.0, 0.9)].max() < 0.01  # specularFactor 0 scales the Fresnel term, f90 too: black
    # ior 1: F0 = 0, so nothing faces back; Schlick's grazing term stays (the extension's fresnel_mix)
    assert ior1[ring(0.0, 0.3)].max() < 0.005 < ior1[ring(0.85, 0.95)].mean()
    assert ior25[ring(0.0, 0.3)].mean() > 2.0 * plain[ring(0.0, 0.3)].mean()  # F0 0.18 against 0.04


def test_transmission_shows_the_backdrop_through_the_sphere_and_volume_tints_it(gl, tmp_path):
    glass = {
        "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0.0, "roughnessFactor": 0.0},
        "extensions": {"KHR_materials_transmission": {"transmissionFactor": 1.0}},
    }
    red = {"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}, "extensions": {"KHR_materials_unlit": {}}}
    ext = ("KHR_materials_transmission", "KHR_materials_unlit", "KHR_materials_volume")
    clear = picture(gl, sphere_file(tmp_path / "a", glass, extensions=ext, backdrop=red))
    tinted = picture(
        gl,
        sphere_file(
            tmp_path / "b",
            with_ext(
                glass,
                "KHR_materials_volume",
                {"thicknessFactor": 1.0, "attenuationDistance": 0.5, "attenuationColor": [0.2, 1.0, 0.2]},
            ),
            extensions=ext,
            backdrop=red,
        ),
    )
    opaque = picture(
        gl,
        sphere_file(
            tmp_path / "c", {"pbrMetallicRoughness": glass["pbrMetallicRoughness"]}, extensions=ext, backdrop=red
        ),
    )
    centre = ring(0.0, 0.4)
    assert clear[centre][:, 0].mean() > clear[centre][:, 1].mean() + 0.3  # red seen through it
    assert opaque[centre][:, 0].mean() < opaque[centre][:, 1].mean() + 0.1  # a white ball hides the red
    assert tinted[centre][:, 0].mean() < 0.5 * clear[centre][:, 0].mean()  # green glass absorbs the red


def spot_on_plane(gl, tmp_path, spot: dict | None = None, light: dict | None = None, **look):
    white = {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0.0, "roughnessFactor": 1.0}}
    light = light or {
        "type": "spot",
        "intensity": 6.0,
        "spot": spot or {"innerConeAngle": 0.15, "outerConeAngle": 0.35},
    }
    scene = sphere_file(
        tmp_path, white, shape=plane, lights=[light], light_nodes=[{"light": 0, "translation": [0, 0, 2]}]
    )
    return picture(gl, scene, environment=False, **look)[..., 1]


def plane_radius(r: float) -> np.ndarray:
    """Pixels of the square at distance r (± a pixel) from the centre, in world units (camera half-width 1.2)."""
    return ring(r - 0.02, r + 0.02)


def test_a_spot_lights_inside_its_cone_and_nothing_outside(gl, tmp_path):
    lit = spot_on_plane(gl, tmp_path / "a")
    inner, outer = 2.0 * np.tan(0.15), 2.0 * np.tan(0.35)  # the cones' radii on the square 2 units below
    centre = lit[ring(0.0, 0.05)].mean()
    assert centre > 0.3
    assert lit[plane_radius(0.9 * inner)].mean() > 0.8 * centre  # full inside the inner cone (less cos and d²)
    assert lit[plane_radius(1.1 * outer)].max() == 0.0  # beyond the outer cone: dark
    middle = lit[plane_radius(0.5 * (inner + outer))].mean()
    assert 0.05 * centre < middle < 0.8 * centre  # the falloff between the cones


def test_a_point_light_stops_at_its_range(gl, tmp_path):
    near = spot_on_plane(gl, tmp_path / "a", light={"type": "point", "intensity": 6.0, "range": 3.0})
    cut = spot_on_plane(gl, tmp_path / "b", light={"type": "point", "intensity": 6.0, "range": 1.9})
    assert near[ring(0.0, 0.05)].mean() > 0.3
    assert cut.max() == 0.0  # every point of the square is more than 1.9 from the light


def test_studio_light_replaces_the_file_lights_when_chosen(gl, tmp_path):
    red = {"type": "directional", "color": [1.0, 0.0, 0.0], "intensity": 3.0}
    file_lit = spot_on_plane(gl, tmp_path / "a", light=red)
    studio = spot_on_plane(gl, tmp_path / "b", light=red, lights="studio")
    assert file_lit.max() == 0.0  # green channel under a red light, no environment
    assert studio[ring(0.0, 0.5)].mean() > 0.2


def test_a_light_moves_with_its_animated_node(gl, tmp_path):
    def animate(b, nodes):
        b.add_animation(
            [
                {
                    "node": nodes[1],
                    "path": "translation",
                    "times": np.array([0.0, 1.0], np.float32),
                    "values": np.array([[-1.0, 0, 0.6], [1.0, 0, 0.6]], np.float32),
                }
            ]
        )

    white = {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0.0, "roughnessFactor": 1.0}}
    scene = sphere_file(
        tmp_path,
        white,
        shape=plane,
        lights=[{"type": "point", "intensity": 1.0}],
        light_nodes=[{"light": 0, "translation": [0, 0, 0.6]}],
        animate=animate,
    )
    left, right = (
        srgb_decode(
            render_plain(
                gl, scene, front_ortho_camera(1.2), SIZE, clip=scene.clips[0], t=t, tonemap="none", environment=False
            )
        )[..., 1]
        for t in (0.0, 1.0)
    )
    half = SIZE[0] // 2
    assert left[:, :half].mean() > 2.0 * left[:, half:].mean()
    assert right[:, half:].mean() > 2.0 * right[:, :half].mean()


def test_golden_extensions_side_by_side(gl, tmp_path):
    """One picture (looked at when made): a rough red ball plain, clearcoated, a dark cloth with sheen, a black
    ball with ior 2.5, clear glass and green glass over a red backdrop, and a spot cone on a white square."""
    from tests.render.conftest import assert_matches_golden

    red = {"pbrMetallicRoughness": {"baseColorFactor": [1, 0, 0, 1]}, "extensions": {"KHR_materials_unlit": {}}}
    glass = {
        "pbrMetallicRoughness": {"metallicFactor": 0.0, "roughnessFactor": 0.0},
        "extensions": {"KHR_materials_transmission": {"transmissionFactor": 1.0}},
    }
    cases = [
        (RED_ROUGH, {}),
        (with_ext(RED_ROUGH, "KHR_materials_clearcoat", {"clearcoatFactor": 1.0}), {}),
        (
            with_ext(
                {"pbrMetallicRoughness": {"baseColorFactor": [0.05, 0.05, 0.2, 1], "metallicFactor": 0.0}},
                "KHR_materials_sheen",
                {"sheenColorFactor": [1, 0.8, 0.6], "sheenRoughnessFactor": 0.4},
            ),
            {},
        ),
        (with_ext(BLACK, "KHR_materials_ior", {"ior": 2.5}), {}),
        (glass, {"backdrop": red}),
        (
            with_ext(
                glass,
                "KHR_materials_volume",
                {"thicknessFactor": 1.0, "attenuationDistance": 0.5, "attenuationColor": [0.2, 1.0, 0.2]},
            ),
            {"backdrop": red},
        ),
    ]
    ext = (
        "KHR_materials_clearcoat",
        "KHR_materials_sheen",
        "KHR_materials_ior",
        "KHR_materials_transmission",
        "KHR_materials_volume",
        "KHR_materials_unlit",
    )
    tiles = [
        render_plain(
            gl,
            sphere_file(tmp_path / str(k), m, extensions=ext, **extra),
            front_ortho_camera(1.2),
            SIZE,
            samples=4,
            background=(0.16, 0.17, 0.19),
        )
        for k, (m, extra) in enumerate(cases)
    ]
    white = {"pbrMetallicRoughness": {"metallicFactor": 0.0}}
    spot = sphere_file(
        tmp_path / "spot",
        white,
        shape=plane,
        lights=[{"type": "spot", "intensity": 6.0, "spot": {"innerConeAngle": 0.15, "outerConeAngle": 0.35}}],
        light_nodes=[{"light": 0, "translation": [0, 0, 2]}],
    )
    tiles.append(render_plain(gl, spot, front_ortho_camera(1.2), SIZE, samples=4))
    assert_matches_golden("pbr_extensions", np.concatenate(tiles, axis=1))
