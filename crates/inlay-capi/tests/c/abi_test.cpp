// C++17 test of libinlay's ABI, linked through pkg-config by tests/c_programs.rs.
//
// It declares the real D3D11_INPUT_ELEMENT_DESC and D3D10_INPUT_ELEMENT_DESC as the Windows SDK
// headers do (d3d11.h, d3d10.h: LPCSTR, UINT, DXGI_FORMAT and the classification enums), proves
// at compile time that they are binary-identical to INLAY_INPUT_ELEMENT_DESC, and passes such
// arrays to inlay by a pointer cast — what a translation layer does with its caller's arrays.
// It also runs layouts and streams on several threads at once (layouts are shareable).
//
// usage: abi_test_cpp SEED_DXBC     (POSITION v0.xyz, COLOR v1.xyz)
#include <inlay.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

// --- the Windows SDK's declarations (d3d11.h / d3d10.h / dxgiformat.h), as written there ---
typedef const char *LPCSTR;
typedef unsigned int UINT;
enum DXGI_FORMAT {
    DXGI_FORMAT_UNKNOWN = 0,
    DXGI_FORMAT_R32G32B32_FLOAT = 6,
    DXGI_FORMAT_R16G16B16A16_FLOAT = 10,
    DXGI_FORMAT_R8G8B8A8_UNORM = 28,
    DXGI_FORMAT_FORCE_UINT = 0xffffffff
};
enum D3D11_INPUT_CLASSIFICATION { D3D11_INPUT_PER_VERTEX_DATA = 0, D3D11_INPUT_PER_INSTANCE_DATA = 1 };
enum D3D10_INPUT_CLASSIFICATION { D3D10_INPUT_PER_VERTEX_DATA = 0, D3D10_INPUT_PER_INSTANCE_DATA = 1 };
#define D3D11_APPEND_ALIGNED_ELEMENT (0xffffffff)
typedef struct D3D11_INPUT_ELEMENT_DESC {
    LPCSTR SemanticName;
    UINT SemanticIndex;
    DXGI_FORMAT Format;
    UINT InputSlot;
    UINT AlignedByteOffset;
    D3D11_INPUT_CLASSIFICATION InputSlotClass;
    UINT InstanceDataStepRate;
} D3D11_INPUT_ELEMENT_DESC;
typedef struct D3D10_INPUT_ELEMENT_DESC {
    LPCSTR SemanticName;
    UINT SemanticIndex;
    DXGI_FORMAT Format;
    UINT InputSlot;
    UINT AlignedByteOffset;
    D3D10_INPUT_CLASSIFICATION InputSlotClass;
    UINT InstanceDataStepRate;
} D3D10_INPUT_ELEMENT_DESC;
// -------------------------------------------------------------------------------------------

