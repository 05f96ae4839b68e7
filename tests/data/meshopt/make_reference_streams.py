"""Write ``reference_streams.npz``: small streams made by meshoptimizer's own encoder (the C library, through
its Python binding ``pip install --pre meshoptimizer``, which needs a C++ compiler), so the tests check
``viewer/gltf/meshopt.py`` against the reference encoder without depending on it.

Run from anywhere: ``python tests/data/meshopt/make_reference_streams.py``. The arrays are seeded, so the
file only changes when the library's encoder does.

Contents (``name``: array):
    vertices: (300, 16) uint8 elements: uint16 positions + pad, int8 normal + w, uint16 uv (smooth data);
    vertex_v0, vertex_v1: their ATTRIBUTES streams (headers 0xa0, 0xa1; v1 at the library's default level);
    triangles: (297,) uint32, a 7×7-quad grid in a shuffled triangle order, with a repeated first triangle;
    triangles_v0, triangles_v1: their TRIANGLES streams (0xe0, 0xe1);
    triangles_decoded: what the library decodes from them (the same triangles, some rotated);
    sequence: (200,) uint32 line-list indices; sequence_v1: its INDICES stream (0xd1).
"""

from pathlib import Path

import meshoptimizer as mo
import numpy as np

rng = np.random.default_rng(2024)
t = np.linspace(0, 4 * np.pi, 300)
positions = np.stack([np.cos(t) * 20000 + 30000, np.sin(t) * 20000 + 30000, t * 4000, np.zeros_like(t)], 1)
normals = np.stack([np.cos(t) * 127, np.sin(t) * 127, np.zeros_like(t), np.full_like(t, 127)], 1)
uv = np.stack([t * 5000 % 65535, (np.sin(t * 3) + 1) * 30000], 1)
vertices = np.concatenate(
    [positions.astype("<u2").view(np.uint8), normals.astype(np.int8).view(np.uint8), uv.astype("<u2").view(np.uint8)],
    axis=1,
)
streams = {"vertices": vertices}
for version in (0, 1):
    mo.encode_vertex_version(version)
    streams[f"vertex_v{version}"] = np.frombuffer(mo.encode_vertex_buffer(vertices, 300, 16), np.uint8)

n = 8
quads = (np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]).ravel()
tris = np.stack([quads, quads + 1, quads + n, quads + 1, quads + n + 1, quads + n], axis=1).reshape(-1, 3)
rng.shuffle(tris[10:])
triangles = np.concatenate([tris.ravel(), tris[0]]).astype(np.uint32)
streams["triangles"] = triangles
for version in (0, 1):
    mo.encode_index_version(version)
    streams[f"triangles_v{version}"] = np.frombuffer(mo.encode_index_buffer(triangles, len(triangles), n * n), np.uint8)
streams["triangles_decoded"] = mo.decode_index_buffer(len(triangles), 4, streams["triangles_v1"].tobytes())

sequence = np.stack([np.arange(100), np.arange(100) + 50], 1).ravel().astype(np.uint32)
mo.encode_index_version(1)
streams["sequence"] = sequence
streams["sequence_v1"] = np.frombuffer(mo.encode_index_sequence(sequence, len(sequence), 150), np.uint8)

np.savez_compressed(Path(__file__).with_name("reference_streams.npz"), **streams)
