// The parts of the Surface that the newer material extensions set, once the base layers are known (mesh.glsl
// calls extension_lobes after the normal, Fresnel and metallic are final). Each is behind its define, so a
// material without the extension compiles none of it (viewer/render/materials.py Material.defines).
#include "iridescence.glsl"

uniform vec3 u_anisotropy;            // KHR_materials_anisotropy: cos, sin of anisotropyRotation; strength
uniform vec4 u_iridescence;           // KHR_materials_iridescence: factor, film IOR, thickness min, max (nm)
uniform vec4 u_diffuse_transmission;  // KHR_materials_diffuse_transmission: colour, factor

void extension_lobes(inout Surface s, mat3 tbn) {
    s.aniso_t = tbn[0];
    s.aniso_b = tbn[1];
    s.aniso_strength = 0.0;
#ifdef ANISOTROPY
    // the stretch direction in the normal texture's tangent space: +x (the tangent) turned by the rotation,
    // then by the texture's direction (RG in [-1, 1]), whose B scales the strength
    vec2 turn = u_anisotropy.xy;
    vec2 direction = turn;
    float strength = u_anisotropy.z;
#ifdef TEX_ANISOTROPY
    vec3 texel = sample_slot(u_anisotropy_tex, u_anisotropy_uv, u_anisotropy_set).rgb;
    vec2 d = texel.rg * 2.0 - 1.0;
    direction = length(d) > 1e-4 ? mat2(turn.x, turn.y, -turn.y, turn.x) * normalize(d) : turn;
    strength *= texel.b;
#endif
    s.aniso_t = normalize(tbn * vec3(direction, 0.0));
    s.aniso_b = normalize(cross(tbn[2], s.aniso_t));
    s.aniso_strength = clamp(strength, 0.0, 1.0);
#endif
    s.iridescence = 0.0;
    s.iridescent_f = vec3(0.0);
#ifdef IRIDESCENCE
    float factor = u_iridescence.x;
#ifdef TEX_IRIDESCENCE
    factor *= sample_slot(u_iridescence_tex, u_iridescence_uv, u_iridescence_set).r;
#endif
    float thickness = u_iridescence.w;  // without a thickness texture the film is thicknessMaximum thick
#ifdef TEX_IRIDESCENCE_THICKNESS
    thickness = mix(u_iridescence.z, u_iridescence.w,
                    sample_slot(u_iridescence_thickness_tex, u_iridescence_thickness_uv,
                                u_iridescence_thickness_set).g);
#endif
    s.iridescence = clamp(factor, 0.0, 1.0);
    float nv = clamp(dot(s.n, s.v), 1e-4, 1.0);
    s.iridescent_f = iridescent_fresnel(u_iridescence.y, nv, thickness, mix(s.f0_dielectric, s.base, s.metallic));
#endif
    s.dt_color = vec3(1.0);
    s.diffuse_transmission = 0.0;
#ifdef DIFFUSE_TRANSMISSION
    float amount = u_diffuse_transmission.a;
#ifdef TEX_DIFFUSE_TRANSMISSION
    amount *= sample_slot(u_diffuse_transmission_tex, u_diffuse_transmission_uv, u_diffuse_transmission_set).a;
#endif
    vec3 tint = u_diffuse_transmission.rgb;
#ifdef TEX_DIFFUSE_TRANSMISSION_COLOR
    tint *= sample_slot(u_diffuse_transmission_color_tex, u_diffuse_transmission_color_uv,
                        u_diffuse_transmission_color_set).rgb;
#endif
    s.diffuse_transmission = clamp(amount, 0.0, 1.0);
    s.dt_color = tint;
#endif
}
