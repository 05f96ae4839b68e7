"""``animview render --compare spec,three,filament``: the compare panes playing the clip as engines will, against
a golden picture. At 1.0 s — the STEP cube's key — the spec and three.js show its new key, Filament the old."""

from __future__ import annotations

from tests.conftest import REPO_ROOT
from tests.render.conftest import assert_matches_golden, cli_render

DEMO = REPO_ROOT / "assets" / "interpolation.gltf"


def test_spec_three_filament_panes_match_the_golden(tmp_path):
    rgb = cli_render(DEMO, tmp_path / "panes.png", "--compare", "spec,three,filament", "--time", "1.0")
    assert_matches_golden("engine_panes", rgb)
