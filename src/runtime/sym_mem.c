/*
 * sym_mem.c - byte-granular shadow memory of the symbolic runtime, the
 * loads and stores of prog.sym, memcpy/memset, and symbolic pointers.
 *
 * Every byte of the program's memory may have a shadow: a reference to a
 * node and which byte of it (part; little endian), or a lazy reference to an
 * input byte (libFuzzer data: the INPUT node is made on first use).  Pages of
 * 4 KiB shadow live in an open-addressing table; at most SYM_MAX_PAGES pages
 * are kept per run, further stores are concretised (CTG_STF_CONCRETIZED).
 * A load of bytes that are exactly one stored value returns that value's
 * node; otherwise it concatenates the bytes (runs of concrete bytes become
 * one constant).
 *
 * A symbolic address is concretised with a PTR entry `p == value` (the
 * default, the lazy model of seed 003 section 4.2.4), or, under
 * CTG_FL_SYM_ARRAYS, read and written through SMT array theory (section
 * 4.2.3): the bytes of a window around the access - the array the GEP
 * indexed when known, else up to 64 bytes either side within the page - form
 * an array term built by stores, a load selects from it, a store stores into
 * it and every byte of the window becomes a select.  A PTR entry keeps the
 * address inside the window.
 */
#include <string.h>
#include <sys/mman.h>

#include "rt_guard.h"
#include "sym_int.h"

#define SYM_PAGE_SHIFT 12u
#define SYM_PAGE (1u << SYM_PAGE_SHIFT)
#define SYM_PMASK ((uintptr_t)SYM_PAGE - 1u)
#define SYM_SLOTS 8192u     /* hash slots, a power of two                   */
#define SYM_MAX_PAGES 2048u /* shadow pages per run (about 40 MiB)          */
#define SYM_POOL 16u        /* pages allocated at a time                    */
#define SYM_LAZY 0x80000000u /* ref of a not yet materialised input byte    */
#define SYM_WIN 64u         /* bytes either side of an access, bounds unknown */
#define SYM_WIN_MAX 256u    /* largest array window                         */
#define SYM_BOUNDS 64u      /* remembered GEP bounds (direct mapped)        */

typedef struct sym_page {
    uintptr_t base;
    uint32_t ref[SYM_PAGE]; /* shadow (node index + 1), SYM_LAZY | input offset, or 0 */
    uint8_t part[SYM_PAGE]; /* byte of the node this byte is                          */
} sym_page;

static sym_page **sym_slots;
static uint32_t sym_n_pages;
static sym_page *sym_last;
static sym_page *sym_pool;
static uint32_t sym_pool_left;

static struct {
    uint32_t s;
    uint64_t lo, size;
} sym_bounds[SYM_BOUNDS];

static struct {
    uint32_t sp;
    uint64_t lo, hi;
} sym_last_range;

/* ==== pages ================================================================== */

/* A fresh zeroed page, or NULL when the budget is spent. */
static sym_page *sym_page_new(void)
{
    if (sym_n_pages >= SYM_MAX_PAGES) {
        sym_note(CTG_STF_CONCRETIZED);
        return NULL;
    }
    if (!sym_pool_left) {
        void *m = ctg_map_guarded(SYM_POOL * sizeof(sym_page), MAP_PRIVATE | MAP_ANONYMOUS, -1);
        if (m == MAP_FAILED) {
            sym_note(CTG_STF_CONCRETIZED);
            return NULL;
        }
        sym_pool = m;
        sym_pool_left = SYM_POOL;
    }
    sym_pool_left--;
    sym_n_pages++;
    return sym_pool++;
}

/* The shadow page of address a; created when `create` (NULL when it does
 * not exist or cannot be made). */
