#version 330 core
// Every glTF primitive: morph (morph.glsl), then skin (skinning.glsl) or the node matrix, then the
// metallic-roughness BRDF (brdf.glsl) under punctual lights (lights.glsl) and the studio environment
// (ibl.glsl), then exposure, tone mapping and sRGB (tonemap.glsl).
// Geometry defines: HAS_NORMAL (else FLAT_NORMALS for triangles: normals from screen-space derivatives, the
// flat normals glTF 2.0 asks for), HAS_TANGENT, HAS_UV0, HAS_UV1, HAS_COLOR, SKIN, SKIN_8, MORPH_TARGETS n,
// MORPH_NORMALS, MORPH_TANGENTS. Material defines: TEX_<SLOT> (material.glsl), ALPHA_MASK, ALPHA_BLEND, UNLIT,
// CLEARCOAT, SHEEN, TRANSMISSION, VOLUME, DISPERSION (transmission.glsl), ANISOTROPY, IRIDESCENCE,
// DIFFUSE_TRANSMISSION (lobes.glsl). Output: DEBUG_VERTEX_ID (picking/test output: the same vertex code, the
// fragment writes the vertex id instead of a colour), INSTANCED (one draw for many nodes showing this primitive:
// each instance's world matrix is the attribute in_model, see viewer/render/instancing.py; never with SKIN).

#if defined VERTEX_SHADER

in vec3 in_position;
#ifdef HAS_NORMAL
in vec3 in_normal;
#endif
#ifdef HAS_TANGENT
in vec4 in_tangent;
#endif
#ifdef HAS_UV0
in vec2 in_uv0;
#endif
#ifdef HAS_UV1
in vec2 in_uv1;
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

out vec3 v_world;
out vec3 v_normal;
out vec4 v_tangent;            // xyz world, w handedness (glTF: bitangent = cross(normal, tangent) * w)
out vec2 v_uv0;
out vec2 v_uv1;
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
#ifdef HAS_TANGENT
    vec3 tangent = in_tangent.xyz;
#else
    vec3 tangent = vec3(1.0, 0.0, 0.0);
#endif
#ifdef MORPH_TARGETS
    apply_morph(gl_VertexID, position, normal, tangent);
#endif
#ifdef SKIN
    mat4 skin = skin_matrix();
    // w = 1: weights that do not sum exactly to 1 (quantized) must not turn into a perspective divide;
    // pose.primitive_positions treats the blended matrix as affine too
    vec4 world = vec4((skin * vec4(position, 1.0)).xyz, 1.0);
    mat3 linear = mat3(skin);
    v_normal = cofactor(linear) * normal;
#elif defined INSTANCED
    vec4 world = in_model * vec4(position, 1.0);
    mat3 linear = mat3(in_model);
    v_normal = instance_normal_matrix(linear) * normal;
#else
    vec4 world = u_model * vec4(position, 1.0);
    mat3 linear = mat3(u_model);
    v_normal = u_normal_matrix * normal;
#endif
    v_world = world.xyz;
#ifdef HAS_TANGENT
    // a mirroring matrix turns the bitangent the other way relative to cross(normal, tangent)
    v_tangent = vec4(linear * tangent, determinant(linear) < 0.0 ? -in_tangent.w : in_tangent.w);
#else
    v_tangent = vec4(0.0);
#endif
#ifdef HAS_UV0
    v_uv0 = in_uv0;
#else
    v_uv0 = vec2(0.0);
#endif
#ifdef HAS_UV1
    v_uv1 = in_uv1;
#else
    v_uv1 = v_uv0;
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

#include "brdf.glsl"
#include "lights.glsl"
#include "ibl.glsl"
#include "tonemap.glsl"
#include "material.glsl"

in vec3 v_world;
in vec3 v_normal;
in vec4 v_tangent;
in vec4 v_color;
flat in int v_vertex_id;

uniform vec4 u_base_color;     // baseColorFactor, linear RGBA
uniform float u_metallic;
uniform float u_roughness;
uniform vec3 u_emissive;       // emissiveFactor × KHR_materials_emissive_strength, linear RGB
uniform float u_alpha_cutoff;
uniform float u_normal_scale;
uniform float u_occlusion_strength;
uniform float u_ior;
uniform vec4 u_specular;       // KHR_materials_specular: specularColorFactor, specularFactor
uniform vec3 u_clearcoat;      // factor, roughness, normal scale
uniform vec4 u_sheen;          // colour, roughness
uniform float u_transmission;
uniform vec4 u_volume;         // attenuation colour, attenuation distance (0: none)
uniform float u_thickness;
uniform vec4 u_eye;            // (camera position, 1), or (unit direction toward an orthographic camera, 0)
uniform mat4 u_view_proj;
uniform int u_draw_id;
uniform float u_opacity = 1.0;  // < 1: a faded ghost of another time, blended over the scene
#ifdef TRANSMISSION
#include "transmission.glsl"
#endif
#include "lobes.glsl"

