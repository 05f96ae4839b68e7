// The look: a metallic-roughness approximation that reads well without image-based lighting.
// One key light (direction follows the camera, from above-left) with a GGX specular lobe, and a
// hemisphere ambient (sky above, ground below in world +Y) for diffuse and a rough "reflection".
// Inputs and the result are linear RGB; srgb_encode() is applied once at the end (sRGB output).
// Written for a software rasterizer too: no pow() but the one sRGB needs, every term a few mads.

vec3 srgb_encode(vec3 linear) {
    vec3 c = clamp(linear, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

float pow5(float x) {
    float x2 = x * x;
    return x2 * x2 * x;
}

vec3 hemisphere(float up, vec3 sky, vec3 ground) {
    return mix(ground, sky, 0.5 + 0.5 * up);
}

// Linear RGB of a surface point. n, v, l: unit normal, direction to the eye, direction to the light;
// light_color is the key's radiance times pi (a white Lambert surface facing it shows light_color).
vec3 shade(vec3 base, float metallic, float roughness, vec3 n, vec3 v, vec3 l,
           vec3 light_color, vec3 sky, vec3 ground) {
    vec3 diffuse = base * (1.0 - metallic);
    vec3 f0 = mix(vec3(0.04), base, metallic);
    float nl = max(dot(n, l), 0.0);
    vec3 h = normalize(v + l);
    float nh = max(dot(n, h), 0.0);
    float a = max(roughness * roughness, 0.002);
    float a2 = a * a;
    float d = nh * nh * (a2 - 1.0) + 1.0;
    // pi x GGX distribution x the implicit Smith visibility 1/4 (glTF 2.0 Appendix B, simplified)
    float specular = a2 / (4.0 * d * d);
    vec3 fresnel = f0 + (1.0 - f0) * pow5(1.0 - max(dot(v, h), 0.0));
    vec3 direct = light_color * nl * (diffuse + fresnel * specular);
    // rough surfaces reflect the hemisphere's average, smooth ones the sky or ground in direction r
    vec3 r = reflect(-v, n);
    vec3 env = mix(hemisphere(r.y, sky, ground), 0.5 * (sky + ground), roughness);
    float grazing = pow5(1.0 - max(dot(n, v), 0.0)) * (1.0 - roughness);
    vec3 ambient = hemisphere(n.y, sky, ground) * diffuse + env * (f0 + (1.0 - f0) * grazing);
    return direct + ambient;
}
