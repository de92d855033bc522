/*
 * C99 test of libinlay's ABI, linked through pkg-config by tests/c_programs.rs.
 *
 * usage: abi_test SEED_DXBC [CORPUS_DXBC | -]
 *   SEED_DXBC    input-signature blob of the seed shader (POSITION v0.xyz, COLOR v1.xyz)
 *   CORPUS_DXBC  a real fxc-compiled vertex shader (dxtk__BasicEffect_VSBasicOneLightTx:
 *                SV_Position v0, NORMAL v1, TEXCOORD0 v2), or "-" when the corpus is absent
 *
 * Prints one line per failed check and a summary "abi_test: N checks, M failed"; exits 1 when
 * a check failed.
 */
#include <inlay.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The element description is a pointer followed by six 32-bit fields, like
 * D3D11_INPUT_ELEMENT_DESC (C99 has no _Static_assert: a negative array size fails). */
#define STATIC_ASSERT(name, cond) typedef char static_assert_##name[(cond) ? 1 : -1]
STATIC_ASSERT(desc_size, sizeof(INLAY_INPUT_ELEMENT_DESC) == sizeof(const char *) + 24);
STATIC_ASSERT(desc_name, offsetof(INLAY_INPUT_ELEMENT_DESC, SemanticName) == 0);
STATIC_ASSERT(desc_index,
              offsetof(INLAY_INPUT_ELEMENT_DESC, SemanticIndex) == sizeof(const char *));
STATIC_ASSERT(desc_step, offsetof(INLAY_INPUT_ELEMENT_DESC, InstanceDataStepRate) ==
                             sizeof(const char *) + 20);
STATIC_ASSERT(target_size, sizeof(inlay_target) == 8);
STATIC_ASSERT(append_value, INLAY_APPEND_ALIGNED_ELEMENT == 0xffffffffu);
STATIC_ASSERT(e_invalidarg, (uint32_t)INLAY_E_INVALIDARG == 0x80070057u);
STATIC_ASSERT(fl_11_0, INLAY_FEATURE_LEVEL_11_0 == 0xb000);

#define DXGI_FORMAT_UNKNOWN 0
#define DXGI_FORMAT_R32G32B32A32_TYPELESS 1
#define DXGI_FORMAT_R32G32B32A32_FLOAT 2
#define DXGI_FORMAT_R32G32B32_FLOAT 6
#define DXGI_FORMAT_R32G32B32_UINT 7
#define DXGI_FORMAT_R32G32_FLOAT 16
#define DXGI_FORMAT_R8G8B8A8_UNORM 28
#define DXGI_FORMAT_R32_FLOAT 41
#define DXGI_FORMAT_R8_UNORM 61

static int checks, failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        ++checks;                                                                              \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                             \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
        }                                                                                      \
    } while (0)

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static unsigned char *seed;
static size_t seed_size;

static INLAY_INPUT_ELEMENT_DESC element(const char *name, uint32_t format, uint32_t slot,
                                        uint32_t offset) {
    INLAY_INPUT_ELEMENT_DESC e;
    e.SemanticName = name;
    e.SemanticIndex = 0;
    e.Format = format;
    e.InputSlot = slot;
    e.AlignedByteOffset = offset;
    e.InputSlotClass = INLAY_PER_VERTEX_DATA;
    e.InstanceDataStepRate = 0;
    return e;
}

/* Whether the diagnostics hold message `id` with `severity`. */
static int has_message(const inlay_diagnostics *d, uint32_t id, uint32_t severity) {
    size_t i, n = inlay_diagnostics_count(d);
    for (i = 0; i < n; ++i) {
        uint32_t got_id = 0, got_severity = 0;
        int32_t got_element = -2;
        const char *message = NULL;
        if (inlay_diagnostic_get(d, i, &got_id, &got_severity, &got_element, &message) != 0)
            return 0;
        if (!message || !message[0]) return 0;
        if (got_id == id && got_severity == severity) return 1;
    }
    return 0;
}

