/*
 * inlay-d3d11-runner: runs the folder `inlay conform --export-runner DIR` writes against a real
 * d3d11.dll (Windows, Wine, DXVK, ...) and writes a report that `inlay conform --import-report`
 * reads. Grammar of the folder and of the report: README.md beside this file.
 *
 *   inlay-d3d11-runner.exe DIR [--driver hardware|warp|reference|software] [--report FILE]
 *                              [--no-debug] [--case SUBSTRING] [--timeout SECONDS]
 *
 * Crash isolation: the first process (the parent) runs the cases in a child process of the same
 * program; the child writes each case's "start" and "result" lines to a progress file as it
 * goes. A child that dies (an access violation inside d3d11.dll, say) or stops making progress
 * for --timeout seconds is ended; the case it had started is recorded as "crash" and a new
 * child carries on with the next case.
 *
 * Built with mingw-w64 (its d3d11.h and d3d11sdklayers.h; no Windows SDK):
 *   x86_64-w64-mingw32-gcc -O2 -std=c11 -Wall -Wextra -o inlay-d3d11-runner.exe \
 *       inlay-d3d11-runner.c -ld3d11 -ldxguid
 * Nothing in the folder is trusted: every count, length and number is checked, and a
 * malformed folder is an error naming the line.
 */
#define COBJMACROS
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <d3d11.h>
#include <d3d11sdklayers.h>
#include <d3d10_1.h>
#include <d3d10sdklayers.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNNER_FORMAT "inlay-runner 1"
#define REPORT_FORMAT "inlay-runner-report/1"
#define MAX_FILE (256u << 20)   /* cases.txt and shader files */
#define MAX_ELEMENTS 4096u      /* elements written for one case */
#define MAX_IDS 64u             /* message ids in one expectation */
#define MAX_GROUPS 8u
#define MAX_RECORDS (1u << 20)  /* stream-output records of one pass */
#define MAX_OUTPUTS 32u

/* ------------------------------------------------------------------------------------------ */
/* Small utilities. */

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("inlay-d3d11-runner: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) die("out of memory");
    return p;
}

