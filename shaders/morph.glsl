// Morph targets (glTF 2.0 §3.7.2.2): position = base + sum_k weight_k * delta_k; normals and tangents
// likewise (tangent deltas are xyz only: a target never changes the handedness w).
// Deltas of every target live in RGBA32F textures, each target's vertices in rows of the texture's width W,
// every target starting a new row: target k, vertex v at texel (v % W, k * rows + v / W), rows per target
// = ceil(u_morph_vertex_count / W). So the counts are limited only by the texture size, and the divisions
// happen once per vertex, not once per target (llvmpipe divides lane by lane). Vertices are the GPU's
// (after any tangent split: gl_VertexID). Weights (node weights over mesh weights) change per frame and
// come as a uniform array sized by the MORPH_TARGETS define.
#ifdef MORPH_TARGETS
uniform sampler2D u_morph_positions;
#ifdef MORPH_NORMALS
uniform sampler2D u_morph_normals;
#endif
#ifdef MORPH_TANGENTS
uniform sampler2D u_morph_tangents;
#endif
uniform float u_morph_weights[MORPH_TARGETS];
uniform int u_morph_vertex_count;

void apply_morph(int vertex, inout vec3 position, inout vec3 normal, inout vec3 tangent) {
    int width = textureSize(u_morph_positions, 0).x;
    int rows = (u_morph_vertex_count + width - 1) / width;
    ivec2 texel = ivec2(vertex % width, vertex / width);
    for (int k = 0; k < MORPH_TARGETS; ++k, texel.y += rows) {
        float w = u_morph_weights[k];
        if (w == 0.0) continue;
        position += w * texelFetch(u_morph_positions, texel, 0).xyz;
#ifdef MORPH_NORMALS
        normal += w * texelFetch(u_morph_normals, texel, 0).xyz;
#endif
#ifdef MORPH_TANGENTS
        tangent += w * texelFetch(u_morph_tangents, texel, 0).xyz;
#endif
    }
}

#ifdef MORPH_PASS
// The morph pass (viewer/render/morph.py): every vertex morphed once, captured by transform feedback into
// buffers the mesh program reads as its in_position / in_normal / in_tangent (no MORPH_TARGETS there).
in vec3 in_position;
out vec3 out_position;
#ifdef HAS_NORMAL
in vec3 in_normal;
out vec3 out_normal;
#endif
#ifdef HAS_TANGENT
in vec4 in_tangent;
out vec4 out_tangent;
#endif

void main() {
    vec3 position = in_position;
    vec3 normal = vec3(0.0, 0.0, 1.0);
    vec3 tangent = vec3(1.0, 0.0, 0.0);
#ifdef HAS_NORMAL
    normal = in_normal;
#endif
#ifdef HAS_TANGENT
    tangent = in_tangent.xyz;
#endif
    apply_morph(gl_VertexID, position, normal, tangent);
    out_position = position;
#ifdef HAS_NORMAL
    out_normal = normal;
#endif
#ifdef HAS_TANGENT
    out_tangent = vec4(tangent, in_tangent.w);
#endif
}
#endif
#endif