/* One creation against the seed blob: returns the HRESULT and checks that message `id`
 * (0: none expected) of `severity` is reported. */
static int32_t create_expect(const char *what, const inlay_target *target,
                             const INLAY_INPUT_ELEMENT_DESC *descs, uint32_t n, uint32_t id,
                             uint32_t severity, int32_t expected_hr) {
    inlay_layout *layout = (inlay_layout *)&layout; /* garbage: must be overwritten */
    inlay_diagnostics *d = NULL;
    int32_t hr =
        inlay_create_input_layout(target, descs, n, seed, seed_size, &layout, &d);
    CHECK(hr == expected_hr, "%s: hr %08x, expected %08x", what, (unsigned)hr,
          (unsigned)expected_hr);
    CHECK(d != NULL, "%s: no diagnostics", what);
    if (id) CHECK(has_message(d, id, severity), "%s: message %u missing", what, (unsigned)id);
    CHECK((hr == INLAY_S_OK) == (layout != NULL), "%s: layout %p for hr %08x", what,
          (void *)layout, (unsigned)hr);
    inlay_layout_release(layout);
    inlay_diagnostics_release(d);
    return hr;
}

static void test_seed(void) {
    INLAY_INPUT_ELEMENT_DESC descs[2];
    inlay_layout *layout = NULL;
    inlay_diagnostics *d = NULL;
    inlay_target t11 = {INLAY_API_D3D11, INLAY_FEATURE_LEVEL_11_0};
    int32_t hr;
    descs[0] = element("POSITION", DXGI_FORMAT_R32G32B32_FLOAT, 0, 0);
    descs[1] = element("COLOR", DXGI_FORMAT_R32G32B32_FLOAT, 0, INLAY_APPEND_ALIGNED_ELEMENT);

    hr = inlay_create_input_layout(NULL, descs, 2, seed, seed_size, &layout, &d);
    CHECK(hr == INLAY_S_OK, "seed: hr %08x", (unsigned)hr);
    CHECK(layout != NULL, "seed: no layout");
    CHECK(inlay_diagnostics_count(d) == 0, "seed: %u messages",
          (unsigned)inlay_diagnostics_count(d));
    CHECK(inlay_layout_element_count(layout) == 2, "count");
    CHECK(inlay_layout_element_offset(layout, 0) == 0, "offset 0");
    CHECK(inlay_layout_element_offset(layout, 1) == 12, "offset 1: %u",
          inlay_layout_element_offset(layout, 1));
    CHECK(inlay_layout_element_offset(layout, 2) == UINT32_MAX, "offset past the end");
    CHECK(inlay_layout_element_register(layout, 0) == 0, "register 0");
    CHECK(inlay_layout_element_register(layout, 1) == 1, "register 1");
    CHECK(inlay_layout_element_register(layout, 2) == -1, "register past the end");
    CHECK(inlay_layout_slot_min_stride(layout, 0) == 24, "stride 0: %u",
          inlay_layout_slot_min_stride(layout, 0));
    CHECK(inlay_layout_slot_min_stride(layout, 1) == 0, "stride of an unused slot");
    CHECK(inlay_layout_register_mask(layout) == 3, "mask %x", inlay_layout_register_mask(layout));
    inlay_diagnostics_release(d);

    /* The seed triangle (shared/conformance/examples/seed.json), exact bits. */
    {
        static const float vb[18] = {0.0f, 0.5f,  0.5f, 1.0f, 0.0f,  0.0f, 0.5f, -0.5f, 0.5f,
                                     0.0f, 1.0f,  0.0f, -0.5f, -0.5f, 0.5f, 0.0f, 0.0f, 1.0f};
        static const uint32_t expected[3][2][4] = {
            {{0x00000000, 0x3f000000, 0x3f000000, 0x3f800000},
             {0x3f800000, 0x00000000, 0x00000000, 0x3f800000}},
            {{0x3f000000, 0xbf000000, 0x3f000000, 0x3f800000},
             {0x00000000, 0x3f800000, 0x00000000, 0x3f800000}},
            {{0xbf000000, 0xbf000000, 0x3f000000, 0x3f800000},
             {0x00000000, 0x00000000, 0x3f800000, 0x3f800000}}};
        inlay_vertex_buffer buffer;
        inlay_ia_state state;
        inlay_draw draw;
        inlay_vertex_ids ids[4];
        uint32_t regs[8][4];
        size_t got = 99;
        inlay_stream *s = inlay_stream_create();
        buffer.data = vb;
        buffer.size = sizeof vb;
        buffer.stride = 24;
        buffer.offset = 0;
        memset(&state, 0, sizeof state);
        state.vertex_buffers = &buffer;
        state.num_vertex_buffers = 1;
        memset(&draw, 0, sizeof draw);
        /* One stream serves draw after draw. First an indexed triangle strip with a cut
         * (ia-semantics §6): strip 0, 1, 2, 3 gives triangles (0, 1, 2) and (1, 3, 2) (odd
         * triangles swap their last two vertices), the cut ends it, and 2, 1, 0 at stream
         * positions 4, 5, 6 give (4, 5, 6); SV_PrimitiveID counts on across the cut. */
        {
            static const uint16_t indices[8] = {0, 1, 2, 3, 0xffff, 2, 1, 0};
            static const uint64_t expected_positions[9] = {0, 1, 2, 1, 3, 2, 4, 5, 6};
            static const uint32_t expected_vertex_ids[7] = {0, 1, 2, 3, 2, 1, 0};
            inlay_index_buffer ib;
            inlay_primitive_ids pids[4];
            uint64_t positions[12];
            size_t k;
            ib.data = indices;
            ib.size = sizeof indices;
            ib.format = INLAY_INDEX_R16_UINT;
            ib.offset = 0;
            state.index_buffer = &ib;
            state.topology = 5; /* D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP */
            draw.kind = INLAY_DRAW_INDEXED;
            draw.count = 8;
            CHECK(inlay_stream_begin(s, layout, &state, &draw) == INLAY_S_OK, "strip: %s",
                  inlay_stream_error(s));
            CHECK(inlay_stream_primitive_size(s) == 3, "triangles have 3 vertices");
            CHECK(inlay_stream_primitives(s, 4, pids, positions, 12, &got) == INLAY_S_OK &&
                      got == 3,
                  "primitives: %u", (unsigned)got);
            CHECK(memcmp(positions, expected_positions, sizeof expected_positions) == 0,
                  "strip primitive positions");
            CHECK(pids[0].primitive_id == 0 && pids[1].primitive_id == 1 &&
                      pids[2].primitive_id == 2 && pids[2].instance_id == 0,
                  "primitive ids");
            CHECK(inlay_stream_primitives(s, 4, pids, positions, 12, &got) == INLAY_S_FALSE &&
                      got == 0,
                  "end of the primitives");
            CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_OK && got == 4,
                  "strip batch 1");
            CHECK(inlay_stream_fetch(s, 4, ids + 0, regs, 8, &got) == INLAY_S_OK && got == 3,
                  "strip batch 2");
            for (k = 0; k < 3; k++)
                CHECK(ids[k].position == 4 + k && ids[k].vertex_id == expected_vertex_ids[4 + k],
                      "strip vertex %u", (unsigned)(4 + k));
            /* Position 5 reads vertex 1 of the seed triangle. */
            CHECK(memcmp(regs[2], expected[1], sizeof expected[1]) == 0, "strip registers");
            CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_FALSE, "strip end");
            state.index_buffer = NULL;
        }
        state.topology = 4; /* D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST */
        draw.kind = INLAY_DRAW;
        draw.count = 3;
        CHECK(inlay_stream_begin(s, layout, &state, &draw) == INLAY_S_OK, "begin: %s",
              inlay_stream_error(s));
        CHECK(inlay_stream_register_count(s) == 2, "register count");
        /* Release the layout now: the stream holds its own reference. */
        inlay_layout_release(layout);
        layout = NULL;
        CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_OK, "fetch: %s",
              inlay_stream_error(s));
        CHECK(got == 3, "fetched %u", (unsigned)got);
        CHECK(memcmp(regs, expected, sizeof expected) == 0, "seed registers differ");
        CHECK(ids[2].vertex_id == 2 && ids[2].instance_id == 0 && ids[2].position == 2,
              "ids of vertex 2");
        CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_FALSE && got == 0,
              "end of the stream");
        CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_FALSE, "still ended");
        inlay_stream_release(s);
    }

    /* Validate only: S_FALSE, nothing created; a NULL target equals D3D11 at 11_0. */
    hr = inlay_create_input_layout(&t11, descs, 2, seed, seed_size, NULL, NULL);
    CHECK(hr == INLAY_S_FALSE, "validate only: %08x", (unsigned)hr);
}

