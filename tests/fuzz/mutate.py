"""Case k of a campaign: a seed file, 1–3 mutations, and the bytes to write — all from (seed, k).

Everything is drawn from ``random.Random(f"{seed}/{k}")``, in a fixed order, so a case's files can be made
again from its numbers alone (``python -m tests.fuzz --seed S --index K`` does it). Mutations come in
three stages, applied in this order whatever order they were drawn in:

  * ``doc``: the JSON and the buffer 0 bytes as data (``mutate_json``, ``mutate_graph``, ``mutate_data``,
    and the float / truncation edits of ``mutate_bytes``);
  * serialization to .gltf + .bin, an embedded .gltf (data: URI) or a .glb;
  * ``file``: raw bytes of the written files (``mutate_bytes``: truncation, GLB header and chunk lies,
    bit flips), so the container parsing is attacked too.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import random
import shutil
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tests.fuzz import mutate_bytes, mutate_data, mutate_graph, mutate_image, mutate_json
from tests.fuzz.seeds import Seed

MAIN = {"gltf": "model.gltf", "embedded": "model.gltf", "glb": "model.glb"}
BIN_NAME = "model.bin"


@dataclass
class Mutant:
    """A seed being mutated, then its files.

    Attributes:
        container: "gltf" (+ model.bin), "embedded" (data: URI) or "glb".
        files: name → bytes once serialized; ``bin_at``: where buffer 0's bytes start in each file.
        fifos: names of FIFOs to make in the case folder (a URI may name one).
        injected_nonfinite: a mutation planted NaN or ±inf in the binary data, so non-finite output is
            the input's doing, not the viewer's.
    """

    seed: str
    doc: dict
    bin: bytearray | None
    container: str
    extras: dict[str, Path]
    fifos: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    bin_at: dict[str, int] = field(default_factory=dict)
    descriptions: list[str] = field(default_factory=list)
    injected_nonfinite: bool = False

    @property
    def main(self) -> str:
        return MAIN[self.container]


Mutation = Callable[[random.Random, Mutant], "str | None"]  # a description, or None: not applicable here

# (name, weight, stage, function); weights favour the JSON, where most of the loader's rules live
MUTATIONS: list[tuple[str, float, str, Mutation]] = [
    ("number", 6, "doc", mutate_json.replace_number),
    ("wrong_type", 3, "doc", mutate_json.wrong_type),
    ("delete_key", 4, "doc", mutate_json.delete_key),
    ("bad_index", 5, "doc", mutate_json.bad_index),
    ("extras", 1, "doc", mutate_json.extras_not_object),
    ("cycle", 2, "doc", mutate_graph.node_cycle),
    ("long_chain", 1, "doc", mutate_graph.long_chain),
    ("many_nodes", 1, "doc", mutate_graph.many_nodes),
    ("count", 2, "doc", mutate_data.huge_count),
    ("sparse", 2, "doc", mutate_data.sparse_lie),
    ("view_lie", 3, "doc", mutate_data.view_lie),
    ("rest_trs", 4, "doc", mutate_data.huge_rest_trs),
    ("key_times", 4, "doc", mutate_data.key_times),
    ("interpolation", 1, "doc", mutate_data.interpolation_name),
    ("uri", 2, "doc", mutate_data.bad_uri),
    ("ktx2", 2, "doc", mutate_image.broken_ktx2),
    ("floats", 4, "doc", mutate_bytes.overwrite_floats),
    ("truncate_bin", 1, "doc", mutate_bytes.truncate_bin),
    ("truncate_file", 1, "file", mutate_bytes.truncate_file),
    ("glb_header", 2, "file", mutate_bytes.glb_lie),
    ("bit_flips", 2, "file", mutate_bytes.bit_flips),
]


def make_mutant(seeds: list[Seed], seed: int, index: int) -> Mutant:
    """Case ``index`` of campaign ``seed``: pick a seed file and container, apply 1–3 mutations, serialize."""
    rng = random.Random(f"{seed}/{index}")  # not seed + index: campaigns 1 and 2 would share 9 999 cases
    base = seeds[rng.randrange(len(seeds))]
    container = _container(rng, base)
    m = Mutant(
        base.name,
        copy.deepcopy(base.doc),
        None if base.bin is None else bytearray(base.bin),
        container,
        dict(base.extras),
    )
    names = [n for n, *_ in MUTATIONS]
    weights = [0 if n.startswith("glb_") and container != "glb" else w for n, w, *_ in MUTATIONS]
    count = rng.choices([1, 2, 3], [5, 3, 2])[0]  # one most often: a single one usually gets the file refused
    chosen = [MUTATIONS[names.index(n)] for n in rng.choices(names, weights, k=count)]
    for stage in ("doc", "file"):
        if stage == "file":
            serialize(m)
        for name, _, s, fn in chosen:
            if s == stage:
                m.descriptions.append(f"{name}: {fn(rng, m) or 'not applicable, skipped'}")
    return m


def _container(rng: random.Random, base: Seed) -> str:
    if base.bin is None:
        return "glb" if rng.random() < 0.2 else "gltf"
    if base.glb:
        return rng.choices(["glb", "gltf", "embedded"], [8, 1, 1])[0]
    return rng.choices(["gltf", "embedded", "glb"], [6, 2, 2])[0]


def serialize(m: Mutant) -> None:
    """Fill ``m.files``: buffer 0 gets its uri (unless a mutation already set one) or becomes the BIN chunk."""
    doc = m.doc
    buffers = doc.get("buffers") if isinstance(doc.get("buffers"), list) else []
    buf0 = buffers[0] if buffers and isinstance(buffers[0], dict) else None
    data = bytes(m.bin) if m.bin is not None else None
    if m.container == "glb":
        text = json.dumps(doc).encode()
        text += b" " * (-len(text) % 4)
        body = struct.pack("<II", len(text), 0x4E4F534A) + text
        if data is not None:
            m.bin_at[m.main] = 12 + len(body) + 8
            padded = data + b"\0" * (-len(data) % 4)
            body += struct.pack("<II", len(padded), 0x004E4942) + padded
        m.files[m.main] = b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body
        return
    if data is not None and buf0 is not None and "uri" not in buf0:
        if m.container == "embedded":
            buf0["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
        else:
            buf0["uri"] = BIN_NAME
    if data is not None and m.container == "gltf":
        m.files[BIN_NAME] = data
        m.bin_at[BIN_NAME] = 0
    m.files[m.main] = json.dumps(doc).encode()


def write_case(m: Mutant, directory: Path) -> Path:
    """Write the mutant's files, copy the extra files it needs, make its FIFOs; return the main file."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, source in m.extras.items():
        if name not in m.files and not (directory / name).exists():
            shutil.copyfile(source, directory / name)  # a copy: the loader refuses links that leave the folder
    for name, data in m.files.items():
        (directory / name).write_bytes(data)
    for name in m.fifos:
        if not os.path.lexists(directory / name):
            os.mkfifo(directory / name)
    return directory / m.main
