// SharpDX-style instanced layout (written for inlay's tests).
using SharpDX.Direct3D11;
using SharpDX.DXGI;

static class Layouts
{
    public static readonly InputElement[] Instanced = new[]
    {
        new InputElement("POSITION", 0, Format.R32G32B32_Float, 0, 0),
        new InputElement("TEXCOORD", 0, Format.R32G32_Float, 12, 0),
        new InputElement("WORLDPOS", 0, Format.R32G32B32A32_Float, 0, 1, InputClassification.PerInstanceData, 1),
    };
}