/* One representative case per rule group of createinputlayout-rules.md. */
static void test_rule_groups(void) {
    INLAY_INPUT_ELEMENT_DESC e[4];
    inlay_target t91 = {INLAY_API_D3D11, INLAY_FEATURE_LEVEL_9_1};
    inlay_target t10 = {INLAY_API_D3D10, INLAY_FEATURE_LEVEL_10_0};
    const uint32_t ERR = INLAY_SEVERITY_ERROR, WARN = INLAY_SEVERITY_WARNING;
    int32_t BAD = INLAY_E_INVALIDARG;
#define SEED()                                                                                 \
    (e[0] = element("POSITION", DXGI_FORMAT_R32G32B32_FLOAT, 0, 0),                            \
     e[1] = element("COLOR", DXGI_FORMAT_R32G32B32_FLOAT, 0, 12))

    /* R1 array pointer, R2 empty, R3 count. */
    create_expect("R1 NULL array", NULL, NULL, 0, 164, ERR, BAD);
    SEED();
    create_expect("R2 empty layout", NULL, e, 0, 420, WARN, BAD); /* 163: POSITION missing */
    create_expect("R3 33 elements (array of 2 never read)", NULL, e, 33, 151, ERR, BAD);
    create_expect("R3 17 elements on D3D10", &t10, e, 17, 151, ERR, BAD);
    /* R8 slots, R10–R13 classes and step rates. */
    SEED();
    e[1].InputSlot = 32;
    create_expect("R8 slot 32", NULL, e, 2, 154, ERR, BAD);
    SEED();
    e[1].InputSlotClass = 7;
    create_expect("R10 class 7", NULL, e, 2, 155, ERR, BAD);
    SEED();
    e[1].InstanceDataStepRate = 1;
    create_expect("R11 per-vertex step rate 1", NULL, e, 2, 156, ERR, BAD);
    SEED();
    e[1].InputSlotClass = INLAY_PER_INSTANCE_DATA;
    e[1].InstanceDataStepRate = 1;
    create_expect("R12 class change in a slot", NULL, e, 2, 157, ERR, BAD);
    /* R14 NULL name, R16 trailing digit, R19 duplicates. */
    SEED();
    e[1].SemanticName = NULL;
    create_expect("R14 NULL name", NULL, e, 2, 162, ERR, BAD);
    SEED();
    e[2] = element("TEXCOORD1", DXGI_FORMAT_R32G32_FLOAT, 1, 0);
    create_expect("R16 trailing digit", NULL, e, 3, 385, WARN, INLAY_S_OK);
    SEED();
    e[2] = element("color", DXGI_FORMAT_R32G32_FLOAT, 1, 0);
    create_expect("R19 duplicate semantic", NULL, e, 3, 160, ERR, BAD);
    /* R18 missing element, R23 type mismatch. */
    SEED();
    create_expect("R18 COLOR missing", NULL, e, 1, 163, ERR, BAD);
    SEED();
    e[1].Format = DXGI_FORMAT_R32G32B32_UINT;
    create_expect("R23 type mismatch", NULL, e, 2, 391, WARN, INLAY_S_OK);
    /* R20 formats. */
    SEED();
    e[1].Format = DXGI_FORMAT_UNKNOWN;
    create_expect("R20 UNKNOWN", NULL, e, 2, 152, ERR, BAD);
    SEED();
    e[1].Format = 9999;
    create_expect("R20 undefined value", NULL, e, 2, 152, ERR, BAD);
    SEED();
    e[1].Format = DXGI_FORMAT_R32G32B32A32_TYPELESS;
    create_expect("R20 typeless", NULL, e, 2, 153, ERR, BAD);
    /* R24–R26 alignment and APPEND_ALIGNED. */
    SEED();
    e[1].AlignedByteOffset = 14;
    create_expect("R24 misaligned offset", NULL, e, 2, 159, ERR, BAD);
    /* R31/R32 unreadable bytecode. */
    {
        static const unsigned char garbage[32] = {'D', 'X', 'B', 'C', 1, 2, 3};
        inlay_diagnostics *d = NULL;
        SEED();
        CHECK(inlay_create_input_layout(NULL, e, 2, garbage, sizeof garbage, NULL, &d) == BAD,
              "R31 garbage bytecode");
        CHECK(has_message(d, 161, ERR), "R31 message 161");
        inlay_diagnostics_release(d);
        d = NULL;
        CHECK(inlay_create_input_layout(NULL, e, 2, NULL, 100, NULL, &d) == BAD,
              "R31 NULL bytecode");
        CHECK(has_message(d, 161, ERR), "R31 NULL: 161");
        inlay_diagnostics_release(d);
    }
    /* R41 level 9: no instancing at 9_1. */
    SEED();
    e[1].InputSlot = 1;
    e[1].InputSlotClass = INLAY_PER_INSTANCE_DATA;
    e[1].InstanceDataStepRate = 1;
    create_expect("R41 instancing at 9_1", &t91, e, 2, 3146124, ERR, BAD);
#undef SEED
}

