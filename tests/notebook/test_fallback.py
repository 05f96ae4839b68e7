"""What a notebook keeps of a player: the widget view plus a static copy (``text/html``: pre-rendered JPEG frames per
mode and a small scrubber, no network, under a hard cap) and a poster (``image/jpeg``).
"""

from __future__ import annotations

import base64
import io
import json
import re

import numpy as np
import pytest
from PIL import Image

from tests.notebook.conftest import DEMO
from viewer.notebook import fallback
from viewer.notebook.fallback_page import fallback_page

WIDGET = "application/vnd.jupyter.widget-view+json"


def page_data(html: str) -> dict:
    return json.loads(re.search(r"<script type='application/json' class='animview-data'>(.*?)</script>", html).group(1))


def test_the_bundle_holds_the_widget_the_static_copy_and_a_poster(player_factory):
    player = player_factory(DEMO, size=(320, 240))
    player.time = 1.0
    bundle = player._repr_mimebundle_()
    assert WIDGET in bundle and bundle[WIDGET]["model_id"] == player.model_id
    html = bundle["text/html"]
    assert len(html.encode()) <= fallback.CAP_BYTES
    assert "http://" not in html and "https://" not in html, "no network"
    data = page_data(html)
    assert [s["label"] for s in data["sets"]] == ["authored", "step", "linear"]
    # FRAMES of them, fewer only on a machine too busy to draw them in BUDGET_S
    assert (
        2 <= len(data["times"]) <= fallback.FRAMES and data["times"][0] == 0.0 and data["times"][-1] == player.duration
    )
    assert all(len(s["frames"]) == len(data["times"]) for s in data["sets"])
    first = Image.open(io.BytesIO(base64.b64decode(data["sets"][0]["frames"][0])))
    assert first.format == "JPEG" and first.size == (320, 240)
    poster = Image.open(io.BytesIO(base64.b64decode(bundle["image/jpeg"])))
    assert poster.size == (320, 240)
    assert player.time == 1.0, "the copy does not move the playhead"


def test_panes_make_one_set_and_a_tight_cap_keeps_fewer_frames_never_more_bytes(player_factory):
    player = player_factory(DEMO, size=(480, 240), compare=["step", "cubicspline"])
    html, kept = player.static_copy(cap=60_000)
    assert len(html.encode()) <= 60_000 and kept["bytes"] == len(html.encode())
    assert kept["frames"] < fallback.FRAMES and kept["sets"] == 1
    data = page_data(html)
    assert [s["label"] for s in data["sets"]] == ["step | cubicspline"]
    assert data["times"][0] == 0.0 and data["times"][-1] == player.duration
    width = Image.open(io.BytesIO(base64.b64decode(data["sets"][0]["frames"][0]))).size[0]
    assert width == fallback.WIDTH


def test_fit_under_cap_lowers_quality_then_drops_sets_and_refuses_the_impossible():
    pictures = np.random.default_rng(0).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    sets = [("a", [pictures] * 4), ("b", [pictures] * 4)]
    page = lambda ts, enc: json.dumps([ts, enc])  # noqa: E731
    big, kept_big = fallback.fit_under_cap(np.arange(4.0), sets, 10**7, page)
    assert kept_big == {"frames": 4, "quality": fallback.QUALITY, "sets": 2, "bytes": len(big)}
    one = len(fallback.b64(fallback.jpeg(pictures, fallback.MIN_QUALITY)))
    _, kept = fallback.fit_under_cap(np.arange(4.0), sets, 2 * one + 200, page)
    assert kept["frames"] == 2 and kept["quality"] == fallback.MIN_QUALITY and kept["sets"] == 1
    with pytest.raises(ValueError, match="does not fit"):
        fallback.fit_under_cap(np.arange(4.0), sets, 100, page)


def test_names_stay_text_and_cannot_close_the_data_block():
    hostile = "</script><script>alert(1)</script> <b>x</b>"
    html = fallback_page(hostile, [0.0, 1.0], [(hostile, ["AAAA", "BBBB"])], (10, 10))
    assert "<script>alert(1)" not in html and "<b>x</b>" not in html
    block = re.search(r"class='animview-data'>(.*?)</script>", html).group(1)
    assert "<" not in block and ">" not in block
    assert page_data(html)["sets"][0]["label"] == hostile
    assert fallback.fallback_times(0.0).tolist() == [0.0]


def test_a_scene_too_slow_for_the_budget_keeps_fewer_frames(monkeypatch):
    """Drawing the copy holds up the cell that displays the player: a slow scene gets fewer frames, in time."""
    import time

    monkeypatch.setattr(fallback, "BUDGET_S", 0.5)

    def slow(mode, t, size):
        time.sleep(0.05)
        return np.zeros((size[1], size[0], 3), np.uint8)

    page = lambda title, ts, enc, size: json.dumps([ts, enc])  # noqa: E731
    started = time.perf_counter()
    text, kept = fallback.fallback_html(slow, "t", 2.0, [("a", "linear"), ("b", "step")], (64, 48), page, cap=10**7)
    assert time.perf_counter() - started < fallback.BUDGET_S + 1.0
    assert 2 <= kept["frames"] < fallback.FRAMES and json.loads(text)[0][-1] == 2.0
