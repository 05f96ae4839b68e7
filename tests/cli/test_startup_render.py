"""The fast start of ``animview render``: what it leaves out, and that each shortcut draws the same bits.

A single PNG is mostly start-up, so the render path imports only what a plain picture needs (checked in a
fresh interpreter), and three GL steps avoid work llvmpipe would redo in every process: the studio's mip
chain is defined level by level instead of generated and overwritten, MSAA is resolved by a program of our
own instead of a blit, and RGB textures go up without being widened to RGBA first. Each is compared here,
bit for bit, with the way it replaced. (How long any of it takes is ``tests/startup_times.py``'s business.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO_ROOT, khronos_model, pbr_model
from tests.render.conftest import gl_error
from viewer import export
from viewer.render import environment, image_decode, materials
from viewer.render.look import Look
from viewer.render.renderer import RenderOptions
from viewer.render.shaders import ProgramCache
from viewer.render.target import OffscreenTarget
from viewer.scene.scene import load

# Never needed for a plain picture: the window and overlay stack, the other subcommands, compare panes,
# meshopt's codecs (Fox has no compressed views), the pygltflib view, progress bars and video writers.
NOT_FOR_A_PICTURE = (
    "imgui_bundle",
    "moderngl_window",
    "pyglet",
    "pygltflib",
    "tqdm",
    "imageio",
    "viewer.app.window",
    "viewer.ui",
    "viewer.compare.views",
    "viewer.export.compare",
    "viewer.export.overlay",
    "viewer.render.compare_view",
    "viewer.cli.view",
    "viewer.cli.inspect",
    "viewer.cli.sample",
    "viewer.cli.bake",
    "viewer.cli.bench",
    "viewer.gltf.meshopt_codecs",
    "viewer.gltf.meshopt_filters",
)

PROBE = """
import json, sys
from viewer.cli.main import main
status = main(sys.argv[1:])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_a_plain_render_imports_nothing_a_picture_does_not_need(tmp_path):
    out = tmp_path / "fox.png"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "render", str(khronos_model("Fox")), "-o", str(out), "--quiet"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.splitlines()[-1])
    if report["status"] == 1:
        pytest.skip(f"no offscreen OpenGL here: {proc.stderr.strip()[:200]}")
    assert report["status"] == 0 and out.is_file()
    loaded = [m for m in report["modules"] if any(m == name or m.startswith(name + ".") for name in NOT_FOR_A_PICTURE)]
    assert not loaded, f"the render path imported {loaded}"


@pytest.mark.parametrize("name", ["render", "inspect", "sample", "bench", "bake"])
def test_a_subcommand_parsed_alone_has_the_help_of_the_full_parser(name, capsys):
    from viewer.cli.main import build_parser

    texts = []
    for parser in (build_parser(), build_parser(name)):
        with pytest.raises(SystemExit):
            parser.parse_args([name, "-h"])
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1] and f"animview {name}" in texts[0]


def _picture(gl, scene, clip, look: Look, samples: int = 4, size=(160, 120)) -> np.ndarray:
    """One frame through a fresh program cache (so the studio is uploaded anew), released after."""
    programs = ProgramCache(gl.ctx)
    view = export.View(size=size, samples=samples, options=RenderOptions(look=look))
    off = export.Offscreen(scene, clip, view, gl.ctx, programs)
    try:
        return off.frame(0.5)
    finally:
        off.release()
        programs.release()


def test_the_studio_chain_defined_directly_draws_what_generated_then_written_levels_draw(gl, monkeypatch):
    scene = load(pbr_model("MetalRoughSpheresNoTextures"))
    look = Look(env_background=True)  # the blurred background reads a rough level, the spheres every level
    defined = []
    direct = environment._define_levels
    monkeypatch.setattr(environment, "_define_levels", lambda *args: defined.append(direct(*args)) or defined[-1])
    fast = _picture(gl, scene, None, look)
    assert defined == [True], "the levels were not defined directly on this context: nothing compared"
    monkeypatch.setattr(environment, "_define_levels", lambda *args: False)
    generated = _picture(gl, scene, None, look)
    assert gl_error(gl) == "GL_NO_ERROR"
    assert np.array_equal(fast, generated)


@pytest.mark.parametrize("samples", [2, 4])
def test_the_resolve_pass_gives_the_bits_of_the_resolve_blit(gl, monkeypatch, samples):
    scene = load(khronos_model("Fox"))
    clip = scene.clips[1]
    pictures = []
    for texture_samples in (gl.ctx.info["GL_MAX_COLOR_TEXTURE_SAMPLES"], 0):  # 0: a renderbuffer and the blit
        monkeypatch.setitem(gl.ctx.info, "GL_MAX_COLOR_TEXTURE_SAMPLES", texture_samples)
        with gl.ctx:
            target = OffscreenTarget(gl.ctx, (200, 150), samples, programs=gl.programs)
        assert (target._multisampled is not None) == (texture_samples > 0)
        off = export.Offscreen(scene, clip, export.View(size=(200, 150), samples=samples), gl.ctx, gl.programs)
        try:
            off.target.release()
            off.target = target
            pictures.append(off.frame(0.4))
        finally:
            off.release()
    assert gl_error(gl) == "GL_NO_ERROR"
    assert pictures[0].any() and np.array_equal(pictures[0], pictures[1])


def test_rgb_textures_go_up_as_their_rgba_conversion_would(gl):
    scene = load(khronos_model("Fox"))  # its one image is an RGB PNG
    (w, h), components, rgb = image_decode.decode_texels(scene, 0)
    assert components == 3
    rgba = image_decode.decode_image(scene, 0)
    assert rgba.shape == (h, w, 4) and (rgba[..., 3] == 255).all()
    with gl.ctx:
        for internal in (materials.GL_SRGB8_ALPHA8, materials.GL_RGBA8):
            widened = gl.ctx.texture((w, h), 3, rgb, internal_format=internal)
            converted = gl.ctx.texture((w, h), 4, rgba, internal_format=internal)
            try:
                read = [gl.ctx.external_texture(t.glo, (w, h), 4, 0, "f1").read() for t in (widened, converted)]
            finally:
                widened.release()
                converted.release()
            assert read[0] == read[1] == rgba.tobytes()  # the same texels, so the same generated mip chain
    assert gl_error(gl) == "GL_NO_ERROR"