static void test_corpus(const char *path) {
    size_t size = 0;
    unsigned char *vs;
    INLAY_INPUT_ELEMENT_DESC e[3];
    inlay_layout *layout = NULL;
    int32_t hr;
    if (strcmp(path, "-") == 0) {
        printf("abi_test: corpus shader skipped (corpus not found)\n");
        return;
    }
    vs = read_file(path, &size);
    CHECK(vs != NULL, "cannot read %s", path);
    if (!vs) return;
    e[0] = element("SV_Position", DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0);
    e[1] = element("NORMAL", DXGI_FORMAT_R32G32B32_FLOAT, 0, INLAY_APPEND_ALIGNED_ELEMENT);
    e[2] = element("TEXCOORD", DXGI_FORMAT_R32G32_FLOAT, 0, INLAY_APPEND_ALIGNED_ELEMENT);
    hr = inlay_create_input_layout(NULL, e, 3, vs, size, &layout, NULL);
    CHECK(hr == INLAY_S_OK, "corpus: hr %08x", (unsigned)hr);
    CHECK(inlay_layout_element_offset(layout, 2) == 28, "corpus: TEXCOORD at %u",
          inlay_layout_element_offset(layout, 2));
    CHECK(inlay_layout_element_register(layout, 1) == 1 &&
              inlay_layout_element_register(layout, 2) == 2,
          "corpus registers");
    CHECK(inlay_layout_slot_min_stride(layout, 0) == 36, "corpus stride");
    inlay_layout_release(layout);
    /* Without TEXCOORD: 163. */
    CHECK(inlay_create_input_layout(NULL, e, 2, vs, size, NULL, NULL) == INLAY_E_INVALIDARG,
          "corpus: missing TEXCOORD");
    /* Every truncation of the real blob is refused, never read past. */
    {
        size_t n;
        int all = 1;
        for (n = 0; n < size; n += 1 + n / 16) {
            unsigned char *copy = (unsigned char *)malloc(n ? n : 1);
            memcpy(copy, vs, n);
            if (inlay_create_input_layout(NULL, e, 3, copy, n, NULL, NULL) != INLAY_E_INVALIDARG)
                all = 0;
            free(copy);
        }
        CHECK(all, "a truncated corpus blob was accepted");
    }
    free(vs);
}

