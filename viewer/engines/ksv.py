"""The Khronos glTF Sample Viewer (its engine, glTF-Sample-Renderer, ``source/gltf/interpolator.js`` at
7edd156a, the newest read). Its key search is left-continuous, so a STEP channel shows the old value at its
key's own time and never its last key, and an exact multiple of the duration shows the last pose
(``docs/engines_sources.md`` §4)."""

from viewer.engines.engine import Behaviour, Engine

SOURCE = "KhronosGroup/glTF-Sample-Renderer@7edd156a source/gltf/interpolator.js:interpolate"

ENGINE = Engine(
    name="ksv",
    title="Khronos glTF Sample Viewer",
    version="glTF-Sample-Renderer 7edd156a",
    player="the viewer's animation loop: t mod the clip's length, an exact multiple of it kept at the length",
    behaviours=(
        Behaviour("step-at-key", SOURCE, "the key search is (t_k-1, t_k]: at a STEP key's own time the old value"),
        Behaviour("step-last-key", SOURCE, "the previous key is at most N-2: a STEP channel never shows its last key"),
        Behaviour("end-of-loop", SOURCE, "t mod duration, 0 at t > 0 made the duration: t == duration shows the end"),
        Behaviour(
            "rotation-lerp",
            SOURCE + " (gl-matrix quat.slerp)",
            "LINEAR rotations: normalized keys lerped and renormalized where 1 - dot <= 1e-6, slerp below",
        ),
    ),
    step_at_key="old",
    step_last=False,
    end="last",
    lerp_above=1.0 - 1e-6,
)
