// The same vertex in 12 bytes instead of 24: half-float positions, 8-bit colours.
const D3D11_INPUT_ELEMENT_DESC packedDesc[] = {
    { "POSITION", 0, DXGI_FORMAT_R16G16B16A16_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "COLOR",    0, DXGI_FORMAT_R8G8B8A8_UNORM,     0, 8, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};