/* NULL and garbage at the boundary: errors, never crashes. */
static void test_bad_input(void) {
    INLAY_INPUT_ELEMENT_DESC e[2];
    inlay_diagnostics *d = NULL;
    inlay_layout *layout = NULL;
    uint32_t id = 77, severity = 77;
    int32_t el = 77;
    const char *message = NULL;
    inlay_target bad_api = {7, INLAY_FEATURE_LEVEL_11_0};
    inlay_target bad_level = {INLAY_API_D3D11, 0x1234};
    union {
        INLAY_INPUT_ELEMENT_DESC e[3];
        char bytes[3 * sizeof(INLAY_INPUT_ELEMENT_DESC)];
    } raw;
    e[0] = element("POSITION", DXGI_FORMAT_R32G32B32_FLOAT, 0, 0);
    e[1] = element("COLOR", DXGI_FORMAT_R32G32B32_FLOAT, 0, 12);

    CHECK(inlay_create_input_layout(&bad_api, e, 2, seed, seed_size, &layout, &d) ==
              INLAY_E_INVALIDARG,
          "bad api");
    CHECK(layout == NULL, "bad api: layout");
    CHECK(inlay_diagnostic_get(d, 0, &id, &severity, &el, &message) == 0 && id == 0 &&
              severity == INLAY_SEVERITY_ERROR && el == -1 && strstr(message, "api") != NULL,
          "bad api: message 0 naming the field (%s)", message ? message : "NULL");
    CHECK(inlay_diagnostic_get(d, 1, &id, NULL, NULL, NULL) == -1, "index past the end");
    CHECK(inlay_diagnostic_get(d, 0, NULL, NULL, NULL, NULL) == 0, "NULL outputs");
    inlay_diagnostics_release(d);
    d = NULL;
    CHECK(inlay_create_input_layout(&bad_level, e, 2, seed, seed_size, NULL, &d) ==
              INLAY_E_INVALIDARG,
          "bad level");
    CHECK(has_message(d, 0, INLAY_SEVERITY_ERROR), "bad level: message 0");
    inlay_diagnostics_release(d);

    /* Misaligned pointers are refused before anything is read. */
    memset(&raw, 0, sizeof raw);
    CHECK(inlay_create_input_layout(NULL, (const INLAY_INPUT_ELEMENT_DESC *)(raw.bytes + 1), 1,
                                    seed, seed_size, NULL, NULL) == INLAY_E_INVALIDARG,
          "misaligned descs");
    CHECK(inlay_create_input_layout(NULL, e, 2, seed, seed_size,
                                    (inlay_layout **)(raw.bytes + 1), NULL) ==
              INLAY_E_INVALIDARG,
          "misaligned out_layout");
    CHECK(inlay_create_input_layout(NULL, e, 2, seed, SIZE_MAX, NULL, NULL) ==
              INLAY_E_INVALIDARG,
          "bytecode length SIZE_MAX");
    /* A huge count over a short array reads nothing (valgrind would see it). */
    CHECK(inlay_create_input_layout(NULL, e, 0xffffffffu, seed, seed_size, NULL, NULL) ==
              INLAY_E_INVALIDARG,
          "count 2^32-1");
    /* Random bytes as bytecode, every length up to 200. */
    {
        unsigned char junk[200];
        size_t n;
        uint32_t x = 12345;
        int ok = 1;
        for (n = 0; n < sizeof junk; ++n) {
            x = x * 1103515245u + 12345u;
            junk[n] = (unsigned char)(x >> 16);
        }
        memcpy(junk, "DXBC", 4);
        for (n = 0; n <= sizeof junk; ++n)
            if (inlay_create_input_layout(NULL, e, 2, junk, n, NULL, NULL) != INLAY_E_INVALIDARG)
                ok = 0;
        CHECK(ok, "junk bytecode accepted");
    }
    /* NULL handles everywhere give neutral values. */
    CHECK(inlay_diagnostics_count(NULL) == 0, "count NULL");
    CHECK(inlay_diagnostic_get(NULL, 0, &id, &severity, &el, &message) == -1, "get NULL");
    CHECK(inlay_layout_element_count(NULL) == 0, "element count NULL");
    CHECK(inlay_layout_element_offset(NULL, 0) == UINT32_MAX, "offset NULL");
    CHECK(inlay_layout_element_register(NULL, 0) == -1, "register NULL");
    CHECK(inlay_layout_slot_min_stride(NULL, 0) == 0, "stride NULL");
    CHECK(inlay_layout_register_mask(NULL) == 0, "mask NULL");
    CHECK(inlay_stream_register_count(NULL) == 0, "stream count NULL");
    CHECK(strcmp(inlay_stream_error(NULL), "") == 0, "stream error NULL");
    inlay_layout_release(NULL);
    inlay_diagnostics_release(NULL);
    inlay_stream_release(NULL);
}

