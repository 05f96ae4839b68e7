"""tools/compress_models.py --meshopt: KHR_meshopt_compression copies of shared Khronos models that load and
sample like their originals (lossless views exact, QUATERNION-filtered rotations within the filter's step)."""

from __future__ import annotations

import json
import struct

import pytest

from tools import compress_models as cm
from viewer.gltf import meshopt

MODELS = ["AnimatedTriangle", "SimpleSkin", "BoxAnimated"]  # a filtered rotation each; indices; skins


@pytest.mark.parametrize("name", MODELS)
def test_meshopt_copy_of_a_shared_model(tmp_path, name):
    folder = cm.KHRONOS / name
    if not folder.is_dir():
        pytest.skip(f"shared model {name} is not present")
    src = cm.model_file(folder)
    out, stats = cm.compress_meshopt_file(src, tmp_path)
    assert stats["views"] and stats["rotations"] >= 1
    header = out.read_bytes()
    length = struct.unpack_from("<I", header, 12)[0]
    doc = json.loads(header[20 : 20 + length])
    assert cm.MESHOPT in doc["extensionsUsed"] and cm.MESHOPT in doc["extensionsRequired"]
    assert doc["buffers"][1] == {
        "byteLength": doc["buffers"][1]["byteLength"],
        "extensions": {cm.MESHOPT: {"fallback": True}},
    }  # a placeholder, no uri
    modes = {
        (ext["mode"], ext.get("filter", "NONE"))
        for ext in (meshopt.compression(view)[1] for view in doc["bufferViews"] if meshopt.compression(view))
    }
    assert ("ATTRIBUTES", "QUATERNION") in modes and ("ATTRIBUTES", "NONE") in modes
    if "meshes" in doc and name != "AnimatedTriangle":
        assert modes & {("TRIANGLES", "NONE"), ("INDICES", "NONE")}
    r = cm.check_meshopt(src, out, pictures=False)
    assert r["accessors_exact"]
    assert 0 < r["rotation_error"] <= cm.QUATERNION_TOLERANCE
    assert r["sample_error"] <= cm.QUATERNION_TOLERANCE


def test_draco_stays_the_default(tmp_path, capsys):
    pytest.importorskip("DracoPy")
    folder = cm.KHRONOS / "SimpleSkin"
    if not folder.is_dir():
        pytest.skip("shared model SimpleSkin is not present")
    assert cm.main([str(folder), "-o", str(tmp_path)]) == 0  # no flag: Draco, as before
    assert "of Draco" in capsys.readouterr().out
    text = (tmp_path / "SimpleSkin.glb").read_bytes()
    assert b"KHR_draco_mesh_compression" in text and cm.MESHOPT.encode() not in text
    with pytest.raises(SystemExit):
        cm.main(["--draco", "--meshopt"])  # one kind at a time