/* Reads a whole regular file of at most `limit` bytes; NUL-terminates it. */
static char *read_file(const char *path, size_t limit, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0 || (unsigned long)n > limit) { fclose(f); return NULL; }
    rewind(f);
    char *buf = xcalloc((size_t)n + 1, 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* A growing string. */
typedef struct { char *s; size_t len, cap; } Str;
static void str_putn(Str *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) die("out of memory");
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}
static void str_put(Str *b, const char *s) { str_putn(b, s, strlen(s)); }
static void str_printf(Str *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    str_putn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* `%XX` decoding of a token (ids are written percent-encoded). */
static void percent_decode(char *s) {
    char *o = s;
    for (; *s; ++s) {
        if (s[0] == '%' && s[1] && s[2]) {
            char h[3] = {s[1], s[2], 0};
            *o++ = (char)strtol(h, NULL, 16);
            s += 2;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The folder's cases. */

typedef struct {
    char *name;          /* NULL: a NULL SemanticName */
    UINT index, format, slot, offset, klass, step;
} Element;

typedef struct { UINT slot, stride, offset; unsigned char *data; size_t size; } VBuf;

typedef struct {
    char *vs, *gs;       /* paths relative to the folder */
    UINT inputs;         /* registers after the IDs */
    unsigned char float_lanes[MAX_OUTPUTS];
    UINT reg[MAX_OUTPUTS];   /* the case's register each output holds */
    UINT nrec;
    uint32_t *rec;       /* per record: vid, iid, 4*inputs lanes */
    unsigned char *care; /* per lane word: 1 when checked */
} Group;

typedef struct {
    char *id;
    int line;            /* line of `case` in cases.txt */
    char api[16];
    UINT fl;
    int null_array;
    UINT nel;
    Element *el;
    UINT num_elements;
    char *shader;
    int validate_only;
    uint32_t expect;
    UINT nerr, nwarn, nabsent;
    UINT err[MAX_IDS], warn[MAX_IDS], absent[MAX_IDS];
    char *unsupported;
    /* draw */
    int has_draw;
    UINT topology, prim_size;
    UINT nvb;
    VBuf vb[32];
    int has_ib;
    UINT ib_format, ib_offset;
    unsigned char *ib;
    size_t ib_size;
    char call[40];
    long long args[5];
    unsigned char *indirect;
    size_t indirect_size;
    UINT tol;
    UINT ngroups;
    Group group[MAX_GROUPS];
} Case;

typedef struct { Case *c; UINT n; } Cases;

/* Line-oriented tokenizer over the folder's text. */
typedef struct { char *p; int line; char *tok[4200]; int ntok; } Lines;

static int next_line(Lines *L) {
    while (*L->p) {
        char *start = L->p;
        char *end = strchr(start, '\n');
        if (end) { *end = 0; L->p = end + 1; } else { L->p = start + strlen(start); }
        L->line++;
        size_t len = strlen(start);
        if (len && start[len - 1] == '\r') start[len - 1] = 0;
        L->ntok = 0;
        for (char *t = strtok(start, " \t"); t; t = strtok(NULL, " \t")) {
            if (L->ntok == (int)(sizeof L->tok / sizeof L->tok[0])) die("cases.txt:%d: too many tokens", L->line);
            L->tok[L->ntok++] = t;
        }
        if (L->ntok) return 1;
    }
    return 0;
}

static UINT num(Lines *L, int i) {
    if (i >= L->ntok) die("cases.txt:%d: missing value %d", L->line, i);
    char *end;
    errno = 0;
    long long v = strtoll(L->tok[i], &end, 0);
    if (*end || v < -2147483648LL || v > 4294967295LL) die("cases.txt:%d: `%s` is not a 32-bit number", L->line, L->tok[i]);
    return (UINT)v;
}

static unsigned char *unhex(Lines *L, const char *s, size_t *size) {
    if (strcmp(s, "-") == 0) { *size = 0; return xcalloc(1, 1); }
    size_t n = strlen(s);
    if (n % 2) die("cases.txt:%d: odd-length hex", L->line);
    unsigned char *b = xcalloc(n / 2 + 1, 1);
    for (size_t i = 0; i < n / 2; ++i) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) die("cases.txt:%d: bad hex digit", L->line);
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    *size = n / 2;
    return b;
}

static void read_ids(Lines *L, const char *key, UINT *out, UINT *n) {
    if (L->ntok < 2 || strcmp(L->tok[0], key) != 0) die("cases.txt:%d: expected `%s`", L->line, key);
    UINT k = num(L, 1);
    if (k > MAX_IDS || (int)k + 2 != L->ntok) die("cases.txt:%d: bad `%s` count", L->line, key);
    for (UINT i = 0; i < k; ++i) out[i] = num(L, 2 + (int)i);
    *n = k;
}

static void expect_key(Lines *L, const char *key, int ntok) {
    if (!next_line(L)) die("cases.txt: ends before `%s`", key);
    if (strcmp(L->tok[0], key) != 0 || (ntok >= 0 && L->ntok != ntok))
        die("cases.txt:%d: expected `%s` with %d values", L->line, key, ntok - 1);
}

static Cases parse_cases(char *text) {
    Lines L = {text, 0, {0}, 0};
    Cases cs = {0, 0};
    UINT cap = 0;
    if (!next_line(&L) || L.ntok != 2 || strcmp(L.tok[0], "inlay-runner") || strcmp(L.tok[1], "1"))
        die("cases.txt:1: not an `%s` folder", RUNNER_FORMAT);
    while (next_line(&L)) {
        if (strcmp(L.tok[0], "case") || L.ntok != 2) die("cases.txt:%d: expected `case ID`", L.line);
        if (cs.n == cap) {
            cap = cap ? 2 * cap : 64;
            Case *p = realloc(cs.c, cap * sizeof *p);
            if (!p) die("out of memory");
            cs.c = p;
        }
        Case *c = &cs.c[cs.n++];
        memset(c, 0, sizeof *c);
        c->line = L.line;
        c->id = _strdup(L.tok[1]);
        percent_decode(c->id);
        expect_key(&L, "api", 2);
        snprintf(c->api, sizeof c->api, "%s", L.tok[1]);
        expect_key(&L, "fl", 2);
        c->fl = (UINT)strtoul(L.tok[1], NULL, 16);
        expect_key(&L, "elements", 2);
        if (strcmp(L.tok[1], "null") == 0) {
            c->null_array = 1;
        } else {
            c->nel = num(&L, 1);
            if (c->nel > MAX_ELEMENTS) die("cases.txt:%d: more than %u elements", L.line, MAX_ELEMENTS);
            c->el = xcalloc(c->nel, sizeof *c->el);
            for (UINT i = 0; i < c->nel; ++i) {
                expect_key(&L, "e", 8);
                Element *e = &c->el[i];
                if (strcmp(L.tok[1], "-") != 0) {
                    size_t n;
                    e->name = (char *)unhex(&L, L.tok[1], &n);
                }
                e->index = num(&L, 2); e->format = num(&L, 3); e->slot = num(&L, 4);
                e->offset = num(&L, 5); e->klass = num(&L, 6); e->step = num(&L, 7);
            }
        }
        expect_key(&L, "num_elements", 2);
        c->num_elements = num(&L, 1);
        expect_key(&L, "shader", 2);
        c->shader = _strdup(L.tok[1]);
        expect_key(&L, "validate_only", 2);
        c->validate_only = num(&L, 1) != 0;
        expect_key(&L, "expect", 2);
        c->expect = (uint32_t)strtoul(L.tok[1], NULL, 16);
        next_line(&L); read_ids(&L, "errors", c->err, &c->nerr);
        next_line(&L); read_ids(&L, "warnings", c->warn, &c->nwarn);
        next_line(&L); read_ids(&L, "absent", c->absent, &c->nabsent);
        for (;;) {
            if (!next_line(&L)) die("cases.txt: case at line %d has no `end`", c->line);
            const char *k = L.tok[0];
            if (strcmp(k, "end") == 0) break;
            if (strcmp(k, "unsupported") == 0) {
                Str s = {0};
                for (int i = 1; i < L.ntok; ++i) { if (i > 1) str_put(&s, " "); str_put(&s, L.tok[i]); }
                c->unsupported = s.s ? s.s : _strdup("");
            } else if (strcmp(k, "draw") == 0 && L.ntok == 3) {
                c->has_draw = 1;
                c->topology = num(&L, 1);
                c->prim_size = num(&L, 2);
                if (c->prim_size < 1 || c->prim_size > 6) die("cases.txt:%d: primitive size", L.line);
            } else if (strcmp(k, "vb") == 0 && L.ntok == 5) {
                if (c->nvb == 32) die("cases.txt:%d: more than 32 vertex buffers", L.line);
                VBuf *v = &c->vb[c->nvb++];
                v->slot = num(&L, 1); v->stride = num(&L, 2); v->offset = num(&L, 3);
                if (v->slot >= 32) die("cases.txt:%d: slot %u", L.line, v->slot);
                v->data = unhex(&L, L.tok[4], &v->size);
            } else if (strcmp(k, "ib") == 0 && L.ntok == 4) {
                c->has_ib = 1;
                c->ib_format = num(&L, 1); c->ib_offset = num(&L, 2);
                c->ib = unhex(&L, L.tok[3], &c->ib_size);
            } else if (strcmp(k, "call") == 0 && L.ntok >= 2) {
                snprintf(c->call, sizeof c->call, "%s", L.tok[1]);
                if (strstr(c->call, "indirect")) {
                    if (L.ntok != 4) die("cases.txt:%d: indirect call", L.line);
                    c->args[0] = num(&L, 2);
                    c->indirect = unhex(&L, L.tok[3], &c->indirect_size);
                } else {
                    if (L.ntok > 7) die("cases.txt:%d: call", L.line);
                    for (int i = 2; i < L.ntok; ++i) c->args[i - 2] = (long long)num(&L, i);
                }
            } else if (strcmp(k, "tol") == 0 && L.ntok == 2) {
                c->tol = num(&L, 1);
            } else if (strcmp(k, "group") == 0 && L.ntok >= 4) {
                if (c->ngroups == MAX_GROUPS) die("cases.txt:%d: too many groups", L.line);
                Group *g = &c->group[c->ngroups++];
                g->vs = _strdup(L.tok[1]);
                g->gs = _strdup(L.tok[2]);
                g->inputs = num(&L, 3);
                if (g->inputs > MAX_OUTPUTS - 1 || L.ntok != 4 + (int)g->inputs) die("cases.txt:%d: group inputs", L.line);
                for (UINT i = 0; i < g->inputs; ++i) {
                    const char *colon = strchr(L.tok[4 + i], ':');
                    if (!colon) die("cases.txt:%d: group register", L.line);
                    g->reg[i] = (UINT)strtoul(L.tok[4 + i], NULL, 10);
                    g->float_lanes[i] = (unsigned char)strtoul(colon + 1, NULL, 16);
                }
                expect_key(&L, "records", 2);
                g->nrec = num(&L, 1);
                if (g->nrec > MAX_RECORDS) die("cases.txt:%d: too many records", L.line);
                size_t words = 2 + 4 * (size_t)g->inputs;
                g->rec = xcalloc((size_t)g->nrec * words, sizeof *g->rec);
                g->care = xcalloc((size_t)g->nrec * words, 1);
                for (UINT r = 0; r < g->nrec; ++r) {
                    expect_key(&L, "r", (int)(1 + words));
                    for (size_t w = 0; w < words; ++w) {
                        const char *t = L.tok[1 + w];
                        if (strcmp(t, "*") == 0) continue;
                        g->rec[r * words + w] = (uint32_t)strtoul(t, NULL, 16);
                        g->care[r * words + w] = 1;
                    }
                }
            } else {
                die("cases.txt:%d: unknown line `%s`", L.line, k);
            }
        }
        if (c->has_draw && (!c->call[0] || !c->ngroups)) die("cases.txt:%d: draw without call or group", c->line);
    }
    return cs;
}

/* ------------------------------------------------------------------------------------------ */
/* Devices. */

typedef struct {
    D3D_DRIVER_TYPE driver;
    int debug;
    const char *dir;
} Options;

typedef struct { UINT fl; ID3D11Device *dev; ID3D11DeviceContext *ctx; ID3D11InfoQueue *iq; int tried; } Device;
static Device g_devices[8];

static Device *device_for(const Options *o, UINT fl) {
    for (int i = 0; i < 8; ++i)
        if (g_devices[i].tried && g_devices[i].fl == fl) return g_devices[i].dev ? &g_devices[i] : NULL;
    for (int i = 0; i < 8; ++i) {
        Device *d = &g_devices[i];
        if (d->tried) continue;
        d->tried = 1;
        d->fl = fl;
        D3D_FEATURE_LEVEL want = (D3D_FEATURE_LEVEL)fl, got;
        HRESULT hr = E_FAIL;
        if (o->debug)
            hr = D3D11CreateDevice(NULL, o->driver, NULL, D3D11_CREATE_DEVICE_DEBUG, &want, 1,
                                   D3D11_SDK_VERSION, &d->dev, &got, &d->ctx);
        if (FAILED(hr))
            hr = D3D11CreateDevice(NULL, o->driver, NULL, 0, &want, 1, D3D11_SDK_VERSION, &d->dev,
                                   &got, &d->ctx);
        if (FAILED(hr)) { d->dev = NULL; return NULL; }
        if (FAILED(ID3D11Device_QueryInterface(d->dev, &IID_ID3D11InfoQueue, (void **)&d->iq)))
            d->iq = NULL;
        if (d->iq) {
            ID3D11InfoQueue_SetMuteDebugOutput(d->iq, TRUE);
            ID3D11InfoQueue_SetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_ERROR, FALSE);
            ID3D11InfoQueue_SetBreakOnSeverity(d->iq, D3D11_MESSAGE_SEVERITY_CORRUPTION, FALSE);
            ID3D11InfoQueue_SetMessageCountLimit(d->iq, 4096);
        }
        return d;
    }
    return NULL;
}

/* D3D10 and D3D10.1 creation cases run on d3d10.dll / d3d10_1.dll (loaded at run time: the
 * runner starts where either is missing, and reports those cases unsupported). */
typedef HRESULT(WINAPI *PFN_D3D10CreateDevice)(IDXGIAdapter *, D3D10_DRIVER_TYPE, HMODULE, UINT, UINT, ID3D10Device **);
typedef HRESULT(WINAPI *PFN_D3D10CreateDevice1)(IDXGIAdapter *, D3D10_DRIVER_TYPE, HMODULE, UINT, D3D10_FEATURE_LEVEL1,
                                               UINT, ID3D10Device1 **);
typedef struct { int api1; UINT fl; ID3D10Device *dev; ID3D10InfoQueue *iq; int tried; } Device10;
static Device10 g_devices10[8];

static D3D10_DRIVER_TYPE driver10(D3D_DRIVER_TYPE t) {
    switch (t) {
    case D3D_DRIVER_TYPE_WARP: return D3D10_DRIVER_TYPE_WARP;
    case D3D_DRIVER_TYPE_REFERENCE: return D3D10_DRIVER_TYPE_REFERENCE;
    default: return D3D10_DRIVER_TYPE_HARDWARE;
    }
}

static Device10 *device10_for(const Options *o, int api1, UINT fl) {
    for (int i = 0; i < 8; ++i)
        if (g_devices10[i].tried && g_devices10[i].api1 == api1 && g_devices10[i].fl == fl)
            return g_devices10[i].dev ? &g_devices10[i] : NULL;
    for (int i = 0; i < 8; ++i) {
        Device10 *d = &g_devices10[i];
        if (d->tried) continue;
        d->tried = 1;
        d->api1 = api1;
        d->fl = fl;
        HRESULT hr = E_FAIL;
        for (int debug = o->debug; debug >= 0 && FAILED(hr); --debug) {
            UINT flags = debug ? D3D10_CREATE_DEVICE_DEBUG : 0;
            if (api1) {
                HMODULE m = LoadLibraryA("d3d10_1.dll");
                PFN_D3D10CreateDevice1 create = m ? (PFN_D3D10CreateDevice1)(void *)GetProcAddress(m, "D3D10CreateDevice1") : NULL;
                ID3D10Device1 *dev1 = NULL;
                if (create) hr = create(NULL, driver10(o->driver), NULL, flags, (D3D10_FEATURE_LEVEL1)fl, D3D10_1_SDK_VERSION, &dev1);
                if (SUCCEEDED(hr)) d->dev = (ID3D10Device *)dev1;
            } else {
                HMODULE m = LoadLibraryA("d3d10.dll");
                PFN_D3D10CreateDevice create = m ? (PFN_D3D10CreateDevice)(void *)GetProcAddress(m, "D3D10CreateDevice") : NULL;
                if (create && fl == 0xa000) hr = create(NULL, driver10(o->driver), NULL, flags, D3D10_SDK_VERSION, &d->dev);
            }
        }
        if (FAILED(hr) || !d->dev) { d->dev = NULL; return NULL; }
        if (FAILED(ID3D10Device_QueryInterface(d->dev, &IID_ID3D10InfoQueue, (void **)&d->iq))) d->iq = NULL;
        if (d->iq) {
            ID3D10InfoQueue_SetMuteDebugOutput(d->iq, TRUE);
            ID3D10InfoQueue_SetBreakOnSeverity(d->iq, D3D10_MESSAGE_SEVERITY_ERROR, FALSE);
            ID3D10InfoQueue_SetBreakOnSeverity(d->iq, D3D10_MESSAGE_SEVERITY_CORRUPTION, FALSE);
            ID3D10InfoQueue_SetMessageCountLimit(d->iq, 4096);
        }
        return d;
    }
    return NULL;
}

/* The debug layer's messages since the last clear: ids by severity. */
typedef struct { UINT err[256], warn[256], other[256]; UINT nerr, nwarn, nother; } Messages;

static void take_messages(Device *d, Messages *m) {
    memset(m, 0, sizeof *m);
    if (!d->iq) return;
    UINT64 n = ID3D11InfoQueue_GetNumStoredMessages(d->iq);
    for (UINT64 i = 0; i < n; ++i) {
        SIZE_T len = 0;
        if (FAILED(ID3D11InfoQueue_GetMessage(d->iq, i, NULL, &len)) || len == 0 || len > (1u << 20)) continue;
        D3D11_MESSAGE *msg = xcalloc(1, len);
        if (SUCCEEDED(ID3D11InfoQueue_GetMessage(d->iq, i, msg, &len))) {
            UINT id = (UINT)msg->ID;
            if (msg->Severity <= D3D11_MESSAGE_SEVERITY_ERROR) { if (m->nerr < 256) m->err[m->nerr++] = id; }
            else if (msg->Severity == D3D11_MESSAGE_SEVERITY_WARNING) { if (m->nwarn < 256) m->warn[m->nwarn++] = id; }
            else if (m->nother < 256) m->other[m->nother++] = id;
        }
        free(msg);
    }
    ID3D11InfoQueue_ClearStoredMessages(d->iq);
}

static void take_messages10(Device10 *d, Messages *m) {
    memset(m, 0, sizeof *m);
    if (!d->iq) return;
    UINT64 n = ID3D10InfoQueue_GetNumStoredMessages(d->iq);
    for (UINT64 i = 0; i < n; ++i) {
        SIZE_T len = 0;
        if (FAILED(ID3D10InfoQueue_GetMessage(d->iq, i, NULL, &len)) || len == 0 || len > (1u << 20)) continue;
        D3D10_MESSAGE *msg = xcalloc(1, len);
        if (SUCCEEDED(ID3D10InfoQueue_GetMessage(d->iq, i, msg, &len))) {
            UINT id = (UINT)msg->ID;
            if (msg->Severity <= D3D10_MESSAGE_SEVERITY_ERROR) { if (m->nerr < 256) m->err[m->nerr++] = id; }
            else if (msg->Severity == D3D10_MESSAGE_SEVERITY_WARNING) { if (m->nwarn < 256) m->warn[m->nwarn++] = id; }
            else if (m->nother < 256) m->other[m->nother++] = id;
        }
        free(msg);
    }
    ID3D10InfoQueue_ClearStoredMessages(d->iq);
}

static int contains(const UINT *v, UINT n, UINT x) {
    for (UINT i = 0; i < n; ++i) if (v[i] == x) return 1;
    return 0;
}

static const char *hr_name(uint32_t hr) {
    switch (hr) {
    case 0: return "S_OK";
    case 1: return "S_FALSE";
    case 0x80070057u: return "E_INVALIDARG";
    case 0x8007000Eu: return "E_OUTOFMEMORY";
    case 0x80004005u: return "E_FAIL";
    case 0x80004001u: return "E_NOTIMPL";
    case 0x887a0001u: return "DXGI_ERROR_INVALID_CALL";
    default: return NULL;
    }
}
static void put_hr(Str *s, uint32_t hr) {
    const char *n = hr_name(hr);
    if (n) str_put(s, n); else str_printf(s, "0x%08x", (unsigned)hr);
}
static void put_ids(Str *s, const char *what, const UINT *v, UINT n) {
    if (!n) return;
    str_printf(s, " %s [", what);
    for (UINT i = 0; i < n; ++i) str_printf(s, i ? ", %u" : "%u", v[i]);
    str_put(s, "]");
}

/* ------------------------------------------------------------------------------------------ */
/* Running one case. */

typedef struct { const char *status; Str expected, got, detail; } Result;

/* The element array with the case's exact pointer: placed so that it ends where a no-access
 * page begins, so a runtime that reads past NumElements faults (recorded as a crash) instead
 * of reading whatever follows. */
typedef struct { void *region; D3D11_INPUT_ELEMENT_DESC *descs; } Array;

static Array make_array(const Case *c) {
    Array a = {0, 0};
    if (c->null_array) return a;
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    size_t page = si.dwPageSize;
    size_t bytes = (size_t)c->nel * sizeof(D3D11_INPUT_ELEMENT_DESC);
    size_t span = (bytes + page - 1) / page * page;
    if (span == 0) span = page;
    char *r = VirtualAlloc(NULL, span + page, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!r) die("VirtualAlloc failed");
    DWORD old;
    VirtualProtect(r + span, page, PAGE_NOACCESS, &old);
    a.region = r;
    a.descs = (D3D11_INPUT_ELEMENT_DESC *)(r + span - bytes);
    for (UINT i = 0; i < c->nel; ++i) {
        const Element *e = &c->el[i];
        D3D11_INPUT_ELEMENT_DESC *d = &a.descs[i];
        d->SemanticName = e->name;
        d->SemanticIndex = e->index;
        d->Format = (DXGI_FORMAT)e->format;
        d->InputSlot = e->slot;
        d->AlignedByteOffset = e->offset;
        d->InputSlotClass = (D3D11_INPUT_CLASSIFICATION)e->klass;
        d->InstanceDataStepRate = e->step;
    }
    return a;
}

static void free_array(Array *a) {
    if (a->region) VirtualFree(a->region, 0, MEM_RELEASE);
}

static unsigned char *load_shader(const Options *o, const char *rel, size_t *size) {
    if (strstr(rel, "..") || rel[0] == '/' || rel[0] == '\\' || strchr(rel, ':')) return NULL;
    char path[MAX_PATH * 2];
    snprintf(path, sizeof path, "%s/%s", o->dir, rel);
    return (unsigned char *)read_file(path, MAX_FILE, size);
}

static ID3D11Buffer *make_buffer(ID3D11Device *dev, UINT bind, UINT misc, const void *data, size_t size) {
    if (size == 0 || size > 0xffffffffu) return NULL;
    D3D11_BUFFER_DESC bd = {(UINT)size, D3D11_USAGE_DEFAULT, bind, 0, misc, 0};
    D3D11_SUBRESOURCE_DATA sd = {data, 0, 0};
    ID3D11Buffer *b = NULL;
    if (FAILED(ID3D11Device_CreateBuffer(dev, &bd, data ? &sd : NULL, &b))) return NULL;
    return b;
}

static int float_close(uint32_t a, uint32_t b, UINT tol) {
    if (a == b) return 1;
    if (!tol) return 0;
    uint32_t ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff;
    if (ea == 0xff || eb == 0xff) return 0;
    /* Distance on the ordered line of floats. */
    int64_t ka = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t kb = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    int64_t d = ka > kb ? ka - kb : kb - ka;
    return d <= (int64_t)tol;
}

/* Compares one captured record (words) with expected record r; returns 1 on a match. */
static int record_matches(const Group *g, UINT r, const uint32_t *got, UINT tol, Str *why) {
    size_t words = 2 + 4 * (size_t)g->inputs;
    const uint32_t *want = &g->rec[r * words];
    const unsigned char *care = &g->care[r * words];
    for (size_t w = 0; w < words; ++w) {
        if (!care[w] || got[w] == want[w]) continue;
        if (w >= 2) {
            size_t reg = (w - 2) / 4, lane = (w - 2) % 4;
            if ((g->float_lanes[reg] >> lane & 1) && float_close(got[w], want[w], tol)) continue;
        }
        if (why) {
            if (w < 2) str_printf(why, "%s %u, expected %u", w ? "SV_InstanceID" : "SV_VertexID", got[w], want[w]);
            else str_printf(why, "v%u.%c = %08x, expected %08x (SV_VertexID %u, SV_InstanceID %u)", g->reg[(w - 2) / 4],
                            "xyzw"[(w - 2) % 4], got[w], want[w], got[0], got[1]);
        }
        return 0;
    }
    return 1;
}

static void run_group(const Options *o, Device *d, const Case *c, const Group *g, const Array *arr,
                      Result *res, UINT gi) {
    (void)o;
    ID3D11Device *dev = d->dev;
    ID3D11DeviceContext *ctx = d->ctx;
    size_t vs_size = 0, gs_size = 0;
    unsigned char *vs_code = load_shader(o, g->vs, &vs_size);
    unsigned char *gs_code = load_shader(o, g->gs, &gs_size);
    ID3D11VertexShader *vs = NULL;
    ID3D11GeometryShader *gs = NULL;
    ID3D11InputLayout *il = NULL;
    ID3D11Buffer *bufs[32] = {0}, *ib = NULL, *args = NULL, *so = NULL, *staging = NULL;
    ID3D11Query *query = NULL;
    D3D11_SO_DECLARATION_ENTRY decl[MAX_OUTPUTS];
    UINT stride = 8 + 16 * g->inputs;
    if (!vs_code || !gs_code) { res->status = "fail"; str_printf(&res->detail, "pass %u: cannot read %s or %s", gi, g->vs, g->gs); goto done; }
    HRESULT hr = ID3D11Device_CreateVertexShader(dev, vs_code, vs_size, NULL, &vs);
    if (FAILED(hr)) { res->status = "unsupported"; str_printf(&res->detail, "CreateVertexShader of the pass-through shader: 0x%08lx", hr); goto done; }
    hr = ID3D11Device_CreateInputLayout(dev, arr->descs, c->num_elements, vs_code, vs_size, &il);
    if (FAILED(hr)) { res->status = "fail"; str_put(&res->detail, "CreateInputLayout against the pass-through shader: "); put_hr(&res->detail, (uint32_t)hr); goto done; }
    decl[0] = (D3D11_SO_DECLARATION_ENTRY){0, "TEXCOORD", 0, 0, 2, 0};
    for (UINT k = 0; k < g->inputs; ++k) decl[k + 1] = (D3D11_SO_DECLARATION_ENTRY){0, "TEXCOORD", k + 1, 0, 4, 0};
    /* Below 11_0 there is one stream and RasterizedStream must be 0; nothing is bound to
     * rasterize into either way. */
    hr = ID3D11Device_CreateGeometryShaderWithStreamOutput(dev, gs_code, gs_size, decl, g->inputs + 1, &stride, 1,
                                                          c->fl >= 0xb000 ? D3D11_SO_NO_RASTERIZED_STREAM : 0, NULL, &gs);
    if (FAILED(hr)) { res->status = "unsupported"; str_printf(&res->detail, "CreateGeometryShaderWithStreamOutput: 0x%08lx", hr); goto done; }
    for (UINT i = 0; i < c->nvb; ++i) {
        bufs[i] = make_buffer(dev, D3D11_BIND_VERTEX_BUFFER, 0, c->vb[i].data, c->vb[i].size);
        if (!bufs[i]) { res->status = "unsupported"; str_printf(&res->detail, "vertex buffer of %zu bytes not created", c->vb[i].size); goto done; }
    }
    if (c->has_ib) {
        ib = make_buffer(dev, D3D11_BIND_INDEX_BUFFER, 0, c->ib, c->ib_size);
        if (!ib) { res->status = "unsupported"; str_put(&res->detail, "index buffer not created"); goto done; }
    }
    if (c->indirect) {
        size_t n = (c->indirect_size + 3) / 4 * 4;
        unsigned char *tmp = xcalloc(n, 1);
        memcpy(tmp, c->indirect, c->indirect_size);
        args = make_buffer(dev, 0, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, tmp, n);
        free(tmp);
        if (!args) { res->status = "unsupported"; str_put(&res->detail, "indirect-argument buffer not created"); goto done; }
    }
    size_t cap_records = (size_t)g->nrec + 64;
    /* The stream-output buffer starts filled with a pattern no record holds (its IDs would be
     * 0xa5a5a5a5), so that records written can be counted without trusting the statistics
     * query alone. */
    unsigned char *fill = xcalloc(cap_records * stride, 1);
    memset(fill, 0xa5, cap_records * stride);
    so = make_buffer(dev, D3D11_BIND_STREAM_OUTPUT, 0, fill, cap_records * stride);
    free(fill);
    D3D11_BUFFER_DESC sd = {(UINT)(cap_records * stride), D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
    ID3D11Device_CreateBuffer(dev, &sd, NULL, &staging);
    D3D11_QUERY_DESC qd = {D3D11_QUERY_SO_STATISTICS, 0};
    ID3D11Device_CreateQuery(dev, &qd, &query);
    if (!so || !staging || !query) { res->status = "unsupported"; str_put(&res->detail, "stream-output buffer or query not created"); goto done; }

    ID3D11DeviceContext_ClearState(ctx);
    for (UINT i = 0; i < c->nvb; ++i)
        ID3D11DeviceContext_IASetVertexBuffers(ctx, c->vb[i].slot, 1, &bufs[i], &c->vb[i].stride, &c->vb[i].offset);
    if (ib) ID3D11DeviceContext_IASetIndexBuffer(ctx, ib, (DXGI_FORMAT)c->ib_format, c->ib_offset);
    ID3D11DeviceContext_IASetInputLayout(ctx, il);
    ID3D11DeviceContext_IASetPrimitiveTopology(ctx, (D3D11_PRIMITIVE_TOPOLOGY)c->topology);
    ID3D11DeviceContext_VSSetShader(ctx, vs, NULL, 0);
    ID3D11DeviceContext_GSSetShader(ctx, gs, NULL, 0);
    UINT zero = 0;
    ID3D11DeviceContext_SOSetTargets(ctx, 1, &so, &zero);
    ID3D11DeviceContext_Begin(ctx, (ID3D11Asynchronous *)query);
    const long long *a = c->args;
    if (!strcmp(c->call, "draw")) ID3D11DeviceContext_Draw(ctx, (UINT)a[0], (UINT)a[1]);
    else if (!strcmp(c->call, "draw_indexed")) ID3D11DeviceContext_DrawIndexed(ctx, (UINT)a[0], (UINT)a[1], (INT)(UINT)a[2]);
    else if (!strcmp(c->call, "draw_instanced")) ID3D11DeviceContext_DrawInstanced(ctx, (UINT)a[0], (UINT)a[1], (UINT)a[2], (UINT)a[3]);
    else if (!strcmp(c->call, "draw_indexed_instanced")) ID3D11DeviceContext_DrawIndexedInstanced(ctx, (UINT)a[0], (UINT)a[1], (UINT)a[2], (INT)(UINT)a[3], (UINT)a[4]);
    else if (!strcmp(c->call, "draw_instanced_indirect")) ID3D11DeviceContext_DrawInstancedIndirect(ctx, args, (UINT)a[0]);
    else if (!strcmp(c->call, "draw_indexed_instanced_indirect")) ID3D11DeviceContext_DrawIndexedInstancedIndirect(ctx, args, (UINT)a[0]);
    else { res->status = "unsupported"; str_printf(&res->detail, "unknown call %s", c->call); goto done; }
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)query);
    D3D11_QUERY_DATA_SO_STATISTICS stats = {0, 0};
    for (int spin = 0; spin < 100000; ++spin) {
        hr = ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)query, &stats, sizeof stats, 0);
        if (hr == S_OK) break;
        Sleep(spin < 100 ? 0 : 1);
    }
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)so);
    D3D11_MAPPED_SUBRESOURCE map;
    if (FAILED(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &map))) {
        res->status = "unsupported"; str_put(&res->detail, "stream-output buffer not readable"); goto done;
    }
    const uint32_t *got = map.pData;
    size_t words = 2 + 4 * (size_t)g->inputs;
    UINT64 written = stats.NumPrimitivesWritten; /* points: one record each */
    UINT64 filled = 0;
    while (filled < cap_records && !(got[filled * words] == 0xa5a5a5a5u && got[filled * words + 1] == 0xa5a5a5a5u)) ++filled;
    if (filled != written) {
        str_printf(&res->detail, "pass %u: the SO statistics query counts %llu records, the buffer holds %llu; ", gi,
                   (unsigned long long)written, (unsigned long long)filled);
        written = filled;
    }
    if (gi == 0) str_printf(&res->got, "; %llu records", (unsigned long long)written);
    if (written != g->nrec) {
        res->status = "fail";
        str_printf(&res->detail, "pass %u: %llu stream-output records, expected %u (%u primitives of %u vertices)", gi,
                   (unsigned long long)written, g->nrec, g->nrec / c->prim_size, c->prim_size);
    } else {
        for (UINT r = 0; r < g->nrec; ++r) {
            if (record_matches(g, r, got + (size_t)r * words, c->tol, NULL)) continue;
            res->status = "fail";
            str_printf(&res->detail, "pass %u, primitive %u, vertex %u: ", gi, r / c->prim_size, r % c->prim_size);
            record_matches(g, r, got + (size_t)r * words, c->tol, &res->detail);
            break;
        }
    }
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
done:
    ID3D11DeviceContext_ClearState(ctx);
    if (query) ID3D11Query_Release(query);
    if (staging) ID3D11Buffer_Release(staging);
    if (so) ID3D11Buffer_Release(so);
    if (args) ID3D11Buffer_Release(args);
    if (ib) ID3D11Buffer_Release(ib);
    for (UINT i = 0; i < 32; ++i) if (bufs[i]) ID3D11Buffer_Release(bufs[i]);
    if (gs) ID3D11GeometryShader_Release(gs);
    if (il) ID3D11InputLayout_Release(il);
    if (vs) ID3D11VertexShader_Release(vs);
    free(vs_code);
    free(gs_code);
}