/* Draw-time refusals and fetch argument errors. */
static void test_stream_errors(void) {
    INLAY_INPUT_ELEMENT_DESC e[2];
    inlay_layout *layout = NULL;
    inlay_stream *s = inlay_stream_create();
    inlay_vertex_buffer vb[2];
    inlay_index_buffer ib;
    inlay_ia_state state;
    inlay_draw draw;
    unsigned char data[96] = {0};
    uint32_t args[5] = {3, 2, 0, 0, 0};
    uint32_t regs[8][4];
    inlay_vertex_ids ids[4];
    size_t got = 0;
    e[0] = element("POSITION", DXGI_FORMAT_R32G32B32_FLOAT, 0, 0);
    e[1] = element("COLOR", DXGI_FORMAT_R32G32B32_FLOAT, 0, 12);
    CHECK(inlay_create_input_layout(NULL, e, 2, seed, seed_size, &layout, NULL) == INLAY_S_OK,
          "layout");
    memset(vb, 0, sizeof vb);
    vb[0].data = data;
    vb[0].size = sizeof data;
    vb[0].stride = 24;
    memset(&state, 0, sizeof state);
    state.vertex_buffers = vb;
    state.num_vertex_buffers = 1;
    state.topology = 4;
    memset(&draw, 0, sizeof draw);
    draw.kind = INLAY_DRAW;
    draw.count = 3;

#define REFUSED(what)                                                                          \
    do {                                                                                       \
        CHECK(inlay_stream_begin(s, layout, &state, &draw) == INLAY_E_INVALIDARG, what);      \
        CHECK(inlay_stream_error(s)[0] != 0, what ": no message");                            \
    } while (0)

    CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_E_INVALIDARG,
          "fetch before begin");
    CHECK(inlay_stream_begin(NULL, layout, &state, &draw) == INLAY_E_INVALIDARG, "NULL stream");
    CHECK(inlay_stream_begin(s, NULL, &state, &draw) == INLAY_E_INVALIDARG, "NULL layout");
    CHECK(inlay_stream_begin(s, layout, NULL, &draw) == INLAY_E_INVALIDARG, "NULL state");
    CHECK(inlay_stream_begin(s, layout, &state, NULL) == INLAY_E_INVALIDARG, "NULL draw");
    state.topology = 0;
    REFUSED("undefined topology");
    state.topology = 99;
    REFUSED("unknown topology");
    state.topology = 4;
    vb[0].stride = 4096;
    REFUSED("stride 4096");
    vb[0].stride = 24;
    vb[0].data = NULL;
    REFUSED("NULL data with a size");
    vb[0].data = data;
    state.num_vertex_buffers = 40;
    REFUSED("40 slots");
    state.num_vertex_buffers = 1;
    draw.kind = 77;
    REFUSED("unknown draw kind");
    draw.kind = INLAY_DRAW_INDEXED;
    memset(&ib, 0, sizeof ib);
    ib.format = 99;
    state.index_buffer = &ib;
    REFUSED("index format 99");
    state.index_buffer = NULL;
    draw.kind = INLAY_DRAW_INSTANCED_INDIRECT;
    draw.args = args;
    draw.args_size = sizeof args;
    draw.args_offset = 2;
    REFUSED("misaligned args offset");
    draw.args_offset = 8;
    REFUSED("args past the end");
    draw.args = NULL;
    REFUSED("NULL args with a size");
    draw.args_size = 0;
    REFUSED("no args");
    draw.kind = INLAY_DRAW_AUTO;
    vb[0].data = NULL;
    vb[0].size = 0;
    REFUSED("DrawAuto with slot 0 unbound");
    vb[0].data = data;
    vb[0].size = sizeof data;
    /* DrawAuto over 96 filled bytes of stride 24: 4 vertices. */
    draw.filled_size = 96;
    CHECK(inlay_stream_begin(s, layout, &state, &draw) == INLAY_S_OK, "draw auto: %s",
          inlay_stream_error(s));
    CHECK(inlay_stream_fetch(s, 0, ids, regs, 8, &got) == INLAY_E_INVALIDARG, "max 0");
    CHECK(inlay_stream_fetch(s, 4, ids, regs, 1, &got) == INLAY_E_INVALIDARG,
          "registers too small");
    CHECK(inlay_stream_fetch(s, 4, ids, NULL, 8, &got) == INLAY_E_INVALIDARG, "NULL registers");
    CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, NULL) == INLAY_E_INVALIDARG, "NULL out_count");
    CHECK(inlay_stream_fetch(NULL, 4, ids, regs, 8, &got) == INLAY_E_INVALIDARG, "NULL stream");
    /* After the bad calls the draw is still where it was; batches of 3 then 1. */
    CHECK(inlay_stream_fetch(s, 4, NULL, regs, 6, &got) == INLAY_S_OK && got == 3,
          "batch of 3 (rows for 3): %u", (unsigned)got);
    CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_OK && got == 1 &&
              ids[0].vertex_id == 3,
          "last vertex");
    CHECK(inlay_stream_fetch(s, 4, ids, regs, 8, &got) == INLAY_S_FALSE, "end");
    inlay_layout_release(layout);
    inlay_stream_release(s);
#undef REFUSED
}

int main(int argc, char **argv) {
    const char *version = inlay_version();
    if (argc < 2) {
        fprintf(stderr, "usage: %s SEED_DXBC [CORPUS_DXBC | -]\n", argv[0]);
        return 2;
    }
    seed = read_file(argv[1], &seed_size);
    if (!seed) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    CHECK(version != NULL && version[0] >= '0' && version[0] <= '9', "version %s", version);
#ifdef INLAY_EXPECTED_VERSION
    CHECK(strcmp(version, INLAY_EXPECTED_VERSION) == 0, "version %s", version);
#endif
    test_seed();
    test_rule_groups();
    test_corpus(argc > 2 ? argv[2] : "-");
    test_bad_input();
    test_stream_errors();
    free(seed);
    printf("abi_test: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
