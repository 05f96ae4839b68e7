#version 330 core
// Post-process anti-aliasing: a frame drawn without multisampling is copied to its destination viewport,
// blurred along the edges it finds (FXAA's idea: where luma changes across a pixel's diagonal neighbours,
// average a few taps along the edge's direction and keep that only if it stays within the local luma range).
// With u_fxaa = 0 the pass is a plain copy (how the window puts an MSAA-resolved view on screen).
#if defined VERTEX_SHADER
out vec2 v_uv;
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // one triangle over the viewport
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
in vec2 v_uv;
uniform sampler2D u_frame;  // linear filtering: the taps along an edge fall between texel centres
uniform vec2 u_texel;       // 1 / the frame's size in pixels
uniform int u_fxaa;
out vec4 f_color;

const float EDGE_MIN = 1.0 / 24.0;  // below this luma contrast nothing is touched (noise, flat colour)
const float EDGE_REL = 1.0 / 8.0;   // ... nor below this fraction of the local maximum (dark areas)
const float DIR_FLOOR = 1.0 / 128.0;
const float DIR_DAMP = 1.0 / 4.0;
const float REACH = 4.0;             // pixels the blur may reach along an edge

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }  // of the displayed (sRGB-encoded) colour

void main() {
    vec4 centre = texture(u_frame, v_uv);
    if (u_fxaa == 0) { f_color = centre; return; }
    float m = luma(centre.rgb);
    float nw = luma(textureOffset(u_frame, v_uv, ivec2(-1, 1)).rgb);
    float ne = luma(textureOffset(u_frame, v_uv, ivec2(1, 1)).rgb);
    float sw = luma(textureOffset(u_frame, v_uv, ivec2(-1, -1)).rgb);
    float se = luma(textureOffset(u_frame, v_uv, ivec2(1, -1)).rgb);
    float lo = min(m, min(min(nw, ne), min(sw, se)));
    float hi = max(m, max(max(nw, ne), max(sw, se)));
    if (hi - lo < max(EDGE_MIN, hi * EDGE_REL)) { f_color = centre; return; }
    // luma's gradient from the diagonals (texture y points up), turned a quarter: it points along the edge
    vec2 along = vec2((sw + se) - (nw + ne), (ne + se) - (nw + sw));
    float damp = max((nw + ne + sw + se) * 0.25 * DIR_DAMP, DIR_FLOOR);
    along *= 1.0 / (min(abs(along.x), abs(along.y)) + damp);  // the shorter component scaled to about a pixel
    along = clamp(along, -REACH, REACH) * u_texel;
    vec3 near = 0.5 * (texture(u_frame, v_uv - along / 6.0).rgb + texture(u_frame, v_uv + along / 6.0).rgb);
    vec3 far = 0.5 * near + 0.25 * (texture(u_frame, v_uv - along * 0.5).rgb
                                    + texture(u_frame, v_uv + along * 0.5).rgb);
    float l = luma(far);
    f_color = vec4((l < lo || l > hi) ? near : far, centre.a);  // the wide taps crossed another edge: keep near
}
#endif
