"""What a compare pane plays (``compare.players``): the ``--compare`` list of modes and engines, an engine's
pane as its rewritten clip on its player's clock, and the trails, curves and readout that follow it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import REPO_ROOT
from viewer import load
from viewer.compare import views
from viewer.compare.against import mode_sources
from viewer.compare.players import PANE_COLORS, is_engine, parse_items, played, played_at
from viewer.engines import NAMES, get
from viewer.pose.pose import Pose


@pytest.fixture(scope="module")
def demo():
    scene = load(REPO_ROOT / "assets" / "interpolation.gltf")
    return scene, scene.clips[0]


def test_items_are_modes_and_engines_checked():
    assert parse_items("spec, three,filament") == ("spec", "three", "filament")
    assert parse_items("linear,godot") == ("linear", "godot")
    for bad, words in [("spec,unity", "'unity'"), ("three", "2 to 4"), ("spec,spec", "once")]:
        with pytest.raises(ValueError, match=words):
            parse_items(bad)
    assert len(set(PANE_COLORS.values())) == len(PANE_COLORS)  # every mode and engine its own colour
    assert all(is_engine(n) for n in NAMES) and not is_engine("authored")


def test_an_engine_pane_is_its_rewritten_clip_on_its_players_clock(demo):
    scene, clip = demo
    spec, three, filament = mode_sources(scene, clip, ("spec", "three", "filament"))
    assert [s.label for s in (spec, three, filament)] == ["glTF 2.0 specification", "three.js", "Filament gltfio"]
    assert {s.mode for s in (spec, three, filament)} == {"authored"}
    assert three.clip.key != clip.key and three.clip.key != filament.clip.key  # poses cache plans by key
    assert played(scene, clip, "three").clip is three.clip  # rewritten once, not every frame
    end = clip.duration
    assert (spec.time(end), three.time(end), filament.time(end)) == (end, 0.0, end)
    for src in (spec, three, filament):
        pose = Pose(scene)
        for t in (0.5, 1.0, end):
            pose.set_time(src.clip, src.time(t), src.mode)
            expected = Pose(scene)
            expected.apply(clip, src.engine.sample(clip, scene, np.array([t]))[0])
            np.testing.assert_allclose(pose.world, expected.world, atol=1e-9)


def test_trails_and_curves_follow_the_engines_clock(demo):
    scene, clip = demo
    three = mode_sources(scene, clip, ("spec", "three"))[1]
    trail = views.trail(scene, three.clip, three.mode, played=three.time)
    start = views.trail(scene, clip, "authored")
    np.testing.assert_allclose(trail.points[-1], start.points[0], atol=1e-9)  # at the end three.js wraps
    assert trail.jumps[-1].any()  # and no line is drawn back to the start
    series = views.curve(three.clip, 0, "authored", played=three.time)
    np.testing.assert_allclose(series.values[-1], views.curve(clip, 0, "authored").values[0], atol=1e-9)


def test_the_readout_gives_an_engines_values_and_their_difference_from_the_spec(demo):
    scene, clip = demo
    step = scene.nodes.names.index("STEP")
    engines = played_at(scene, clip, ("authored", "filament"), 1.0)
    out = views.readout(clip, step, 1.0, ("authored", "filament"), scene, engines)
    expected = get("filament").sample(clip, scene, np.array([1.0]))[0]
    rows = views.related_channels(scene, clip, step)
    for c in rows:
        key = views.readout_key(clip.channels[c])
        np.testing.assert_allclose(out["filament"][key], expected[c, : clip.channels[c].width])
    assert any(np.abs(out["filament"]["Δ " + views.readout_key(clip.channels[c])]).max() > 1e-3 for c in rows)
