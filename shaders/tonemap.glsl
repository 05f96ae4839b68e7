// Linear HDR radiance to the 8-bit picture: exposure, a tone mapper, then the sRGB transfer function.
// u_tonemap: 0 none (clamp), 1 Khronos PBR Neutral (the default: base colours up to ~0.8 pass unchanged, so
// a material reads as the file says), 2 ACES filmic (Narkowicz's fit of the reference transform).
uniform float u_exposure;   // linear multiplier (2^EV)
uniform int u_tonemap;

vec3 srgb_encode(vec3 linear) {
    vec3 c = clamp(linear, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

// Khronos PBR Neutral (2024): a toe for the darkest values, identity to 0.76, then a soft shoulder that
// desaturates toward white so bright colours keep their hue instead of clipping per channel
vec3 tonemap_pbr_neutral(vec3 color) {
    const float start = 0.76;
    const float desaturation = 0.15;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < start) return color;
    const float d = 1.0 - start;
    float new_peak = 1.0 - d * d / (peak + d - start);
    color *= new_peak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
    return mix(color, vec3(new_peak), g);
}

vec3 tonemap_aces(vec3 x) {
    return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 display(vec3 radiance) {
    vec3 c = max(radiance * u_exposure, 0.0);
    if (u_tonemap == 1) c = tonemap_pbr_neutral(c);
    else if (u_tonemap == 2) c = tonemap_aces(c);
    return srgb_encode(c);
}