/* What the case expects, in words. */
static void describe_expected(const Case *c, Str *s) {
    put_hr(s, c->expect);
    put_ids(s, "errors", c->err, c->nerr);
    put_ids(s, "warnings", c->warn, c->nwarn);
    if (c->has_draw && c->ngroups) str_printf(s, "; %u records", c->group[0].nrec);
}

static void run_case(const Options *o, const Case *c, Result *res) {
    res->status = "pass";
    describe_expected(c, &res->expected);
    if (c->unsupported) { res->status = "unsupported"; str_put(&res->detail, c->unsupported); return; }
    int api10 = !strcmp(c->api, "d3d10"), api10_1 = !strcmp(c->api, "d3d10.1");
    if (!api10 && !api10_1 && strcmp(c->api, "d3d11") != 0) { res->status = "unsupported"; str_printf(&res->detail, "API %s", c->api); return; }
    Device *d = NULL;
    Device10 *d10 = NULL;
    if (api10 || api10_1) {
        if (c->has_draw) { res->status = "unsupported"; str_put(&res->detail, "draws run through d3d11.dll only"); return; }
        d10 = device10_for(o, api10_1, c->fl);
        if (!d10) { res->status = "unsupported"; str_printf(&res->detail, "no %s device at feature level 0x%x", c->api, c->fl); return; }
    } else {
        d = device_for(o, c->fl);
        if (!d) { res->status = "unsupported"; str_printf(&res->detail, "no device at feature level 0x%x", c->fl); return; }
    }
    size_t size = 0;
    unsigned char *code = load_shader(o, c->shader, &size);
    if (!code) { res->status = "fail"; str_printf(&res->detail, "cannot read %s", c->shader); return; }
    Array arr = make_array(c);
    HRESULT hr;
    Messages m;
    int have_iq;
    if (d10) {
        /* D3D10_INPUT_ELEMENT_DESC is laid out as D3D11_INPUT_ELEMENT_DESC. */
        if (d10->iq) ID3D10InfoQueue_ClearStoredMessages(d10->iq);
        ID3D10InputLayout *il = NULL;
        hr = ID3D10Device_CreateInputLayout(d10->dev, (const D3D10_INPUT_ELEMENT_DESC *)arr.descs, c->num_elements, code, size,
                                            c->validate_only ? NULL : &il);
        take_messages10(d10, &m);
        if (il) ID3D10InputLayout_Release(il);
        have_iq = d10->iq != NULL;
    } else {
        if (d->iq) ID3D11InfoQueue_ClearStoredMessages(d->iq);
        ID3D11InputLayout *il = NULL;
        hr = ID3D11Device_CreateInputLayout(d->dev, arr.descs, c->num_elements, code, size,
                                            c->validate_only ? NULL : &il);
        take_messages(d, &m);
        if (il) ID3D11InputLayout_Release(il);
        have_iq = d->iq != NULL;
    }
    put_hr(&res->got, (uint32_t)hr);
    put_ids(&res->got, "errors", m.err, m.nerr);
    put_ids(&res->got, "warnings", m.warn, m.nwarn);
    if ((uint32_t)hr != c->expect) {
        res->status = "fail";
        str_put(&res->detail, "CreateInputLayout returned ");
        put_hr(&res->detail, (uint32_t)hr);
    } else if (have_iq) {
        for (UINT i = 0; i < c->nerr && !res->detail.len; ++i)
            if (!contains(m.err, m.nerr, c->err[i])) { res->status = "fail"; str_printf(&res->detail, "error %u not reported", c->err[i]); }
        for (UINT i = 0; i < c->nwarn && !res->detail.len; ++i)
            if (!contains(m.warn, m.nwarn, c->warn[i])) { res->status = "fail"; str_printf(&res->detail, "warning %u not reported", c->warn[i]); }
        for (UINT i = 0; i < c->nabsent && !res->detail.len; ++i)
            if (contains(m.err, m.nerr, c->absent[i]) || contains(m.warn, m.nwarn, c->absent[i]) || contains(m.other, m.nother, c->absent[i])) {
                res->status = "fail"; str_printf(&res->detail, "message %u reported", c->absent[i]);
            }
    }
    if (!strcmp(res->status, "pass") && c->has_draw) {
        for (UINT gi = 0; gi < c->ngroups && !strcmp(res->status, "pass"); ++gi)
            run_group(o, d, c, &c->group[gi], &arr, res, gi);
    }
    if (!have_iq && !strcmp(res->status, "pass") && (c->nerr || c->nwarn || c->nabsent))
        str_put(&res->detail, "debug-layer messages not checked (no info queue)");
    free_array(&arr);
    free(code);
}

