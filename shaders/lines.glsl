#version 330 core
// Ground grid and axis gizmo: coloured lines, colours given in sRGB and written as they are.
#if defined VERTEX_SHADER
in vec3 in_position;
in vec4 in_color;
uniform mat4 u_mvp;
out vec4 v_color;
void main() {
    v_color = in_color;
    gl_Position = u_mvp * vec4(in_position, 1.0);
}
#elif defined FRAGMENT_SHADER
in vec4 v_color;
out vec4 f_color;
void main() {
    f_color = v_color;
}
#endif
