"""The morph pass (``viewer.render.morph``: heavy primitives morphed once per vertex by transform feedback,
then drawn from its buffers) draws exactly what morphing in the mesh program draws: the same pictures, bit
for bit, and the same vertex-id (picking) output, on the shared morph models, instanced morphed meshes
and a stress torus; and a pose whose weights did not change runs no second pass."""

from __future__ import annotations

import sys

import moderngl
import numpy as np
import pytest

from tests.conftest import REPO_ROOT, khronos_model
from tests.render.conftest import render_plain
from tests.render.test_instancing import camera, covered, instances_file
from viewer import export
from viewer.render import morph
from viewer.render.renderer import RenderOptions
from viewer.scene.scene import load

sys.path.insert(0, str(REPO_ROOT / "tools"))
import stress_models  # noqa: E402

SIZE = (160, 120)
MODELS = [
    ("MorphStressTest", "TheWave", 1.0),
    ("AnimatedMorphCube", 0, 3.0),
    ("AnimatedMorphSphere", 0, 1.0),
    ("SimpleMorph", 0, 1.5),
]


def frame(gl, scene, clip, t: float, debug: bool = False) -> tuple[np.ndarray, int]:
    """The default view's picture (or vertex ids) at ``t``, and how many primitives had a morph pass."""
    view = export.View(size=SIZE, options=RenderOptions(debug_vertex_ids=debug))
    off = export.Offscreen(scene, clip, view, gl.ctx, gl.programs)
    try:
        passes = sum(p.morph.morph_pass is not None for mesh in off.renderer.gpu.meshes for p in mesh)
        return off.frame(t), passes
    finally:
        off.release()


def both(gl, monkeypatch, scene, clip, t, debug=False):
    in_shader, none = frame(gl, scene, clip, t, debug)
    with monkeypatch.context() as m:
        m.setattr(morph, "PASS_TEXELS", 1)
        baked, passes = frame(gl, scene, clip, t, debug)
    assert none == 0 and passes > 0
    return in_shader, baked


@pytest.mark.parametrize("model,clip,t", MODELS, ids=[m[0] for m in MODELS])
@pytest.mark.parametrize("debug", [False, True], ids=["picture", "vertex-ids"])
def test_morph_pass_draws_what_the_mesh_program_draws(gl, monkeypatch, model, clip, t, debug):
    scene = load(khronos_model(model))
    c = scene.clips[clip] if isinstance(clip, int) else next(k for k in scene.clips if k.name == clip)
    in_shader, baked = both(gl, monkeypatch, scene, c, t, debug)
    assert np.array_equal(in_shader, baked)


def test_morph_pass_on_the_demo_and_a_stress_torus(gl, monkeypatch, tmp_path):
    for path in (
        REPO_ROOT / "assets" / "morph_shape.gltf",
        stress_models.rippling_torus(tmp_path / "ripples.glb", 6, rings=24),
    ):
        scene = load(path)
        in_shader, baked = both(gl, monkeypatch, scene, scene.clips[0], 1.3)
        assert np.array_equal(in_shader, baked) and in_shader.std() > 0


def test_morph_pass_under_instancing(gl, monkeypatch, tmp_path):
    """Morphed instances drawn in groups by their weights: one pass per group, each before its draw."""
    scene = instances_file(tmp_path)
    in_shader = render_plain(gl, scene, camera(), size=SIZE, samples=4)
    monkeypatch.setattr(morph, "PASS_TEXELS", 1)
    baked = render_plain(gl, scene, camera(), size=SIZE, samples=4)
    assert covered(in_shader) > 0.15 and np.array_equal(in_shader, baked)


def test_unchanged_weights_run_no_second_pass(gl, monkeypatch, tmp_path):
    scene = load(stress_models.rippling_torus(tmp_path / "ripples.glb", 3, rings=12))
    monkeypatch.setattr(morph, "PASS_TEXELS", 1)
    calls = []
    transform = moderngl.VertexArray.transform
    monkeypatch.setattr(
        moderngl.VertexArray, "transform", lambda self, *a, **k: calls.append(1) or transform(self, *a, **k)
    )
    view = export.View(size=SIZE)
    off = export.Offscreen(scene, scene.clips[0], view, gl.ctx, gl.programs)
    try:
        off.frame(0.5)
        off.frame(0.5)
        assert len(calls) == 1
        off.frame(0.7)
        assert len(calls) == 2
    finally:
        off.release()


def test_one_pass_program_serves_primitives_of_different_sizes(gl, monkeypatch, tmp_path):
    """Two tori with as many targets share the pass's program: each pass runs with its own vertex count."""
    from viewer.demo.builder import DemoWriter

    w = DemoWriter()
    nodes = []
    for k, rings in enumerate((10, 17)):
        uv, tri = stress_models.torus_grid(rings, 2 * rings)
        p, n = stress_models.torus_points(uv), stress_models.surface_normals(uv, 0.0)
        targets = stress_models.ripple_targets(p, n, 3, True)
        mesh = w.mesh(
            f"t{k}",
            p,
            n,
            tri,
            w.material(f"m{k}", (0.3, 0.6, 0.9, 1.0)),
            targets=targets,
            weights=[0.9, 0.5 + 0.4 * k, 0.7],
        )
        nodes.append(w.node(f"t{k}", mesh=mesh, translation=(2.6 * k - 1.3, 0.0, 0.0)))
    w.gltf.scene = 0
    w.gltf.scenes = [stress_models.pygltflib.Scene(nodes=nodes)]
    path = stress_models.writer.save(w.to_dict(), w.bin_bytes(), tmp_path / "two.glb")
    scene = load(path)
    in_shader, baked = both(gl, monkeypatch, scene, None, 0.0)
    assert np.array_equal(in_shader, baked) and in_shader.std() > 0