static sym_page *sym_page_of(uintptr_t a, int create)
{
    uintptr_t base = a & ~SYM_PMASK;
    if (sym_last && sym_last->base == base)
        return sym_last;
    if (!sym_slots) {
        if (!create)
            return NULL;
        void *m = ctg_map_guarded(SYM_SLOTS * sizeof *sym_slots, MAP_PRIVATE | MAP_ANONYMOUS, -1);
        if (m == MAP_FAILED)
            return NULL;
        sym_slots = m;
    }
    uint64_t key = (uint64_t)(base >> SYM_PAGE_SHIFT);
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & (SYM_SLOTS - 1u);
    for (; sym_slots[h]; h = (h + 1u) & (SYM_SLOTS - 1u))
        if (sym_slots[h]->base == base)
            return sym_last = sym_slots[h];
    if (!create)
        return NULL;
    sym_page *p = sym_n_pages < SYM_SLOTS / 2u ? sym_page_new() : NULL;
    if (!p)
        return NULL;
    p->base = base;
    sym_slots[h] = p;
    return sym_last = p;
}

/* Sets the shadow of byte a. */
static void sym_set(uintptr_t a, uint32_t ref, uint8_t part)
{
    if (sym_g.off)
        return;
    sym_page *p = sym_page_of(a, ref != 0);
    if (!p)
        return;
    p->ref[a & SYM_PMASK] = ref;
    p->part[a & SYM_PMASK] = part;
}

/* Raw shadow of byte a (0: concrete). */
static uint32_t sym_ref(uintptr_t a, uint8_t *part)
{
    sym_page *p = sym_page_of(a, 0);
    if (!p)
        return 0;
    *part = p->part[a & SYM_PMASK];
    return p->ref[a & SYM_PMASK];
}

int sym_mem_sym(uintptr_t a)
{
    uint8_t part;
    return sym_ref(a, &part) != 0;
}

uint32_t sym_mem_byte(uintptr_t a)
{
    uint8_t part = 0;
    uint32_t r = sym_ref(a, &part), b;
    if (!r)
        return 0;
    if (r & SYM_LAZY)
        b = sym_input_byte(r & ~SYM_LAZY);
    else if (r > sym_g.hdr->n_nodes || sym_width(r) < 8u * (part + 1u))
        return 0; /* cannot happen: refs are written by this run only */
    else
        b = sym_extract(r, 8u * part, 8);
    if (b && b != r)
        sym_set(a, b, 0); /* remember the byte node */
    return b;
}

void sym_mem_clear(uintptr_t a, uint64_t n)
{
    while (n > 0 && !sym_g.off) {
        uint64_t c = SYM_PAGE - (a & SYM_PMASK);
        if (c > n)
            c = n;
        sym_page *p = sym_page_of(a, 0);
        if (p)
            memset(&p->ref[a & SYM_PMASK], 0, (size_t)c * sizeof(uint32_t));
        a += c;
        n -= c;
    }
}

/* Copies the shadow of c bytes s -> d that lie within one page each. */
static void sym_copy_chunk(uintptr_t d, uintptr_t s, uint64_t c)
{
    if (sym_g.off)
        return;
    sym_page *sp = sym_page_of(s, 0);
    if (!sp) {
        sym_mem_clear(d, c);
        return;
    }
    uint32_t tmp_ref[SYM_PAGE];
    uint8_t tmp_part[SYM_PAGE];
    memcpy(tmp_ref, &sp->ref[s & SYM_PMASK], (size_t)c * sizeof *tmp_ref);
    memcpy(tmp_part, &sp->part[s & SYM_PMASK], (size_t)c);
    sym_page *dp = sym_page_of(d, 1);
    if (!dp)
        return;
    memcpy(&dp->ref[d & SYM_PMASK], tmp_ref, (size_t)c * sizeof *tmp_ref);
    memcpy(&dp->part[d & SYM_PMASK], tmp_part, (size_t)c);
}

/* Bytes from offset x to the end of its page. */
static uint64_t sym_to_page_end(uintptr_t x) { return SYM_PAGE - (x & SYM_PMASK); }

