#version 330 core
// Every glTF primitive: morph (morph.glsl), then skin (skinning.glsl) or the node matrix, then shading.
// Defines: HAS_NORMAL, HAS_UV, HAS_COLOR, SKIN, SKIN_8, MORPH_TARGETS n, MORPH_NORMALS, ALPHA_MASK,
// ALPHA_BLEND, UNLIT, MIRROR_U / MIRROR_V (MIRRORED_REPEAT wrap), DEBUG_VERTEX_ID (picking/test output:
// the same vertex code, the fragment writes the vertex id instead of a colour), INSTANCED (one draw for
// many nodes showing this primitive: each instance's world matrix is the attribute in_model, see
// viewer/render/instancing.py; never with SKIN).

#if defined VERTEX_SHADER

in vec3 in_position;
#ifdef HAS_NORMAL
in vec3 in_normal;
#endif
#ifdef HAS_UV
in vec2 in_uv;
#endif
#ifdef HAS_COLOR
in vec4 in_color;
#endif

#include "morph.glsl"
#include "skinning.glsl"

#ifdef INSTANCED
in mat4 in_model;              // per instance (divisor 1): the node's world matrix
#else
uniform mat4 u_model;          // node world matrix (unused when skinned)
uniform mat3 u_normal_matrix;  // inverse transpose of u_model's 3x3
#endif
uniform mat4 u_view_proj;
uniform mat3 u_uv_transform;   // KHR_texture_transform of the base colour texture (identity without it)

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_color;
flat out int v_vertex_id;

// Cofactor matrix: transforms normals correctly under non-uniform scale, no inverse needed.
mat3 cofactor(mat3 m) {
    mat3 c = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
    return dot(m[0], c[0]) < 0.0 ? -c : c;
}

#ifdef INSTANCED
// The normal matrix of one instance, made here rather than per node on the CPU (limits.normal_matrix does
// it in float64). Each column is first scaled to a largest entry of 1, so no product overflows float32
// (entries go up to 3.4e38) and tiny scales do not underflow to 0; cof(M) = cof(M D) cof(D)^-1 for the diagonal
// D of those scales, up to a positive factor: column i divided by its own scale (as s_min / s_i <= 1).
// Rank < 2 leaves no normal direction: identity, as on the CPU.
mat3 instance_normal_matrix(mat3 m) {
    vec3 s = vec3(max(max(abs(m[0].x), abs(m[0].y)), abs(m[0].z)),
                  max(max(abs(m[1].x), abs(m[1].y)), abs(m[1].z)),
                  max(max(abs(m[2].x), abs(m[2].y)), abs(m[2].z)));
    s = mix(s, vec3(1.0), equal(s, vec3(0.0)));  // a zero column stays zero
    mat3 c = cofactor(mat3(m[0] / s.x, m[1] / s.y, m[2] / s.z));
    float lo = min(s.x, min(s.y, s.z));
    c = mat3(c[0] * (lo / s.x), c[1] * (lo / s.y), c[2] * (lo / s.z));
    vec3 a = max(max(abs(c[0]), abs(c[1])), abs(c[2]));
    float top = max(a.x, max(a.y, a.z));
    return top > 0.0 ? c * (1.0 / top) : mat3(1.0);
}
#endif

void main() {
    vec3 position = in_position;
#ifdef HAS_NORMAL
    vec3 normal = in_normal;
#else
    vec3 normal = vec3(0.0, 0.0, 1.0);
#endif
#ifdef MORPH_TARGETS
    apply_morph(gl_VertexID, position, normal);
#endif
#ifdef SKIN
    mat4 skin = skin_matrix();
    // w = 1: weights that do not sum exactly to 1 (quantized) must not turn into a perspective divide;
    // pose.primitive_positions treats the blended matrix as affine too
    vec4 world = vec4((skin * vec4(position, 1.0)).xyz, 1.0);
    v_normal = cofactor(mat3(skin)) * normal;
#elif defined INSTANCED
    vec4 world = in_model * vec4(position, 1.0);
    v_normal = instance_normal_matrix(mat3(in_model)) * normal;
#else
    vec4 world = u_model * vec4(position, 1.0);
    v_normal = u_normal_matrix * normal;
#endif
    v_world = world.xyz;
#ifdef HAS_UV
    v_uv = (u_uv_transform * vec3(in_uv, 1.0)).xy;
#else
    v_uv = vec2(0.0);
#endif
#ifdef HAS_COLOR
    v_color = in_color;
#else
    v_color = vec4(1.0);
#endif
    v_vertex_id = gl_VertexID;
    gl_Position = u_view_proj * world;
}

#elif defined FRAGMENT_SHADER

#include "shading.glsl"

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_color;
flat in int v_vertex_id;

uniform vec4 u_base_color;     // baseColorFactor, linear RGBA
uniform float u_metallic;
uniform float u_roughness;
uniform vec3 u_emissive;       // emissiveFactor, linear RGB
uniform float u_alpha_cutoff;
uniform sampler2D u_base_tex;  // sRGB texture: sampling returns linear values
uniform vec3 u_eye;            // camera position, world
uniform vec3 u_light_dir;      // unit direction toward the key light, world
uniform vec3 u_light_color;
uniform vec3 u_sky;
uniform vec3 u_ground;
uniform int u_draw_id;
uniform float u_opacity = 1.0;  // < 1: a faded ghost of another time, blended over the scene

out vec4 f_color;

vec4 base_texture(vec2 uv) {
#if defined MIRROR_U || defined MIRROR_V
    // MIRRORED_REPEAT (moderngl exposes only repeat/clamp): fold the coordinate, keep the unfolded
    // derivatives so the mip level does not jump at the fold
    vec2 folded = uv;
#ifdef MIRROR_U
    folded.x = 1.0 - abs(mod(uv.x, 2.0) - 1.0);
#endif
#ifdef MIRROR_V
    folded.y = 1.0 - abs(mod(uv.y, 2.0) - 1.0);
#endif
    return textureGrad(u_base_tex, folded, dFdx(uv), dFdy(uv));
#else
    return texture(u_base_tex, uv);
#endif
}

void main() {
#ifdef DEBUG_VERTEX_ID
    int id = v_vertex_id + 1;  // 0 stays "nothing drawn here"
    f_color = vec4(float(id & 255), float((id >> 8) & 255), float((id >> 16) & 255),
                   float(u_draw_id + 1)) / 255.0;
    return;
#else
    vec4 base = u_base_color * v_color;
#ifdef HAS_UV
    base *= base_texture(v_uv);
#endif
#ifdef ALPHA_MASK
    if (base.a < u_alpha_cutoff) discard;
#endif
#ifndef ALPHA_BLEND
    base.a = 1.0;  // OPAQUE and MASK ignore alpha (glTF 2.0 §3.9.4)
#endif
#if defined UNLIT || !defined HAS_NORMAL
    vec3 color = base.rgb;
#else
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;  // double-sided: the back face is lit as its own front
    vec3 v = normalize(u_eye - v_world);
    vec3 color = shade(base.rgb, u_metallic, u_roughness, n, v, u_light_dir, u_light_color, u_sky, u_ground);
#endif
    f_color = vec4(srgb_encode(color + u_emissive), base.a * u_opacity);
#endif
}
#endif
