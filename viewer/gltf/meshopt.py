"""EXT_meshopt_compression and KHR_meshopt_compression: bufferViews stored compressed.

A compressed bufferView carries, in its extension object, where the compressed bytes are (``buffer``,
``byteOffset``, ``byteLength``), how many elements of how many bytes they decode to (``count``,
``byteStride``), the codec (``mode``: ATTRIBUTES, TRIANGLES or INDICES) and a filter applied after the
ATTRIBUTES codec (``filter``: NONE, OCTAHEDRAL, QUATERNION, EXPONENTIAL, COLOR). The decoded bytes are the
bufferView's contents: ``count × byteStride`` bytes, which must equal the bufferView's ``byteLength``; its
accessors read them as usual (``AccessorReader.view_bytes`` decodes once and caches).

The bufferView's own ``buffer`` may be a *fallback* buffer: uncompressed copies for readers without the
extension, or a placeholder with no data at all (no uri, optionally tagged
``extensions.<name>.fallback: true``). Such a buffer is never read (``check_extensions`` names the buffers
to skip); a tagged one that an uncompressed bufferView or a compressed stream names is an error.

The bitstreams are decoded in ``meshopt_codecs`` and the filters applied in ``meshopt_filters`` (the decoders
are re-exported here, imported on first use: a file without compressed views never loads them), with numpy;
files with megabytes of compressed data go through the same codecs compiled (``meshopt_compiled``, numba,
loaded only then), which ``decode`` and ``decode_many`` choose.

Like meshoptimizer's own decoder (which three.js and Babylon use for both names), version 1 vertex data
and the COLOR filter are read under either extension name. Malformed data raises ``ValueError`` there,
which the reader turns into a ``GltfError`` at the bufferView's extension; the sizes are checked here
before anything is allocated from a count.
"""

from __future__ import annotations

from pathlib import Path

from viewer.base.errors import GltfError, pointer

CODECS = (
    "FILTERS",
    "FILTER_FUNCTIONS",
    "MODES",
    "decode_index_buffer",
    "decode_index_sequence",
    "decode_vertex_buffer",
)  # meshopt_codecs' names, re-exported on first use (``__getattr__``)
__all__ = [
    "EXTENSIONS",
    "check_extensions",
    "compressed_views",
    "compression",
    "decode",
    "decode_many",
    "drop_compression",
    *CODECS,
]

EXTENSIONS = ("EXT_meshopt_compression", "KHR_meshopt_compression")
# Decoded sizes are claims (a placeholder buffer has no bytes, and a few compressed bytes can stand for a
# kilobyte), so they are bounded before anything is decoded: per bufferView as an accessor is, and per file.
MAX_DECODED_BYTES = 512 * 1024 * 1024
MAX_DECODED_TOTAL = 1024 * 1024 * 1024


