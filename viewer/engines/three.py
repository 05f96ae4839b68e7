"""three.js r187 (npm ``three`` 0.187.0) with GLTFLoader and an AnimationMixer playing the clip's action at its
defaults (LoopRepeat). Its sampling is the spec's but for the loop and a normalized lerp for close rotation
keys; read in the npm release's sources (``docs/engines_sources.md`` §1)."""

from viewer.engines.engine import Behaviour, Engine

ENGINE = Engine(
    "three",
    "three.js",
    "r187 (npm three 0.187.0)",
    "AnimationMixer.clipAction(clip).play(): LoopRepeat, repetitions Infinity; mixer.setTime(t)",
    (
        Behaviour(
            "end-of-loop",
            "three@0.187.0 src/animation/AnimationAction.js:_updateTime",
            "LoopRepeat wraps when time >= duration: at t == duration the first pose shows",
        ),
        Behaviour(
            "rotation-lerp",
            "three@0.187.0 src/math/Quaternion.js:slerpFlat",
            "LINEAR rotations lerp and normalize where the keys' dot product is >= 0.9995, slerp below",
        ),
    ),
    end="first",
    raw_keys="acos-hold-equal",
    lerp_above=0.9995 - 1e-12,  # ">= 0.9995": the sampler's test is "above"
)
