"""``viewer.library.findings``: what ``animview check`` reports per file and per clip.

Every code has a file that triggers it (exact count and pointer) and a clean one that does not; the redundant-
key decimation is checked against brute force on random curves; every shared Khronos model runs through it
with every pointer resolved in its JSON.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import KHRONOS_DIR, khronos_model_names
from tests.gltf_builder import GltfBuilder, overwrite_accessor
from viewer.base import math3d
from viewer.library import findings_file, findings_resample
from viewer.library.findings import scene_findings
from viewer.library.report import CODES
from viewer.scene.scene import load

RUNNER_CODES = {"load-error", "time-limit", "memory-limit", "crashed", "render-error"}
S = float(np.sqrt(0.5))


def rig() -> GltfBuilder:
    """Nodes: 0 "root" (child 1), 1 "arm" (a triangle with one morph target), 2 "orphan" (in no scene)."""
    b = GltfBuilder()
    mesh = b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2], targets=[[[0, 0, 1]] * 3], weights=[0.0])
    b.add_node(name="root", children=[1])
    b.add_node(name="arm", mesh=mesh)
    b.add_node(name="orphan")
    b.add_scene([0])
    return b


def still(node: int = 0, keys: int = 2, path: str = "translation") -> dict:
    """A channel that holds one value (no seam, nothing to report but redundancy when keys > 2)."""
    value = {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1], "weights": [0.0]}[path]
    return dict(node=node, path=path, times=np.linspace(0, 1, keys), values=[value] * keys)


def run(tmp_path, b: GltfBuilder):
    """(file findings, clip findings, load warning texts, raw JSON) of the builder's file."""
    path = b.write_gltf(tmp_path, "model.gltf")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene = load(path)
    texts = [str(w.message) for w in caught]
    file_level, clips = scene_findings(scene, texts)
    assert set(clips) == {c.index for c in scene.clips}
    for f in file_level + [f for found in clips.values() for f in found]:
        assert_sane(f, scene.document.raw)
    return file_level, clips, texts, scene.document.raw


def assert_sane(f, raw) -> None:
    assert f.code in CODES and f.code not in RUNNER_CODES, f
    assert len(f.message.splitlines()) == 1 and f.message.strip(), f
    assert isinstance(f.count, int) and f.count >= 1, f
    resolve(raw, f.pointer)


def resolve(doc, where: str):
    """The JSON value an RFC 6901 pointer names (KeyError / IndexError if it names nothing)."""
    if where == "":
        return doc
    assert where.startswith("/"), where
    value = doc
    for part in where[1:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            assert part.isdigit(), where
            value = value[int(part)]
        else:
            value = value[part]
    return value


def of(found, code):
    return [f for f in found if f.code == code]


def clip_codes(tmp_path, channels, **kw):
    b = rig()
    b.add_animation(channels, **kw)
    return run(tmp_path, b)[1][0]


# -- per clip --------------------------------------------------------------------------------------------


def test_loop_seam_points_at_the_file_channel_past_an_ignored_one(tmp_path):
    jump = dict(node=1, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 0, 0]])
    b = rig()
    b.add_animation([dict(still(), node=None), jump, still(node=0)])
    file_level, clips, texts, _ = run(tmp_path, b)
    seams = of(clips[0], "loop-seam")
    assert [(f.pointer, f.count) for f in seams] == [("/animations/0/channels/1", 1)]
    assert 'node 1 "arm" translation: seam' in seams[0].message
    ignored = of(clips[0], "ignored-channel")
    assert [f.pointer for f in ignored] == ["/animations/0/channels/0"]
    assert "has no target node" in ignored[0].message
    assert any("channel ignored" in t for t in texts)
    assert not of(file_level, "load-warning")  # the load warning is the ignored-channel finding, not twice


def test_no_loop_seam_on_a_closed_loop(tmp_path):
    t = np.linspace(0, 1, 41)
    loop = np.stack([np.sin(2 * np.pi * t), np.cos(2 * np.pi * t), 0 * t], axis=1)
    assert not of(clip_codes(tmp_path, [dict(node=1, path="translation", times=t, values=loop)]), "loop-seam")


