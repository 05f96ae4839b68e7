#version 330 core
// The studio environment behind the scene, blurred (a roughness level of its prefiltered chain) so it reads
// as a backdrop: one full-viewport triangle, each pixel looking up the world direction through it.
#if defined VERTEX_SHADER
out vec2 v_ndc;
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;  // covers the viewport
    v_ndc = p;
    gl_Position = vec4(p, 1.0, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "brdf.glsl"
#include "ibl.glsl"
#include "tonemap.glsl"
in vec2 v_ndc;
uniform mat4 u_inv_view_proj;
uniform float u_blur;
out vec4 f_color;
void main() {
    vec4 near = u_inv_view_proj * vec4(v_ndc, -1.0, 1.0);
    vec4 far = u_inv_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec3 d = far.xyz / far.w - near.xyz / near.w;
    float len = length(d);
    vec3 color = len > 0.0 ? env_specular(d / len, u_blur) : vec3(0.0);
    f_color = vec4(display(color), 1.0);
}
#endif
