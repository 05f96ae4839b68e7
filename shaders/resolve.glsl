#version 330 core
// MSAA resolve: each pixel is the mean of its SAMPLES samples, summed from 0 in sample order and scaled by
// 1 / SAMPLES -- the arithmetic of Mesa's own resolve blit (u_simple_shaders' msaa_resolve), so the picture
// is the same bits. Why not the blit (glBlitFramebuffer): llvmpipe compiles its blit shader in every process
// (no on-disk cache keeps it), 20-50 ms of each start; this program the shader cache keeps.
// SAMPLES is what was asked for; a driver may give more (llvmpipe makes every multisampled buffer 4 samples, so
// a mean of the first 2 of 4 was a different picture from the blit's): where the GLSL can ask the texture, its
// own count is used.
#if defined VERTEX_SHADER
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // one triangle over the viewport
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
#extension GL_ARB_shader_texture_image_samples : enable
uniform sampler2DMS u_frame;
out vec4 f_color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
#if defined GL_ARB_shader_texture_image_samples
    int samples = textureSamples(u_frame);
#else
    int samples = SAMPLES;
#endif
    vec4 sum = vec4(0.0);
    for (int i = 0; i < samples; i++) {
        sum += texelFetch(u_frame, p, i);
    }
    f_color = sum * (1.0 / float(samples));
}
#endif
