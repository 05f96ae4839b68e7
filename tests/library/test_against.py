"""``check --against DIR``: each file diffed with its counterpart at the same path in a second library.

Two small libraries built in code: one pair identical, one whose counterpart moves a key (``differs``, with the
distance, node and time), one file with no counterpart (``no-counterpart``); then links out of DIR, a broken
counterpart, clips on one side only, the threshold and mode options, every runner (in process, ``--jobs``
sandboxes, a Dask cluster) giving the same result, and the terminal, JSON and HTML outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gltf_builder import GltfBuilder
from viewer.library.check import check_file
from viewer.library.discover import discover
from viewer.library.report import CODES, comparable
from viewer.library.run import Limits, counterpart_request, requests_for, run_library

AGAINST = {"mode": "authored", "fps": 120.0, "fail_above": None, "relative": False}


def rig(peak: float = 1.0, clips: tuple[str, ...] = ("Move",)) -> GltfBuilder:
    """Node 0 "mover" (a triangle on child 1 "tip"), each clip sliding it to x = ``peak`` at t = 1 s and back."""
    b = GltfBuilder()
    mesh = b.add_mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2])
    b.add_node(name="mover", children=[1])
    b.add_node(name="tip", mesh=mesh, translation=[0.0, 1.0, 0.0])
    for name in clips:
        keys = [[0, 0, 0], [peak, 0, 0], [0, 0, 0]]
        b.add_animation([dict(node=0, path="translation", times=[0, 1, 2], values=keys)], name=name)
    b.add_scene([0])
    return b


def libraries(tmp_path: Path) -> tuple[Path, Path]:
    """``a/`` holds same.gltf, sub/changed.gltf and missing.gltf; ``b/`` the first two, changed.gltf's key at
    t = 1 s moved from x = 1 to x = 1.5."""
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "sub").mkdir(parents=True)
        rig().write_gltf(root, "same.gltf", embed=True)
    rig().write_gltf(a / "sub", "changed.gltf", embed=True)
    rig(1.5).write_gltf(b / "sub", "changed.gltf", embed=True)
    rig().write_gltf(a, "missing.gltf", embed=True)
    return a, b


def against(files, b: Path, **settings) -> dict[str, dict]:
    """Each file checked in process against its counterpart under ``b``, by label."""
    return {
        f.label: check_file(f.path, f.label, against=counterpart_request(f, dict(AGAINST, dir=str(b), **settings)))
        for f in files
    }


def codes(result: dict) -> list[str]:
    return [f["code"] for f in result["findings"]] + [f["code"] for c in result["clips"] for f in c["findings"]]


def test_codes_are_known_with_their_levels():
    assert CODES["differs"][0] == "warning"
    assert CODES["counterpart-error"][0] == "warning"
    assert CODES["no-counterpart"][0] == "info"


def test_same_differs_and_missing(tmp_path):
    a, b = libraries(tmp_path)
    got = against(discover([a]), b)
    same, changed, missing = got["a/same.gltf"], got["a/sub/changed.gltf"], got["a/missing.gltf"]

    assert "differs" not in codes(same) and "no-counterpart" not in codes(same)
    assert same["against"] == {
        "counterpart": f"{b.as_posix()}/same.gltf",
        "status": "same",
        "max_distance": 0.0,
        "max_distance_rel": 0.0,
    }

    [finding] = [f for f in changed["clips"][0]["findings"] if f["code"] == "differs"]
    assert finding["level"] == "warning" and finding["pointer"] == "/animations/0"
    assert finding["count"] == 2  # mover and tip both pass the threshold
    message = finding["message"]
    assert f"{b.as_posix()}/sub/changed.gltf" in message and "clip 'Move'" in message
    assert "max distance 0.5 " in message and "at t=1.0000 s, node 'mover'" in message
    size = changed["against"]["max_distance"] / changed["against"]["max_distance_rel"]
    assert f"({100 * 0.5 / size:.3g} % of the scene size)" in message
    assert changed["against"]["status"] == "differs" and changed["against"]["max_distance"] == pytest.approx(0.5)
    assert changed["counts"]["warning"] == 1

    [finding] = [f for f in missing["findings"] if f["code"] == "no-counterpart"]
    assert finding["level"] == "info" and finding["pointer"] == ""
    assert f"{b.as_posix()}/missing.gltf does not exist" in finding["message"]
    assert missing["against"]["status"] == "missing" and "differs" not in codes(missing)


def test_without_against_nothing_changes(tmp_path):
    a, _ = libraries(tmp_path)
    f = discover([a / "sub" / "changed.gltf"])[0]
    assert f.below_root == "changed.gltf"
    plain = check_file(f.path, f.label)
    assert "against" not in plain and not {"differs", "no-counterpart"} & set(codes(plain))


def test_a_file_given_itself_is_matched_by_its_name(tmp_path):
    a, b = libraries(tmp_path)
    f = discover([a / "sub" / "changed.gltf"])[0]
    result = against([f], b / "sub")[f.label]
    assert result["against"]["status"] == "differs"


def test_threshold_and_mode_are_the_diffs(tmp_path):
    a, b = libraries(tmp_path)
    files = [f for f in discover([a]) if f.label == "a/sub/changed.gltf"]
    loose = against(files, b, fail_above=0.6)["a/sub/changed.gltf"]
    assert loose["against"]["status"] == "same" and "differs" not in codes(loose)
    loose_rel = against(files, b, fail_above=0.5, relative=True)["a/sub/changed.gltf"]  # half the scene size
    assert loose_rel["against"]["status"] == "same"
    step = against(files, b, mode="step")["a/sub/changed.gltf"]
    assert "mode step" in step["clips"][0]["findings"][-1]["message"]


def test_links_out_broken_counterparts_and_clips_on_one_side(tmp_path):
    a, b = libraries(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    rig().write_gltf(outside, "same.gltf", embed=True)
    (b / "same.gltf").unlink()
    (b / "same.gltf").symlink_to(outside / "same.gltf")
    (b / "missing.gltf").write_text("{ not json")
    rig(clips=("Move", "Extra")).write_gltf(a, "two.gltf", embed=True)
    rig(clips=("Other",)).write_gltf(b, "two.gltf", embed=True)
    got = against(discover([a]), b)

    [link] = got["a/same.gltf"]["findings"]
    assert link["code"] == "no-counterpart" and "links out of b" in link["message"]

    [broken] = got["a/missing.gltf"]["findings"]
    assert broken["code"] == "counterpart-error" and broken["level"] == "warning"
    assert got["a/missing.gltf"]["against"]["status"] == "error"

    two = got["a/two.gltf"]
    # "Move" has no namesake in b: matched by index with "Other" (identical keys); "Extra" has no partner
    assert [c["findings"] for c in two["clips"]][0] == []
    [extra] = two["clips"][1]["findings"]
    assert extra["code"] == "differs" and "no clip matching" in extra["message"]
    assert two["against"]["status"] == "differs"


def test_local_workers_and_dask_give_the_in_process_result(tmp_path):
    a, b = libraries(tmp_path)
    files = discover([a])
    alone = {r["path"]: comparable(r) for r in against(files, b).values()}
    requests = requests_for(files, Limits(), against=dict(AGAINST, dir=str(b)))
    local = run_library(requests, jobs=2, quiet=True)
    assert {r["path"]: comparable(r) for r in local.results} == alone
    assert local.summary["codes"]["differs"] == 1 and local.summary["codes"]["no-counterpart"] == 1

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        on_dask = run_library(requests, scheduler=cluster.scheduler_address, quiet=True)
    assert {r["path"]: comparable(r) for r in on_dask.results} == alone


def test_cli_terminal_json_and_html(tmp_path, capsys):
    from viewer.cli.main import main

    a, b = libraries(tmp_path)
    out_json, out_html = tmp_path / "r.json", tmp_path / "r.html"
    args = ["check", str(a), "--against", str(b), "--jobs", "2", "--quiet", "--json", str(out_json)]
    assert main(args + ["--html", str(out_html), "--no-thumbnails"]) == 0  # a warning: under --fail-on error
    text = capsys.readouterr().out
    assert "warning differs" in " ".join(text.split()) and "info no-counterpart" in " ".join(text.split())
    assert "clip 0 'Move': /animations/0: differs from" in text
    doc = json.loads(out_json.read_text())
    assert doc["summary"]["codes"]["differs"] == 1
    assert {r["file"]: r["against"]["status"] for r in doc["results"]} == {
        "a/missing.gltf": "missing",
        "a/same.gltf": "same",
        "a/sub/changed.gltf": "differs",
    }
    page = out_html.read_text()
    assert "differs" in page and "no-counterpart" in page

    assert main(["check", str(a), "--against", str(b), "--jobs", "1", "--quiet", "--fail-on", "warning"]) == 1
    loose = ["--diff-fail-above", "50%", "--fail-on", "warning"]
    assert main(["check", str(a / "sub"), "--against", str(b / "sub"), "--jobs", "1", "--quiet"] + loose) == 0
    capsys.readouterr()


@pytest.mark.parametrize(
    "extra, says",
    [
        (["--against", "nowhere"], "is not a folder"),
        (["--diff-mode", "step"], "need --against"),
        (["--diff-fail-above", "1%"], "need --against"),
        (["--against", ".", "--diff-fail-above", "much"], "--diff-fail-above"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, extra, says):
    from viewer.cli.main import main

    a, _ = libraries(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(a), "--jobs", "1", "--quiet"] + extra) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1
