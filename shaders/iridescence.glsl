// KHR_materials_iridescence: the Fresnel of a thin dielectric film on the base material (Belcour and Barla 2017,
// "A Practical Extension to Microfacet Theory for the Modeling of Varying Iridescence"; the extension's README
// gives the same model). Light reflected at the film's top and at the base interferes; the path difference
// 2 * ior * thickness * cos(theta2) shifts which wavelengths add up, and the spectral integral is the paper's
// closed form of Gaussians fitted to the CIE XYZ sensitivities, taken to linear Rec.709.

float film_fresnel0(float a, float b) {
    float r = (a - b) / (a + b);
    return r * r;
}

vec3 film_fresnel0(vec3 a, float b) {
    vec3 r = (a - b) / (a + b);
    return r * r;
}

// the IOR of a dielectric whose normal-incidence reflectance is f0 (f0 kept below 1: a perfect mirror has none)
vec3 ior_of_fresnel0(vec3 f0) {
    vec3 s = sqrt(clamp(f0, 0.0, 0.9999));
    return (1.0 + s) / (1.0 - s);
}

// one interference order's colour for optical path difference opd (nm) and phase shift per channel
vec3 film_sensitivity(float opd, vec3 shift) {
    float phase = 2.0 * PI * opd * 1.0e-9;
    const vec3 amplitude = vec3(5.4856e-13, 4.4201e-13, 5.2481e-13);
    const vec3 centre = vec3(1.6810e+06, 1.7953e+06, 2.2084e+06);
    const vec3 spread = vec3(4.3278e+09, 9.3046e+09, 6.6121e+09);
    vec3 xyz = amplitude * sqrt(2.0 * PI * spread) * cos(centre * phase + shift) * exp(-phase * phase * spread);
    xyz.x += 9.7470e-14 * sqrt(2.0 * PI * 4.5282e+09) * cos(2.2399e+06 * phase + shift.x)
             * exp(-4.5282e+09 * phase * phase);
    xyz /= 1.0685e-7;
    const mat3 xyz_to_rec709 = mat3(3.2404542, -0.9692660, 0.0556434,
                                    -1.5371385, 1.8760108, -0.2040259,
                                    -0.4985314, 0.0415560, 1.0572252);
    return xyz_to_rec709 * xyz;
}

// Reflectance of air | film (ior film_ior, thickness nm) | base (normal-incidence reflectance base_f0) at
// cos_theta1, clamped to [0, 1]: a film only redistributes light between wavelengths and directions
vec3 iridescent_fresnel(float film_ior, float cos_theta1, float thickness, vec3 base_f0) {
    float eta = mix(1.0, film_ior, smoothstep(0.0, 0.03, thickness));  // a vanishing film is no film
    float sin2 = (1.0 - cos_theta1 * cos_theta1) / (eta * eta);
    float cos2_sq = 1.0 - sin2;
    if (cos2_sq < 0.0) return vec3(1.0);  // total internal reflection
    float cos_theta2 = sqrt(cos2_sq);
    float r12 = fresnel_schlick(vec3(film_fresnel0(eta, 1.0)), vec3(1.0), cos_theta1).r;
    float t121 = 1.0 - r12;
    float phi12 = eta < 1.0 ? PI : 0.0;
    float phi21 = PI - phi12;
    vec3 base_ior = ior_of_fresnel0(base_f0);
    vec3 r23 = fresnel_schlick(film_fresnel0(base_ior, eta), vec3(1.0), cos_theta2);
    vec3 phi23 = mix(vec3(0.0), vec3(PI), lessThan(base_ior, vec3(eta)));
    float opd = 2.0 * eta * thickness * cos_theta2;
    vec3 phi = vec3(phi21) + phi23;
    vec3 r123 = clamp(r12 * r23, 1e-5, 0.9999);
    vec3 rs = t121 * t121 * r23 / (1.0 - r123);
    vec3 result = r12 + rs;  // order 0: the incoherent sum
    vec3 cm = rs - t121;
    vec3 root = sqrt(r123);
    for (int m = 1; m <= 2; ++m) {
        cm *= root;
        result += cm * 2.0 * film_sensitivity(float(m) * opd, float(m) * phi);
    }
    return clamp(result, 0.0, 1.0);
}