def __getattr__(name: str):
    if name in CODECS:
        from viewer.gltf import meshopt_codecs

        return getattr(meshopt_codecs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def decode(mode: str, filter_name: str, count: int, stride: int, data: bytes | memoryview):
    """One compressed bufferView's bytes (flat uint8): compiled when ``meshopt_compiled`` is in use, else
    numpy (``meshopt_codecs.decode``, the reference); the same bytes, or the same ``ValueError``, either way."""
    from viewer.gltf import meshopt_compiled

    return meshopt_compiled.decode(mode, filter_name, count, stride, data)


def decode_many(jobs: list[tuple[str, str, int, int, bytes | memoryview]]) -> list:
    """Many compressed bufferViews ``(mode, filter, count, byteStride, data)`` at once: each one's bytes or the
    ``ValueError`` it raises. A file's worth of megabytes loads the compiled decoder and shares the views among
    the cores (``meshopt_compiled.decode_many``)."""
    from viewer.gltf import meshopt_compiled

    return meshopt_compiled.decode_many(jobs)


# -- the glTF side -------------------------------------------------------------------------------------


def compression(view: dict) -> tuple[str, dict] | None:
    """``(extension name, extension object)`` of a compressed bufferView, None for a plain one."""
    extensions = view.get("extensions")
    if extensions:
        for name in EXTENSIONS:
            if name in extensions:
                return name, extensions[name]
    return None


def compressed_views(raw: dict) -> list[int]:
    """Indices of the compressed bufferViews, in file order."""
    return [v for v, view in enumerate(raw.get("bufferViews", [])) if compression(view) is not None]


def drop_compression(doc: dict) -> None:
    """Take the meshopt extensions out of glTF JSON ``doc`` (in place), for a copy whose bufferViews hold
    their decoded bytes (``Document.buffer_view_bytes``): the views' and buffers' extension objects and the
    names in ``extensionsUsed`` / ``extensionsRequired``."""
    for item in doc.get("bufferViews", []) + doc.get("buffers", []):
        extensions = item.get("extensions")
        if extensions:
            for name in EXTENSIONS:
                extensions.pop(name, None)
            if not extensions:
                del item["extensions"]
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in doc:
            doc[key] = [name for name in doc[key] if name not in EXTENSIONS]
            if not doc[key]:
                del doc[key]


def check_extensions(raw: dict, file: Path) -> frozenset[int]:
    """Check every meshopt extension object and fallback buffer; return the buffers never to read.

    Runs after ``check_structure`` (every bufferView's ``buffer`` is an index in range) and before buffers
    are loaded. A buffer is not read when it is tagged ``fallback`` or when only compressed bufferViews
    name it as their ``buffer`` (their bytes come from elsewhere).

    Raises:
        GltfError: a malformed extension object, sizes that do not agree, or a fallback buffer that
            something would read.
    """
    buffers = raw.get("buffers", [])
    fallback: set[int] = set()
    for k, buffer in enumerate(buffers):
        for name in EXTENSIONS:
            ext = (buffer.get("extensions") or {}).get(name)
            if ext is None:
                continue
            flag = ext.get("fallback", False)
            if not isinstance(flag, bool):
                raise GltfError(
                    file,
                    pointer("buffers", k, "extensions", name, "fallback"),
                    f"fallback must be a boolean, got {flag!r:.40}",
                )
            if flag:
                fallback.add(k)
    read: set[int] = set()
    parents: set[int] = set()
    total = 0
    for v, view in enumerate(raw.get("bufferViews", [])):
        found = compression(view)
        if found is None:
            if view["buffer"] in fallback:
                raise GltfError(
                    file,
                    pointer("bufferViews", v, "buffer"),
                    f"bufferView {v} is not compressed but reads buffer {view['buffer']}, a meshopt "
                    "fallback buffer, which holds no data to read",
                )
            read.add(view["buffer"])
            continue
        name, ext = found
        _check_view(raw, v, view, name, ext, file)
        if ext["buffer"] in fallback:
            raise GltfError(
                file,
                pointer("bufferViews", v, "extensions", name, "buffer"),
                f"the compressed data cannot come from buffer {ext['buffer']}: it is a fallback buffer",
            )
        read.add(ext["buffer"])
        parents.add(view["buffer"])
        total += view["byteLength"]
        if total > MAX_DECODED_TOTAL:
            raise GltfError(
                file,
                pointer("bufferViews", v, "extensions", name, "count"),
                f"the compressed bufferViews up to {v} decode to {total} bytes, over the "
                f"{MAX_DECODED_TOTAL} byte limit for one file",
            )
    return frozenset(fallback | (parents - read))


def _check_view(raw: dict, v: int, view: dict, name: str, ext: dict, file: Path) -> None:
    """One bufferView's extension object: types, enums, the rules between mode, filter and stride, sizes."""
    at = ("bufferViews", v, "extensions", name)
    if all(n in view["extensions"] for n in EXTENSIONS):
        raise GltfError(
            file,
            pointer("bufferViews", v, "extensions"),
            f"bufferView {v} has both {EXTENSIONS[0]} and {EXTENSIONS[1]}; it may have only one",
        )

    def fail(key: str | None, message: str) -> None:
        raise GltfError(file, pointer(*at, key) if key else pointer(*at), message)

    def integer(key: str, default: int | None = None, minimum: int = 0) -> int:
        if key not in ext:
            if default is None:
                fail(key, f"required property {key} is missing")
            return default  # type: ignore[return-value]
        value = ext[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            fail(key, f"{key} must be an integer >= {minimum}, got {value!r:.40}")
        return value

    def choice(key: str, options: tuple[str, ...], default: str | None = None) -> str:
        value = ext.get(key, default)
        if value is None:
            fail(key, f"required property {key} is missing")
        if value not in options:
            fail(key, f"{key} {value!r:.40} is not one of {', '.join(options)}")
        return value  # type: ignore[return-value]

    from viewer.gltf.meshopt_codecs import FILTERS, MODES

    buffers = raw.get("buffers", [])
    buffer = integer("buffer")
    if buffer >= len(buffers):
        fail("buffer", f"buffer {buffer} is out of range: the file has {len(buffers)} buffers")
    offset, length = integer("byteOffset", 0), integer("byteLength", minimum=1)
    stride, count = integer("byteStride", minimum=1), integer("count", minimum=1)
    mode, filt = choice("mode", MODES), choice("filter", FILTERS, "NONE")
    if mode == "ATTRIBUTES" and (stride % 4 or stride > 256):
        fail("byteStride", f"an ATTRIBUTES byteStride must be a multiple of 4 from 4 to 256, got {stride}")
    if mode != "ATTRIBUTES":
        if stride not in (2, 4):
            fail("byteStride", f"a {mode} byteStride must be 2 or 4, got {stride}")
        if filt != "NONE":
            fail("filter", f"a {mode} stream takes no filter, got {filt}")
    if mode == "TRIANGLES" and count % 3:
        fail("count", f"a TRIANGLES count must be a multiple of 3, got {count}")
    allowed = {"OCTAHEDRAL": (4, 8), "QUATERNION": (8,), "COLOR": (4, 8)}.get(filt)
    if allowed and stride not in allowed:
        fail("byteStride", f"the {filt} filter needs a byteStride of {' or '.join(map(str, allowed))}, got {stride}")
    decoded = stride * count
    if decoded > MAX_DECODED_BYTES:
        fail(
            "count",
            f"count {count} × byteStride {stride} = {decoded} bytes is over the {MAX_DECODED_BYTES} "
            "byte limit for one decoded bufferView",
        )
    if decoded != view["byteLength"]:
        fail(
            "count",
            f"count {count} × byteStride {stride} = {decoded} bytes but bufferView {v} byteLength is "
            f"{view['byteLength']}",
        )
    if name == EXTENSIONS[0] and view.get("byteStride", stride) != stride:
        raise GltfError(
            file,
            pointer("bufferViews", v, "byteStride"),
            f"bufferView {v} byteStride {view['byteStride']} differs from its {name} byteStride {stride}",
        )
    available = buffers[buffer]["byteLength"]
    if offset + length > available:
        fail(
            "byteLength",
            f"the compressed data ends at byte {offset + length} (byteOffset {offset} + byteLength "
            f"{length}) but buffer {buffer} has {available}",
        )