def test_step_on_key_counts_step_keys_on_other_channels_keys(tmp_path):
    step = dict(
        node=1, path="weights", interpolation="STEP", times=[0, 0.5, 1, 1.5, 2], values=[[0], [1], [0], [1], [0]]
    )
    other = dict(
        node=0, path="translation", times=[0, 0.5, 1.5, 2], values=[[0, 0, 0], [1, 0, 0], [0, 0, 0], [1, 0, 0]]
    )
    found = of(clip_codes(tmp_path, [step, other]), "step-on-key")
    # 0 (its first key) and 2 s (the clip's end) coincide too, but every reading agrees there
    assert [(f.pointer, f.count) for f in found] == [("/animations/0/samplers/0/input", 2)]
    assert "first at key 1, t = 0.5 s" in found[0].message


def test_no_step_on_key_between_keys_or_on_linear_channels(tmp_path):
    step = dict(node=1, path="weights", interpolation="STEP", times=[0, 0.25, 0.75], values=[[0], [1], [0]])
    other = dict(node=0, path="translation", times=[0, 0.5, 0.8, 1], values=[[0, 0, 0], [1, 0, 0]] * 2)
    # LINEAR keys on other channels' key times are unambiguous
    linear = dict(node=2, path="translation", times=[0, 0.5, 0.8], values=[[0, 0, 0], [1, 0, 0], [0, 0, 0]])
    assert not of(clip_codes(tmp_path, [step, other, linear]), "step-on-key")


def test_rotation_flip_counts_intervals_past_the_hemisphere(tmp_path):
    keys = [[0, 0, 0, 1], [0, 0, S, S], [0, 0, -1, 0], [0, 0, S, -S]]
    found = clip_codes(tmp_path, [dict(node=1, path="rotation", times=[0, 1, 2, 3], values=keys)])
    flips = of(found, "rotation-flip")
    assert [(f.pointer, f.count) for f in flips] == [("/animations/0/samplers/0/output", 2)]
    assert "2 of 3 intervals" in flips[0].message and "from key 1 to 2, t = 1 s to 2 s" in flips[0].message


def test_no_rotation_flip_in_one_hemisphere_or_on_step(tmp_path):
    good = [[0, 0, 0, 1], [0, 0, S, S], [0, 0, 1, 0], [0, 0, S, -S]]
    flipped = [[0, 0, 0, 1], [0, 0, -S, -S]]
    found = clip_codes(
        tmp_path,
        [
            dict(node=1, path="rotation", times=[0, 1, 2, 3], values=good),
            dict(node=0, path="rotation", interpolation="STEP", times=[0, 1], values=flipped),
        ],
    )
    assert not of(found, "rotation-flip")


def test_near_duplicate_keys(tmp_path):
    times = [0, 1, 1.00005, 2, 2.00001]
    found = clip_codes(
        tmp_path, [dict(node=1, path="translation", times=times, values=[[0, 0, 0], [1, 0, 0]] * 2 + [[0, 0, 0]])]
    )
    dups = of(found, "near-duplicate-keys")
    assert [(f.pointer, f.count) for f in dups] == [("/animations/0/samplers/0/input", 2)]
    assert "first at key 2" in dups[0].message
    clean = dict(node=1, path="translation", times=[0, 1, 1.001, 2], values=[[0, 0, 0], [1, 0, 0]] * 2)
    assert not of(clip_codes(tmp_path, [clean]), "near-duplicate-keys")


def test_redundant_keys_on_lines_slerps_and_repeated_steps(tmp_path):
    t = np.linspace(0, 2, 101)
    line = dict(node=1, path="translation", times=t, values=np.outer(t, [1, -2, 0.5]))
    angles = np.radians(np.linspace(0, 90, 21))
    turn = dict(
        node=0,
        path="rotation",
        times=np.linspace(0, 2, 21),
        values=math3d.quat_from_axis_angle(np.array([0.0, 0.0, 1.0]), angles),
    )
    steps = dict(
        node=2,
        path="scale",
        interpolation="STEP",
        times=np.linspace(0, 2, 6),
        values=[[1, 1, 1]] * 3 + [[2, 2, 2]] * 2 + [[3, 3, 3]],
    )
    found = of(clip_codes(tmp_path, [line, turn, steps]), "redundant-keys")
    assert [(f.pointer, f.count) for f in found] == [
        ("/animations/0/samplers/0", 99),
        ("/animations/0/samplers/1", 19),
        ("/animations/0/samplers/2", 3),
    ]
    assert "99 of 101 keys" in found[0].message and "0.01°" in found[1].message


