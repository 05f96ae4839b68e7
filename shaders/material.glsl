// The material's texture slots (glTF 2.0 §3.9 and the KHR_materials_* extensions). Each slot present in
// the draw's variant has a define TEX_<SLOT> and three uniforms:
//   u_<slot>_tex (sampler), u_<slot>_uv (mat3: KHR_texture_transform, identity without it),
//   u_<slot>_set (vec3: TEXCOORD set 0 or 1, MIRRORED_REPEAT on s, on t).
// A slot is switched on only when the primitive has the texture coordinates it reads (gpu_mesh.py).
in vec2 v_uv0;
in vec2 v_uv1;

vec2 slot_uv(mat3 uv_transform, vec3 set) {
    return (uv_transform * vec3(set.x > 0.5 ? v_uv1 : v_uv0, 1.0)).xy;
}

vec4 sample_slot(sampler2D tex, mat3 uv_transform, vec3 set) {
    vec2 uv = slot_uv(uv_transform, set);
    if (set.y > 0.5 || set.z > 0.5) {
        // MIRRORED_REPEAT (moderngl exposes only repeat/clamp): fold the coordinate, keep the unfolded
        // derivatives so the mip level does not jump at the fold
        vec2 folded = vec2(set.y > 0.5 ? 1.0 - abs(mod(uv.x, 2.0) - 1.0) : uv.x,
                           set.z > 0.5 ? 1.0 - abs(mod(uv.y, 2.0) - 1.0) : uv.y);
        return textureGrad(tex, folded, dFdx(uv), dFdy(uv));
    }
    return texture(tex, uv);
}

#define SLOT_UNIFORMS(tex, uv, set) uniform sampler2D tex; uniform mat3 uv; uniform vec3 set;
#ifdef TEX_BASE
SLOT_UNIFORMS(u_base_tex, u_base_uv, u_base_set)
#endif
#ifdef TEX_MR
SLOT_UNIFORMS(u_mr_tex, u_mr_uv, u_mr_set)
#endif
#ifdef TEX_NORMAL
SLOT_UNIFORMS(u_normal_tex, u_normal_uv, u_normal_set)
#endif
#ifdef TEX_OCCLUSION
SLOT_UNIFORMS(u_occlusion_tex, u_occlusion_uv, u_occlusion_set)
#endif
#ifdef TEX_EMISSIVE
SLOT_UNIFORMS(u_emissive_tex, u_emissive_uv, u_emissive_set)
#endif
#ifdef TEX_CLEARCOAT
SLOT_UNIFORMS(u_clearcoat_tex, u_clearcoat_uv, u_clearcoat_set)
#endif
#ifdef TEX_CLEARCOAT_ROUGHNESS
SLOT_UNIFORMS(u_clearcoat_roughness_tex, u_clearcoat_roughness_uv, u_clearcoat_roughness_set)
#endif
#ifdef TEX_CLEARCOAT_NORMAL
SLOT_UNIFORMS(u_clearcoat_normal_tex, u_clearcoat_normal_uv, u_clearcoat_normal_set)
#endif
#ifdef TEX_SHEEN_COLOR
SLOT_UNIFORMS(u_sheen_color_tex, u_sheen_color_uv, u_sheen_color_set)
#endif
#ifdef TEX_SHEEN_ROUGHNESS
SLOT_UNIFORMS(u_sheen_roughness_tex, u_sheen_roughness_uv, u_sheen_roughness_set)
#endif
#ifdef TEX_SPECULAR
SLOT_UNIFORMS(u_specular_tex, u_specular_uv, u_specular_set)
#endif
#ifdef TEX_SPECULAR_COLOR
SLOT_UNIFORMS(u_specular_color_tex, u_specular_color_uv, u_specular_color_set)
#endif
#ifdef TEX_TRANSMISSION
SLOT_UNIFORMS(u_transmission_tex, u_transmission_uv, u_transmission_set)
#endif
#ifdef TEX_THICKNESS
SLOT_UNIFORMS(u_thickness_tex, u_thickness_uv, u_thickness_set)
#endif
#ifdef TEX_ANISOTROPY
SLOT_UNIFORMS(u_anisotropy_tex, u_anisotropy_uv, u_anisotropy_set)
#endif
#ifdef TEX_IRIDESCENCE
SLOT_UNIFORMS(u_iridescence_tex, u_iridescence_uv, u_iridescence_set)
#endif
#ifdef TEX_IRIDESCENCE_THICKNESS
SLOT_UNIFORMS(u_iridescence_thickness_tex, u_iridescence_thickness_uv, u_iridescence_thickness_set)
#endif
#ifdef TEX_DIFFUSE_TRANSMISSION
SLOT_UNIFORMS(u_diffuse_transmission_tex, u_diffuse_transmission_uv, u_diffuse_transmission_set)
#endif
#ifdef TEX_DIFFUSE_TRANSMISSION_COLOR
SLOT_UNIFORMS(u_diffuse_transmission_color_tex, u_diffuse_transmission_color_uv, u_diffuse_transmission_color_set)
#endif