#define SAME_FIELD(T, f)                                                                       \
    static_assert(offsetof(T, f) == offsetof(INLAY_INPUT_ELEMENT_DESC, f), #T "::" #f);      \
    static_assert(sizeof(T::f) == sizeof(INLAY_INPUT_ELEMENT_DESC::f), #T "::" #f " size")
#define SAME_LAYOUT(T)                                                                         \
    static_assert(sizeof(T) == sizeof(INLAY_INPUT_ELEMENT_DESC), #T " size");                  \
    static_assert(alignof(T) == alignof(INLAY_INPUT_ELEMENT_DESC), #T " alignment");           \
    SAME_FIELD(T, SemanticName);                                                               \
    SAME_FIELD(T, SemanticIndex);                                                              \
    SAME_FIELD(T, Format);                                                                     \
    SAME_FIELD(T, InputSlot);                                                                  \
    SAME_FIELD(T, AlignedByteOffset);                                                          \
    SAME_FIELD(T, InputSlotClass);                                                             \
    SAME_FIELD(T, InstanceDataStepRate)
SAME_LAYOUT(D3D11_INPUT_ELEMENT_DESC);
SAME_LAYOUT(D3D10_INPUT_ELEMENT_DESC);
static_assert(D3D11_APPEND_ALIGNED_ELEMENT == INLAY_APPEND_ALIGNED_ELEMENT, "append");
static_assert(INLAY_PER_INSTANCE_DATA == D3D11_INPUT_PER_INSTANCE_DATA, "class");
static_assert(static_cast<std::uint32_t>(INLAY_E_INVALIDARG) == 0x80070057u, "E_INVALIDARG");
static_assert(INLAY_FEATURE_LEVEL_9_1 == 0x9100 && INLAY_FEATURE_LEVEL_11_1 == 0xb100, "levels");

namespace {

int checks = 0, failures = 0;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        ++checks;                                                                              \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                       \
        }                                                                                      \
    } while (0)

struct LayoutDeleter {
    void operator()(inlay_layout *l) const { inlay_layout_release(l); }
};
struct DiagnosticsDeleter {
    void operator()(inlay_diagnostics *d) const { inlay_diagnostics_release(d); }
};
struct StreamDeleter {
    void operator()(inlay_stream *s) const { inlay_stream_release(s); }
};
using Layout = std::unique_ptr<inlay_layout, LayoutDeleter>;
using Diagnostics = std::unique_ptr<inlay_diagnostics, DiagnosticsDeleter>;
using Stream = std::unique_ptr<inlay_stream, StreamDeleter>;

std::vector<unsigned char> seed;

template <typename Desc, std::size_t N>
std::int32_t create(const inlay_target *target, const std::array<Desc, N> &descs, Layout *out,
                    Diagnostics *diagnostics) {
    inlay_layout *layout = nullptr;
    inlay_diagnostics *d = nullptr;
    // The cast a translation layer makes: the SDK struct is binary-identical.
    std::int32_t hr = inlay_create_input_layout(
        target, reinterpret_cast<const INLAY_INPUT_ELEMENT_DESC *>(descs.data()),
        static_cast<std::uint32_t>(N), seed.data(), seed.size(), out ? &layout : nullptr, &d);
    if (out) out->reset(layout);
    Diagnostics owned(d);
    if (diagnostics) *diagnostics = std::move(owned);
    return hr;
}

const std::array<D3D11_INPUT_ELEMENT_DESC, 2> kSeed11 = {{
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT,
     D3D11_INPUT_PER_VERTEX_DATA, 0},
}};

// Decodes a 64-vertex draw (a DrawIndexedInstanced with a strip cut) through `layout` on the
// caller's stream `s` (one per thread, reused for every draw) and returns every fetched lane
// and ID, then every primitive's IDs and vertex positions; the same on every thread.
std::vector<std::uint32_t> decode(inlay_stream *s, const inlay_layout *layout) {
    std::vector<float> vb;
    for (int i = 0; i < 64 * 6; ++i) vb.push_back(static_cast<float>(i) * 0.25f - 3.0f);
    std::vector<std::uint16_t> ib;
    for (int i = 0; i < 40; ++i) ib.push_back(i == 17 ? 0xffff : static_cast<std::uint16_t>((i * 7) % 70));
    inlay_vertex_buffer buffer{vb.data(), vb.size() * sizeof(float), 24, 0};
    inlay_index_buffer index{ib.data(), ib.size() * sizeof(std::uint16_t), INLAY_INDEX_R16_UINT, 0};
    inlay_ia_state state{&buffer, 1, 5 /* triangle strip */, &index};
    inlay_draw draw{};
    draw.kind = INLAY_DRAW_INDEXED_INSTANCED;
    draw.count = 40;
    draw.instance_count = 3;
    draw.base_vertex = -2;
    std::vector<std::uint32_t> out;
    if (inlay_stream_begin(s, layout, &state, &draw) != INLAY_S_OK) return out;
    std::uint32_t regs[7 * 2][4];
    inlay_vertex_ids ids[7];
    std::size_t got = 0;
    while (inlay_stream_fetch(s, 7, ids, regs, 14, &got) == INLAY_S_OK) {
        for (std::size_t k = 0; k < got; ++k) {
            out.push_back(ids[k].vertex_id);
            out.push_back(ids[k].instance_id);
            for (int r = 0; r < 2; ++r) out.insert(out.end(), regs[2 * k + r], regs[2 * k + r] + 4);
        }
    }
    if (inlay_stream_primitive_size(s) != 3) return {};
    inlay_primitive_ids pids[5];
    std::uint64_t positions[5 * 3];
    while (inlay_stream_primitives(s, 5, pids, positions, 15, &got) == INLAY_S_OK) {
        for (std::size_t k = 0; k < got; ++k) {
            out.push_back(pids[k].primitive_id);
            out.push_back(pids[k].instance_id);
            for (int v = 0; v < 3; ++v) out.push_back(static_cast<std::uint32_t>(positions[3 * k + v]));
        }
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SEED_DXBC\n", argv[0]);
        return 2;
    }
    std::ifstream f(argv[1], std::ios::binary);
    seed.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    CHECK(!seed.empty());

    // D3D11 array by cast.
    Layout layout;
    Diagnostics d;
    CHECK(create(nullptr, kSeed11, &layout, &d) == INLAY_S_OK);
    CHECK(layout != nullptr);
    CHECK(inlay_diagnostics_count(d.get()) == 0);
    CHECK(inlay_layout_element_offset(layout.get(), 1) == 12);
    CHECK(inlay_layout_slot_min_stride(layout.get(), 0) == 24);

    // D3D10 array by cast, on the D3D10 runtime.
    const std::array<D3D10_INPUT_ELEMENT_DESC, 2> seed10 = {{
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D10_INPUT_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 12, D3D10_INPUT_PER_VERTEX_DATA, 0},
    }};
    const inlay_target d3d10{INLAY_API_D3D10, INLAY_FEATURE_LEVEL_10_0};
    Layout layout10;
    CHECK(create(&d3d10, seed10, &layout10, nullptr) == INLAY_S_OK);
    CHECK(inlay_layout_slot_min_stride(layout10.get(), 0) == 16);

    // A D3D11 error case with its element index: COLOR in an invalid slot.
    std::array<D3D11_INPUT_ELEMENT_DESC, 2> bad = kSeed11;
    bad[1].InputSlot = 40;
    CHECK(create(nullptr, bad, nullptr, &d) == INLAY_E_INVALIDARG);
    std::uint32_t id = 0, severity = 0;
    std::int32_t element = -2;
    const char *message = nullptr;
    CHECK(inlay_diagnostic_get(d.get(), 0, &id, &severity, &element, &message) == 0);
    CHECK(id == 154 && severity == INLAY_SEVERITY_ERROR && element == 1);
    CHECK(message != nullptr && std::strstr(message, "40") != nullptr);

    // Validate only.
    CHECK(create(nullptr, kSeed11, nullptr, nullptr) == INLAY_S_FALSE);

    // One layout shared by four threads, each with its own stream reused for every draw:
    // identical results.
    Stream mine(inlay_stream_create());
    const std::vector<std::uint32_t> expected = decode(mine.get(), layout.get());
    // 3 instances × (40 indices − 1 cut) × 10 words, then per instance the strips of 17 and
    // 22 vertices make 15 + 20 triangles, 5 words each.
    CHECK(expected.size() == 3u * 39u * 10u + 3u * 35u * 5u);
    // The first triangle of instance 1 starts at stream position 39, primitive id 0; the
    // second strip's first triangle (position 17) has id 15: cuts do not reset the count.
    const std::size_t p0 = 3u * 39u * 10u;
    CHECK(expected[p0 + 15 * 5] == 15 && expected[p0 + 15 * 5 + 2] == 17);
    CHECK(expected[p0 + 35 * 5] == 0 && expected[p0 + 35 * 5 + 1] == 1 &&
          expected[p0 + 35 * 5 + 2] == 39);
    std::vector<std::vector<std::uint32_t>> results(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] {
            Stream s(inlay_stream_create());
            for (int round = 0; round < 20; ++round) results[t] = decode(s.get(), layout.get());
        });
    for (auto &t : threads) t.join();
    for (const auto &r : results) CHECK(r == expected);

    std::printf("abi_test_cpp: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