out vec4 f_color;

// The geometric normal and the tangent frame of the normal texture's coordinates, both facing the eye side
// of a double-sided surface; without TANGENT (or with flat normals) the frame comes from screen-space
// derivatives of position and UV, which follows mirrored UVs per pixel.
mat3 tangent_frame(out vec3 ng) {
#ifdef FLAT_NORMALS
    ng = normalize(cross(dFdx(v_world), dFdy(v_world)));  // faces the eye already
    bool back = false;
#else
    ng = normalize(v_normal);
    bool back = !gl_FrontFacing;
#endif
    vec3 t = vec3(1.0, 0.0, 0.0);
    vec3 b = vec3(0.0, 1.0, 0.0);
#if defined TEX_NORMAL || defined ANISOTROPY
#if defined HAS_TANGENT && !defined FLAT_NORMALS
    t = v_tangent.xyz - ng * dot(ng, v_tangent.xyz);
    t = length(t) > 1e-8 ? normalize(t) : normalize(cross(ng, abs(ng.y) < 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0)));
    b = cross(ng, t) * (v_tangent.w < 0.0 ? -1.0 : 1.0);
#else
#if defined TEX_NORMAL
    vec2 uv = slot_uv(u_normal_uv, u_normal_set);
#elif defined TEX_ANISOTROPY
    vec2 uv = slot_uv(u_anisotropy_uv, u_anisotropy_set);
#else
    vec2 uv = v_uv0;
#endif
    vec3 dp1 = dFdx(v_world), dp2 = dFdy(v_world);
    vec2 duv1 = dFdx(uv), duv2 = dFdy(uv);
    float det = duv1.x * duv2.y - duv2.x * duv1.y;
    vec3 dpdu = (dp1 * duv2.y - dp2 * duv1.y) * (det < 0.0 ? -1.0 : 1.0);
    vec3 dpdv = (dp2 * duv1.x - dp1 * duv2.x) * (det < 0.0 ? -1.0 : 1.0);
    t = dpdu - ng * dot(ng, dpdu);
    t = length(t) > 1e-12 ? normalize(t) : normalize(cross(ng, abs(ng.y) < 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0)));
    // glTF's v runs down the image, so its bitangent (texture "up") is -dp/dv
    b = cross(ng, t) * (dot(cross(ng, t), dpdv) > 0.0 ? -1.0 : 1.0);
#endif
#endif
    if (back) { ng = -ng; t = -t; b = -b; }
    return mat3(t, b, ng);
}

vec3 perturbed(mat3 tbn, vec3 tangent_normal, float scale) {
    vec3 tn = tangent_normal * 2.0 - 1.0;
    tn.xy *= scale;
    return normalize(tbn * tn);
}