def test_no_redundant_keys_on_curved_cubic_or_short_channels(tmp_path):
    t = np.linspace(0, 1, 20)
    curve = dict(node=1, path="translation", times=t, values=np.stack([np.sin(6 * t), t * t, 0 * t], 1))
    line = np.outer(t, [1, 0, 0])
    cubic = dict(
        node=0,
        path="translation",
        interpolation="CUBICSPLINE",
        times=t,
        values=np.stack([np.zeros_like(line), line, np.zeros_like(line)], 1).reshape(-1, 3),
    )
    few = dict(node=2, path="translation", times=[0, 0.5, 1], values=[[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    assert not of(clip_codes(tmp_path, [curve, cubic, few]), "redundant-keys")  # few: 1 key, under 2


def test_zero_scale(tmp_path):
    keys = [[1, 1, 1], [0, 1, 1], [1, 1, 1], [1, 1e-13, 1]]
    found = of(clip_codes(tmp_path, [dict(node=1, path="scale", times=[0, 1, 2, 3], values=keys)]), "zero-scale")
    assert [(f.pointer, f.count) for f in found] == [("/animations/0/samplers/0/output", 2)]
    assert "first at key 1, t = 1 s" in found[0].message and 'node 1 "arm" scale' in found[0].message
    clean = dict(node=1, path="scale", times=[0, 1], values=[[1, 1, 1], [1e-3, 2, 2]])
    assert not of(clip_codes(tmp_path, [clean]), "zero-scale")


def test_absurd_values_per_channel(tmp_path):
    channels = [
        dict(node=1, path="translation", times=[0, 1, 2], values=[[0, 0, 0], [2e6, 0, 0], [0, 0, 0]]),
        dict(node=0, path="scale", times=[0, 1, 2], values=[[1, 1, 1], [2e4, 1, 1], [1e-7, 1, 1]]),
        dict(node=1, path="weights", times=[0, 1], values=[[0.0], [150.0]]),
        dict(node=2, path="rotation", times=[0, 1], values=[[0, 0, 0, 1.1], [0, 0, 0, 1]]),
        dict(node=2, path="translation", times=[0, 90000, 100000], values=[[0, 0, 0]] * 3),
    ]
    found = of(clip_codes(tmp_path, channels), "absurd-value")
    assert [(f.pointer, f.count) for f in found] == [
        ("/animations/0/samplers/0/output", 1),
        ("/animations/0/samplers/1/output", 2),
        ("/animations/0/samplers/2/output", 1),
        ("/animations/0/samplers/3/output", 1),
        ("/animations/0/samplers/4/input", 2),
    ]
    assert "2e+06" in found[0].message and "86400 s" in found[4].message


def test_no_absurd_values_on_plain_motion(tmp_path):
    channels = [
        dict(node=1, path="translation", times=[0, 1], values=[[0, 0, 0], [1e5, 0, 0]]),
        dict(node=0, path="scale", times=[0, 1], values=[[1, 1, 1], [1e3, 1e-5, 0]]),
        dict(node=1, path="weights", times=[0, 1], values=[[-2.0], [50.0]]),
        dict(node=2, path="rotation", times=[0, 1000], values=[[0, 0, 0, 1.005], [0, 0, S, S]]),
    ]
    assert not of(clip_codes(tmp_path, channels), "absurd-value")


def test_ignored_channel_for_the_loser_of_a_repeated_target(tmp_path):
    a = dict(node=1, path="translation", times=[0, 1], values=[[0, 0, 0], [0, 0, 0]])
    found = clip_codes(tmp_path, [a, still(node=0), dict(a)])
    assert [f.pointer for f in of(found, "ignored-channel")] == ["/animations/0/channels/0"]
    assert "later channel 2, which wins" in of(found, "ignored-channel")[0].message
    assert not of(clip_codes(tmp_path, [a, still(node=0)]), "ignored-channel")


def test_unused_channel_of_a_node_outside_the_scene(tmp_path):
    found = clip_codes(tmp_path, [still(node=1), still(node=2, path="scale")])
    unused = of(found, "unused-channel")
    assert [f.pointer for f in unused] == ["/animations/0/channels/1"]
    assert 'node 2 "orphan" scale' in unused[0].message
    assert not of(clip_codes(tmp_path, [still(node=1), still(node=0)]), "unused-channel")


def test_unused_sampler(tmp_path):
    b = rig()
    b.add_animation([still(node=1), still(node=0)])
    anim = b.doc["animations"][0]
    anim["channels"].pop(0)  # sampler 0 is left with no channel
    found = run(tmp_path, b)[1][0]
    assert [f.pointer for f in of(found, "unused-sampler")] == ["/animations/0/samplers/0"]
    assert not of(clip_codes(tmp_path, [still(node=1)]), "unused-sampler")


def test_every_clip_has_a_list_and_clean_clips_have_none(tmp_path):
    b = rig()
    b.add_animation([still(node=1)], name="A")
    b.add_animation([dict(node=1, path="translation", times=[0, 1], values=[[0, 0, 0], [1, 0, 0]])], name="B")
    file_level, clips, _, _ = run(tmp_path, b)
    assert file_level == [] and clips[0] == [] and [f.code for f in clips[1]] == ["loop-seam"]


# -- per file --------------------------------------------------------------------------------------------


def test_extensions_ignored_and_unused(tmp_path):
    b = rig()
    b.add_animation([still(node=1)])
    b.doc["extensionsUsed"] = ["KHR_materials_unlit", "EXT_made_up", "KHR_mesh_quantization", "KHR_lights_punctual"]
    b.doc["nodes"][2]["extensions"] = {"EXT_made_up": {"x": 1}}
    b.doc["extensions"] = {"KHR_lights_punctual": {"lights": [{"type": "point"}]}}
    file_level, _, texts, _ = run(tmp_path, b)
    assert [(f.code, f.pointer) for f in file_level] == [
        ("unused-extension", "/extensionsUsed/0"),
        ("ignored-extension", "/extensionsUsed/1"),
    ]
    assert any("EXT_made_up is used but not supported" in t for t in texts)  # reported once, as ignored-extension


def test_load_warning_keeps_what_no_other_finding_says(tmp_path):
    b = rig()
    b.add_animation([still(node=1)])
    ibm = np.stack([np.eye(4)] * 1).astype(np.float32)
    b.doc["nodes"][1]["skin"] = b.add_skin([0], ibm)
    file_level, _, texts, _ = run(tmp_path, b)
    assert not file_level
    bin_data = bytearray(b.bin_bytes())
    overwrite_accessor(b.doc, bin_data, b.doc["skins"][0]["inverseBindMatrices"], np.full((1, 4, 4), np.nan))
    b.bin[:] = bin_data[: len(b.bin)]
    file_level, _, texts, _ = run(tmp_path, b)
    assert [(f.code, f.pointer, f.count) for f in file_level] == [("load-warning", "/skins/0/inverseBindMatrices", 1)]
    assert file_level[0].message.startswith("inverse bind matrix 0 (joint 0) is not finite")


def test_split_warning_and_repeats():
    file = "/a:b/m.gltf"
    assert findings_file.split_warning(f"{file}:/nodes/3/mesh: bad thing", file) == ("/nodes/3/mesh", "bad thing")
    assert findings_file.split_warning(f"{file}: no pointer: here", file) == ("", "no pointer: here")
    assert findings_file.split_warning("other.gltf:/x: y", file) == ("/x", "y")
    found = findings_file.load_warning_findings([f"{file}:/x: y", f"{file}:/x: y", f"{file}: z\nw"], file, set(), set())
    assert [(f.pointer, f.message, f.count) for f in found] == [("/x", "y", 2), ("", "z w", 1)]


# -- redundant-key decimation ----------------------------------------------------------------------------


def brute_errors(times, values, kept, rotation):
    """Each original key's distance from the kept polyline, computed key by key (the slow, obvious way)."""
    kt, kv = times[kept], values[kept]
    out = []
    for t, v in zip(times, values):
        j = min(max(int(np.searchsorted(kt, t, side="right")) - 1, 0), len(kt) - 2)
        u = (t - kt[j]) / (kt[j + 1] - kt[j])
        if rotation:
            out.append(np.degrees(math3d.quat_angle_between(math3d.slerp(kv[j], kv[j + 1], u), v)))
        else:
            out.append(np.abs(kv[j] + u * (kv[j + 1] - kv[j]) - v).max())
    return np.array(out)


curves = st.tuples(
    st.integers(3, 80), st.integers(1, 4), st.integers(0, 2**31), st.sampled_from([0.0, 1e-6, 1e-3, 0.1])
)


@settings(max_examples=60, deadline=None)
@given(curves)
def test_decimation_keeps_every_key_within_tolerance(case):
    n, width, seed, noise = case
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.uniform(0.001, 0.1, n))
    # piecewise straight runs plus noise: plenty to remove, and plenty that must stay
    slopes = np.repeat(rng.normal(size=(n // 7 + 1, width)), 7, axis=0)[:n]
    values = np.cumsum(slopes * np.gradient(times)[:, None], axis=0) + noise * rng.normal(size=(n, width))
    kept = findings_resample.kept_keys(times, values, False)
    tol = findings_resample.channel_tolerance(values, False)
    assert kept[0] and kept[-1]
    assert (brute_errors(times, values, kept, False) <= tol * (1 + 1e-9)).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 60), st.integers(0, 2**31), st.sampled_from([0.0, 0.001, 0.05]))
def test_decimation_keeps_every_rotation_key_within_tolerance(n, seed, jitter):
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.uniform(0.01, 0.1, n))
    axis = rng.normal(size=3)
    angles = np.cumsum(np.repeat(rng.uniform(-0.3, 0.3, n // 5 + 1), 5)[:n])
    q = math3d.quat_from_axis_angle(axis, angles)
    q = math3d.quat_normalize(q + jitter * rng.normal(size=(n, 4)))
    q *= np.where(rng.random(n) < 0.3, -1.0, 1.0)[:, None]  # q ≡ −q: signs must not matter
    kept = findings_resample.kept_keys(times, q, True)
    assert (brute_errors(times, q, kept, True) <= findings_resample.ANGLE_TOL_DEGREES + 1e-6).all()


def test_decimation_finds_every_collinear_key_and_is_fast():
    t = np.cumsum(np.random.default_rng(1).uniform(0.01, 0.05, 101))
    assert findings_resample.kept_keys(t, np.outer(t, [1, 2, 3]), False).sum() == 2
    n = 10_000
    t = np.linspace(0, 400, n)
    q = math3d.quat_from_axis_angle(np.array([0.0, 1.0, 0.0]), 0.005 * t)  # 115°: one slerp
    started = time.perf_counter()
    kept_line = findings_resample.kept_keys(t, np.outer(t, [1, 2, 3]), False)
    kept_turn = findings_resample.kept_keys(t, q, True)
    seconds = time.perf_counter() - started
    assert kept_line.sum() == 2 and kept_turn.sum() == 2
    print(f"10 000-key line + 10 000-key slerp decimated in {seconds * 1e3:.1f} ms")
    assert seconds < 1.0


# -- the shared models -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", khronos_model_names() or ["(absent)"])
def test_shared_models(name, capsys):
    if name == "(absent)":
        pytest.skip(f"Khronos sample models not found at {KHRONOS_DIR}")
    files = sorted((KHRONOS_DIR / name).glob("*.gltf")) + sorted((KHRONOS_DIR / name).glob("*.glb"))
    if not files:
        pytest.skip(f"no model file in {name}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene = load(files[0])
    started = time.perf_counter()
    file_level, clips = scene_findings(scene, [str(w.message) for w in caught])
    seconds = time.perf_counter() - started
    assert set(clips) == {c.index for c in scene.clips}
    everything = file_level + [f for found in clips.values() for f in found]
    for f in everything:
        assert_sane(f, scene.document.raw)
    pairs = [(f.code, f.pointer) for f in everything]
    assert len(pairs) == len(set(pairs))
    with capsys.disabled():
        print(f"\n{name}: {seconds * 1e3:.1f} ms, {dict(Counter(f.code for f in everything))}")
