// Rows built by a macro, an include guard and an #if 0 block (written for inlay's tests).
#ifndef MACROS_H
#define MACROS_H

#define VTX(n, f, o) { n, 0, f, 0, o, D3D11_INPUT_PER_VERTEX_DATA, 0 }

#if 0
const D3D11_INPUT_ELEMENT_DESC kOld[] = { VTX("OLD", DXGI_FORMAT_R32_FLOAT, 0) };
#endif

namespace Scene
{
    const D3D11_INPUT_ELEMENT_DESC kMesh[] =
    {
        VTX("POSITION", DXGI_FORMAT_R32G32B32_FLOAT, 0),
        VTX("NORMAL", NORMAL_FORMAT, 12),
    };
}

#endif
