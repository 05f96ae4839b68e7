// The glTF 2.0 metallic-roughness BRDF (specification, Appendix B) and the material extensions' lobes,
// evaluated for one light direction. Everything is linear RGB; alpha = roughness^2 throughout.
// Written for a software rasterizer too: a few mads per term, one pow5 per Fresnel.

const float PI = 3.14159265358979;

float pow5(float x) {
    float x2 = x * x;
    return x2 * x2 * x;
}

// Schlick's Fresnel with f90 (1 for every lobe here but KHR_materials_specular's dielectric, which scales it)
vec3 fresnel_schlick(vec3 f0, vec3 f90, float vh) {
    return f0 + (f90 - f0) * pow5(1.0 - clamp(vh, 0.0, 1.0));
}

// Trowbridge-Reitz (GGX) normal distribution D, Appendix B.3.2
float distribution_ggx(float nh, float alpha) {
    float a2 = alpha * alpha;
    float d = nh * nh * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

// Height-correlated Smith visibility V = G / (4 |n.l| |n.v|), Appendix B.3.2
float visibility_smith_ggx(float nl, float nv, float alpha) {
    float a2 = alpha * alpha;
    float gl = nl * sqrt(nv * nv * (1.0 - a2) + a2);
    float gv = nv * sqrt(nl * nl * (1.0 - a2) + a2);
    float s = gl + gv;
    return s > 0.0 ? 0.5 / s : 0.0;
}

// The surface as the shader knows it after textures: what every light and the environment need.
struct Surface {
    vec3 base;          // base colour, linear
    float metallic;
    float roughness;    // perceptual
    vec3 f0_dielectric; // (((ior-1)/(ior+1))^2 * specularColor), clamped to 1
    float specular;     // KHR_materials_specular factor (scales the dielectric Fresnel, f90 included)
    vec3 n;             // shading normal (normal map applied)
    vec3 v;             // unit direction to the eye
    float clearcoat;
    float clearcoat_roughness;
    vec3 clearcoat_n;
    vec3 sheen_color;
    float sheen_roughness;
    float transmission;
    vec3 aniso_t;       // KHR_materials_anisotropy: the stretch direction, its bitangent, strength
    vec3 aniso_b;
    float aniso_strength;
    float iridescence;  // KHR_materials_iridescence: weight and the film's Fresnel (at n.v, once per pixel)
    vec3 iridescent_f;
    vec3 dt_color;      // KHR_materials_diffuse_transmission: tint and weight of the diffuse lobe seen through
    float diffuse_transmission;
};

float max3(vec3 c) {
    return max(max(c.r, c.g), c.b);
}

// Anisotropic GGX D * V (KHR_materials_anisotropy README, after Kulla and Conty 2017): roughness alpha across
// the stretch, mix(alpha, 1, strength^2) along it; strength 0 is exactly distribution_ggx * visibility_smith_ggx
float specular_anisotropic(Surface s, vec3 l, vec3 h, float nl, float nv, float nh, float alpha) {
    float at = mix(alpha, 1.0, s.aniso_strength * s.aniso_strength);
    float ab = alpha;
    float a2 = at * ab;
    vec3 f = vec3(ab * dot(s.aniso_t, h), at * dot(s.aniso_b, h), a2 * nh);
    float w2 = a2 / dot(f, f);
    float d = a2 * w2 * w2 / PI;
    float gv = nl * length(vec3(at * dot(s.aniso_t, s.v), ab * dot(s.aniso_b, s.v), nv));
    float gl = nv * length(vec3(at * dot(s.aniso_t, l), ab * dot(s.aniso_b, l), nl));
    float v = 0.5 / max(gv + gl, 1e-8);
    return d * v;
}

// Charlie sheen distribution (Estevez and Kulla 2017), the one KHR_materials_sheen names
float distribution_charlie(float nh, float roughness) {
    float alpha = max(roughness * roughness, 1e-3);
    float inv = 1.0 / alpha;
    float sin2 = max(1.0 - nh * nh, 0.0078125);
    return (2.0 + inv) * pow(sin2, 0.5 * inv) / (2.0 * PI);
}

// Neubelt and Pettineo's visibility for cloth, cheap and bounded
float visibility_sheen(float nl, float nv) {
    return clamp(1.0 / (4.0 * (nl + nv - nl * nv)), 0.0, 1.0);
}

// Directional albedo of the sheen lobe, an analytic fit: how much light the sheen layer takes away from
// the layers under it (so a sheen never makes a surface brighter than white in a white environment)
float sheen_albedo(float cos_theta, float roughness) {
    float r = clamp(roughness, 0.0, 1.0);
    return clamp(0.18 * (1.0 - r) + 0.09 + 0.15 * pow5(1.0 - cos_theta) * (1.0 - 0.5 * r), 0.0, 1.0);
}

// Radiance leaving the surface toward v for a light of radiance `light` arriving from direction l.
vec3 brdf_light(Surface s, vec3 l, vec3 light) {
    vec3 n = s.n;
    float nl = dot(n, l);
    float nv = max(dot(n, s.v), 1e-4);
    vec3 result = vec3(0.0);
    if (nl > 0.0) {
        vec3 h = normalize(l + s.v);
        float nh = max(dot(n, h), 0.0);
        float vh = max(dot(s.v, h), 0.0);
        float alpha = max(s.roughness * s.roughness, 1e-3);
#ifdef ANISOTROPY
        float spec = specular_anisotropic(s, l, h, nl, nv, nh, alpha);
#else
        float spec = distribution_ggx(nh, alpha) * visibility_smith_ggx(nl, nv, alpha);
#endif
        // dielectric: fresnel_mix(diffuse, specular); metal: conductor_fresnel(base, specular)
        vec3 f_d = fresnel_schlick(s.f0_dielectric, vec3(1.0), vh);
        vec3 f_m = fresnel_schlick(s.base, vec3(1.0), vh);
#ifdef IRIDESCENCE
        f_d = mix(f_d, s.iridescent_f, s.iridescence);
        f_m = mix(f_m, s.iridescent_f, s.iridescence);
#endif
        f_d *= s.specular;
        float f_max = max3(f_d);
        vec3 diffuse = s.base / PI * (1.0 - s.transmission) * (1.0 - s.diffuse_transmission);
        vec3 dielectric = (1.0 - f_max) * diffuse + f_d * spec;
        vec3 metal = f_m * spec;
        result = mix(dielectric, metal, s.metallic) * nl;
#ifdef SHEEN
        float sheen = distribution_charlie(nh, s.sheen_roughness) * visibility_sheen(nl, nv);
        float scale = 1.0 - max(max(s.sheen_color.r, s.sheen_color.g), s.sheen_color.b)
                      * max(sheen_albedo(nv, s.sheen_roughness), sheen_albedo(nl, s.sheen_roughness));
        result = result * scale + s.sheen_color * sheen * nl;
#endif
    }
#ifdef DIFFUSE_TRANSMISSION
    else {
        // a light behind a thin translucent surface: Lambert through it, tinted, after the dielectric's Fresnel
        float f_max = max3(fresnel_schlick(s.f0_dielectric, vec3(1.0), nv)) * s.specular;
        result = s.base * s.dt_color / PI * (-nl) * (1.0 - f_max) * s.diffuse_transmission
                 * (1.0 - s.transmission) * (1.0 - s.metallic);
    }
#endif
#ifdef CLEARCOAT
    float cl = dot(s.clearcoat_n, l);
    if (cl > 0.0 && s.clearcoat > 0.0) {
        vec3 h = normalize(l + s.v);
        float cv = max(dot(s.clearcoat_n, s.v), 1e-4);
        float ca = max(s.clearcoat_roughness * s.clearcoat_roughness, 1e-3);
        float coat = distribution_ggx(max(dot(s.clearcoat_n, h), 0.0), ca) * visibility_smith_ggx(cl, cv, ca);
        float fc = fresnel_schlick(vec3(0.04), vec3(1.0), cv).r * s.clearcoat;  // fresnel_coat: the view angle
        result = result * (1.0 - fc) + vec3(fc * coat * cl);
    }
#endif
    return result * light;
}
