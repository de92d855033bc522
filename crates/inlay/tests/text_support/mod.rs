//! The C source of many one-line arrays, shared by `hostile_text` (the lines are right) and
//! the `text` bench (the reader stays linear).

/// `n` small `D3D11_INPUT_ELEMENT_DESC` arrays `a0`…, one per line.
pub fn arrays(n: usize) -> String {
    let mut s = String::with_capacity(n * 100);
    for i in 0..n {
        s.push_str(&format!(
            "D3D11_INPUT_ELEMENT_DESC a{i}[] = {{ {{ \"P\", 0, DXGI_FORMAT_R32_FLOAT, 0, 0, \
             D3D11_INPUT_PER_VERTEX_DATA, 0 }} }};\n"
        ));
    }
    s
}
