// Morph targets (glTF 2.0 §3.7.2.2): position = base + sum_k weight_k * delta_k; normals and tangents
// likewise (tangent deltas are xyz only: a target never changes the handedness w).
// Deltas of every target live in RGBA32F textures: texel index i = target * u_morph_vertex_count + vertex,
// laid out in rows of the texture's width, so the vertex and target counts are limited only by the
// texture size. Vertices are the GPU's (after any tangent split: gl_VertexID). Weights (node weights over
// mesh weights) change per frame and come as a uniform array sized by the MORPH_TARGETS define.
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
    for (int k = 0; k < MORPH_TARGETS; ++k) {
        float w = u_morph_weights[k];
        if (w == 0.0) continue;
        int i = k * u_morph_vertex_count + vertex;
        ivec2 texel = ivec2(i % width, i / width);
        position += w * texelFetch(u_morph_positions, texel, 0).xyz;
#ifdef MORPH_NORMALS
        normal += w * texelFetch(u_morph_normals, texel, 0).xyz;
#endif
#ifdef MORPH_TANGENTS
        tangent += w * texelFetch(u_morph_tangents, texel, 0).xyz;
#endif
    }
}
#endif