void sym_mem_copy(uintptr_t d, uintptr_t s, uint64_t n)
{
    if (d == s || n == 0)
        return;
    int back = d > s && d - s < n; /* overlapping, destination above: copy downwards */
    uint64_t done = 0;
    while (done < n) {
        uint64_t c;
        if (!back) {
            c = n - done;
            if (c > sym_to_page_end(s + done))
                c = sym_to_page_end(s + done);
            if (c > sym_to_page_end(d + done))
                c = sym_to_page_end(d + done);
            sym_copy_chunk(d + done, s + done, c);
        } else {
            uint64_t end = n - done;
            c = end;
            if (c > ((s + end - 1) & SYM_PMASK) + 1u)
                c = ((s + end - 1) & SYM_PMASK) + 1u;
            if (c > ((d + end - 1) & SYM_PMASK) + 1u)
                c = ((d + end - 1) & SYM_PMASK) + 1u;
            sym_copy_chunk(d + end - c, s + end - c, c);
        }
        done += c;
    }
}

void sym_mem_input(uintptr_t a, uint64_t n, uint32_t off)
{
    for (uint64_t i = 0; i < n && off + i < SYM_LAZY; i++)
        sym_set(a + i, SYM_LAZY | (uint32_t)(off + i), 0);
    if (n)
        __ctg_sym_live = 1;
}

void sym_mem_bounds(uint32_t s, uint64_t lo, uint64_t size)
{
    unsigned k = s % SYM_BOUNDS;
    sym_bounds[k].s = s;
    sym_bounds[k].lo = lo;
    sym_bounds[k].size = size;
}

/* ==== loads and stores ========================================================== */

/* Concatenation of the shadows of size bytes at a (concrete bytes as
 * constants), truncated to w bits; 0 when every byte is concrete. */
static uint32_t sym_gather(uintptr_t a, uint32_t size, uint32_t w)
{
    uint32_t acc = 0;
    uint64_t cval = 0;
    unsigned cbits = 0;
    int any = 0;
    for (uint32_t i = size; i-- > 0;) {
        uint32_t b = sym_mem_byte(a + i);
        if (!b) {
            cval = cval << 8 | ((const uint8_t *)a)[i];
            cbits += 8;
            continue;
        }
        any = 1;
        if (cbits) {
            uint32_t k = sym_const(cbits, cval);
            acc = acc ? sym_concat(acc, k) : k;
            cbits = 0;
            cval = 0;
        }
        acc = acc ? sym_concat(acc, b) : b;
        if (!acc)
            return 0;
    }
    if (!any)
        return 0;
    if (cbits)
        acc = sym_concat(acc, sym_const(cbits, cval));
    return sym_extract(acc, 0, w);
}

/* The stored node when the size bytes at a are exactly bytes 0..size-1 of
 * one node of 8 * size bits; else 0. */
static uint32_t sym_whole(uintptr_t a, uint32_t size)
{
    uint8_t part = 0;
    uint32_t r = sym_ref(a, &part);
    if (!r || (r & SYM_LAZY) || part != 0 || r > sym_g.hdr->n_nodes || sym_width(r) != 8u * size)
        return 0;
    for (uint32_t i = 1; i < size; i++) {
        uint8_t pi = 0;
        if (sym_ref(a + i, &pi) != r || pi != i)
            return 0;
    }
    return r;
}

/* True when any of n bytes at a is symbolic. */
static int sym_any(uintptr_t a, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (sym_mem_sym(a + i))
            return 1;
    return 0;
}

