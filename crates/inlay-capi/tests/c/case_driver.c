/*
 * C99 driver that runs generated cases through libinlay and prints what the C ABI answered;
 * tests/c_programs.rs generates cases.inc (conformance cases of conformance/ and of the shared
 * examples, corpus cases, and draws whose expected bits come from the Rust library) and
 * compares this program's output with the expectations.
 *
 * Output, per case:
 *   case INDEX hr HHHHHHHH
 *   diag ID SEVERITY ELEMENT          one per message (the message text must be non-empty)
 *   offset O                          one per element, when a layout was created
 *   mask HHHHHHHH                     the registers the layout feeds
 *   drawerror MESSAGE                 when inlay_stream_begin refused the draw
 *   v POSITION VERTEX_ID INSTANCE_ID LANES   one per vertex, LANES = 4 hex words per register
 *   end
 * Vertices are fetched in batches of 5 to exercise the batch boundaries.
 */
#include <inlay.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct case_def {
    const char *name;
    const inlay_target *target; /* NULL: the default target */
    const INLAY_INPUT_ELEMENT_DESC *elements;
    uint32_t num_elements;
    const unsigned char *bytecode;
    size_t bytecode_length;
    int validate_only;
    int has_draw;
    inlay_ia_state state;
    inlay_draw draw;
    const inlay_pipeline_desc *pipeline; /* NULL: the defaults (D3D12 cases only set it) */
} case_def;

/* An element array of length 0 still needs a non-NULL pointer. */
static const INLAY_INPUT_ELEMENT_DESC no_elements[1];
/* A bound buffer of size 0 still needs a non-NULL pointer. */
static const unsigned char no_bytes[1];

#include "cases.inc"

#define BATCH 5

int main(void) {
    size_t i;
    static uint32_t regs[BATCH * 32][4];
    inlay_vertex_ids ids[BATCH];
    inlay_stream *stream = inlay_stream_create();
    int bad = 0;
    (void)no_elements;
    (void)no_bytes;
    if (!stream) return 2;
    for (i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        const case_def *c = &CASES[i];
        inlay_layout *layout = NULL;
        inlay_diagnostics *d = NULL;
        size_t k, n;
        /* Every case goes through the pipeline entry point (D3D10/11 ignore the pipeline);
         * inlay_create_input_layout is the same call with NULL there. */
        int32_t hr = inlay_create_pipeline_input_layout(
            c->target, c->elements, c->num_elements, c->bytecode, c->bytecode_length,
            c->pipeline, c->validate_only ? NULL : &layout, &d);
        printf("case %u hr %08x\n", (unsigned)i, (unsigned)hr);
        n = inlay_diagnostics_count(d);
        for (k = 0; k < n; ++k) {
            uint32_t id = 0, severity = 0;
            int32_t element = -2;
            const char *message = NULL;
            if (inlay_diagnostic_get(d, k, &id, &severity, &element, &message) != 0 || !message ||
                !message[0]) {
                printf("FAIL case %s: diagnostic %u unreadable\n", c->name, (unsigned)k);
                bad = 1;
            }
            printf("diag %u %u %d\n", (unsigned)id, (unsigned)severity, (int)element);
        }
        inlay_diagnostics_release(d);
        if (layout) {
            uint32_t e, count = inlay_layout_element_count(layout);
            uint32_t mask = inlay_layout_register_mask(layout);
            for (e = 0; e < count; ++e)
                printf("offset %u\n", (unsigned)inlay_layout_element_offset(layout, e));
            printf("mask %08x\n", (unsigned)mask);
            if (c->has_draw) {
                if (inlay_stream_begin(stream, layout, &c->state, &c->draw) != INLAY_S_OK) {
                    printf("drawerror %s\n", inlay_stream_error(stream));
                } else {
                    uint32_t w = inlay_stream_register_count(stream), bits = 0, m = mask;
                    size_t got = 0;
                    int32_t r;
                    while (m) {
                        bits += m & 1u;
                        m >>= 1;
                    }
                    if (w != bits) {
                        printf("FAIL case %s: %u registers per vertex, mask has %u\n", c->name,
                               (unsigned)w, (unsigned)bits);
                        bad = 1;
                    }
                    while ((r = inlay_stream_fetch(stream, BATCH, ids, regs, BATCH * 32, &got)) ==
                           INLAY_S_OK) {
                        for (k = 0; k < got; ++k) {
                            uint32_t j;
                            printf("v %llu %u %u", (unsigned long long)ids[k].position,
                                   (unsigned)ids[k].vertex_id, (unsigned)ids[k].instance_id);
                            for (j = 0; j < w; ++j)
                                printf(" %08x%08x%08x%08x", (unsigned)regs[k * w + j][0],
                                       (unsigned)regs[k * w + j][1], (unsigned)regs[k * w + j][2],
                                       (unsigned)regs[k * w + j][3]);
                            printf("\n");
                        }
                    }
                    if (r != INLAY_S_FALSE) {
                        printf("FAIL case %s: fetch returned %08x: %s\n", c->name, (unsigned)r,
                               inlay_stream_error(stream));
                        bad = 1;
                    }
                }
            }
            inlay_layout_release(layout);
        }
        printf("end\n");
    }
    inlay_stream_release(stream);
    return bad;
}
