// Several layouts of one renderer (the style of a real engine header).
#pragma once
#include <d3d11.h>

/* Static mesh: position, normal, uv, packed colour. */
static const D3D11_INPUT_ELEMENT_DESC kStaticMesh[] =
{
    { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT,    0, 0,                            D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "NORMAL",   0, DXGI_FORMAT_R16G16B16A16_SNORM, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD", 0, DXGI_FORMAT_R16G16_FLOAT,       0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "COLOR",    0, DXGI_FORMAT_B8G8R8A8_UNORM,     0, 0x1C,                         D3D11_INPUT_PER_VERTEX_DATA, 0 },
};

// Instanced sprites: a quad corner per vertex, a transform per instance.
constexpr D3D11_INPUT_ELEMENT_DESC kSprites[] = {
    {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"INSTANCE", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1},
    {"INSTANCE", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 16u, D3D11_INPUT_PER_INSTANCE_DATA, 1},
    {"INSTANCE", 2, DXGI_FORMAT_R8G8B8A8_UINT, 1, 32, D3D11_INPUT_PER_INSTANCE_DATA, 1},
};

// A broken one: COLOR is misaligned and TEXCOORD1 carries its index in the name.
const D3D11_INPUT_ELEMENT_DESC kBroken[] = {
    { "POSITION",  0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0,  D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "COLOR",     0, DXGI_FORMAT_R8G8B8A8_UNORM,  0, 13, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD1", 0, DXGI_FORMAT_R32G32_FLOAT,    0, 20, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};

// Overlapping elements and padding (legal: CreateInputLayout allows aliasing).
const D3D11_INPUT_ELEMENT_DESC kAliased[] = {
    { "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,  D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT,       0, 8,  D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "COLOR",    0, DXGI_FORMAT_R8G8B8A8_UNORM,     0, 24, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};