/* ------------------------------------------------------------------------------------------ */
/* Parent and child. */

static void put_token(FILE *f, const char *s) {
    if (!*s) { fputs("-", f); return; }
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch > ' ' && ch < 0x7f && ch != '%') fputc(ch, f);
        else fprintf(f, "%%%02X", ch);
    }
}

static int child_main(const Options *o, Cases *cs, UINT first, const char *progress) {
    FILE *f = fopen(progress, "ab");
    if (!f) die("cannot write %s", progress);
    for (UINT i = first; i < cs->n; ++i) {
        fprintf(f, "start %u\n", i);
        fflush(f);
        Result r = {0};
        run_case(o, &cs->c[i], &r);
        fprintf(f, "result %u %s ", i, r.status);
        put_token(f, r.expected.s ? r.expected.s : "");
        fputc(' ', f);
        put_token(f, r.got.s ? r.got.s : "");
        fputc(' ', f);
        put_token(f, r.detail.s ? r.detail.s : "");
        fputc('\n', f);
        fflush(f);
        free(r.expected.s); free(r.got.s); free(r.detail.s);
    }
    fclose(f);
    return 0;
}

static void json_string(Str *b, const char *s) {
    str_put(b, "\"");
    for (; s && *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') { char t[3] = {'\\', (char)ch, 0}; str_put(b, t); }
        else if (ch < 0x20 || ch >= 0x7f) str_printf(b, "\\u%04x", ch);
        else str_putn(b, (const char *)&ch, 1);
    }
    str_put(b, "\"");
}

