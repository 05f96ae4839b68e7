// Punctual lights (KHR_lights_punctual) and the default studio key light, summed over the BRDF.
// Per light, four vec4 uniforms (viewer/render/lighting.py packs them):
//   u_light_position[i] = (world position, kind: 0 directional, 1 point, 2 spot)
//   u_light_direction[i] = (unit world direction the light travels, range: 0 = infinite)
//   u_light_radiance[i] = (colour × intensity, unused)
//   u_light_cone[i] = (cone scale, cone offset, unused, unused): spot falloff t = clamp(cd*scale + offset), t^2
// Point and spot intensity is in candela (W/sr), directional in lux: divided by d^2 only for the former.
#define MAX_LIGHTS 16
uniform int u_light_count;
uniform vec4 u_light_position[MAX_LIGHTS];
uniform vec4 u_light_direction[MAX_LIGHTS];
uniform vec4 u_light_radiance[MAX_LIGHTS];
uniform vec4 u_light_cone[MAX_LIGHTS];

// The extension's recommended range window: smooth to zero at `range`, inverse square inside it
float range_attenuation(float d, float range) {
    float inv2 = 1.0 / max(d * d, 1e-8);
    if (range <= 0.0) return inv2;
    float r = d / range;
    float r2 = r * r;
    return clamp(1.0 - r2 * r2, 0.0, 1.0) * inv2;
}

vec3 punctual_lights(Surface s, vec3 world) {
    vec3 sum = vec3(0.0);
    for (int i = 0; i < MAX_LIGHTS; ++i) {
        if (i >= u_light_count) break;
        vec4 p = u_light_position[i];
        vec4 d = u_light_direction[i];
        vec3 l;
        float k = 1.0;
        if (p.w < 0.5) {
            l = -d.xyz;
        } else {
            vec3 to = p.xyz - world;
            float dist = length(to);
            l = to / max(dist, 1e-8);
            k = range_attenuation(dist, d.w);
            if (p.w > 1.5) {
                vec4 c = u_light_cone[i];
                float t = clamp(dot(d.xyz, -l) * c.x + c.y, 0.0, 1.0);
                k *= t * t;
            }
        }
        if (k > 0.0) sum += brdf_light(s, l, u_light_radiance[i].rgb * k);
    }
    return sum;
}
