"""Babylon.js 9 (``@babylonjs/core`` 9.35 / ``@babylonjs/loaders`` 9.28) with the glTF loader's AnimationGroup
started looping, as the loader does. The loader pads every channel to the group's range with copies of its
first and last keys — tangents included, so CUBICSPLINE channels move where the spec holds them
(``docs/engines_sources.md`` §2)."""

from viewer.engines.engine import Behaviour, Engine

ENGINE = Engine(
    "babylon",
    "Babylon.js",
    "9.28 (run; core sources read at 9.35)",
    "the loader's AnimationGroup, normalize(0), start(true): looping at the loader's 60 fps",
    (
        Behaviour(
            "lead-in",
            "@babylonjs/core@9.35.0 packages/dev/core/src/Animations/animationGroup.pure.ts:normalize",
            "a channel whose first key is after 0 gets a copy of that key (value and tangents) at frame 0",
        ),
        Behaviour(
            "tail",
            "@babylonjs/core@9.35.0 packages/dev/core/src/Animations/animationGroup.pure.ts:normalize",
            "a channel that ends before the group gets a copy of its last key (value and tangents) at the end",
        ),
        Behaviour(
            "end-of-loop",
            "@babylonjs/core@9.35.0 packages/dev/core/src/Animations/runtimeAnimation.ts:animate",
            "looping: frame = from + absolute frame mod (to - from): at t == duration the first pose shows",
        ),
        Behaviour(
            "rotation-lerp",
            "@babylonjs/core@9.35.0 packages/dev/core/src/Maths/math.vector.pure.ts:Quaternion.SlerpToRef",
            "LINEAR rotations lerp (not renormalized) where the keys' |dot| > 0.999999, slerp below",
        ),
    ),
    lead_in="pad",
    pad_tail=True,
    end="first",
    raw_keys="acos",
    lerp_above=0.999999,
    lerp_renormalized=False,
)
