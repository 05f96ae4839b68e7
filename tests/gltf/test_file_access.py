"""The loader's file access policy (``gltf/resources.py``): what a hostile file can make us read.

External URIs stay inside the model's folder tree unless ``allow_outside_folder`` is given; only
regular files are opened; a buffer is read up to its ``byteLength`` and no further. The device cases
run in a child process with a timeout, so a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT
from viewer import GltfError, load
from viewer.base.errors import MAX_MESSAGE_CHARS
from viewer.gltf.resources import FileAccess, load_buffers

DEVICES = ["/dev/zero", "/dev/urandom", "/dev/stdin"]


def _buffer_file(folder, uri: str, byte_length: int = 16, name: str = "model.gltf"):
    doc = {"asset": {"version": "2.0"}, "buffers": [{"uri": uri, "byteLength": byte_length}]}
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _image_file(folder, uri: str, name: str = "model.gltf"):
    doc = {"asset": {"version": "2.0"}, "images": [{"uri": uri}]}
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _load_in_child(path, allow_outside: bool = False) -> subprocess.CompletedProcess:
    code = (
        "import sys, viewer\n"
        "try:\n"
        f"    viewer.load(sys.argv[1], allow_outside_folder={allow_outside})\n"
        "    print('LOADED')\n"
        "except viewer.GltfError as exc:\n"
        "    print(exc)\n"
    )
    # stdin is a pipe nobody writes to: reading /dev/stdin would block forever, as in a terminal
    return subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.PIPE,
    )


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("allow_outside", [False, True])
@pytest.mark.parametrize("kind", ["buffer", "image"])
def test_devices_are_refused_without_reading(tmp_path, device, allow_outside, kind):
    path = (_buffer_file if kind == "buffer" else _image_file)(tmp_path, device)
    proc = _load_in_child(path, allow_outside)
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip()
    assert "LOADED" not in line and len(line.splitlines()) == 1
    assert f"/{kind}s/0/uri" in line
    if allow_outside:
        assert "not a regular file" in line, line
    else:
        assert "absolute path" in line and "--allow-outside-folder" in line, line


@pytest.mark.parametrize("uri", ["../../etc/passwd", "../secret.bin", "%2e%2e/secret.bin", "sub/../../secret.bin"])
def test_uris_leaving_the_folder_are_refused_and_name_the_option(tmp_path, uri):
    (tmp_path / "secret.bin").write_bytes(b"top secret data!" * 4)
    model_dir = tmp_path / "model"
    (model_dir / "sub").mkdir(parents=True)
    with pytest.raises(GltfError) as err:
        load(_buffer_file(model_dir, uri))
    assert err.value.pointer == "/buffers/0/uri"
    assert "outside the model's folder" in err.value.message and "--allow-outside-folder" in err.value.message
    assert "top secret" not in str(err.value)


def test_absolute_path_is_refused_unless_allowed(tmp_path):
    outside = tmp_path / "elsewhere" / "data.bin"
    outside.parent.mkdir()
    outside.write_bytes(bytes(range(16)))
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    path = _buffer_file(model_dir, str(outside))
    with pytest.raises(GltfError, match="absolute path"):
        load(path)
    load(path, allow_outside_folder=True)  # the same file, allowed: a regular file, read
    relative = _buffer_file(model_dir, "../elsewhere/data.bin", name="relative.gltf")
    with pytest.raises(GltfError, match="outside the model's folder"):
        load(relative)
    load(relative, allow_outside_folder=True)


def test_symbolic_link_out_of_the_folder_is_refused(tmp_path):
    (tmp_path / "secret.bin").write_bytes(bytes(16))
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    os.symlink(tmp_path / "secret.bin", model_dir / "data.bin")
    with pytest.raises(GltfError, match="outside the model's folder"):
        load(_buffer_file(model_dir, "data.bin"))


def test_files_in_subfolders_and_links_inside_are_fine(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "data.bin").write_bytes(bytes(16))
    os.symlink(tmp_path / "bin" / "data.bin", tmp_path / "link.bin")
    load(_buffer_file(tmp_path, "bin/data.bin"))
    load(_buffer_file(tmp_path, "link.bin", name="linked.gltf"))


def test_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe.bin")
    proc = _load_in_child(_buffer_file(tmp_path, "pipe.bin"))
    assert "not a regular file (a FIFO)" in proc.stdout, proc.stdout + proc.stderr


def test_directory_is_refused(tmp_path):
    (tmp_path / "dir.bin").mkdir()
    with pytest.raises(GltfError, match="not a regular file \\(a directory\\)"):
        load(_buffer_file(tmp_path, "dir.bin"))


def test_buffer_is_read_up_to_its_byte_length_only(tmp_path):
    (tmp_path / "long.bin").write_bytes(bytes(range(256)) * 4096)  # 1 MiB, of which 16 bytes are declared
    path = _buffer_file(tmp_path, "long.bin", byte_length=16)
    load(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert [len(b) for b in load_buffers(raw, FileAccess(path), None, glb=False)] == [16]


def test_short_buffer_file_names_both_sizes(tmp_path):
    (tmp_path / "short.bin").write_bytes(bytes(10))
    with pytest.raises(GltfError) as err:
        load(_buffer_file(tmp_path, "short.bin", byte_length=16))
    assert err.value.pointer == "/buffers/0/byteLength"
    assert "16" in err.value.message and "10" in err.value.message


@pytest.mark.parametrize("model", DEVICES)
def test_model_file_itself_must_be_a_regular_file(model):
    proc = _load_in_child(model)
    assert "not a regular file" in proc.stdout, proc.stdout + proc.stderr


def test_long_uri_is_shortened_in_the_message(tmp_path):
    with pytest.raises(GltfError) as err:
        load(_buffer_file(tmp_path, "x" * 5000 + ".bin"))
    line = str(err.value)
    assert len(err.value.message) <= MAX_MESSAGE_CHARS and "…" in line and len(line) < 700