void main() {
#ifdef DEBUG_VERTEX_ID
    int id = v_vertex_id + 1;  // 0 stays "nothing drawn here"
    f_color = vec4(float(id & 255), float((id >> 8) & 255), float((id >> 16) & 255),
                   float(u_draw_id + 1)) / 255.0;
    return;
#else
    vec4 base = u_base_color * v_color;
#ifdef TEX_BASE
    base *= sample_slot(u_base_tex, u_base_uv, u_base_set);
#endif
#ifdef ALPHA_MASK
    if (base.a < u_alpha_cutoff) discard;
#endif
#ifndef ALPHA_BLEND
    base.a = 1.0;  // OPAQUE and MASK ignore alpha (glTF 2.0 §3.9.4)
#endif
#if defined UNLIT || !(defined HAS_NORMAL || defined FLAT_NORMALS)
    // unlit colours are shown as authored: no light, exposure or tone mapping (lines and points without
    // normals too)
    f_color = vec4(srgb_encode(base.rgb), base.a * u_opacity);
#else
    Surface s;
    s.base = base.rgb;
    s.metallic = u_metallic;
    s.roughness = u_roughness;
#ifdef TEX_MR
    vec4 mr = sample_slot(u_mr_tex, u_mr_uv, u_mr_set);
    s.roughness *= mr.g;
    s.metallic *= mr.b;
#endif
    s.metallic = clamp(s.metallic, 0.0, 1.0);
    s.roughness = clamp(s.roughness, 0.0, 1.0);
    vec3 ng;
    mat3 tbn = tangent_frame(ng);
    s.n = ng;
#ifdef TEX_NORMAL
    s.n = perturbed(tbn, sample_slot(u_normal_tex, u_normal_uv, u_normal_set).rgb, u_normal_scale);
#endif
    s.v = u_eye.w > 0.5 ? normalize(u_eye.xyz - v_world) : u_eye.xyz;
    // KHR_materials_ior and _specular: the dielectric's reflectance at normal incidence and its weight
    float r0 = (u_ior - 1.0) / (u_ior + 1.0);
    vec3 specular_color = u_specular.rgb;
    float specular = u_specular.a;
#ifdef TEX_SPECULAR
    specular *= sample_slot(u_specular_tex, u_specular_uv, u_specular_set).a;
#endif
#ifdef TEX_SPECULAR_COLOR
    specular_color *= sample_slot(u_specular_color_tex, u_specular_color_uv, u_specular_color_set).rgb;
#endif
    s.f0_dielectric = min(vec3(r0 * r0) * specular_color, vec3(1.0));
    s.specular = specular;
    s.clearcoat = 0.0;
    s.clearcoat_roughness = 0.0;
    s.clearcoat_n = ng;
#ifdef CLEARCOAT
    s.clearcoat = u_clearcoat.x;
    s.clearcoat_roughness = u_clearcoat.y;
#ifdef TEX_CLEARCOAT
    s.clearcoat *= sample_slot(u_clearcoat_tex, u_clearcoat_uv, u_clearcoat_set).r;
#endif
#ifdef TEX_CLEARCOAT_ROUGHNESS
    s.clearcoat_roughness *= sample_slot(u_clearcoat_roughness_tex, u_clearcoat_roughness_uv,
                                         u_clearcoat_roughness_set).g;
#endif
#ifdef TEX_CLEARCOAT_NORMAL
    s.clearcoat_n = perturbed(tbn, sample_slot(u_clearcoat_normal_tex, u_clearcoat_normal_uv,
                                               u_clearcoat_normal_set).rgb, u_clearcoat.z);
#endif
#endif
    s.sheen_color = vec3(0.0);
    s.sheen_roughness = 0.0;
#ifdef SHEEN
    s.sheen_color = u_sheen.rgb;
    s.sheen_roughness = u_sheen.a;
#ifdef TEX_SHEEN_COLOR
    s.sheen_color *= sample_slot(u_sheen_color_tex, u_sheen_color_uv, u_sheen_color_set).rgb;
#endif
#ifdef TEX_SHEEN_ROUGHNESS
    s.sheen_roughness *= sample_slot(u_sheen_roughness_tex, u_sheen_roughness_uv, u_sheen_roughness_set).a;
#endif
#endif
    s.transmission = 0.0;
    vec3 transmitted = vec3(0.0);
#ifdef TRANSMISSION
    s.transmission = u_transmission;
#ifdef TEX_TRANSMISSION
    s.transmission *= sample_slot(u_transmission_tex, u_transmission_uv, u_transmission_set).r;
#endif
    float thickness = u_thickness;
#ifdef TEX_THICKNESS
    thickness *= sample_slot(u_thickness_tex, u_thickness_uv, u_thickness_set).g;
#endif
    transmitted = transmitted_light(s, v_world, thickness);
#endif
    extension_lobes(s, tbn);
    float occlusion = 1.0;
#ifdef TEX_OCCLUSION
    occlusion = 1.0 + u_occlusion_strength * (sample_slot(u_occlusion_tex, u_occlusion_uv, u_occlusion_set).r - 1.0);
#endif
    vec3 color = punctual_lights(s, v_world) + ibl(s, transmitted) * occlusion;
    vec3 emissive = u_emissive;
#ifdef TEX_EMISSIVE
    emissive *= sample_slot(u_emissive_tex, u_emissive_uv, u_emissive_set).rgb;
#endif
    color += emissive;
    float alpha = base.a;
#ifdef TRANSMISSION
    alpha = 1.0;  // what shows through is already in `transmitted`
#endif
    f_color = vec4(display(color), alpha * u_opacity);
#endif
#endif
}
#endif
