"""What ``animview bench`` measures: sampling and pose updates with the compiled kernels and with numpy
(``figures``), and the rendering figures (``render``), which run in a child process so their shaders are compiled
fresh, as for a user's first render, and the GL driver's memory stays out of the bench's peak."""
