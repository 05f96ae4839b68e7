// KHR_materials_transmission with _volume and _dispersion: screen-space refraction of the opaque pass. The ray
// bends by the IOR at the surface and travels the volume's thickness; where it leaves, the opaque pass is read
// at a blur that grows with roughness. Dispersion bends red, green and blue by three IORs (the extension's
// spread: (ior - 1) * 0.025 * dispersion to each side), so a prism's edges split into colour.
uniform sampler2D u_scene_color;  // the opaque pass as displayed (sRGB), mipmapped: what refraction sees
uniform float u_scene_lod_max;
uniform vec4 u_scene_rect;        // this viewport within that texture: offset, size (0..1)
uniform float u_dispersion;       // 20 / Abbe number

vec3 scene_behind(Surface s, vec3 world, float ior, float thickness, float lod) {
    vec3 refracted = refract(-s.v, s.n, 1.0 / max(ior, 1.0));
    vec3 exit = world + refracted * thickness;
    vec4 clip = u_view_proj * vec4(exit, 1.0);
    vec2 screen = u_scene_rect.xy + (clip.xy / max(clip.w, 1e-6) * 0.5 + 0.5) * u_scene_rect.zw;
    return textureLod(u_scene_color, screen, lod).rgb;
}

vec3 transmitted_light(Surface s, vec3 world, float thickness) {
    float lod = u_scene_lod_max * s.roughness * clamp(u_ior * 2.0 - 2.0, 0.0, 1.0);
#ifdef DISPERSION
    float spread = (u_ior - 1.0) * 0.025 * u_dispersion;
    vec3 seen = vec3(scene_behind(s, world, u_ior - spread, thickness, lod).r,
                     scene_behind(s, world, u_ior, thickness, lod).g,
                     scene_behind(s, world, u_ior + spread, thickness, lod).b);
#else
    vec3 seen = scene_behind(s, world, u_ior, thickness, lod);
#endif
    // back from the display encoding to linear light (the tone mapper's shoulder is not undone)
    seen = mix(seen / 12.92, pow((seen + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), seen)) / u_exposure;
#ifdef VOLUME
    if (u_volume.a > 0.0) seen *= pow(max(u_volume.rgb, vec3(1e-4)), vec3(thickness / u_volume.a));
#endif
    return seen;
}
