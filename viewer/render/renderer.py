"""One frame of a posed scene into a framebuffer: the same code for the window and for offscreen export.

``Renderer(ctx, scene)`` uploads everything once (primitives, textures, morph deltas, the joint texture; the
grid when ``set_ground`` places it or the first frame needs it). ``render(pose, camera, framebuffer, options)``
then draws the pose as it is — the renderer never decides time: per frame it only writes uniforms, the joint
texture and the morph weights (or runs the morph pass of a heavily morphed primitive with them, ``morph.py``).
Order (glTF 2.0 §3.9.4, ``draw_order.py``): OPAQUE and MASK primitives, the ground grid, then BLEND primitives
back to front with depth writes off, then the axis gizmo on top. Primitives shown by many nodes are drawn
instanced, a few draws for all their nodes (``instancing.py``); the rest one draw per item. A KHR_materials_variants
variant (``RenderOptions.variant``) only changes which uploaded material each primitive reads (``gpu_mesh.py``).

Numbers the GPU cannot take are kept from it (``limits.py``): a mesh node whose world matrix (or, when
skinned, any of its skin's joint matrices) is not float32-finite is not drawn that frame — decided by
one vectorized test over all nodes per frame; a camera whose matrices are not finite draws nothing but
the background. The core warns about such nodes; the renderer only stays out of their way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import moderngl
import numpy as np

from viewer.base import math3d
from viewer.pose.bounds import pose_bounds
from viewer.pose.pose import Pose
from viewer.render.animated_material import material_uniforms
from viewer.render.backdrop import SceneCopy, draw_background
from viewer.render.draw_order import DrawItem, pass_of, view_depths
from viewer.render.environment import Environment
from viewer.render.gpu_mesh import UNIT_JOINTS, GpuScene
from viewer.render.grid import Overlays
from viewer.render.instancing import Instancing, morph_weights
from viewer.render.lighting import file_lights, studio_lights, uses_file_lights
from viewer.render.limits import camera_drawable, normal_matrix
from viewer.render.look import TONEMAPS, Look, eye_uniform
from viewer.render.shaders import ProgramCache, active_uniforms, set_uniform
from viewer.render.skinning import JointTexture
from viewer.scene.scene import Scene


@dataclass
class RenderOptions:
    """What to draw besides the scene, and how.

    Attributes:
        background: clear colour, sRGB (0..1 each), as it appears in the picture.
        grid: draw the ground grid.
        axes: draw the axis gizmo.
        point_size: pixels, for POINTS primitives.
        debug_vertex_ids: draw every vertex as a 1-pixel point whose colour encodes (vertex index + 1) in RGB
            and (draw number + 1) in alpha, on a zero background; no grid, gizmo, lighting or blending.
            Same vertex shader as the picture: the tests compare these pixels with ``pose.primitive_positions``.
        look: lights, environment, exposure and tone mapping.
        variant: the KHR_materials_variants variant whose materials are drawn (None: each primitive's own; an
            index the file lacks — B in the compare view may have fewer — too).
    """

    background: tuple[float, float, float] = (0.16, 0.17, 0.19)
    grid: bool = True
    axes: bool = True
    point_size: float = 3.0
    debug_vertex_ids: bool = False
    look: Look = field(default_factory=Look)
    variant: int | None = None


class Renderer:
    """GPU resources of one scene on one context, and the passes that draw a frame."""

    def __init__(self, ctx: moderngl.Context, scene: Scene, programs: ProgramCache | None = None) -> None:
        self.ctx = ctx
        self.scene = scene
        self.programs = programs or ProgramCache(ctx)
        self.gpu = GpuScene(ctx, self.programs, scene)
        self.environment = Environment.shared(self.programs)
        self._scene_copy = SceneCopy(ctx)
        self.joints = JointTexture(ctx, scene)
        self.items = self._draw_items()
        self.instancing = Instancing(ctx, self.items)  # decides once which items are drawn as instances
        self._overlays: Overlays | None = None  # made by set_ground, or at the first frame that needs it
        self.ground: tuple[np.ndarray, np.ndarray] | None = None
        self._uniforms: dict[int, dict[str, moderngl.Uniform]] = {}
        self._updated: set[int] = set()  # programs whose per-frame uniforms are set for this frame
        self._view_proj = np.eye(4)
        self._proj = np.eye(4)

    def _draw_items(self) -> list[DrawItem]:
        """(node, primitive) pairs of the displayed scene (nodes under ``scene.roots``), in node order."""
        nodes = self.scene.nodes
        shown = self.scene.shown
        items = []
        for node in np.flatnonzero((nodes.mesh >= 0) & shown):
            skin = int(nodes.skin[node])
            for prim in self.gpu.meshes[nodes.mesh[node]]:
                items.append(DrawItem(int(node), prim, skin if prim.skinned else -1))
        return items

    def set_ground(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """Place the ground grid under the bounds [lo, hi] (call with a whole clip's bounds); kept in ``ground``
        so a second file's panes stand on the same grid."""
        self.ground = (lo, hi)
        if self._overlays is None:
            self._overlays = Overlays(self.ctx, self.programs, lo, hi)
        else:
            self._overlays.set_ground(lo, hi)

    @property
    def overlays(self) -> Overlays:
        """The grid and gizmo; a renderer never given a ground puts the grid under the rest pose. Made on
        first use: the callers that set a clip's ground (every one but tests) skip bounding the rest pose,
        which on a heavily morphed file costs as much as its upload."""
        if self._overlays is None:
            self.set_ground(*pose_bounds(Pose(self.scene)))
        return self._overlays

    def _program_uniforms(self, prog: moderngl.Program, frame: dict) -> dict[str, moderngl.Uniform]:
        """The active uniforms of a program (looked up once; set them with ``set_uniform``), with the
        frame's uniforms set on the program's first use this frame."""
        if prog.glo not in self._uniforms:
            self._uniforms[prog.glo] = active_uniforms(prog)
        u = self._uniforms[prog.glo]
        if prog.glo not in self._updated:
            self._updated.add(prog.glo)
            for name, value in frame.items():
                set_uniform(u, name, value)
        return u

    def render(
        self, pose: Pose, camera, framebuffer: moderngl.Framebuffer, options: RenderOptions | None = None
    ) -> None:
        """Draw ``pose`` seen by ``camera`` into ``framebuffer`` (cleared first).

        Args:
            pose: node matrices and morph weights, already set for the frame's time.
            camera: anything with ``matrices(pose, aspect) -> (view, projection)`` (see ``camera.py``).
            framebuffer: target; its viewport sets the aspect ratio.
            options: overlays, background, debug output.
        """
        opts = options or RenderOptions()
        self.use_variant(opts.variant)
        ctx = self.ctx
        view, view_proj = self._camera(pose, camera, framebuffer)
        viewport = framebuffer.viewport
        debug = opts.debug_vertex_ids
        if debug:
            framebuffer.clear(0.0, 0.0, 0.0, 0.0, depth=1.0)
        else:
            framebuffer.clear(*opts.background, 1.0, depth=1.0)
        if not camera_drawable(view, view_proj):
            return
        frame = self._frame_uniforms(view, view_proj, pose, opts)
        self.environment.bind()
        if opts.look.env_background and not debug:
            draw_background(self.programs, view_proj, frame, opts.look)
        ctx.enable_only(moderngl.DEPTH_TEST)
        ctx.depth_func = "<"
        ctx.point_size = 1.0 if debug else opts.point_size
        items = self._drawable_items(pose, every=debug)  # picking numbers every item: no instancing
        self._view_proj = view_proj
        self._updated = set()
        opaque = [it for it in items if debug or pass_of(it.primitive.material) == "opaque"]
        if len(opaque) > 1 and not debug:
            # nearest first: later draws behind them fail the depth test before shading
            depth = view_depths(opaque, pose, view, self.scene)
            opaque = [opaque[i] for i in np.argsort(depth, kind="stable")[::-1]]
        for n, item in enumerate(opaque):
            self._draw(item, pose, frame, debug, n)
        if debug:
            return
        self.instancing.draw(pose, frame, self._program_uniforms)
        if opts.grid:
            self.overlays.draw_grid(view_proj)
        refracting = [it for it in items if pass_of(it.primitive.material) == "transmission"]
        if refracting:  # they see the opaque pass through themselves: copy it, then draw them far to near
            frame.update(self._scene_copy.capture(framebuffer))
            self._updated = set()  # the new frame uniforms reach every program at its next draw
            depth = view_depths(refracting, pose, view, self.scene)
            for i in np.argsort(depth, kind="stable"):
                self._draw(refracting[i], pose, frame, False, i)
        blend = [it for it in items if pass_of(it.primitive.material) == "blend"]
        if blend:
            depth = view_depths(blend, pose, view, self.scene)
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            framebuffer.depth_mask = False
            for i in np.argsort(depth, kind="stable"):  # most negative view z = farthest: first
                self._draw(blend[i], pose, frame, False, i)
            framebuffer.depth_mask = True
            ctx.disable(moderngl.BLEND)
        if opts.axes:
            ctx.disable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
            self.overlays.draw_gizmo(view, viewport)
        ctx.front_face = "ccw"

    def _camera(self, pose: Pose, camera, framebuffer: moderngl.Framebuffer) -> tuple[np.ndarray, np.ndarray]:
        """Bind ``framebuffer``; the camera's view and projection × view for its viewport's aspect (the
        projection is kept for ``eye_uniform``)."""
        framebuffer.use()
        viewport = framebuffer.viewport
        view, proj = camera.matrices(pose, viewport[2] / max(viewport[3], 1))
        self._proj = np.asarray(proj, np.float64)
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused by camera_drawable
            return view, proj @ view

    def render_ghost(
        self,
        pose: Pose,
        camera,
        framebuffer: moderngl.Framebuffer,
        opacity: float,
        options: RenderOptions | None = None,
    ) -> None:
        """Draw ``pose`` faded over what ``framebuffer`` already holds (no clear, no grid or gizmo).

        Depth-tested against the scene drawn before but writing no depth, so ghosts never hide each other
        or the live pose. Used for the mesh at each key time in the compare view.
        """
        ctx = self.ctx
        if options is not None:
            self.use_variant(options.variant)
        view, view_proj = self._camera(pose, camera, framebuffer)
        if not camera_drawable(view, view_proj):
            return
        items = self._drawable_items(pose)
        self._view_proj = view_proj
        frame = self._frame_uniforms(view, view_proj, pose, options or RenderOptions())
        frame["u_opacity"] = float(opacity)
        self.environment.bind()
        self._updated = set()
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        framebuffer.depth_mask = False
        try:
            for n, item in enumerate(items):
                self._draw(item, pose, frame, False, n)
            self.instancing.draw(pose, frame, self._program_uniforms)
        finally:
            framebuffer.depth_mask = True
            ctx.disable(moderngl.BLEND)
            ctx.front_face = "ccw"

    def use_variant(self, variant: int | None) -> None:
        """Draw ``variant``'s materials from now on (``GpuScene.use_variant``: nothing uploaded); the instanced
        groups are made again, as a variant's material may be BLEND or transmissive where the own one was not."""
        if variant != self.gpu.variant and self.gpu.use_variant(variant):
            self.instancing.release()
            self.instancing = Instancing(self.ctx, self.items)

    def _drawable_items(self, pose: Pose, every: bool = False) -> list[DrawItem]:
        """Upload this frame's joint matrices; the items whose matrices the GPU can take (``every``: instanced too)."""
        if self.joints.total:
            self.joints.update(pose)
            self.joints.texture.use(UNIT_JOINTS)
        items = self.items if every else self.instancing.single
        ok, shown = pose.drawable, pose.visible  # matrices that fit float32; KHR_node_visibility
        if ok.all() and self.joints.ok.all() and shown.all():
            return items
        return [it for it in items if shown[it.node] and (self.joints.ok[it.skin] if it.skin >= 0 else ok[it.node])]

    def _frame_uniforms(
        self, view: np.ndarray, view_proj: np.ndarray, pose: Pose, opts: RenderOptions
    ) -> dict[str, object]:
        """Uniforms shared by every draw of a frame: camera, lights, environment, exposure and tone mapping."""
        look = opts.look
        lights = file_lights(self.scene, pose) if uses_file_lights(self.scene, look.lights) else studio_lights(view)
        return {
            "u_view_proj": math3d.to_gl(view_proj),
            "u_eye": eye_uniform(view, self._proj),
            **lights,
            **self.environment.uniforms(look.env_intensity if look.environment else 0.0),
            "u_exposure": float(2.0**look.exposure),
            "u_tonemap": TONEMAPS[look.tonemap],
            "u_opacity": 1.0,
        }

    def _draw(self, item: DrawItem, pose: Pose, frame: dict, debug: bool, number: int) -> None:
        prim = item.primitive
        if not prim.count:
            return
        weights = morph_weights(pose, [item.node], prim.morph.count).tobytes() if prim.morph.count else None
        baked = weights is not None and prim.morph.bake(weights)
        prog, vao = prim.program_and_vao(item.skin >= 0, debug, baked=baked)
        u = self._program_uniforms(prog, frame)
        world = pose.world[item.node]
        mirrored = False
        if item.skin >= 0:
            set_uniform(u, "u_joint_offset", int(self.joints.offsets[item.skin]))
        else:
            set_uniform(u, "u_model", math3d.to_gl(world))
            normals, mirrored = normal_matrix(world[:3, :3])
            set_uniform(u, "u_normal_matrix", math3d.to_gl(normals))
        if weights is not None and not baked:
            set_uniform(u, "u_morph_weights", weights)
            set_uniform(u, "u_morph_vertex_count", prim.morph.vertex_count)
        if debug:
            set_uniform(u, "u_draw_id", number)
        else:
            for name, value in material_uniforms(prim.material, prim.material_index, pose):
                set_uniform(u, name, value)
        prim.bind_textures()
        if self._cull(item, pose, world, debug):
            self.ctx.enable(moderngl.CULL_FACE)
        else:
            self.ctx.disable(moderngl.CULL_FACE)
        # a mirroring world matrix flips the winding (glTF 2.0 §3.7.4); skinned meshes keep CCW
        self.ctx.front_face = "cw" if mirrored else "ccw"
        vao.render(moderngl.POINTS if debug else prim.mode, vertices=prim.count)

    def _cull(self, item: DrawItem, pose: Pose, world: np.ndarray, debug: bool) -> bool:
        """Cull back faces? Single-sided triangles: always (glTF 2.0 §3.9.5). Double-sided: only a closed,
        outward surface (``GpuPrimitive.closed``) lying wholly beyond the near plane, where no back face
        can show — not in wireframe, where hidden back edges would show."""
        prim = item.primitive
        if debug or prim.mode != moderngl.TRIANGLES:
            return False
        if not prim.material.double_sided:
            return True
        if not prim.closed or self.ctx.wireframe:
            return False
        lo, hi = prim.lo.astype(np.float64), prim.hi.astype(np.float64)
        if len(prim.delta_lo):  # conservative morphed bounds: each target moves the box by w·[lo, hi]
            w = np.zeros(len(prim.delta_lo))
            nw = pose.node_weights(item.node)[: len(w)]
            w[: len(nw)] = nw
            a, b = w[:, None] * prim.delta_lo, w[:, None] * prim.delta_hi
            lo, hi = lo + np.minimum(a, b).sum(axis=0), hi + np.maximum(a, b).sum(axis=0)
        corners = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        with np.errstate(over="ignore", invalid="ignore"):  # a huge node: NaN compares false, no culling
            clip = corners @ (self._view_proj @ world).T
            return bool((clip[:, 3] > 0.0).all() and (clip[:, 2] > -clip[:, 3]).all())

    def release(self) -> None:
        """Free every GPU resource of the scene (programs stay in the shared cache)."""
        self.gpu.release()
        self.instancing.release()
        self.joints.release()
        self._scene_copy.release()
        if self._overlays is not None:
            self._overlays.release()
