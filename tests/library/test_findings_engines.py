"""``viewer.library.findings_engines``: the ``engine-divergence`` finding — which engines play a clip visibly
differently from the spec, by which of their behaviours, where, when and by how much — and ``check``'s
``--engines`` choice."""

from __future__ import annotations

import json
import warnings

import numpy as np

from tests.conftest import REPO_ROOT
from tests.gltf_builder import GltfBuilder
from viewer import engines
from viewer.library.check import check_file
from viewer.library.findings_engines import divergences, engine_findings, switched_off
from viewer.scene.scene import load


def one_clip(tmp_path, channel: dict):
    """A scene of one node "arm" holding a triangle, animated by ``channel``."""
    b = GltfBuilder()
    mesh = b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2])
    b.add_node(name="arm", mesh=mesh)
    b.add_scene([0])
    b.add_animation([dict(node=0, **channel)], name="clip")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(b.write_gltf(tmp_path, "model.gltf"))


def by_engine(scene) -> dict[str, tuple[str, ...]]:
    """{engine name: causes} of the one clip's divergences."""
    return {d.engine.name: d.causes for d in divergences(scene, scene.clips[0], [engines.get(n) for n in NAMES])}


NAMES = tuple(n for n in engines.NAMES if n != "spec")


def test_step_keys_shown_late_name_the_left_continuous_engines_with_step_at_key(tmp_path):
    # The last key repeats the one before (no step-last-key) and the first (a seamless loop: no end-of-loop);
    # keys on whole seconds also land on Godot's 1/30 s grid.
    scene = one_clip(
        tmp_path,
        dict(path="translation", interpolation="STEP", times=[0, 1, 2, 3], values=[[0] * 3, [1, 0, 0]] + [[0] * 3] * 2),
    )
    found = by_engine(scene)
    old = {n for n in NAMES if engines.get(n).step_at_key == "old"}
    assert {"ksv", "filament"} <= old
    assert set(found) == old
    assert all(causes == ("step-at-key",) for causes in found.values())
    (finding,) = engine_findings(scene)[0]
    assert finding.code == "engine-divergence" and finding.level == "warning" and finding.pointer == "/animations/0"
    assert finding.count == len(old)
    assert "Filament gltfio (step-at-key, 1 = " in finding.message and "at t=1 s, node 'arm'" in finding.message
    assert "Khronos glTF Sample Viewer (step-at-key" in finding.message and "three.js" not in finding.message


def test_a_seam_shows_in_players_that_wrap_at_the_end_as_end_of_loop(tmp_path):
    scene = one_clip(tmp_path, dict(path="translation", times=[0, 2], values=[[0, 0, 0], [2, 0, 0]]))
    found = by_engine(scene)
    wrapping = {n for n in NAMES if engines.get(n).end == "first"}
    assert {"three", "babylon"} <= wrapping <= set(found)
    assert all(found[n] == ("end-of-loop",) for n in wrapping)
    message = engine_findings(scene)[0][0].message
    assert "three.js (end-of-loop, 2 = " in message and "at t=2 s, node 'arm'" in message


def test_a_plain_linear_translation_plays_alike_everywhere(tmp_path):
    scene = one_clip(tmp_path, dict(path="translation", times=[0, 1, 2], values=[[0, 0, 0], [1, 0, 0], [0, 0, 0]]))
    assert engine_findings(scene) == {}


def test_a_turn_too_small_to_see_is_no_finding_without_a_diff(tmp_path, monkeypatch):
    # Close rotation keys: the engines that blend them component-wise differ from slerp by far less than 0.1°.
    half = np.radians([0.0, 10.0, 0.0]) / 2
    keys = [[0, np.sin(h), 0, np.cos(h)] for h in half]
    scene = one_clip(tmp_path, dict(path="rotation", times=[0, 1, 2], values=keys))
    from viewer.library import findings_engines

    def no_diff(*args, **kwargs):
        raise AssertionError("a diff was run")

    monkeypatch.setattr(findings_engines, "diff_scenes", no_diff)
    assert engine_findings(scene, ("three", "babylon", "pygfx")) == {}