/* The window [*lo, *hi) of bytes a theory access of size bytes at a reads. */
static void sym_window(uintptr_t a, uint32_t size, uint32_t sp, uintptr_t *lo, uintptr_t *hi)
{
    unsigned k = sp % SYM_BOUNDS;
    if (sym_bounds[k].s == sp && a >= sym_bounds[k].lo &&
        a + size <= sym_bounds[k].lo + sym_bounds[k].size) {
        *lo = (uintptr_t)sym_bounds[k].lo;
        *hi = (uintptr_t)(sym_bounds[k].lo + sym_bounds[k].size);
    } else {
        uintptr_t plo = a & ~SYM_PMASK, phi = ((a + size - 1u) & ~SYM_PMASK) + SYM_PAGE;
        *lo = a - plo > SYM_WIN ? a - SYM_WIN : plo;
        *hi = phi - (a + size) > SYM_WIN ? a + size + SYM_WIN : phi;
    }
    if (*hi - *lo > SYM_WIN_MAX) {
        uintptr_t half = (SYM_WIN_MAX - size) / 2u;
        uintptr_t nlo = a - *lo > half ? a - half : *lo;
        uintptr_t nhi = nlo + SYM_WIN_MAX;
        if (nhi > *hi) {
            nhi = *hi;
            nlo = *hi - SYM_WIN_MAX;
        }
        *lo = nlo;
        *hi = nhi;
    }
}

/* The array term of the bytes [lo, hi): stores of every symbolic or non-zero
 * byte into an all-zero array.  0 when out of nodes. */
static uint32_t sym_array(uintptr_t lo, uintptr_t hi)
{
    uint32_t arr = sym_mk(CTG_SOP_ARR_CONST, 0, 0, 0, 0, 0, 0);
    for (uintptr_t x = lo; arr && x < hi; x++) {
        uint32_t b = sym_mem_byte(x);
        uint8_t c = *(const uint8_t *)x;
        if (!b && !c)
            continue;
        arr = sym_mk(CTG_SOP_STORE, 0, 0, 3, arr, sym_const(64, x), b ? b : sym_const(8, c));
    }
    return arr;
}

/* Pushes lo <= P <= hi - size (once per address and window). */
static void sym_range(uint32_t sp, uint32_t p64, uintptr_t lo, uintptr_t hi, uint32_t size)
{
    if (sym_last_range.sp == sp && sym_last_range.lo == lo && sym_last_range.hi == hi)
        return;
    uint32_t c1 = sym_mk(CTG_SOP_ICMP, 1, 37 /* ule */, 2, sym_const(64, lo), p64, 0);
    uint32_t c2 = sym_mk(CTG_SOP_ICMP, 1, 37 /* ule */, 2, p64, sym_const(64, hi - size), 0);
    sym_push(sym_mk(CTG_SOP_AND, 1, 0, 2, c1, c2, 0), CTG_SYM_NONE, CTG_SPC_PTR, 0, 1);
    sym_last_range.sp = sp;
    sym_last_range.lo = lo;
    sym_last_range.hi = hi;
}

/* P + i as a 64-bit index term. */
static uint32_t sym_index(uint32_t p64, uint32_t i)
{
    return i ? sym_mk(CTG_SOP_ADD, 64, 0, 2, p64, sym_const(64, i), 0) : p64;
}

/* Load through array theory; 0 when out of nodes (then concretised). */
static uint32_t sym_theory_load(uintptr_t a, uint32_t size, uint32_t sp, uint32_t w)
{
    uintptr_t lo, hi;
    sym_window(a, size, sp, &lo, &hi);
    uint32_t arr = sym_array(lo, hi), p64 = sym_addr64(sp), acc = 0;
    if (!arr || !p64)
        return 0;
    sym_range(sp, p64, lo, hi, size);
    for (uint32_t i = size; i-- > 0;) {
        uint32_t b = sym_mk(CTG_SOP_SELECT, 8, 0, 2, arr, sym_index(p64, i), 0);
        acc = acc ? sym_concat(acc, b) : b;
        if (!acc)
            return 0;
    }
    return sym_extract(acc, 0, w);
}

/* Store through array theory (before the concrete store); false when out
 * of nodes, then the caller concretises. */
