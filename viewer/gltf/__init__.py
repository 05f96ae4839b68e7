"""glTF 2.0 files → a validated ``Document`` with numpy accessor data.

Usage::

    from viewer.gltf import load_document
    doc = load_document("Fox.glb")      # GltfError (file, JSON pointer, message) on any bad input
    times = doc.accessor(doc.gltf.animations[0].samplers[0].input)

Modules: ``document`` (loading, the ``Document``), ``glb`` (the binary container), ``resources``
(URIs, data: URIs, files), ``accessors`` (bytes → arrays), ``schema`` + ``validate*`` (all checks).
"""

from __future__ import annotations

from viewer.gltf.document import Document, load_document
from viewer.gltf.validate import SUPPORTED_EXTENSIONS

__all__ = ["Document", "SUPPORTED_EXTENSIONS", "load_document"]
