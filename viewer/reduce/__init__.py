"""``animview reduce``: the fewest bytes of animation whose world-space error stays under a bound you choose.

Pure numpy (the core: no GL). ``levers`` finds what each node moves, ``budget`` turns the world bound into
each channel's tolerance, ``fit`` and ``channels`` choose the fewest keys and the cheapest sampler per
channel, ``measure`` poses the result against the original, ``clips`` loops until no node is over, and
``file`` writes the copy, reads it back and checks it with ``animview diff``.
"""
