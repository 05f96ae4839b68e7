// Linear blend skinning from a joint-matrix texture (glTF 2.0 §3.7.3).
// Joint j of the draw's skin is the matrix world(joint) x inverseBindMatrix, stored as its four
// columns in four RGBA32F texels: texel index i = (u_joint_offset + j) * 4 + column, laid out in rows of
// u_joint_tex's width. A texture has no uniform-array limit: 1024 joints per row x 16384 rows.
// The skinned mesh's own node transform is not applied (the spec says to ignore it).
#ifdef SKIN
in vec4 in_joints0;   // joint indices as floats (exact below 2^24)
in vec4 in_weights0;  // normalized integer weights arrive already dequantized
#ifdef SKIN_8
in vec4 in_joints1;
in vec4 in_weights1;
#endif
uniform sampler2D u_joint_tex;
uniform int u_joint_offset;

mat4 joint_matrix(float joint) {
    int base = (u_joint_offset + int(joint + 0.5)) * 4;
    int width = textureSize(u_joint_tex, 0).x;
    int x = base % width;
    int y = base / width;
    return mat4(texelFetch(u_joint_tex, ivec2(x, y), 0),
                texelFetch(u_joint_tex, ivec2(x + 1, y), 0),
                texelFetch(u_joint_tex, ivec2(x + 2, y), 0),
                texelFetch(u_joint_tex, ivec2(x + 3, y), 0));
}

// Weighted sum of the joint matrices of one vertex (4 or 8 influences); zero weights are skipped.
mat4 skin_matrix() {
    mat4 m = mat4(0.0);
    for (int k = 0; k < 4; ++k) {
        if (in_weights0[k] != 0.0) m += in_weights0[k] * joint_matrix(in_joints0[k]);
    }
#ifdef SKIN_8
    for (int k = 0; k < 4; ++k) {
        if (in_weights1[k] != 0.0) m += in_weights1[k] * joint_matrix(in_joints1[k]);
    }
#endif
    return m;
}
#endif
