"""The player's pictures are ``render``'s: the same frame sources, re-aimed between frames without drift.

``animview render`` makes an ``export.Offscreen`` (``--frame clip``), an ``export.compare.CompareOffscreen`` for
``--compare`` and one with the divergence strip for ``--against B --overlay``; the player keeps one plain source
alive and re-aims it (size, clip, mode) and builds the panes per layout. Each picture below must equal, pixel for
pixel, a fresh source made as ``render`` makes it — after the player has drawn other sizes, clips and modes.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.conftest import khronos_model
from tests.notebook.conftest import DEMO
from viewer.export.compare import CompareLook, CompareOffscreen
from viewer.export.offscreen import Offscreen, View


def rendered(scene, clip, t, size, mode="authored", **look):
    """What ``animview render`` draws (a fresh source, its own context)."""
    cls = CompareOffscreen if look else Offscreen
    kwargs = {"look": CompareLook(**look)} if look else {}
    source = cls(scene, clip, View(size=size, mode=mode), **kwargs)
    try:
        return source.frame(t)
    finally:
        source.release()


def test_plain_frames_equal_render_after_re_aiming(player_factory):
    player = player_factory(DEMO, size=(320, 240))
    scene, clip = player.scene, player.state.clip
    for t, size, mode in [(0.7, (320, 240), "step"), (1.3, (200, 150), "catmull-rom"), (2.6, (320, 240), "linear")]:
        player.mode = mode
        got = player.frame(t, size)
        assert np.array_equal(got, rendered(scene, clip, t, size, mode)), (t, size, mode)


def test_another_clip_re_aims_ground_and_camera(player_factory):
    player = player_factory(khronos_model("Fox"), size=(240, 180))  # three clips: Survey, Walk, Run
    player.time = 3.0  # late in Survey (3.4 s): the next clip starts from its start, not clamped to its end
    player.frame()
    player.animation = 2
    assert player.duration == pytest.approx(player.scene.clips[2].duration) and player.time == 0.0
    assert player.controls.slider.value == 0.0 and player.controls.slider.max == player.duration
    got = player.frame(0.5)
    assert np.array_equal(got, rendered(player.scene, player.scene.clips[2], 0.5, (240, 180)))


def test_compare_panes_equal_render_compare(player_factory):
    player = player_factory(DEMO, size=(360, 240), compare=["step", "linear", "catmull-rom"])
    got = player.frame(1.4)
    want = rendered(player.scene, player.state.clip, 1.4, (360, 240), modes=("step", "linear", "catmull-rom"))
    assert np.array_equal(got, want)
    player.compare = ()
    assert np.array_equal(player.frame(1.4), rendered(player.scene, player.state.clip, 1.4, (360, 240)))


def test_against_panes_equal_render_against_with_the_strip(player_factory, tmp_path):
    import viewer
    from viewer.files.bake import bake_file

    baked = tmp_path / "baked.gltf"  # a copy resampled in another mode: B differs from A
    a = viewer.load(DEMO)
    bake_file(a, baked, "step")
    b = viewer.load(baked)
    player = player_factory(DEMO, size=(320, 240), against=b)
    got = player.frame(1.25)
    want = rendered(a, a.clips[0], 1.25, (320, 240), against=b, strip=True)
    assert np.array_equal(got, want)
    player.against_shown = False
    assert np.array_equal(player.frame(1.25), rendered(a, a.clips[0], 1.25, (320, 240)))


def test_draws_from_two_threads_give_each_its_own_picture(player_factory):
    """A kernel draws from its main thread (cells) and JupyterLab's subshell thread (widget messages): the GL work
    of both runs on the player's one GL thread, so neither sees the other's context state."""
    player = player_factory(DEMO, size=(160, 120))
    want = {t: player.frame(t) for t in (0.5, 2.5)}
    other: list[bool] = []

    def subshell():
        other.extend(np.array_equal(player.frame(2.5), want[2.5]) for _ in range(8))

    thread = threading.Thread(target=subshell)
    thread.start()
    mine = [np.array_equal(player.frame(0.5), want[0.5]) for _ in range(8)]
    thread.join(timeout=120)
    assert all(mine) and other == [True] * 8
