"""Every interpolation mode against a plain per-key reference written here (glTF 2.0 Appendix C + issue).

``reference_value`` is deliberately naive — one time, one channel, Python loops, the textbook Hermite basis —
so it shares no code and no algebra with ``viewer.animation`` (which packs every mode into shifted cubic /
cos-sin tables). Data: seeded random irregular key times, translation / rotation / weights channels,
queried before the first key, exactly at keys, between keys and after the last key.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.gltf_builder import GltfBuilder
from viewer import load
from viewer.animation import modes
from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import Curve
from viewer.cli import main

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None)
CONCRETE = ("step", "linear", "cubicspline", "catmull-rom", "cubic-zero")
PATHS = ("translation", "rotation", "weights")


# -- the independent reference ------------------------------------------------------------------------


def _unit(q):
    q = np.asarray(q, float)
    return q / math.sqrt(float(q @ q))


def _aligned(vals):
    """Consecutive quaternions into one hemisphere (q ≡ −q), key by key."""
    out = [vals[0]]
    for v in vals[1:]:
        out.append(-v if float(out[-1] @ v) < 0.0 else v)
    return out


def _hermite(p0, m0, p1, m1, u):
    h00 = 2 * u**3 - 3 * u**2 + 1
    h10 = u**3 - 2 * u**2 + u
    h01 = -2 * u**3 + 3 * u**2
    h11 = u**3 - u**2
    return h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1


def _slerp(a, b, u):
    d = float(a @ b)
    if d < 0.0:
        b, d = -b, -d
    theta = math.acos(min(1.0, d))
    if theta < 1e-10:
        return _unit(a * (1 - u) + b * u)
    return (math.sin((1 - u) * theta) * a + math.sin(u * theta) * b) / math.sin(theta)


def reference_value(times, values, mode, t, rotation=False, in_tangents=None, out_tangents=None):
    """Value of one sampler at time t (seconds) in a concrete mode, straight from the definitions."""
    times = [float(x) for x in times]
    n = len(times)
    vals = [np.asarray(v, float) for v in values]
    if rotation:
        vals = [_unit(v) for v in vals]
    if n == 1 or t <= times[0]:
        return vals[0]
    if t >= times[-1]:
        return vals[-1]
    k = max(i for i in range(n - 1) if times[i] <= t)
    dt = times[k + 1] - times[k]
    u = (t - times[k]) / dt
    if mode == "step":
        return vals[k]
    if mode == "linear":
        if rotation:
            return _slerp(vals[k], vals[k + 1], u)
        return vals[k] * (1 - u) + vals[k + 1] * u
    if mode == "cubicspline" and in_tangents is not None:
        p = vals  # authored tangents belong to the authored signs
        m0 = np.asarray(out_tangents[k], float) * dt
        m1 = np.asarray(in_tangents[k + 1], float) * dt
    else:
        p = _aligned(vals) if rotation else vals
        if mode == "catmull-rom":
            slopes = [(p[i + 1] - p[i]) / (times[i + 1] - times[i]) for i in range(n - 1)]
            tangent = [slopes[0]] + [0.5 * slopes[i - 1] + 0.5 * slopes[i] for i in range(1, n - 1)] + [slopes[-1]]
        else:  # cubic-zero, and cubicspline without authored tangents
            tangent = [np.zeros_like(v) for v in p]
        m0, m1 = tangent[k] * dt, tangent[k + 1] * dt
    out = _hermite(p[k], m0, p[k + 1], m1, u)
    return _unit(out) if rotation else out


def reference_curve(curve: Curve, mode: str, t: float) -> np.ndarray:
    concrete = modes.AUTHORED_TO_MODE[curve.interpolation] if mode == "authored" else mode
    return reference_value(
        curve.times, curve.values, concrete, t, curve.rotation, curve.in_tangents, curve.out_tangents
    )


def assert_close_value(got, expected, rotation, tol=1e-6, msg=""):
    got, expected = np.asarray(got, float), np.asarray(expected, float)
    err = np.abs(got - expected).max()
    if rotation:
        err = min(err, np.abs(got + expected).max())
    assert err <= tol, f"{msg}: got {got.tolist()}, expected {expected.tolist()} (error {err:.3g})"


# -- random data --------------------------------------------------------------------------------------


def random_times(rng, n, start=None):
    start = float(rng.choice([0.0, rng.uniform(0.05, 0.8)])) if start is None else start
    return np.cumsum(np.r_[start, rng.uniform(0.05, 1.0, n - 1)]).astype(np.float32).astype(np.float64)


def random_unit_quats(rng, n, same_hemisphere=False):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    if same_hemisphere:
        for i in range(1, n):
            if q[i] @ q[i - 1] < 0:
                q[i] = -q[i]
    return q


def random_curve(rng, path, interpolation, n=None, width=3):
    n = int(rng.integers(2, 8)) if n is None else n
    times = random_times(rng, n)
    rotation = path == "rotation"
    cubic = interpolation == "CUBICSPLINE"
    if rotation:
        values = random_unit_quats(rng, n, same_hemisphere=cubic)
    elif path == "weights":
        values = rng.uniform(0.0, 1.0, (n, width))
    else:
        values = rng.uniform(-5.0, 5.0, (n, 3))
    tin = rng.uniform(-2, 2, values.shape) if cubic else None
    tout = rng.uniform(-2, 2, values.shape) if cubic else None
    return Curve(times, values, tin, tout, rotation, interpolation)


def query_times(curves):
    keys = np.unique(np.concatenate([c.times for c in curves]))
    rng = np.random.default_rng(len(keys))
    ts = [-1.0, 0.0, keys[0] - 0.3, keys[-1] + 0.01, keys[-1] + 10.0]
    ts += list(keys) + list(0.5 * (keys[1:] + keys[:-1])) + list(rng.uniform(-0.2, keys[-1] + 0.2, 25))
    return np.array(ts)


def check_clip(curves, paths, mode, msg):
    clip = Clip("c", 0, [Channel(i, p, c) for i, (p, c) in enumerate(zip(paths, curves))])
    ts = query_times(curves)
    batch = clip.sample(ts, mode)
    for f, t in enumerate(ts):
        single = clip.sample(float(t), mode)
        for c, (curve, path) in enumerate(zip(curves, paths)):
            w = curve.values.shape[1]
            exp = reference_curve(curve, mode, float(t))
            where = f"{msg} mode={mode} path={path} t={t!r}"
            assert_close_value(single[c, :w], exp, curve.rotation, msg=where + " per-frame")
            assert_close_value(batch[f, c, :w], exp, curve.rotation, msg=where + " batch")


# -- every mode against the reference ------------------------------------------------------------------


@pytest.mark.parametrize("mode", CONCRETE)
@pytest.mark.parametrize("interpolation", ["STEP", "LINEAR", "CUBICSPLINE"])
def test_mode_matches_reference_on_random_irregular_keys(mode, interpolation):
    rng = np.random.default_rng(CONCRETE.index(mode) * 10 + ["STEP", "LINEAR", "CUBICSPLINE"].index(interpolation))
    for trial in range(6):
        curves = [random_curve(rng, p, interpolation) for p in PATHS]
        check_clip(curves, PATHS, mode, f"trial {trial} authored {interpolation}")


@pytest.mark.parametrize("interpolation", ["STEP", "LINEAR", "CUBICSPLINE"])
def test_authored_mode_uses_each_samplers_interpolation(interpolation):
    rng = np.random.default_rng(40 + len(interpolation))
    for trial in range(4):
        curves = [random_curve(rng, p, interpolation) for p in PATHS]
        check_clip(curves, PATHS, "authored", f"trial {trial} {interpolation}")


def test_authored_mode_with_mixed_interpolations_in_one_clip():
    rng = np.random.default_rng(50)
    kinds = ["STEP", "LINEAR", "CUBICSPLINE"]
    curves, paths = [], []
    for p in PATHS:
        for k in kinds:
            curves.append(random_curve(rng, p, k))
            paths.append(p)
    for mode in ("authored",) + CONCRETE:
        check_clip(curves, paths, mode, "mixed")


def test_rotation_keys_in_opposite_hemispheres():
    """Keys whose signs alternate: every mode must still take the short way (or use the aligned keys)."""
    rng = np.random.default_rng(51)
    times = random_times(rng, 6)
    q = random_unit_quats(rng, 6, same_hemisphere=True)
    q[1::2] *= -1.0
    curve = Curve(times, q, None, None, True, "LINEAR")
    for mode in ("step", "linear", "catmull-rom", "cubic-zero", "cubicspline"):
        check_clip([curve], ["rotation"], mode, "alternating signs")


def test_single_key_sampler_holds_its_value_in_every_mode():
    curves = [
        Curve(np.array([0.7]), np.array([[1.0, 2.0, 3.0]]), None, None, False, "LINEAR"),
        Curve(np.array([0.2]), np.array([[0.0, 0.0, 0.6, 0.8]]), None, None, True, "STEP"),
        Curve(
            np.array([1.0]), np.array([[0.0, 0.0, 0.0, 2.0]]), np.zeros((1, 4)), np.zeros((1, 4)), True, "CUBICSPLINE"
        ),
    ]
    clip = Clip(
        "c", 0, [Channel(i, p, c) for i, (p, c) in enumerate(zip(["translation", "rotation", "rotation"], curves))]
    )
    for mode in ("authored",) + CONCRETE:
        ts = np.array([-3.0, 0.0, 0.2, 0.7, 1.0, 5.0])
        for out in (clip.sample(ts, mode), np.array([clip.sample(float(t), mode) for t in ts])):
            np.testing.assert_allclose(out[:, 0, :3], np.tile([1, 2, 3], (6, 1)), atol=1e-12)
            np.testing.assert_allclose(out[:, 1, :4], np.tile([0, 0, 0.6, 0.8], (6, 1)), atol=1e-12)
            np.testing.assert_allclose(out[:, 2, :4], np.tile([0, 0, 0, 1], (6, 1)), atol=1e-12)


# -- specific rules ------------------------------------------------------------------------------------


def test_step_at_exact_key_time_is_that_key():
    curve = Curve(np.array([0.0, 1.0, 2.0]), np.array([[0.0], [10.0], [20.0]]), None, None, False, "STEP")
    clip = Clip("c", 0, [Channel(0, "weights", curve)])
    for t, v in [(0.0, 0.0), (0.999, 0.0), (1.0, 10.0), (1.5, 10.0), (2.0, 20.0), (3.0, 20.0)]:
        assert clip.sample(t)[0, 0] == v, t
        assert clip.sample(np.array([t]))[0, 0, 0] == v, t


def test_cubicspline_ignores_first_in_and_last_out_tangent():
    rng = np.random.default_rng(52)
    times = random_times(rng, 4)
    v = rng.uniform(-1, 1, (4, 3))
    tin, tout = rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (4, 3))
    wild_in, wild_out = tin.copy(), tout.copy()
    wild_in[0], wild_out[-1] = 1e6, -1e6
    ts = np.linspace(times[0] - 0.5, times[-1] + 0.5, 97)
    a = Clip("a", 0, [Channel(0, "translation", Curve(times, v, tin, tout, False, "CUBICSPLINE"))]).sample(ts)
    b = Clip("b", 0, [Channel(0, "translation", Curve(times, v, wild_in, wild_out, False, "CUBICSPLINE"))]).sample(ts)
    np.testing.assert_allclose(a, b, atol=1e-12)


def test_cubicspline_tangents_are_scaled_by_interval_length():
    # p0 = 0, p1 = 0, out-tangent of key 0 = 1 per second, interval 2 s: at u = 0.5, h10(0.5)·m0 = 0.125·2 = 0.25
    curve = Curve(
        np.array([0.0, 2.0]),
        np.array([[0.0], [0.0]]),
        np.array([[0.0], [0.0]]),
        np.array([[1.0], [0.0]]),
        False,
        "CUBICSPLINE",
    )
    clip = Clip("c", 0, [Channel(0, "weights", curve)])
    assert clip.sample(1.0)[0, 0] == pytest.approx(0.25, abs=1e-12)


def test_catmull_rom_tangents_on_a_hand_example():
    # keys (0, 0), (1, 1), (3, 5): slopes 1 and 2; tangent at key 1 = 1.5 per second
    curve = Curve(np.array([0.0, 1.0, 3.0]), np.array([[0.0], [1.0], [5.0]]), None, None, False, "LINEAR")
    clip = Clip("c", 0, [Channel(0, "weights", curve)])
    # interval [1, 3], u = 0.5, dt = 2: m0 = 1.5·2 = 3, m1 = 2·2 = 4 → 0.5·1 + 0.125·3 + 0.5·5 − 0.125·4 = 2.875
    assert clip.sample(2.0, "catmull-rom")[0, 0] == pytest.approx(2.875, abs=1e-12)
    # interval [0, 1], u = 0.5: m0 = 1, m1 = 1.5 → 0.125·1 + 0.5·1 − 0.125·1.5 = 0.4375
    assert clip.sample(0.5, "catmull-rom")[0, 0] == pytest.approx(0.4375, abs=1e-12)
    # cubic-zero: flat tangents, halfway is the average
    assert clip.sample(2.0, "cubic-zero")[0, 0] == pytest.approx(3.0, abs=1e-12)


def test_linear_rotation_nearly_equal_keys_no_nan():
    q0 = np.array([0.0, 0.0, 0.0, 1.0])
    for eps in (0.0, 1e-300, 1e-16, 1e-12, 1e-9):
        q1 = _unit([eps, 0.0, 0.0, 1.0])
        clip = Clip(
            "c",
            0,
            [Channel(0, "rotation", Curve(np.array([0.0, 1.0]), np.array([q0, q1]), None, None, True, "LINEAR"))],
        )
        ts = np.linspace(-0.5, 1.5, 9)
        for out in (clip.sample(ts), np.array([clip.sample(float(t)) for t in ts])):
            assert np.all(np.isfinite(out)), eps
            np.testing.assert_allclose(np.linalg.norm(out[:, 0, :4], axis=1), 1.0, atol=1e-12)


def test_unknown_mode_is_a_value_error():
    clip = Clip(
        "c", 0, [Channel(0, "weights", Curve(np.array([0.0, 1.0]), np.zeros((2, 1)), None, None, False, "LINEAR"))]
    )
    with pytest.raises(ValueError, match="catmull"):
        clip.sample(0.5, "bezier")


def test_modes_table_lists_every_mode():
    assert set(modes.MODES) == {"authored", "step", "linear", "cubicspline", "catmull-rom", "cubic-zero"}


# -- hypothesis: exact reproduction properties ----------------------------------------------------------

gaps = st.lists(st.floats(0.02, 2.0), min_size=1, max_size=7)


@SETTINGS
@given(
    gaps,
    st.floats(0.0, 3.0),
    st.lists(st.floats(-2.0, 2.0), min_size=4, max_size=4),
    st.lists(st.floats(0.0, 1.0), min_size=5, max_size=5),
)
def test_cubicspline_reproduces_a_cubic_with_exact_tangents(gap_list, start, coef, fractions):
    times = start + np.cumsum([0.0] + gap_list)
    a0, a1, a2, a3 = coef
    p = lambda t: a0 + a1 * t + a2 * t * t + a3 * t**3  # noqa: E731
    dp = lambda t: a1 + 2 * a2 * t + 3 * a3 * t * t  # noqa: E731
    values = np.array([[p(t)] for t in times])
    tangents = np.array([[dp(t)] for t in times])
    clip = Clip("c", 0, [Channel(0, "weights", Curve(times, values, tangents, tangents, False, "CUBICSPLINE"))])
    ts = times[0] + np.array(fractions) * (times[-1] - times[0])
    scale = 1.0 + np.abs(values).max()
    batch = clip.sample(ts)
    for f, t in enumerate(ts):
        assert clip.sample(float(t))[0, 0] == pytest.approx(p(t), abs=1e-9 * scale)
        assert batch[f, 0, 0] == pytest.approx(p(t), abs=1e-9 * scale)


@SETTINGS
@given(
    gaps,
    st.floats(0.0, 3.0),
    st.floats(-100.0, 100.0),
    st.floats(-100.0, 100.0),
    st.lists(st.floats(0.0, 1.0), min_size=5, max_size=5),
)
def test_catmull_rom_reproduces_any_linear_function(gap_list, start, a, b, fractions):
    times = start + np.cumsum([0.0] + gap_list)
    values = np.array([[a + b * t, 2 * a - b * t, 0.0] for t in times])
    clip = Clip("c", 0, [Channel(0, "translation", Curve(times, values, None, None, False, "LINEAR"))])
    ts = np.r_[times, times[0] + np.array(fractions) * (times[-1] - times[0])]
    scale = 1.0 + np.abs(values).max()
    batch = clip.sample(ts, "catmull-rom")
    for f, t in enumerate(ts):
        expected = [a + b * t, 2 * a - b * t, 0.0]
        np.testing.assert_allclose(clip.sample(float(t), "catmull-rom")[0], expected, rtol=0, atol=1e-9 * scale)
        np.testing.assert_allclose(batch[f, 0], expected, rtol=0, atol=1e-9 * scale)


unit_quats = (
    st.lists(st.floats(-1.0, 1.0), min_size=4, max_size=4)
    .map(np.array)
    .filter(lambda v: np.linalg.norm(v) > 0.2)
    .map(lambda v: v / np.linalg.norm(v))
)


def _angle(a, b):
    return 2.0 * math.acos(min(1.0, abs(float(_unit(a) @ _unit(b)))))


@SETTINGS
@given(unit_quats, unit_quats, st.floats(0.0, 2.0), st.floats(0.05, 3.0), st.floats(0.0, 1.0))
def test_linear_rotation_channel_is_a_short_arc_slerp(q0, q1, t0, dt, u):
    clip = Clip(
        "c", 0, [Channel(0, "rotation", Curve(np.array([t0, t0 + dt]), np.array([q0, q1]), None, None, True, "LINEAR"))]
    )
    t = t0 + u * dt
    total = _angle(q0, q1)
    for q in (clip.sample(t)[0], clip.sample(np.array([t]))[0, 0]):
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-9)
        a0, a1 = _angle(q0, q), _angle(q, q1)
        assert a0 <= total + 1e-6
        assert a0 + a1 == pytest.approx(total, abs=1e-6)
    for end, key in ((t0, q0), (t0 + dt, q1)):
        for q in (clip.sample(end)[0], clip.sample(np.array([end]))[0, 0]):
            assert_close_value(q, key, True, tol=1e-9, msg="end")


# -- through a real file and the CLI ------------------------------------------------------------------


def _random_file(tmp_path, seed):
    """Translation (LINEAR), rotation (LINEAR, signs random), weights (CUBICSPLINE), on irregular times."""
    rng = np.random.default_rng(seed)
    b = GltfBuilder()
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    mesh = b.add_mesh(tri, [0, 1, 2], targets=[tri, tri * 2, tri * 3], weights=[0, 0, 0])
    b.add_node(name="mover")
    b.add_node(name="morph", mesh=mesh)
    n = 7
    rot = random_unit_quats(rng, n)
    w_vals = rng.uniform(0, 1, (n, 3, 3))  # per key: in-tangents, values, out-tangents (3 targets)
    b.add_animation(
        [
            dict(node=0, path="translation", times=random_times(rng, n), values=rng.uniform(-5, 5, (n, 3))),
            dict(node=0, path="rotation", times=random_times(rng, n), values=rot),
            dict(node=1, path="weights", times=random_times(rng, n), values=w_vals, interpolation="CUBICSPLINE"),
            dict(
                node=0,
                path="scale",
                times=random_times(rng, n),
                values=rng.uniform(0.5, 2, (n, 3)),
                interpolation="STEP",
            ),
        ],
        name="random",
    )
    b.add_scene([0, 1])
    return b.write_gltf(tmp_path, f"random{seed}.gltf")


@pytest.mark.parametrize("mode", ("authored",) + CONCRETE)
def test_loaded_file_matches_reference(tmp_path, mode):
    scene = load(_random_file(tmp_path, 60))
    clip = scene.clips[0]
    assert [(c.node, c.path) for c in clip.channels] == [
        (0, "translation"),
        (0, "rotation"),
        (1, "weights"),
        (0, "scale"),
    ]
    ts = query_times([c.curve for c in clip.channels])
    batch = clip.sample(ts, mode)
    for f, t in enumerate(ts):
        for c, ch in enumerate(clip.channels):
            exp = reference_curve(ch.curve, mode, float(t))
            assert_close_value(batch[f, c, : ch.width], exp, ch.curve.rotation, msg=f"{mode} {ch.path} t={t}")


@pytest.mark.parametrize("mode", ["catmull-rom", "cubic-zero", "cubicspline", "linear", "step", "authored"])
def test_cli_sample_mode_matches_formulas(tmp_path, capsys, mode):
    """``animview sample --json --mode M --times …`` on a generated file matches the formulas to 1e-6."""
    path = _random_file(tmp_path, 61)
    scene = load(path)
    clip = scene.clips[0]
    ts = query_times([c.curve for c in clip.channels])
    arg = ",".join(repr(float(t)) for t in ts)
    assert main(["sample", str(path), "--json", "--mode", mode, f"--times={arg}"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (anim,) = doc["animations"]
    assert [s["t"] for s in anim["samples"]] == [float(t) for t in ts]
    for s in anim["samples"]:
        for ch in clip.channels:
            got = s["nodes"][str(ch.node)][ch.path]
            exp = reference_curve(ch.curve, mode, s["t"])
            assert_close_value(got, exp, ch.curve.rotation, msg=f"CLI {mode} {ch.path} t={s['t']}")
            if ch.path == "rotation":
                assert np.linalg.norm(got) == pytest.approx(1.0, abs=1e-9)


def test_lerp_above_blends_close_keys_component_wise_and_slerps_the_rest():
    """Above the threshold an interval is (1−u)·q0 + u·q1 renormalized; at or below it, the spec's slerp."""
    from viewer.animation.clip import Channel, Clip
    from viewer.base import math3d

    q0 = np.array([0.0, 0.0, 0.0, 1.0])
    near, far = math3d.quat_from_axis_angle([0, 0, 1], 0.1), math3d.quat_from_axis_angle([0, 0, 1], 2.0)
    times, keys = np.array([0.0, 1.0, 2.0]), np.stack([q0, near, far])
    curve = Curve(times, keys, None, None, True, "LINEAR", lerp_above=0.99)
    values = Clip("c", 0, [Channel(0, "rotation", curve)]).sample(np.array([0.25, 1.25]))[:, 0]
    lerp = 0.75 * q0 + 0.25 * near
    np.testing.assert_allclose(values[0], lerp / np.linalg.norm(lerp), atol=1e-15)
    np.testing.assert_allclose(values[1], math3d.slerp(near, far, 0.25), atol=1e-15)
    assert abs(values[0] - math3d.slerp(q0, near, 0.25)).max() > 1e-7  # a visible difference, however small
