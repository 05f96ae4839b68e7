"""``--variant NAME|K`` as a person runs it: ``inspect`` lists the variants, ``render`` draws the one named, the
viewer starts with it, ``render --outdir --variant`` writes a picture per variant with its name in the file's;
a bad one is one line and exit 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO_ROOT, ext_model
from tests.render.conftest import cli_render
from viewer.base.resources import asset_path
from viewer.cli.main import main
from viewer.library.check import check_file
from viewer.library.contact_sheet import cells_of
from viewer.library.report import comparable

PLAIN = asset_path("interpolation.gltf")
NAMES = ("midnight", "beach", "street")


@pytest.fixture(scope="module")
def shoe():
    return ext_model("MaterialsVariantsShoe")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_inspect_lists_each_variant_and_what_it_changes(capsys, shoe):
    code, out, err = run(capsys, "inspect", shoe)
    assert code == 0 and err == ""
    assert "  variant 0 'midnight': 1 primitive mapped, 0 with another material than their own" in out
    assert "  variant 2 'street': 1 primitive mapped, 1 with another material than their own" in out
    code, out, _ = run(capsys, "inspect", shoe, "--json")
    assert json.loads(out)["variants"] == [
        {"index": 0, "name": "midnight", "primitives": 1, "changed": 0},
        {"index": 1, "name": "beach", "primitives": 1, "changed": 1},
        {"index": 2, "name": "street", "primitives": 1, "changed": 1},
    ]


def test_inspect_of_a_file_without_variants_lists_none(capsys):
    code, out, _ = run(capsys, "inspect", PLAIN, "--json")
    assert code == 0 and json.loads(out)["variants"] == []
    _, out, _ = run(capsys, "inspect", PLAIN)
    assert "variant" not in out


def test_render_draws_the_variant_named_by_name_or_index(gl_available, tmp_path, shoe):
    def picture(*flags):
        name = "_".join(flags) or "default"
        return cli_render(shoe, tmp_path / f"{name}.png", "--size", "96x72", "--quiet", *flags).astype(np.int16)

    default, midnight, beach, street = picture(), picture("--variant", "midnight"), picture("--variant", "beach"), None
    street = picture("--variant", "2")
    assert np.array_equal(default, midnight)  # midnight is the shoe's own material
    assert np.array_equal(beach, picture("--variant", "1"))
    for a, b in ((default, beach), (default, street), (beach, street)):
        assert np.abs(a - b).max() > 40 and (np.abs(a - b).max(axis=2) > 8).mean() > 0.05


@pytest.mark.parametrize(
    "argv, words",
    [
        (["render", "{shoe}", "-o", "{tmp}/x.png", "--variant", "sun"], "(it has 0:'midnight', 1:'beach', 2:'street')"),
        (["render", "{shoe}", "-o", "{tmp}/x.png", "--variant", "3"], "--variant 3 is not in"),
        (["render", "{shoe}", "-o", "{tmp}/x.png", "--variant", "all"], "--variant all is for render --outdir"),
        (["render", "{plain}", "-o", "{tmp}/x.png", "--variant", "0"], "has no material variants"),
        (["{shoe}", "--variant", "sunset", "--window", "headless"], "animview: --variant sunset is not in"),
        (["{plain}", "--variant", "beach", "--window", "headless"], "has no material variants"),
    ],
)
def test_a_bad_variant_is_one_line_and_exit_2(capsys, tmp_path, shoe, argv, words):
    args = [a.format(shoe=shoe, plain=PLAIN, tmp=tmp_path) for a in argv]
    code, out, err = run(capsys, *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.png").exists()


def test_a_bad_variant_in_a_real_process_has_no_traceback(tmp_path, shoe):
    done = subprocess.run(
        [sys.executable, "-m", "viewer", "render", str(shoe), "-o", str(tmp_path / "x.png"), "--variant", "sunset"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_render_outdir_variant_all_writes_a_picture_per_variant_named_for_it(capsys, gl_available, tmp_path, shoe):
    outdir, report = tmp_path / "o", tmp_path / "r.json"
    flags = ("--variant", "all", "--json", report, "--jobs", "1", "--quiet")
    code, _, _ = run(capsys, "render", shoe, PLAIN, "--outdir", outdir, *flags)
    assert code == 0
    names = sorted(p.name for p in outdir.iterdir())
    shoe_names = [n for n in names if n.startswith("MaterialsVariantsShoe")]
    stem = shoe_names[0][: -len(".png")]
    assert shoe_names == [f"{stem}.png"] + [f"{stem}.variant{k}-{n}.png" for k, n in enumerate(NAMES)]
    assert [n for n in names if n.startswith("interpolation")] == [names[-1]] and ".variant" not in names[-1]
    results = {r["file"]: r for r in json.loads(report.read_text())["results"]}
    shot = results["MaterialsVariantsShoe.gltf"]
    assert shot["thumbnail"].endswith(f"{stem}.png")
    assert [(v["index"], v["name"]) for v in shot["variants"]] == list(enumerate(NAMES))
    assert "variants" not in results["interpolation.gltf"]["clips"][0]
    alone = check_file(str(shoe), "MaterialsVariantsShoe.gltf")
    assert comparable(alone) == comparable(shot)  # the pictures are outputs, not findings of the file
    titles = [c["title"] for c in cells_of([shot])]
    assert titles == ["no animations"] + [f"variant {k} {n} · no animations" for k, n in enumerate(NAMES)]


def test_render_outdir_one_variant_adds_its_pictures_where_a_file_has_it(capsys, gl_available, tmp_path, shoe):
    outdir = tmp_path / "o"
    code, _, _ = run(capsys, "render", shoe, PLAIN, "--outdir", outdir, "--variant", "beach", "--jobs", "1", "--quiet")
    assert code == 0
    extra = sorted(p.name for p in outdir.iterdir() if ".variant" in p.name)
    assert len(extra) == 1 and extra[0].endswith(".variant1-beach.png") and extra[0].startswith("MaterialsVariantsShoe")
