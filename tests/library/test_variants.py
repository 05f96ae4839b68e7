"""A library's pictures in KHR_materials_variants variants (``render --outdir --variant``): which variants a file
gets, what their pictures are named, and the contact sheet's cell for each — as plain data, without GL."""

from __future__ import annotations

from types import SimpleNamespace

from viewer.library.contact_sheet import cells_of
from viewer.library.previews import chosen_variants, variant_suffix
from viewer.scene.variants import Variants


def scene_with(*names):
    return SimpleNamespace(variants=Variants(tuple(names), (), ()))


def test_all_asks_for_every_variant_a_name_or_index_for_one_where_the_file_has_it():
    shoe = scene_with("midnight", "beach", "street")
    assert chosen_variants(shoe, None) == [] and chosen_variants(shoe, "all") == [0, 1, 2]
    assert chosen_variants(shoe, "beach") == [1] and chosen_variants(shoe, "2") == [2]
    assert chosen_variants(shoe, "sunset") == [] and chosen_variants(scene_with(), "all") == []


def test_a_variants_pictures_carry_its_index_and_a_safe_name():
    assert variant_suffix(1, "beach") == "variant1-beach"
    assert variant_suffix(0, "") == "variant0"
    assert variant_suffix(3, "a/b c:ü") == "variant3-a_b_c_ü"
    assert len(variant_suffix(4, "x" * 500)) <= len("variant4-") + 40


def test_each_variant_picture_gets_a_cell_after_its_clips():
    clip = {"index": 0, "name": "Walk", "duration": 2.0, "findings": [], "thumbnail": "/o/s.clip0.png"}
    clip["variants"] = [{"index": 1, "name": "beach", "thumbnail": "/o/s.clip0.variant1-beach.png", "preview": None}]
    result = {"file": "lib/shoe.glb", "status": "ok", "findings": [], "clips": [clip, {**clip, "index": 1}]}
    cells = cells_of([result])
    assert [c["title"] for c in cells] == [
        "0: Walk · 2.00 s",
        "variant 1 beach · 0: Walk · 2.00 s",
        "1: Walk · 2.00 s",
        "variant 1 beach · 1: Walk · 2.00 s",
    ]
    assert cells[1]["thumbnail"].endswith("variant1-beach.png") and cells[1]["counts"] == cells[0]["counts"]
