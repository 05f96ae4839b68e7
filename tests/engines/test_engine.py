"""The rewrites an ``Engine`` makes of a clip, one knob at a time, each against values worked out here from
what the knob says (the engines that use each knob, and their sources, are in ``docs/engines.md``)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.conftest import STEP_KEYS, one_node
from viewer.engines.engine import Engine

PLAIN = Engine("test", "a test engine", "0", "none")


def _play(engine, scene, times):
    return engine.sample(scene.clips[0], scene, np.asarray(times, np.float64))[:, 0]


def test_the_defaults_are_the_spec(tmp_path):
    scene = one_node(tmp_path, [STEP_KEYS])
    times = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])
    np.testing.assert_array_equal(_play(PLAIN, scene, times), scene.clips[0].sample(times)[:, 0])


def test_step_at_key_old_shows_the_previous_value_at_the_keys_own_time(tmp_path):
    scene = one_node(tmp_path, [STEP_KEYS])
    old = Engine("o", "", "", "", step_at_key="old")
    x = _play(old, scene, [0.0, 1.0, np.nextafter(1.0, 2.0), 2.0, 2.5])[:, 0]
    assert x.tolist() == [0.0, 0.0, 1.0, 1.0, 2.0]
    x = _play(Engine("l", "", "", "", step_last=False), scene, [1.0, 2.0, 5.0])[:, 0]
    assert x.tolist() == [1.0, 1.0, 1.0]  # the last key's value never shows


def test_tangents_times_u_or_dropped(tmp_path):
    # one interval of 2 s from 0 to 1 with out-tangent 1 and in-tangent 0 (per second)
    keys = [[0, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 0]]
    scene = one_node(
        tmp_path, [dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[0, 2], values=keys)]
    )
    u = 0.25

    def h(p0, m0, p1, m1):
        return (
            (2 * u**3 - 3 * u**2 + 1) * p0
            + (u**3 - 2 * u**2 + u) * m0
            + (-2 * u**3 + 3 * u**2) * p1
            + (u**3 - u**2) * m1
        )

    spec = _play(PLAIN, scene, [0.5])[0, 0]
    times_u = _play(Engine("f", "", "", "", cubic_tangents="times-u"), scene, [0.5])[0, 0]
    assert spec == pytest.approx(h(0.0, 1.0 * 2.0, 1.0, 0.0))  # the spec: tangent × Δt
    assert times_u == pytest.approx(h(0.0, u, 1.0, 0.0), abs=1e-4)  # the tangent × u, not × Δt
    dropped = _play(Engine("g", "", "", "", cubic_tangents="dropped"), scene, [0.5])[0, 0]
    assert dropped == pytest.approx(0.25)


def test_lead_in_padded_with_the_first_key_or_the_rest_value(tmp_path):
    keys = [[0, 0, 0], [1, 0, 0], [0, 0, 0], [0, 0, 0], [2, 0, 0], [0, 0, 0]]
    scene = one_node(
        tmp_path,
        [dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[1, 2], values=keys)],
        rest=(5.0, 0.0, 0.0),
    )
    spec = _play(PLAIN, scene, [0.0, 0.5])[:, 0]
    assert spec.tolist() == [1.0, 1.0]
    pad = _play(Engine("b", "", "", "", lead_in="pad"), scene, [0.0, 0.5, 1.0])[:, 0]
    # a key at 0 with the first key's value and tangents: the lead-in is a Hermite from 1 to 1 with tangent 0
    assert pad.tolist() == pytest.approx([1.0, 1.0, 1.0])
    rest = _play(Engine("r", "", "", "", lead_in="rest"), scene, [0.0, 0.5, np.nextafter(1.0, 0.0), 1.0])[:, 0]
    assert rest.tolist() == [5.0, 5.0, 5.0, 1.0]


def test_lead_in_pad_copies_cubic_tangents(tmp_path):
    keys = [[0, 0, 0], [1, 0, 0], [3, 0, 0], [0, 0, 0], [2, 0, 0], [0, 0, 0]]  # out-tangent 3/s at the first key
    scene = one_node(
        tmp_path, [dict(node=0, path="translation", interpolation="CUBICSPLINE", times=[1, 2], values=keys)]
    )
    pad = _play(Engine("b", "", "", "", lead_in="pad"), scene, [0.5])[0, 0]
    u = 0.5  # the padded interval [0, 1]: from 1 (out-tangent 3) to 1 (in-tangent 0), Δt = 1
    assert pad == pytest.approx(1.0 + (u**3 - 2 * u**2 + u) * 3.0)


def test_samplers_below_min_keys_leave_the_rest_value(tmp_path):
    scene = one_node(
        tmp_path, [dict(node=0, path="translation", times=[0.5], values=[[7, 0, 0]])], rest=(2.0, 0.0, 0.0)
    )
    assert _play(PLAIN, scene, [0.0])[0, 0] == 7.0
    assert _play(Engine("f", "", "", "", min_keys=2), scene, [0.0, 1.0])[:, 0].tolist() == [2.0, 2.0]


def test_players_wrap_at_the_end_to_the_first_or_the_last_pose():
    first, last = Engine("a", "", "", "", end="first"), Engine("b", "", "", "", end="last")
    times = np.array([-1.0, 0.0, 1.0, 2.0, 2.5, 4.0])
    assert PLAIN.player_time(times, 2.0).tolist() == times.tolist()
    assert first.player_time(times, 2.0).tolist() == [-1.0, 0.0, 1.0, 0.0, 0.5, 0.0]
    assert last.player_time(times, 2.0).tolist() == [-1.0, 0.0, 1.0, 2.0, 0.5, 2.0]


def test_weights_past_the_limit_are_not_applied(tmp_path):
    six = [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1]]
    scene = one_node(tmp_path, [dict(node=0, path="weights", times=[0, 1], values=six)], targets=6)
    w = _play(Engine("v", "", "", "", max_weights=4), scene, [0.0])[0]
    assert w.tolist() == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.0, 0.0])


def test_rewritten_clips_are_kept_per_engine_without_keeping_the_file_alive():
    """``Engine.clip`` keeps what it rewrote (``check`` and the panes ask again and again) under a key of its own,
    and holds the scene weakly: a library worker's previous file, or a closed one, is freed."""
    import gc
    import weakref

    from tests.conftest import REPO_ROOT
    from viewer.engines import get
    from viewer.scene.scene import load

    scene = load(REPO_ROOT / "assets" / "interpolation.gltf")
    clip = scene.clips[0]
    three = get("three")
    played = three.clip(clip, scene)
    assert three.clip(clip, scene) is played and get("filament").clip(clip, scene) is not played
    assert played.key != clip.key and played.key != get("filament").clip(clip, scene).key
    alive = weakref.ref(scene)
    del scene, clip
    gc.collect()
    assert alive() is None
