"""The metallic-roughness shading as the glTF 2.0 specification's Appendix B writes it, checked in pictures.

Furnace: a surface in a uniform white environment with no other light must show exactly that white, whatever
its roughness (energy neither lost nor made: the split-sum's multiple-scattering term puts back what single
scattering loses). Renders without MSAA, tone mapping or exposure, so a pixel's linear value is the
shader's radiance.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.render.conftest import GL, front_ortho_camera, render_plain, sphere_file, srgb_decode, uniform_environment
from viewer.render.environment import Environment
from viewer.render.shaders import ProgramCache

SIZE = (96, 96)


def disc(size=SIZE, half: float = 1.2, radius: float = 1.0, inner: float = 0.9) -> np.ndarray:
    """(h, w) bool: pixels well inside the sphere's silhouette under ``front_ortho_camera(half)``."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    px = ((x + 0.5) / w * 2.0 - 1.0) * half
    py = ((y + 0.5) / h * 2.0 - 1.0) * half
    return px * px + py * py < (inner * radius) ** 2


def render_in(gl, scene, data: dict, **look) -> np.ndarray:
    """Picture of ``scene`` lit only by the environment ``data`` (no punctual light: the file has none)."""
    programs = ProgramCache(gl.ctx)
    try:
        with gl.ctx:
            programs.resources["environment"] = Environment(gl.ctx, data)
        look = {"tonemap": "none", "lights": "file", **look}
        return render_plain(GL(gl.ctx, programs), scene, front_ortho_camera(1.2), SIZE, **look)
    finally:
        with gl.ctx:
            programs.release()


@pytest.mark.parametrize("metallic,roughness", [(0.0, 1.0), (0.0, 0.5), (0.0, 0.05), (1.0, 1.0), (1.0, 0.3)])
def test_furnace_white_surface_in_white_environment_is_white(gl, tmp_path, metallic, roughness):
    scene = sphere_file(
        tmp_path,
        {
            "pbrMetallicRoughness": {
                "baseColorFactor": [1, 1, 1, 1],
                "metallicFactor": metallic,
                "roughnessFactor": roughness,
            }
        },
    )
    linear = srgb_decode(render_in(gl, scene, uniform_environment()))[disc()]
    assert np.abs(linear - 1.0).max() < 0.02, (linear.min(), linear.max())


def test_furnace_holds_at_half_radiance_and_scales_with_intensity(gl, tmp_path):
    scene = sphere_file(tmp_path, {"pbrMetallicRoughness": {"metallicFactor": 0.0, "roughnessFactor": 0.7}})
    half = srgb_decode(render_in(gl, scene, uniform_environment(0.5)))[disc()]
    doubled = srgb_decode(render_in(gl, scene, uniform_environment(0.5), env_intensity=2.0))[disc()]
    off = srgb_decode(render_in(gl, scene, uniform_environment(0.5), environment=False))[disc()]
    assert np.abs(half - 0.5).max() < 0.01
    assert np.abs(doubled - 1.0).max() < 0.02
    assert off.max() == 0.0  # no environment light and no lamp: black


def test_a_dark_base_colour_absorbs_but_keeps_its_fresnel_rim(gl, tmp_path):
    """A black dielectric in white light shows only its specular reflection: ~4 % facing, more at grazing."""
    scene = sphere_file(
        tmp_path,
        {"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0.0, "roughnessFactor": 0.2}},
    )
    linear = srgb_decode(render_in(gl, scene, uniform_environment()))[..., 1]
    centre = linear[SIZE[1] // 2 - 2 : SIZE[1] // 2 + 2, SIZE[0] // 2 - 2 : SIZE[0] // 2 + 2]
    assert 0.03 < centre.mean() < 0.07
    rim = linear[disc(inner=0.97) & ~disc(inner=0.9)]
    assert rim.mean() > 2.0 * centre.mean()
