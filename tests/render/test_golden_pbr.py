"""Golden pictures of the Khronos material models (``khronos-pbr``), rendered headless on EGL with the default
look (studio environment and key light, Khronos PBR Neutral, ``--aa auto``: 4× MSAA, FXAA on the metal/rough
grid's million triangles), 320×240, grid and gizmo on, under
the golden rule of ``render_helpers`` (fewer than 1 % of pixels off by more than 8/255).

Each baseline was looked at next to the screenshot the sample repository publishes for the model (Khronos
Sample Viewer: its own camera and environment, so compared by eye, not by pixel): DamagedHelmet's emissive
visor and metal trim, the metal/rough grid blurring to the right and turning mirror-like upward, the
mirrored normal maps lit like the geometry, the alpha modes' cut-offs, the emissive strengths rising, and
every TextureTransformTest tile showing its check mark where the test says it should.
"""

from __future__ import annotations

import pytest

from tests.conftest import pbr_model
from tests.render.conftest import assert_matches_golden, gl_error
from viewer import export
from viewer.render.renderer import Look, RenderOptions
from viewer.scene.scene import load

SIZE = (320, 240)

CASES = [
    # name, model, look, camera yaw / pitch (None: the default view)
    ("pbr_damagedhelmet", "DamagedHelmet", Look(), (None, None)),
    (
        "pbr_damagedhelmet_background_aces",
        "DamagedHelmet",
        Look(env_background=True, tonemap="aces", exposure=0.5),
        (None, None),
    ),
    ("pbr_metalroughspheres", "MetalRoughSpheresNoTextures", Look(), (0.0, 0.0)),
    ("pbr_normaltangentmirror", "NormalTangentMirrorTest", Look(), (0.0, 0.0)),
    ("pbr_alphablendmode", "AlphaBlendModeTest", Look(), (0.0, 10.0)),
    ("pbr_emissivestrength", "EmissiveStrengthTest", Look(), (0.0, 10.0)),
    ("pbr_texturetransform", "TextureTransformTest", Look(), (0.0, 0.0)),
]


@pytest.mark.parametrize("name,model,look,angles", CASES, ids=[c[0] for c in CASES])
def test_golden_material_picture(gl, name, model, look, angles):
    scene = load(pbr_model(model))
    view = export.View(size=SIZE, yaw=angles[0], pitch=angles[1], options=RenderOptions(look=look))
    off = export.Offscreen(scene, None, view, gl.ctx, gl.programs)
    try:
        rgb = off.frame(0.0)
    finally:
        off.release()
    assert gl_error(gl) == "GL_NO_ERROR"
    assert_matches_golden(name, rgb)
