"""The against view's pure parts: pane sources, the strip's columns and colours, the bar's strip band, the state."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import khronos_model
from viewer.compare import against as ag
from viewer.scene.scene import load
from viewer.ui import timeline as tl
from viewer.ui.divergence_strip import strip_label
from viewer.ui.state import ViewerState


@pytest.fixture(scope="module")
def fox():
    return load(khronos_model("Fox"))


def test_column_maxima_keep_a_one_sample_spike_and_fill_empty_columns():
    times = np.linspace(0.0, 1.0, 101)
    values = np.zeros(101)
    values[37] = 5.0  # one frame's spike
    cols = ag.column_maxima(times, values, 0.0, 1.0, 10)
    assert cols.shape == (10,) and cols[3] == 5.0 and np.count_nonzero(cols) == 1
    # more columns than samples: a column with no sample takes the value interpolated at its middle
    fine = ag.column_maxima(np.array([0.0, 1.0]), np.array([0.0, 2.0]), 0.0, 1.0, 8)
    assert np.all(np.diff(fine) > 0) and fine.max() == 2.0


def test_error_colors_run_green_yellow_red_and_grey_without_partner():
    rgb = ag.error_colors(np.array([0.0, 0.5, 1.0, np.nan, 3.0]), 1.0)
    np.testing.assert_allclose(rgb[0], ag.SCALE_STOPS[0])
    np.testing.assert_allclose(rgb[1], ag.SCALE_STOPS[1])
    np.testing.assert_allclose(rgb[2], ag.SCALE_STOPS[2])
    np.testing.assert_allclose(rgb[3], 0.5)
    np.testing.assert_allclose(rgb[4], ag.SCALE_STOPS[2])  # past the scale: red
    assert np.allclose(ag.error_colors(np.array([0.0, 7.0]), 0.0), ag.SCALE_STOPS[0])  # files agree: green


def test_a_file_against_itself_matches_every_clip_and_is_the_same(fox):
    pair = ag.Against(fox, fox)
    for clip in fox.clips:
        assert pair.clip_b(clip) is clip
    div = pair.divergence(fox.clips[1], "authored")
    assert div.max_distance == 0.0 and div.scale == 0.0 and div.node_scale == 0.0
    assert pair.divergence(fox.clips[1], "authored") is div  # measured once per clip and mode
    assert strip_label(div).startswith("same")
    err_a, err_b = pair.errors_at(fox.clips[1], 0.3, "authored")
    assert np.nanmax(err_a) == 0.0 and err_a.shape == (len(fox.nodes),) and err_b.shape == err_a.shape


def test_sources_label_the_files_and_clips(fox):
    walk = fox.clips[1]
    a, b = ag.file_sources(fox, walk, fox, walk, "linear")
    assert a.label == "Fox.glb · Walk · linear" and a.color != b.color
    assert [s.label for s in ag.mode_sources(fox, walk, ("step", "linear"))] == ["step", "linear"]
    assert ag.matched_clip(fox, fox, None) is None


def test_the_strip_band_sits_under_the_ruler_and_raises_the_bar():
    plain = tl.layout(1000, 600, 2.0)
    strip = tl.layout(1000, 600, 2.0, strip=True)
    assert plain.strip_h == 0 and strip.strip_h == tl.STRIP_H
    assert strip.strip_y == strip.ruler_y + tl.RULER_H and strip.summary_y == strip.strip_y + tl.STRIP_H
    assert strip.top == plain.top - tl.STRIP_H and strip.height - strip.top == tl.bar_height(0, strip=True)
    x, y = strip.strip_point(0.5)
    assert strip.ruler.t_of(x) == pytest.approx(0.5, abs=0.01) and strip.strip_y <= y < strip.summary_y


def test_state_holds_b_against_a_and_follows_a_new_a(fox):
    state = ViewerState(fox, clip_index=1)
    assert state.against is None and [s.mode for s in state.pane_sources()] == list(state.compare_modes)
    state.set_against(fox)
    assert state.display.compare and len(state.pane_sources()) == 2
    assert state.pane_sources()[1].clip is fox.clips[1] and "against Fox.glb" in state.title()
    old = state.against
    state.set_scene(fox, keep=True)  # a reload of A: measured again against the same B
    assert state.against is not old and state.against.b is fox
    state.set_against(None)
    assert state.against is None and state.divergence() is None
