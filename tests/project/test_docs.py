"""The documentation cannot rot: every command in README.md and docs/*.md runs as written.

Every line of a fenced ``sh`` block is a command a user can paste (a line ending in ``\\`` continues). Each
runs with bash in a fresh temporary folder whose ``assets`` is the repository's ``assets/`` and ``models`` the
Khronos sample models (``KHRONOS_DIR``; a command naming ``models`` skips when they are absent), with this
interpreter's ``bin`` first on PATH. It must exit 0, or the status its trailing ``# exits N`` names. A viewer
command (``animview FILE ...``) runs headless for two frames. README's two set-up commands are special: the
test command is ``.ci/run``'s (without its ``-q``), and is never run; of the main job only what
follows the ``pip install`` runs (the package is installed already). Blocks that are not commands (output,
JSON) use another language tag. Also: README stays a front door (≤ 200 lines), its Documentation list
names every page of docs/, and every relative link points at a file.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import KHRONOS_DIR, REPO_ROOT
from viewer.cli.main import COMMANDS

DOCS = REPO_ROOT / "docs"
DOC_FILES = [REPO_ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
HEADLESS = " --window headless --backend egl --frames 2"
TIMEOUT_S = 120
SETUP = "python3 -m venv "

_EXITS = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")
_COMMENT = re.compile(r"\s+#[^'\"]*$")  # a trailing comment (a '#' inside quotes is left alone)
_NAMES_MODELS = re.compile(r"(^|[\s'\"=])models(/|\s|$)")
_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _rel(path: Path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def _blocks(path: Path):
    """(language, [(line number, text), ...]) of each fenced block, and the lines outside blocks as ``None``."""
    lang, body, outside = None, [], []
    blocks = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = line.strip().startswith("```")
        if lang is None and fence:
            lang, body = line.strip()[3:].strip() or "-", []
        elif lang is not None and fence:
            blocks.append((lang, body))
            lang = None
        elif lang is not None:
            body.append((number, line))
        else:
            outside.append((number, line))
    assert lang is None, f"{_rel(path)}: a fenced block is not closed"
    return blocks, outside


def sh_commands(path: Path) -> list[tuple[int, str]]:
    """(line number, command) of every command in the file's ``sh`` blocks, continuations joined."""
    out = []
    blocks, _ = _blocks(path)
    for lang, body in blocks:
        if lang != "sh":
            continue
        pending, start = "", 0
        for number, line in body:
            if not pending and (not line.strip() or line.lstrip().startswith("#")):
                continue
            start = start if pending else number
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1]
                continue
            out.append((start, (pending + line).strip()))
            pending = ""
        assert not pending, f"{_rel(path)}:{start}: a continued line ends its block"
    return out


def all_commands() -> list[tuple[str, str]]:
    return [(f"{_rel(path)}:{number}", command) for path in DOC_FILES for number, command in sh_commands(path)]


COMMAND_LIST = all_commands()


def split_expected(command: str) -> tuple[str, int]:
    """The command without its trailing comment, and the exit status it expects (``# exits N``, else 0)."""
    m = _EXITS.search(command)
    if m:
        return command[: m.start()].rstrip(), int(m.group(1))
    return _COMMENT.sub("", command).rstrip(), 0


def opens_viewer(command: str) -> bool:
    """``animview`` with no subcommand (and not ``-h``): the viewer window."""
    words = shlex.split(command)
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):  # VAR=value prefixes
        words.pop(0)
    if not words or words[0] != "animview":
        return False
    return len(words) == 1 or words[1] not in (*COMMANDS, "-h", "--help")


