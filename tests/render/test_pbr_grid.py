"""MetalRoughSpheresNoTextures, measured in the picture: 7 × 7 spheres per base colour (grey in front, gold
behind), metallic rising in one direction and roughness in the other. Seen straight on (grey from +Z, gold
from −Z, an orthographic camera, 4× MSAA), lit by the studio environment alone (a punctual light's highlight
on a mirror is smaller than a pixel, so it would measure the sampling, not the material), two stops down with
no tone mapper so the bright panels do not clip, each sphere's disc is measured:

- *blur*: the 99th percentile of the gradient magnitude of linear luminance inside the disc — the edges of the
  studio's light panels are sharp on a smooth sphere and soft on a rough one;
- *peak*: the brightest pixel — the reflected panels.

Along roughness both must fall (blur at every metallic level; the peak from roughness 1/6 on: at 0 the
brightest panel's reflection is a few pixels, so MSAA decides its maximum). Along metallic, for the smoother half,
reflections must sharpen and the highlight brighten. Tolerances: 0.002 in gradient (about 5 % of its range)
and 0.02 in peak, for rounding between neighbours that nearly tie.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import pbr_model
from tests.render.conftest import FixedCamera, project, render_plain, srgb_decode
from viewer.pose.pose import Pose
from viewer.render.camera import orthographic
from viewer.scene.scene import load

SIZE = (560, 560)
RADIUS = 0.00035  # the spheres' radius in the file's units
GRAD_TOL, PEAK_TOL = 0.002, 0.02
EXPOSURE = -2.0  # two stops down, no tone mapper: the studio's bright panels stay below white, unclipped


def spheres(scene):
    """(node position, metallic, roughness, gold?) of every sphere."""
    pose = Pose(scene)
    pose.set_time(None, 0.0)
    raw = scene.document.raw
    out = []
    for node in np.flatnonzero(scene.nodes.mesh >= 0):
        material = raw["meshes"][scene.nodes.mesh[node]]["primitives"][0].get("material")
        if material is None:
            continue  # the text labels
        pbr = raw["materials"][material]["pbrMetallicRoughness"]
        out.append(
            (
                pose.world[node][:3, 3].copy(),
                pbr["metallicFactor"],
                pbr["roughnessFactor"],
                pbr["baseColorFactor"][2] < 0.1,
            )
        )
    return out


def measure(gl, scene, group, from_front: bool) -> tuple[np.ndarray, np.ndarray]:
    """(7, 7) blur and peak, rows metallic 0 → 1, columns roughness 0 → 1."""
    centres = np.array([g[0] for g in group])
    lo, hi = centres.min(axis=0), centres.max(axis=0)
    mid = 0.5 * (lo + hi)
    half = 0.5 * float((hi - lo).max()) + 2.5 * RADIUS
    view = np.eye(4)
    if not from_front:
        view[:3, :3] = np.diag([-1.0, 1.0, -1.0])  # looking along +Z: the gold set from behind
    view[:3, 3] = -(view[:3, :3] @ (mid + np.array([0.0, 0.0, 0.01 if from_front else -0.01])))
    proj = orthographic(half, half, 1e-4, 1.0)
    linear = srgb_decode(
        render_plain(
            gl, scene, FixedCamera(view, proj), SIZE, samples=4, tonemap="none", exposure=EXPOSURE, lights="file"
        )
    ).mean(axis=-1)
    gy, gx = np.gradient(linear)
    gradient = np.hypot(gx, gy)
    ys, xs = np.mgrid[0 : SIZE[1], 0 : SIZE[0]] + 0.5
    r_px = RADIUS / (2.0 * half) * SIZE[0] * 0.85
    levels = sorted({g[1] for g in group}), sorted({g[2] for g in group})
    blur, peak = np.zeros((7, 7)), np.zeros((7, 7))
    for (_, metallic, roughness, _), (px, py) in zip(group, project(centres, view, proj, SIZE)):
        inside = (xs - px) ** 2 + (ys - py) ** 2 < r_px**2
        i, j = levels[0].index(metallic), levels[1].index(roughness)
        blur[i, j], peak[i, j] = np.percentile(gradient[inside], 99), linear[inside].max()
    return blur, peak


@pytest.mark.parametrize("gold", [False, True], ids=["grey", "gold"])
def test_the_grid_blurs_along_roughness_and_sharpens_along_metallic(gl, gold):
    scene = load(pbr_model("MetalRoughSpheresNoTextures"))
    group = [s for s in spheres(scene) if s[3] == gold]
    assert len(group) == 49
    blur, peak = measure(gl, scene, group, from_front=not gold)
    # along roughness (columns): reflections blur and the highlight falls, at every metallic level
    assert (np.diff(blur, axis=1) <= GRAD_TOL).all(), blur.round(3)
    assert (np.diff(peak[:, 1:], axis=1) <= PEAK_TOL).all(), peak.round(3)
    assert (blur[:, -1] < 0.8 * blur[:, 0])[3:].all()  # metals: clearly blurrier at roughness 1
    # along metallic (rows), for roughness up to 1/2: sharper reflections and a brighter highlight
    assert (np.diff(blur[:, :4], axis=0) >= -GRAD_TOL).all(), blur.round(3)
    assert (blur[-1, :3] > 1.5 * blur[0, :3]).all()
    assert (np.diff(peak[:, 1:4], axis=0) >= -PEAK_TOL).all(), peak.round(3)
