// Image-based light from the studio environment (viewer/render/environment.py uploads it):
//   u_env: equirectangular radiance, mip k prefiltered for perceptual roughness k / u_env_lod_max (GGX, N = V = R);
//   u_sh: 9 spherical-harmonic coefficients of the radiance (diffuse: irradiance / pi, see env_diffuse);
//   u_brdf_lut: the split-sum scale and bias (A, B) at (n.v, roughness).
// Specular energy lost to single scattering is put back (Fdez-Aguera 2019), so a white environment
// seen through any white material is white: the furnace test.
uniform sampler2D u_env;
uniform sampler2D u_brdf_lut;
uniform float u_env_lod_max;
uniform vec3 u_sh[9];
uniform float u_env_intensity;   // 0: no environment light

// acos to 7e-5 rad (Abramowitz and Stegun 4.4.45): a few mads where the exact one costs a software
// rasterizer several times more, and far below a texel of the finest level (0.7 degrees)
float fast_acos(float x) {
    float a = abs(x);
    float r = sqrt(1.0 - a) * (1.5707288 + a * (-0.2121144 + a * (0.0742610 - 0.0187293 * a)));
    return x < 0.0 ? PI - r : r;
}

vec2 equirect_uv(vec3 d) {
    return vec2(atan(d.x, -d.z) * (0.5 / PI) + 0.5, fast_acos(clamp(d.y, -1.0, 1.0)) / PI);
}

vec3 env_specular(vec3 r, float roughness) {
    return textureLod(u_env, equirect_uv(r), clamp(roughness, 0.0, 1.0) * u_env_lod_max).rgb * u_env_intensity;
}

// Lambertian radiance for albedo 1: the cosine-convolved SH (band weights 1, 2/3, 1/4 after dividing by pi)
vec3 env_diffuse(vec3 n) {
    float x = n.x, y = n.y, z = n.z;
    vec3 e = u_sh[0] * 0.282095
           + (u_sh[1] * y + u_sh[2] * z + u_sh[3] * x) * (0.488603 * 2.0 / 3.0)
           + (u_sh[4] * (1.092548 * x * y) + u_sh[5] * (1.092548 * y * z)
              + u_sh[6] * (0.315392 * (3.0 * z * z - 1.0)) + u_sh[7] * (1.092548 * x * z)
              + u_sh[8] * (0.546274 * (x * x - y * y))) * 0.25;
    return max(e, 0.0) * u_env_intensity;
}

// Directional albedo of GGX with multiple scattering for Fresnel f0 (scaled by specular_weight); ab: the
// split-sum table at (n.v, roughness), read once per pixel by the caller
vec3 ggx_energy(vec3 f0, float specular_weight, float nv, float roughness, vec2 ab) {
    vec3 fr = max(vec3(1.0 - roughness), f0) - f0;
    vec3 ks = f0 + fr * pow5(1.0 - nv);
    vec3 fss = specular_weight * (ks * ab.x + ab.y);
    float ems = 1.0 - (ab.x + ab.y);
    vec3 favg = specular_weight * (f0 + (1.0 - f0) / 21.0);
    return fss + ems * fss * favg / (1.0 - favg * ems);
}

// Outgoing radiance from the environment; `transmitted` is what a transmissive surface lets through.
vec3 ibl(Surface s, vec3 transmitted) {
    float nv = clamp(dot(s.n, s.v), 1e-4, 1.0);
    vec3 r = reflect(-s.v, s.n);
#ifdef ANISOTROPY
    // the reflection bends toward the stretch: the README's bent normal, straight again as strength falls
    vec3 across = cross(s.aniso_b, s.v);
    vec3 bend = vec3(1.0 - s.aniso_strength * (1.0 - s.roughness));
    bend *= bend;
    r = reflect(-s.v, normalize(mix(cross(across, s.aniso_b), s.n, bend.x * bend.x)));
#endif
    vec3 specular = env_specular(r, s.roughness);
    vec3 diffuse = env_diffuse(s.n) * s.base;
#ifdef DIFFUSE_TRANSMISSION
    diffuse = mix(diffuse, env_diffuse(-s.n) * s.base * s.dt_color, s.diffuse_transmission);
#endif
    diffuse = mix(diffuse, transmitted * s.base, s.transmission);
    vec2 ab = texture(u_brdf_lut, vec2(nv, s.roughness)).rg;
    vec3 energy_d = ggx_energy(s.f0_dielectric, s.specular, nv, s.roughness, ab);
    vec3 energy_m = ggx_energy(s.base, 1.0, nv, s.roughness, ab);
#ifdef IRIDESCENCE
    // the film's Fresnel in the split sum (single scattering: a film adds no energy back)
    vec3 film = s.iridescent_f * ab.x + ab.y;
    energy_d = mix(energy_d, film * s.specular, s.iridescence);
    energy_m = mix(energy_m, film, s.iridescence);
#endif
    vec3 dielectric = mix(diffuse, specular, energy_d);
    vec3 metal = specular * energy_m;
    vec3 color = mix(dielectric, metal, s.metallic);
#ifdef SHEEN
    float albedo = sheen_albedo(nv, s.sheen_roughness);
    color = color * (1.0 - max(max(s.sheen_color.r, s.sheen_color.g), s.sheen_color.b) * albedo)
          + s.sheen_color * env_specular(s.n, s.sheen_roughness) * albedo;
#endif
#ifdef CLEARCOAT
    float cv = clamp(dot(s.clearcoat_n, s.v), 1e-4, 1.0);
    float fc = s.clearcoat * fresnel_schlick(vec3(0.04), vec3(1.0), cv).r;
    color = color * (1.0 - fc) + env_specular(reflect(-s.v, s.clearcoat_n), s.clearcoat_roughness) * fc;
#endif
    return color;
}
