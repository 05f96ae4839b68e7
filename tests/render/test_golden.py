"""Golden pictures of the shared Khronos models at fixed times, rendered headless on EGL.

Each picture is 320×240, the default view (auto camera fitted to the whole clip, 4× MSAA, grid and
gizmo on), compared with ``tests/images/<name>.png`` under the rule in ``render_helpers``: fewer than
1 % of the pixels may differ by more than 8/255 in any channel (room for another Mesa/LLVM version's
rounding at edges, none for a wrong pose, colour or camera).

Every baseline was looked at when it was made: the model centred and whole, lit, textured where it
has a texture (Fox's fur, MorphStressTest's swatches, InterpolationTest's labels), the pose of the time.
"""

from __future__ import annotations

import pytest

from tests.conftest import khronos_model
from tests.render.conftest import assert_matches_golden, gl_error
from viewer import export
from viewer.scene.scene import load

SIZE = (320, 240)

CASES = [
    # name, model, clip (index or name), time (s)
    ("fox_walk_0.30", "Fox", "Walk", 0.30),
    ("fox_survey_1.90", "Fox", "Survey", 1.90),
    ("riggedfigure_0.60", "RiggedFigure", 0, 0.60),
    ("animatedmorphcube_3.00", "AnimatedMorphCube", 0, 3.00),
    ("morphstresstest_individuals_2.00", "MorphStressTest", "Individuals", 2.00),
    ("morphstresstest_thewave_1.00", "MorphStressTest", "TheWave", 1.00),
    ("boxanimated_2.50", "BoxAnimated", 0, 2.50),
    ("interpolationtest_cubicspline_rotation_0.80", "InterpolationTest", "CubicSpline Rotation", 0.80),
    ("simpleskin_2.00", "SimpleSkin", 0, 2.00),
    ("animatedmorphsphere_1.00", "AnimatedMorphSphere", 0, 1.00),
    ("animatedtriangle_0.30", "AnimatedTriangle", 0, 0.30),
    ("riggedsimple_1.00", "RiggedSimple", 0, 1.00),
    ("simplemorph_1.50", "SimpleMorph", 0, 1.50),
]


def pick_clip(scene, key):
    return scene.clips[key] if isinstance(key, int) else next(c for c in scene.clips if c.name == key)


@pytest.mark.parametrize("name,model,clip,t", CASES, ids=[c[0] for c in CASES])
def test_golden_picture(gl, name, model, clip, t):
    scene = load(khronos_model(model))
    off = export.Offscreen(scene, pick_clip(scene, clip), export.View(size=SIZE), gl.ctx, gl.programs)
    try:
        rgb = off.frame(t)
    finally:
        off.release()
    assert gl_error(gl) == "GL_NO_ERROR"
    assert_matches_golden(name, rgb)


def test_rendering_is_deterministic(gl):
    """The same frame twice is the same picture, bit for bit (the golden rule's tolerance is for other machines)."""
    scene = load(khronos_model("Fox"))
    off = export.Offscreen(scene, scene.clips[1], export.View(size=SIZE), gl.ctx, gl.programs)
    try:
        a = off.frame(0.25)
        off.frame(0.5)
        b = off.frame(0.25)
    finally:
        off.release()
    assert (a == b).all()