def ci_test_command() -> str:
    """``.ci/run``'s test command (its one line that makes the venv and runs pytest; the style checks follow
    it), its pip part without ``-q``."""
    lines = [ln.strip() for ln in (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    runs = [ln for ln in lines if ln.startswith(SETUP) and ln.endswith("python -m pytest")]
    assert len(runs) == 1, f".ci/run should make the venv and run pytest on one line, found {runs}"
    return re.sub(r"(pip install )-q ", r"\1", runs[0])


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and mtime: the doc commands must leave it as it was."""
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_there_are_commands():
    files = {cid.split(":")[0] for cid, _ in COMMAND_LIST}
    assert "README.md" in files and len(COMMAND_LIST) >= 20, files


@pytest.mark.parametrize("command", [c for _, c in COMMAND_LIST], ids=[i for i, _ in COMMAND_LIST])
def test_command_runs(command: str, tmp_path: Path):
    if command.startswith(SETUP):
        if "pytest" in command:  # the test command: CI runs it word for word (never from here)
            assert command == ci_test_command(), ".ci/run's test line (without -q) is README's test command"
            return
        m = re.fullmatch(r".*\bpip install [^&]*&&\s*(.+)", command)
        assert m, f"a set-up command without 'pip install ... && COMMAND': {command}"
        command = m.group(1)  # the package is installed already
    assert "pytest" not in command, "a documented command must not run the test suite"
    if _NAMES_MODELS.search(command) and not KHRONOS_DIR.is_dir():
        pytest.skip(f"Khronos sample models not found at {KHRONOS_DIR} (set ANIMVIEW_KHRONOS)")

    command, expected = split_expected(command)
    if opens_viewer(command):
        assert not re.search(r"&&|\|\||[|;]", command), "a viewer command stands alone on its line"
        command += HEADLESS
    (tmp_path / "assets").symlink_to(REPO_ROOT / "assets", target_is_directory=True)
    if KHRONOS_DIR.is_dir():
        (tmp_path / "models").symlink_to(KHRONOS_DIR.resolve(), target_is_directory=True)
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    before = (_snapshot(REPO_ROOT / "assets"), _snapshot(KHRONOS_DIR))
    try:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not finish in {TIMEOUT_S} s: {command}")
    assert done.returncode == expected, (
        f"exit status {done.returncode}, expected {expected}: {command}\n"
        f"--- stderr:\n{done.stderr[-4000:]}\n--- stdout:\n{done.stdout[-2000:]}"
    )
    assert (_snapshot(REPO_ROOT / "assets"), _snapshot(KHRONOS_DIR)) == before, (
        f"the command wrote into assets/ or models/: {command}"
    )


def test_readme_is_a_front_door():
    lines = (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; the reference belongs in docs/"


def test_readme_set_up_commands():
    setup = [c for _, c in sh_commands(REPO_ROOT / "README.md") if c.startswith(SETUP)]
    assert len(setup) == 2, setup
    assert ci_test_command() in setup


def test_readme_links_every_docs_page():
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    linked = {m.group(1).split("#")[0] for m in _LINK.finditer(text)}
    missing = [_rel(p) for p in sorted(DOCS.glob("*.md")) if _rel(p) not in linked]
    assert not missing, f"README's Documentation list lacks {missing}"


@pytest.mark.parametrize("path", DOC_FILES, ids=[_rel(p) for p in DOC_FILES])
def test_relative_links_exist(path: Path):
    _, outside = _blocks(path)
    broken = []
    for number, line in outside:
        for m in _LINK.finditer(line):
            target = m.group(1)
            if _SCHEME.match(target):
                continue
            file, _, anchor = target.partition("#")
            dest = path.parent / file if file else path
            if not dest.exists():
                broken.append(f"{_rel(path)}:{number}: {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{_rel(path)}:{number}: {target} (no such heading)")
    assert not broken, "links to missing files or headings:\n" + "\n".join(broken)


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of the file's headings: lower case, punctuation dropped, spaces as hyphens."""
    _, outside = _blocks(path)
    heads = [line.lstrip("#").strip() for _, line in outside if re.match(r"#{1,6} ", line)]
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("path", DOC_FILES, ids=[_rel(p) for p in DOC_FILES])
def test_no_prompt_in_sh_blocks(path: Path):
    """Commands are pasted as they are: no ``$ `` prompts and no output lines in ``sh`` blocks."""
    bad = [f"{_rel(path)}:{n}: {c}" for n, c in sh_commands(path) if c.startswith(("$", ">"))]
    assert not bad, "sh blocks hold commands only (show output in a `text` block):\n" + "\n".join(bad)
