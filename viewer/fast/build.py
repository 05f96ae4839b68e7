"""``python -m viewer.fast.build``: compile every kernel into numba's on-disk cache (run by
``viewer.fast`` in a child process, so the viewer's own process only loads the result)."""

from viewer.fast.warm import compile_all

if __name__ == "__main__":
    compile_all()
