"""KTX2 textures gone wrong: a KHR_texture_basisu image whose bytes are cut, flipped or whose header lies.

The transcoder (``opengl_basisu``) is C++ fed straight from the file; these give it truncated level data, a
header claiming huge sizes or level counts, and random bytes after a valid magic, on the base colour of the
seed's first material (one is made when the seed has none). The viewer must warn at the texture and draw on.
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

KTX2 = Path(__file__).resolve().parents[1] / "data" / "ktx2" / "uastc_srgb.ktx2"
HEADER = {"pixelWidth": 20, "pixelHeight": 24, "layerCount": 32, "faceCount": 36, "levelCount": 40}


def broken_ktx2(rng: random.Random, m) -> str | None:
    if m.bin is None or not isinstance(m.doc.get("meshes"), list) or not m.doc["meshes"]:
        return None
    data = bytearray(KTX2.read_bytes())
    how = rng.choice(["truncate", "flip", "header", "garbage"])
    if how == "truncate":
        data = data[: rng.randrange(12, len(data))]
    elif how == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(12, len(data))] ^= 1 << rng.randrange(8)
    elif how == "header":
        field = rng.choice(sorted(HEADER))
        value = rng.choice([0, 1, 7, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF])
        struct.pack_into("<I", data, HEADER[field], value)
        how = f"header {field}={value}"
    else:
        data = data[:12] + bytearray(rng.randbytes(rng.randint(0, 300)))
    m.bin.extend(b"\0" * (-len(m.bin) % 4))
    view = len(m.doc.setdefault("bufferViews", []))
    m.doc["bufferViews"].append({"buffer": 0, "byteOffset": len(m.bin), "byteLength": len(data)})
    m.bin.extend(data)
    buffers = m.doc.get("buffers")
    if isinstance(buffers, list) and buffers and isinstance(buffers[0], dict):
        buffers[0]["byteLength"] = len(m.bin)
    image = len(m.doc.setdefault("images", []))
    m.doc["images"].append({"bufferView": view, "mimeType": "image/ktx2"})
    texture = len(m.doc.setdefault("textures", []))
    m.doc["textures"].append({"extensions": {"KHR_texture_basisu": {"source": image}}})
    materials = m.doc.setdefault("materials", [])
    if not materials:
        materials.append({})
    if isinstance(materials[0], dict):
        materials[0].setdefault("pbrMetallicRoughness", {})["baseColorTexture"] = {"index": texture}
    for prim in m.doc["meshes"][0].get("primitives", []) if isinstance(m.doc["meshes"][0], dict) else []:
        if isinstance(prim, dict):
            prim.setdefault("material", 0)
    used = m.doc.setdefault("extensionsUsed", [])
    if isinstance(used, list) and "KHR_texture_basisu" not in used:
        used.append("KHR_texture_basisu")
    return f"KTX2 base colour texture {texture}: {how}"
