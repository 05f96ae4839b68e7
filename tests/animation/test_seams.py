"""Loop seams: the value and velocity jump of each channel when a clip wraps from its duration to 0."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from tests.conftest import khronos_model, khronos_model_names
from tests.gltf_builder import GltfBuilder
from viewer import load
from viewer.animation import seams as seams_module
from viewer.animation.clip import Channel, Clip
from viewer.animation.modes import MODES, Curve
from viewer.animation.seams import Seams, loop_seams
from viewer.base import math3d


def channel(path, times, values, interpolation="LINEAR", node=0, tangents=None):
    values = np.asarray(values, float)
    if values.ndim == 1:
        values = values[:, None] * np.array([1.0, 0.0, 0.0])
    tin = tout = None if tangents is None else np.asarray(tangents, float)
    curve = Curve(np.asarray(times, float), values, tin, tout, path == "rotation", interpolation)
    return Channel(node, path, curve)


def z_quat(degrees):
    return math3d.quat_from_axis_angle([0.0, 0.0, 1.0], np.radians(np.asarray(degrees, float)))


def seams_of(*channels, mode="authored") -> Seams:
    return loop_seams(Clip("test", 0, channels), mode)


def test_triangle_wave_loops_cleanly_in_value_and_velocity():
    s = seams_of(channel("translation", [0, 1, 2, 3, 4], [0, 1, 0, -1, 0]))
    assert s.value_jump[0] == pytest.approx(0.0, abs=1e-12)
    assert s.velocity_jump[0] == pytest.approx(0.0, abs=1e-6)  # +1/s leaving the start, +1/s arriving
    assert not s.flagged[0]
    assert s.text(0).startswith("smooth loop")


def test_walk_forward_pops_back_to_start():
    s = seams_of(channel("translation", [0, 1, 2], [0, 1, 2]))
    assert s.value_jump[0] == pytest.approx(2.0)
    assert s.velocity_jump[0] == pytest.approx(0.0, abs=1e-6)
    assert s.value_flagged[0] and not s.velocity_flagged[0]
    assert s.text(0) == "seam: value 2 (100 % of range), velocity 0/s"


def test_same_value_different_velocity_is_a_velocity_seam_only():
    # A hop: leaves upward at 2/s and lands at −2/s, easing by only 1/s at each of its own keys.
    s = seams_of(channel("translation", [0, 1, 2, 3, 4, 5], [0, 2, 3, 3, 2, 0]))
    assert s.value_jump[0] == pytest.approx(0.0, abs=1e-12)
    assert s.velocity_jump[0] == pytest.approx(4.0, rel=1e-6)
    assert s.velocity_tolerance[0] == pytest.approx(1.0)  # its largest kink at a key
    assert s.velocity_flagged[0] and not s.value_flagged[0]
    assert s.flagged[0]
    assert s.text(0) == "seam: value 0 (0 % of range), velocity 4/s"
    smooth = seams_of(channel("translation", [0, 1, 2, 3, 4, 5], [0, 2, 3, 3, 2, 0]), mode="catmull-rom")
    assert smooth.velocity_flagged[0]


def test_seam_that_kinks_no_harder_than_its_own_keys_is_not_flagged():
    s = seams_of(channel("translation", [0, 1, 2], [0, 1, 0]))  # turns at the middle key as hard as at the seam
    assert s.velocity_jump[0] == pytest.approx(2.0, rel=1e-6)
    assert not s.flagged[0]
    arch = seams_of(
        channel(
            "translation",
            [0, 0.5, 1],
            [0, 1, 0],
            "CUBICSPLINE",
            tangents=[[math.pi, 0, 0], [0, 0, 0], [-math.pi, 0, 0]],
        )
    )
    assert arch.velocity_jump[0] == pytest.approx(2 * math.pi, rel=1e-6)  # smooth inside, kinked at the seam
    assert arch.velocity_flagged[0]


def test_smooth_cubic_loop_matches_velocity_to_second_order():
    t = np.linspace(0.0, 2.0, 9)
    w = math.pi  # one period over 2 s
    s = seams_of(
        channel("translation", t, np.sin(w * t), "CUBICSPLINE", tangents=np.cos(w * t)[:, None] * w * [1.0, 0.0, 0.0])
    )
    assert s.velocity_jump[0] < 1e-6 and not s.flagged[0]


def test_rotation_sign_flip_is_no_jump():
    q = z_quat([0.0, 120.0, 240.0, 350.0])
    keys = np.concatenate([q, [-z_quat(0.0)]])  # ends on −q of the first key: the same rotation
    s = seams_of(channel("rotation", [0, 1, 2, 3, 4], keys))
    assert s.value_jump[0] == pytest.approx(0.0, abs=1e-6)
    assert not s.value_flagged[0]


def test_rotation_30_degree_jump_and_angular_velocity():
    s = seams_of(channel("rotation", [0, 1], z_quat([0.0, 30.0])))
    assert s.value_jump[0] == pytest.approx(30.0, rel=1e-9)
    assert s.velocity_jump[0] == pytest.approx(0.0, abs=1e-4)  # 30°/s at both ends
    assert s.value_flagged[0] and not s.velocity_flagged[0]
    assert s.text(0) == "seam: 30°, velocity 0°/s"
    hop = seams_of(channel("rotation", [0, 1, 2, 3, 4, 5], z_quat([0, 20, 30, 30, 20, 0])))
    assert hop.value_jump[0] == pytest.approx(0.0, abs=1e-6)
    assert hop.velocity_jump[0] == pytest.approx(40.0, rel=1e-6)  # +20°/s out, −20°/s in
    assert hop.velocity_tolerance[0] == pytest.approx(10.0, rel=1e-9)
    assert hop.velocity_flagged[0] and not hop.value_flagged[0]


def test_tiny_rotation_jump_is_measured_exactly_and_not_flagged():
    s = seams_of(channel("rotation", [0, 1, 2], z_quat([0.0, 90.0, 1e-6])))
    assert s.value_jump[0] == pytest.approx(1e-6, rel=1e-6)
    assert not s.value_flagged[0]


def test_step_channel_has_no_velocity_and_pops_at_its_last_key():
    s = seams_of(channel("translation", [0, 1, 2], [0, 1, 3], "STEP"))
    assert s.value_jump[0] == pytest.approx(3.0)
    assert s.velocity_jump[0] == 0.0  # the jump to 3 exactly at t = duration is a value, not a velocity
    assert s.value_flagged[0] and not s.velocity_flagged[0]


def test_channel_ending_before_the_duration_holds_with_zero_velocity():
    moving = channel("translation", [0, 1], [0, 1], node=0)
    early = channel("scale", [0, 0.5], [1, 2], node=1)  # arrives at rest (holding), left at +2/s
    s = seams_of(moving, early)
    assert s.value_jump[1] == pytest.approx(1.0)
    assert s.velocity_jump[1] == pytest.approx(2.0, rel=1e-6)
    assert s.value_flagged[1] and s.velocity_flagged[1]


def test_weights_use_every_target():
    keys = [[0, 0, 0, 0, 0.2], [0.5, 0.5, 0.5, 0.5, 0.5], [0, 0, 0, 0, 0.9]]
    s = seams_of(channel("weights", [0, 1, 2], keys))
    assert s.value_jump[0] == pytest.approx(0.7)  # the fifth weight, beyond a quaternion's width
    assert s.value_range[0] == pytest.approx(0.7)
    assert s.value_flagged[0]


def test_still_channel_with_float_noise_is_not_flagged():
    rng = np.random.default_rng(1)
    values = 1.0 + rng.normal(0.0, 1e-7, (30, 3))
    rot = math3d.quat_normalize(z_quat(45.0) + rng.normal(0.0, 1e-7, (30, 4)))
    t = np.arange(30) / 30.0
    s = seams_of(channel("translation", t, values), channel("rotation", t, rot, node=1))
    assert not s.flagged.any()


def test_small_miss_on_large_move_is_not_flagged():
    s = seams_of(channel("translation", [0, 1, 2], [0, 5.0, 0.0001]))
    assert s.value_jump[0] == pytest.approx(1e-4)
    assert not s.value_flagged[0]
    assert s.value_tolerance[0] == pytest.approx(seams_module.VALUE_REL_TOL * 5.0)


@pytest.mark.parametrize(
    "clip",
    [
        Clip("empty", 0, []),
        Clip("still", 0, [channel("translation", [0], [5.0])]),
        Clip("two still", 0, [channel("scale", [0], [2.0]), channel("rotation", [0], z_quat([30.0]), node=1)]),
    ],
)
def test_zero_duration_or_no_channels_gives_zeros(clip):
    s = loop_seams(clip)
    assert s.value_jump.shape == s.velocity_jump.shape == s.flagged.shape == (len(clip.channels),)
    assert not s.flagged.any() and not s.value_jump.any() and not s.velocity_jump.any()
    if clip.channels:
        assert s.text(0) == "smooth loop: value 0, velocity 0/s"  # no range: no share of it


def test_one_batched_sample_call(monkeypatch):
    calls = []
    original = Clip.sample

    def counting(self, t, mode="authored"):
        calls.append(np.shape(t))
        return original(self, t, mode)

    monkeypatch.setattr(Clip, "sample", counting)
    chans = [channel("translation", np.arange(50) / 10.0, np.sin(np.arange(50)), node=k) for k in range(20)]
    chans.append(channel("rotation", [0, 1, 2], z_quat([0, 40, 80]), node=99))
    loop_seams(Clip("many", 0, chans))
    assert 1 <= len(calls) <= 2 and all(len(shape) == 1 for shape in calls)


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_gives_finite_results(mode):
    s = seams_of(
        channel("translation", [0, 0.5, 2], [0, 3, 1]),
        channel("rotation", [0, 1, 2], z_quat([0, 100, 10]), node=1),
        mode=mode,
    )
    assert np.isfinite(s.value_jump).all() and np.isfinite(s.velocity_jump).all()


def test_from_a_file(tmp_path):
    b = GltfBuilder()
    node = b.add_node()
    b.add_animation(
        [
            dict(node=node, path="translation", times=[0, 1, 2], values=[[0, 0, 0], [1, 0, 0], [2, 0, 0]]),
            dict(node=node, path="rotation", times=[0, 2], values=z_quat([0, 90]).tolist()),
        ]
    )
    b.add_scene([node])
    s = loop_seams(load(b.write_gltf(tmp_path)).clips[0])
    np.testing.assert_allclose(s.value_jump, [2.0, 90.0], rtol=1e-6)
    assert s.flagged.all()


@pytest.mark.parametrize("name", khronos_model_names() or ["(none)"])
def test_khronos_models_give_finite_seams(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scene = load(khronos_model(name))
    for clip in scene.clips:
        s = loop_seams(clip)
        for array in (s.value_jump, s.velocity_jump, s.value_tolerance, s.velocity_tolerance):
            assert array.shape == (len(clip.channels),) and np.isfinite(array).all()
        assert all(s.text(c) for c in range(len(clip.channels)))
