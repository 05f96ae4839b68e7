"""GPU side of the viewer: upload a scene once, draw a posed frame into any framebuffer.

``Renderer(ctx, scene).render(pose, camera, framebuffer, RenderOptions())`` is the one frame path, used
by the window (moderngl-window's context) and by ``viewer.export`` (an EGL context) alike. Nothing
here makes a GL context, opens a window or decides what time it is.
"""