def test_switching_a_behaviour_off_restores_the_spec_defaults():
    filament = engines.get("filament")
    off = switched_off(filament, "step-at-key")
    assert off.step_at_key == "new" and off.cubic_tangents == filament.cubic_tangents
    assert switched_off(filament, "no-such-cause") is None


def test_check_file_chooses_the_engines(tmp_path):
    scene = one_clip(tmp_path, dict(path="translation", times=[0, 2], values=[[0, 0, 0], [2, 0, 0]]))
    codes = lambda result: [f["code"] for c in result["clips"] for f in c["findings"]]  # noqa: E731
    assert "engine-divergence" in codes(check_file(scene.path, engines=None))  # None: every engine
    assert "engine-divergence" in codes(check_file(scene.path))  # every engine by default
    assert "engine-divergence" not in codes(check_file(scene.path, engines=[]))
    assert "engine-divergence" not in codes(check_file(scene.path, engines=["ksv", "filament"]))
    assert "three.js" in check_file(scene.path, engines=["three"])["clips"][0]["findings"][-1]["message"]


def test_check_command_engines_option_json_and_html(tmp_path, capsys):
    from viewer.cli.main import main

    assets = REPO_ROOT / "assets"
    out, html = tmp_path / "r.json", tmp_path / "r.html"
    args = ["check", str(assets / "irregular.gltf"), "--jobs", "1", "--quiet", "--json", str(out)]
    assert main(args + ["--html", str(html), "--no-thumbnails", "--engines", "three,filament"]) == 0
    printed = capsys.readouterr().out
    assert "engine-divergence" in printed and "three.js (end-of-loop" in printed
    found = [f for c in json.loads(out.read_text())["results"][0]["clips"] for f in c["findings"]]
    assert [f["code"] for f in found].count("engine-divergence") == 1
    assert "Filament" not in found[-1]["message"]  # Filament holds the last pose at the end, as the spec
    assert "engine-divergence" in html.read_text()
    assert main(args + ["--engines", "none", "--fail-on", "warning"]) == 0
    capsys.readouterr()
    assert main(args + ["--engines", "three,unity"]) == 2
    assert "unknown engine unity" in capsys.readouterr().err


def test_the_demo_files_diverge_in_the_engines_docs_name():
    """docs/library.md lists what ``animview check assets`` finds per demo file."""
    expected = {
        "interpolation.gltf": {"ksv": "step-at-key", "filament": "step-at-key", "godot": "cubic-rotation-slerp"},
        "irregular.gltf": {"three": "end-of-loop", "babylon": "end-of-loop", "godot": "resampled"},
        "skinned_arm.gltf": {"gltfast": "rotation-lerp"},
        "triangle.gltf": {"three": "rotation-lerp", "gltfast": "rotation-lerp"},
    }
    for name, want in expected.items():
        scene = load(REPO_ROOT / "assets" / name)
        found = by_engine(scene)
        for engine, cause in want.items():
            assert cause in found.get(engine, ()), (name, engine, found)
    for name in ("morph_shape.gltf", "pointers.gltf"):
        assert engine_findings(load(REPO_ROOT / "assets" / name)) == {}


def test_a_huge_scene_is_measured_at_fewer_times_and_says_so(tmp_path, monkeypatch):
    """Past ``WORK`` node × time matrices a pass, the first and last time and the keys come first; the finding
    says at how many times it measured."""
    from viewer.library import findings_engines as fe

    times = np.linspace(0.0, 2.0, 11)
    keys = np.array([0.0, 0.6, 1.4, 2.0])
    assert fe.thinned(times, keys, 20) is times
    kept = fe.thinned(np.union1d(times, keys), keys, 5)
    assert set(keys.tolist()) <= set(kept.tolist()) and len(kept) == 5  # the ends, the keys, then one more
    assert fe.thinned(times, keys, 1).tolist() == [0.0, 2.0]
    scene = one_clip(tmp_path, dict(path="translation", times=[0, 2], values=[[0, 0, 0], [2, 0, 0]]))
    monkeypatch.setattr(fe, "WORK", 6)  # one node: six times a pass
    (finding,) = fe.engine_findings(scene, ("three",))[0]
    assert "measured at 6 of" in finding.message and "three.js (end-of-loop" in finding.message