typedef struct { const char *status; char *expected, *got, *detail; } Row;

/* Reads the child's progress file into rows; returns the index of a case started without a
 * result (or -1). */
static long read_progress(const char *progress, Row *rows, UINT n) {
    size_t size;
    char *text = read_file(progress, MAX_FILE, &size);
    long started = -1;
    if (!text) return -1;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[6] = {0};
        int nf = 0;
        char *fs = NULL;
        for (char *t = strtok_r(line, " ", &fs); t && nf < 6; t = strtok_r(NULL, " ", &fs)) f[nf++] = t;
        if (nf < 2) continue;
        unsigned long i = strtoul(f[1], NULL, 10);
        if (i >= n) continue;
        if (!strcmp(f[0], "start") && nf == 2) { started = (long)i; continue; }
        if (strcmp(f[0], "result") || nf != 6) continue;
        for (int k = 3; k < 6; ++k) { if (!strcmp(f[k], "-")) f[k][0] = 0; percent_decode(f[k]); }
        const char *st = f[2];
        rows[i].status = !strcmp(st, "pass") ? "pass" : !strcmp(st, "fail") ? "fail" : !strcmp(st, "crash") ? "crash" : "unsupported";
        rows[i].expected = _strdup(f[3]); rows[i].got = _strdup(f[4]); rows[i].detail = _strdup(f[5]);
        if (started == (long)i) started = -1;
    }
    free(text);
    return started;
}