static int sym_theory_store(uintptr_t a, uint32_t size, uint32_t s, uint32_t sp, uint64_t v)
{
    uintptr_t lo, hi;
    sym_window(a, size, sp, &lo, &hi);
    uint32_t arr = sym_array(lo, hi), p64 = sym_addr64(sp);
    uint32_t val = s ? sym_zext(s, 8u * size) : sym_const(8u * size, v);
    if (!arr || !p64 || !val)
        return 0;
    for (uint32_t i = 0; arr && i < size; i++)
        arr = sym_mk(CTG_SOP_STORE, 0, 0, 3, arr, sym_index(p64, i), sym_extract(val, 8u * i, 8));
    if (!arr)
        return 0;
    sym_range(sp, p64, lo, hi, size);
    for (uintptr_t x = lo; x < hi; x++)
        sym_set(x, sym_mk(CTG_SOP_SELECT, 8, 0, 2, arr, sym_const(64, x), 0), 0);
    __ctg_sym_live = 1;
    return 1;
}

/* Pointer width of this binary in bits. */
static unsigned sym_ptr_bits(void) { return (unsigned)(sizeof(void *) * 8u); }

uint32_t __ctg_sym_load(const void *p, uint32_t size, uint32_t sp, uint32_t w)
{
    uintptr_t a = (uintptr_t)p;
    int scalar = size >= 1 && size <= 8 && w >= 1 && w <= 8u * size;
    if (sp && !sym_ok(sp, sym_ptr_bits()))
        sp = 0;
    if (sp && scalar && sym_theory()) {
        uint32_t r = sym_theory_load(a, size, sp, w);
        if (r)
            return r;
    }
    if (sp)
        sym_concretize(sp, a);
    if (!__ctg_sym_live)
        return 0;
    if (!scalar) {
        if (sym_any(a, size))
            sym_note(CTG_STF_CONCRETIZED);
        return 0;
    }
    uint32_t r = sym_whole(a, size);
    return r ? sym_extract(r, 0, w) : sym_gather(a, size, w);
}

void __ctg_sym_store(void *p, uint32_t size, uint32_t s, uint32_t sp, uint64_t v)
{
    uintptr_t a = (uintptr_t)p;
    if (sp && !sym_ok(sp, sym_ptr_bits()))
        sp = 0;
    if (s && (s > sym_g.hdr->n_nodes || sym_width(s) < 1 || sym_width(s) > 8u * size ||
              size > 8)) {
        sym_note(CTG_STF_CONCRETIZED);
        s = 0;
    }
    if (sp && size >= 1 && size <= 8 && sym_theory() && sym_theory_store(a, size, s, sp, v))
        return;
    if (sp)
        sym_concretize(sp, a);
    if (!s) {
        if (__ctg_sym_live)
            sym_mem_clear(a, size);
        return;
    }
    s = sym_zext(s, 8u * size);
    if (!s) {
        sym_mem_clear(a, size);
        return;
    }
    for (uint32_t i = 0; i < size; i++)
        sym_set(a + i, s, (uint8_t)i);
    __ctg_sym_live = 1;
}

void __ctg_sym_memcpy(void *d, const void *s, uint64_t n, uint32_t sn)
{
    if (sn && sym_ok(sn, sym_ptr_bits()))
        sym_concretize(sn, n);
    if (__ctg_sym_live)
        sym_mem_copy((uintptr_t)d, (uintptr_t)s, n);
}

void __ctg_sym_memset(void *d, uint32_t sv, uint64_t n, uint32_t sn)
{
    if (sn && sym_ok(sn, sym_ptr_bits()))
        sym_concretize(sn, n);
    if (sv && sym_ok(sv, 8)) {
        for (uint64_t i = 0; i < n; i++)
            sym_set((uintptr_t)d + i, sv, 0);
        __ctg_sym_live = 1;
    } else if (__ctg_sym_live) {
        sym_mem_clear((uintptr_t)d, n);
    }
}

void __ctg_sym_clear(void *p, uint64_t n)
{
    if (__ctg_sym_live)
        sym_mem_clear((uintptr_t)p, n);
}