static int parent_main(int argc, char **argv, const Options *o, Cases *cs, const char *report, DWORD timeout_ms) {
    char exe[MAX_PATH];
    GetModuleFileNameA(NULL, exe, sizeof exe);
    char progress[MAX_PATH * 2];
    snprintf(progress, sizeof progress, "%s/progress-%lu.txt", o->dir, (unsigned long)GetCurrentProcessId());
    DeleteFileA(progress);
    Row *rows = xcalloc(cs->n, sizeof *rows);
    UINT next = 0;
    int restarts = 0;
    while (next < cs->n && restarts < 100000) {
        Str cmd = {0};
        str_printf(&cmd, "\"%s\" --child %u --progress \"%s\"", exe, next, progress);
        for (int i = 1; i < argc; ++i) { str_put(&cmd, " \""); str_put(&cmd, argv[i]); str_put(&cmd, "\""); }
        STARTUPINFOA si;
        PROCESS_INFORMATION pi;
        memset(&si, 0, sizeof si);
        si.cb = sizeof si;
        SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
        if (!CreateProcessA(NULL, cmd.s, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) die("cannot start a child process");
        free(cmd.s);
        /* Wait while the progress file grows. */
        LONGLONG last = -1;
        DWORD idle = 0;
        for (;;) {
            DWORD w = WaitForSingleObject(pi.hProcess, 500);
            if (w == WAIT_OBJECT_0) break;
            WIN32_FILE_ATTRIBUTE_DATA fa;
            LONGLONG sz = GetFileAttributesExA(progress, GetFileExInfoStandard, &fa)
                              ? ((LONGLONG)fa.nFileSizeHigh << 32 | fa.nFileSizeLow) : 0;
            if (sz != last) { last = sz; idle = 0; } else if ((idle += 500) >= timeout_ms) {
                TerminateProcess(pi.hProcess, 0xdead);
                WaitForSingleObject(pi.hProcess, INFINITE);
                break;
            }
        }
        DWORD code = 0;
        GetExitCodeProcess(pi.hProcess, &code);
        CloseHandle(pi.hProcess);
        CloseHandle(pi.hThread);
        long crashed = read_progress(progress, rows, cs->n);
        next = 0;
        while (next < cs->n && rows[next].status) ++next;
        if (next >= cs->n) break;
        if (crashed >= 0) {
            rows[crashed].status = "crash";
            char detail[128];
            snprintf(detail, sizeof detail, code == 0xdead ? "no progress for %lu s" : "the process ended with 0x%08lx",
                     code == 0xdead ? (unsigned long)(timeout_ms / 1000) : (unsigned long)code);
            Str e = {0};
            describe_expected(&cs->c[crashed], &e);
            rows[crashed].expected = e.s ? e.s : _strdup("");
            rows[crashed].got = _strdup("");
            rows[crashed].detail = _strdup(detail);
            FILE *f = fopen(progress, "ab");
            if (f) {
                fprintf(f, "result %ld crash ", crashed);
                put_token(f, rows[crashed].expected);
                fputs(" - ", f);
                put_token(f, detail);
                fputc('\n', f);
                fclose(f);
            }
            ++restarts;
            while (next < cs->n && rows[next].status) ++next;
            continue;
        }
        die("the child process ended (0x%08lx) before case %u without starting it", (unsigned long)code, next);
    }
    DeleteFileA(progress);
    /* Report. */
    Str b = {0};
    UINT counts[4] = {0, 0, 0, 0};
    str_put(&b, "{\n  \"format\": \"" REPORT_FORMAT "\",\n  \"device\": {");
    Device *d = NULL;
    for (int i = 0; i < 8; ++i) if (g_devices[i].dev) { d = &g_devices[i]; break; }
    (void)d;
    str_put(&b, "\"driver\": ");
    json_string(&b, o->driver == D3D_DRIVER_TYPE_WARP ? "warp" : o->driver == D3D_DRIVER_TYPE_REFERENCE ? "reference" : "hardware");
    {
        /* The adapter, from a device of our own (the children made theirs). */
        ID3D11Device *dev = NULL;
        D3D_FEATURE_LEVEL got;
        if (SUCCEEDED(D3D11CreateDevice(NULL, o->driver, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, &got, NULL))) {
            IDXGIDevice *dxgi = NULL;
            IDXGIAdapter *ad = NULL;
            DXGI_ADAPTER_DESC desc;
            if (SUCCEEDED(ID3D11Device_QueryInterface(dev, &IID_IDXGIDevice, (void **)&dxgi)) &&
                SUCCEEDED(IDXGIDevice_GetAdapter(dxgi, &ad)) && SUCCEEDED(IDXGIAdapter_GetDesc(ad, &desc))) {
                char name[256];
                WideCharToMultiByte(CP_UTF8, 0, desc.Description, -1, name, sizeof name, NULL, NULL);
                str_put(&b, ", \"adapter\": ");
                json_string(&b, name);
            }
            str_printf(&b, ", \"max_feature_level\": \"%x\"", (unsigned)got);
            if (ad) IDXGIAdapter_Release(ad);
            if (dxgi) IDXGIDevice_Release(dxgi);
            ID3D11Device_Release(dev);
        }
        HMODULE ntdll = GetModuleHandleA("ntdll.dll");
        const char *(*wine_version)(void) = ntdll ? (const char *(*)(void))(void *)GetProcAddress(ntdll, "wine_get_version") : NULL;
        str_put(&b, ", \"os\": ");
        if (wine_version) { char w[64]; snprintf(w, sizeof w, "Wine %s", wine_version()); json_string(&b, w); }
        else {
            OSVERSIONINFOA v;
            memset(&v, 0, sizeof v);
            v.dwOSVersionInfoSize = sizeof v;
            char w[64];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
            GetVersionExA(&v);
#pragma GCC diagnostic pop
            snprintf(w, sizeof w, "Windows %lu.%lu.%lu", v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber);
            json_string(&b, w);
        }
    }
    str_put(&b, "},\n  \"cases\": [");
    for (UINT i = 0; i < cs->n; ++i) {
        Row *r = &rows[i];
        const char *st = r->status ? r->status : "crash";
        counts[!strcmp(st, "pass") ? 0 : !strcmp(st, "fail") ? 1 : !strcmp(st, "unsupported") ? 2 : 3]++;
        str_put(&b, i ? ",\n    {" : "\n    {");
        str_put(&b, "\"id\": "); json_string(&b, cs->c[i].id);
        str_put(&b, ", \"status\": "); json_string(&b, st);
        str_put(&b, ", \"expected\": "); json_string(&b, r->expected);
        str_put(&b, ", \"got\": "); json_string(&b, r->got);
        str_put(&b, ", \"detail\": "); json_string(&b, r->detail);
        str_put(&b, "}");
        printf("%-6s %s%s%s\n", !strcmp(st, "pass") ? "pass" : !strcmp(st, "fail") ? "FAIL" : !strcmp(st, "crash") ? "CRASH" : "unsup",
               cs->c[i].id, r->detail && *r->detail ? ": " : "", r->detail ? r->detail : "");
    }
    str_put(&b, "\n  ]\n}\n");
    FILE *f = fopen(report, "wb");
    if (!f || fwrite(b.s, 1, b.len, f) != b.len) die("cannot write %s", report);
    fclose(f);
    printf("%u passed, %u deviating, %u unsupported, %u crashed (report: %s)\n", counts[0], counts[1], counts[2], counts[3], report);
    return 0;
}

int main(int argc, char **argv) {
    Options o = {D3D_DRIVER_TYPE_HARDWARE, 1, NULL};
    const char *report = "report.json", *progress = NULL, *only = NULL;
    long child = -1;
    DWORD timeout_ms = 20000;
    int pass_argc = 0;
    char **pass_argv = xcalloc((size_t)argc + 1, sizeof *pass_argv);
    pass_argv[pass_argc++] = argv[0];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--child") && has) { child = strtol(argv[++i], NULL, 10); continue; }
        if (!strcmp(a, "--progress") && has) { progress = argv[++i]; continue; }
        pass_argv[pass_argc++] = argv[i];
        if (!strcmp(a, "--driver") && has) {
            const char *d = argv[++i];
            pass_argv[pass_argc++] = argv[i];
            if (!strcmp(d, "hardware")) o.driver = D3D_DRIVER_TYPE_HARDWARE;
            else if (!strcmp(d, "warp")) o.driver = D3D_DRIVER_TYPE_WARP;
            else if (!strcmp(d, "reference")) o.driver = D3D_DRIVER_TYPE_REFERENCE;
            else if (!strcmp(d, "software")) o.driver = D3D_DRIVER_TYPE_WARP;
            else die("unknown driver `%s` (hardware, warp, reference)", d);
        } else if (!strcmp(a, "--report") && has) { report = argv[++i]; pass_argv[pass_argc++] = argv[i]; }
        else if (!strcmp(a, "--case") && has) { only = argv[++i]; pass_argv[pass_argc++] = argv[i]; }
        else if (!strcmp(a, "--timeout") && has) { timeout_ms = (DWORD)strtoul(argv[++i], NULL, 10) * 1000; pass_argv[pass_argc++] = argv[i]; }
        else if (!strcmp(a, "--no-debug")) o.debug = 0;
        else if (a[0] == '-') die("unknown option `%s`\nusage: inlay-d3d11-runner DIR [--driver hardware|warp|reference] [--report FILE] [--no-debug] [--case SUBSTRING] [--timeout SECONDS]", a);
        else if (!o.dir) o.dir = a;
        else die("more than one folder given");
    }
    if (!o.dir) die("usage: inlay-d3d11-runner DIR [--driver hardware|warp|reference] [--report FILE] [--no-debug] [--case SUBSTRING] [--timeout SECONDS]");
    if (timeout_ms < 1000) timeout_ms = 1000;
    char path[MAX_PATH * 2];
    snprintf(path, sizeof path, "%s/cases.txt", o.dir);
    size_t size;
    char *text = read_file(path, MAX_FILE, &size);
    if (!text) die("cannot read %s (a regular file of at most 256 MiB)", path);
    if (strlen(text) != size) die("%s holds a NUL byte", path);
    Cases cs = parse_cases(text);
    if (only) {
        UINT k = 0;
        for (UINT i = 0; i < cs.n; ++i) if (strstr(cs.c[i].id, only)) cs.c[k++] = cs.c[i];
        cs.n = k;
    }
    if (child >= 0) {
        if (!progress) die("--child needs --progress");
        return child_main(&o, &cs, (UINT)child, progress);
    }
    return parent_main(pass_argc, pass_argv, &o, &cs, report, timeout_ms);
}
