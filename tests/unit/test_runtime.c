/*
 * test_runtime.c - the runtime (src/runtime) seen through the executor, on
 * the programs of tests/programs: values consumed per type (64- and 32-bit),
 * running out, random extension (reproducible per seed, replayable without
 * it), branch distances of every predicate against hand-computed values,
 * switch and string-compare distances, cmplog, the libFuzzer driver, the
 * stand-alone reproduce mode, and the distribution of rt_valgen.h.
 */
#include <float.h>
#include <math.h>
#include <signal.h>

#include "base/proc.h"
#include "exec_fixture.h"
#include "host_skip.h"
#include "runtime/rt_valgen.h"

/* ==== input builder ======================================================= */

typedef struct inbuf {
    uint8_t b[4096];
    size_t n;
} inbuf;

static void put(inbuf *in, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; i++)
        in->b[in->n++] = (uint8_t)(v >> (8 * i));
}

static void put_double(inbuf *in, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    put(in, u, 8);
}

/* ==== values.c: one value of every type =================================== */

/* The input for values.c with pointers/longs of `w` bytes, and the lines
 * the program must print for it. */
static void values_input(inbuf *in, size_t w, char *expect, size_t cap)
{
    float f = 1.5f;
    uint32_t fb;
    memcpy(&fb, &f, 4);
    memset(in, 0, sizeof *in);
    put(in, 0x03, 1);                            /* bool: low bit */
    put(in, 0xff, 1);                            /* char -1 */
    put(in, 0xfe, 1);                            /* uchar 254 */
    put(in, (uint16_t)-2, 2);                    /* short */
    put(in, 65535, 2);                           /* ushort */
    put(in, 0x80000000u, 4);                     /* int INT_MIN */
    put(in, 4000000000u, 4);                     /* uint */
    put(in, (uint64_t)-5, w);                    /* long */
    put(in, ~(uint64_t)0, w);                    /* ulong */
    put(in, (uint64_t)-9000000000ll, 8);         /* longlong */
    put(in, 12345678901234567890ull, 8);         /* ulonglong */
    put(in, fb, 4);                              /* float */
    put_double(in, -2.25);                       /* double */
    put(in, 0, w);                               /* pointer */
    put(in, 77, w);                              /* size_t */
    put(in, (uint64_t)-1, 8);                    /* loff_t */
    put(in, 1ull << 40, 8);                      /* sector_t */
    put(in, 0xdeadbeefu, 4);                     /* u32 */
    put(in, 0x1234, 2);                          /* u16 */
    put(in, 200, 1);                             /* u8 */
    put(in, 42, 4);                              /* unsigned */
    snprintf(expect, cap,
             "bool 1\nchar -1\nuchar 254\nshort -2\nushort 65535\nint -2147483648\n"
             "uint 4000000000\nlong -5\nulong %s\nlonglong -9000000000\n"
             "ulonglong 12345678901234567890\nfloat 1.5\ndouble -2.25\npointer (nil)\n"
             "size_t 77\nloff_t -1\nsector_t 1099511627776\nu32 3735928559\nu16 4660\n"
             "u8 200\nunsigned 42\n",
             w == 8 ? "18446744073709551615" : "4294967295");
}

static const uint16_t value_types[] = {
    CTG_T_BOOL,  CTG_T_CHAR,     CTG_T_UCHAR,    CTG_T_SHORT,    CTG_T_USHORT,     CTG_T_INT,
    CTG_T_UINT,  CTG_T_LONG,     CTG_T_ULONG,    CTG_T_LONGLONG, CTG_T_ULONGLONG,  CTG_T_FLOAT,
    CTG_T_DOUBLE, CTG_T_POINTER, CTG_T_SIZE_T,   CTG_T_LONGLONG, CTG_T_ULONGLONG,  CTG_T_UINT,
    CTG_T_USHORT, CTG_T_UCHAR,   CTG_T_UINT};

/* Size of value i of values.c for word size w. */
static uint16_t value_size(size_t i, size_t w)
{
    static const uint8_t s[] = {1, 1, 1, 2, 2, 4, 4, 0, 0, 8, 8, 4, 8, 0, 0, 8, 8, 4, 2, 1, 4};
    return s[i] ? s[i] : (uint16_t)w;
}

static void check_values(const char *prog, size_t w)
{
    exec_t *x = fx_exec(prog, 100000, 4, 1000);
    inbuf in;
    char expect[1024];
    values_input(&in, w, expect, sizeof expect);
    fx_out_clear();
    exec_result r = fx_run(x, in.b, in.n, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 7);
    assert_false(r.status & CTG_ST_RAN_OUT);
    assert_string_equal(fx_out_read(), expect);
    /* the value log: types, sizes, consecutive offsets from 0 (the
     * constructor's nondet call before mapping consumed nothing) */
    size_t n, off = 0;
    const ctg_value_rec *v = exec_values(x, &n);
    assert_int_equal(n, 21);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(v[i].type, value_types[i]);
        assert_int_equal(v[i].size, value_size(i, w));
        assert_int_equal(v[i].offset, off);
        off += v[i].size;
    }
    assert_int_equal(exec_consumed(x), in.n);
    size_t len;
    const uint8_t *inp = exec_input(x, &len);
    assert_int_equal(len, in.n);
    assert_int_equal(inp[0], 1); /* bool canonicalised */
    assert_int_equal(inp[1], 0xff);
    /* coverage: the dummy map took the constructor's counts */
    assert_int_equal(exec_cov(x)[1], 1);
    assert_int_equal(exec_cov(x)[0], 0);
    assert_int_equal(exec_cov(x)[99999], 0);
    exec_free(x);
}

static void test_values_64(void **state)
{
    (void)state;
    check_values("values64", 8);
}

static void test_values_32(void **state)
{
    (void)state;
    if (access(fx_prog("values32"), X_OK) != 0)
        skip(); /* no 32-bit libc on this machine */
    SKIP_UNLESS_EXEC32();
    check_values("values32", 4);
}

static void test_ran_out(void **state)
{
    (void)state;
    exec_t *x = fx_exec("values64", 100000, 4, 1000);
    fx_out_clear();
    exec_result r = fx_run(x, NULL, 0, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_true(r.status & CTG_ST_RAN_OUT);
    assert_non_null(strstr(fx_out_read(), "bool 0\nchar 0\n"));
    assert_non_null(strstr(fx_out_read(), "double 0\n"));
    size_t n;
    exec_values(x, &n);
    assert_int_equal(n, 0);
    /* 4 bytes: bool, char, uchar; the short finds one byte and runs out, and
     * the u8 later does not take that byte */
    uint8_t four[4] = {0, 'A', 9, 0x55};
    fx_out_clear();
    r = fx_run(x, four, 4, 0, 0);
    assert_true(r.status & CTG_ST_RAN_OUT);
    assert_non_null(strstr(fx_out_read(), "char 65\nuchar 9\nshort 0\n"));
    exec_values(x, &n);
    assert_int_equal(n, 3);
    assert_int_equal(exec_consumed(x), 3);
    assert_non_null(strstr(fx_out_read(), "u8 0\n"));
    exec_free(x);
}

static void test_extend_random(void **state)
{
    (void)state;
    exec_t *x = fx_exec("values64", 100000, 4, 1000);
    static uint8_t in1[256], in2[256];
    static char out1[4096], out3[4096];
    size_t len1, len2, len3;

    fx_out_clear();
    exec_result r = fx_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, 1);
    assert_false(r.status & CTG_ST_RAN_OUT);
    const uint8_t *p = exec_input(x, &len1);
    assert_int_equal(len1, 102);
    assert_int_equal(exec_consumed(x), 102);
    memcpy(in1, p, len1);
    strcpy(out1, fx_out_read());

    /* same seed: same bytes */
    fx_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, 1);
    p = exec_input(x, &len2);
    assert_int_equal(len2, len1);
    assert_memory_equal(p, in1, len1);

    /* another seed: other bytes */
    fx_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, 2);
    p = exec_input(x, &len3);
    memcpy(in2, p, len3);
    assert_memory_not_equal(in1, in2, len1);

    /* the extended input replays the run without extension */
    fx_out_clear();
    r = fx_run(x, in1, len1, 0, 0);
    assert_false(r.status & CTG_ST_RAN_OUT);
    strcpy(out3, fx_out_read());
    assert_string_equal(out1, out3);

    /* a partial value at the end is dropped and extended */
    uint8_t four[4] = {1, 'A', 9, 0x55};
    fx_run(x, four, 4, CTG_FL_EXTEND_RANDOM, 5);
    p = exec_input(x, &len1);
    assert_int_equal(len1, 102);
    assert_memory_equal(p, four, 3);
    exec_free(x);
}

static void test_log_and_input_limits(void **state)
{
    (void)state;
    exec_t *x = fx_exec("many64", 1, 0, 30000); /* far above its time: test_runtime takes 1.5 s */
    /* 200000 one-byte values from the input: the log keeps every one (it
     * holds a value per input byte, so it cannot fill before the input) */
    static uint8_t in[4 + 200000];
    uint32_t n = 200000;
    memcpy(in, &n, 4);
    memset(in + 4, 1, 200000);
    exec_result r = fx_run(x, in, sizeof in, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 200000 & 255);
    assert_false(r.status & CTG_ST_LOG_FULL);
    assert_false(r.status & CTG_ST_RAN_OUT);
    size_t nv;
    const ctg_value_rec *v = exec_values(x, &nv);
    assert_int_equal(nv, 200001);
    assert_int_equal(v[200000].offset, 4 + 200000 - 1);
    assert_true(CTG_MAX_VALUES >= CTG_MAX_INPUT);
    assert_int_equal(exec_consumed(x), sizeof in);

    /* random extension up to the capacity of the input area */
    n = CTG_MAX_INPUT + 10u;
    r = fx_run(x, &n, 4, CTG_FL_EXTEND_RANDOM, 9);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_true(r.status & CTG_ST_INPUT_FULL);
    assert_true(r.status & CTG_ST_RAN_OUT);
    size_t len;
    exec_input(x, &len);
    assert_int_equal(len, CTG_MAX_INPUT);
    assert_int_equal(exec_consumed(x), CTG_MAX_INPUT);
    exec_free(x);
}

/* ==== dist.c: distances of every hook ====================================== */

static exec_t *dist_exec(void) { return fx_exec("dist64", 106, 16, 1000); }

/* Input for dist.c. */
static void dist_input(inbuf *in, uint32_t bits, uint64_t a, uint64_t b, double fx, double fy,
                       int c, int32_t v, const char *s)
{
    memset(in, 0, sizeof *in);
    put(in, bits, 4);
    put(in, a, 8);
    put(in, b, 8);
    put_double(in, fx);
    put_double(in, fy);
    put(in, (uint64_t)c, 1);
    put(in, (uint32_t)v, 4);
    put(in, strlen(s), 1);
    for (const char *q = s; *q; q++)
        put(in, (uint8_t)*q, 1);
}

/* Checks dist[e] = 1 + d for the edges base, base+1. */
static void assert_dist2(const double *dist, uint32_t base, double dt, double df)
{
    if (dist[base] != 1.0 + dt || dist[base + 1] != 1.0 + df)
        fail_msg("edges %u/%u: distances %.17g/%.17g, expected %.17g/%.17g", base, base + 1,
                 dist[base] - 1.0, dist[base + 1] - 1.0, dt, df);
}

static void test_int_distances(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    inbuf in;
    /* a = 5 < b = 9 on 32 bits, equal for both signednesses */
    dist_input(&in, 32, 5, 9, 0, 0, 0, 0, "");
    exec_result r = fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    const double *d = exec_dist(x);
    for (int s = 0; s < 2; s++) {
        uint32_t o = s ? 8 : 0; /* SGT.. starts at edge 12 = 4 + 8 */
        if (!s) {
            assert_dist2(d, 0, 4, 0); /* EQ */
            assert_dist2(d, 2, 0, 4); /* NE */
        }
        assert_dist2(d, 4 + o, 5, 0);  /* GT: 9 - 5 + 1 to make it true */
        assert_dist2(d, 6 + o, 4, 0);  /* GE */
        assert_dist2(d, 8 + o, 0, 4);  /* LT */
        assert_dist2(d, 10 + o, 0, 5); /* LE */
    }

    /* 8 bits: a = 0x3ff masks to 0xff = 255 unsigned, -1 signed; b = 1 */
    dist_input(&in, 8, 0x3ff, 1, 0, 0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 0, 2, 0);    /* EQ: wrap-around distance min(254, 2) */
    assert_dist2(d, 4, 0, 254);  /* UGT true */
    assert_dist2(d, 10, 254, 0); /* ULE false */
    assert_dist2(d, 12, 3, 0);   /* SGT: -1 > 1 false, 1 - (-1) + 1 */
    assert_dist2(d, 16, 0, 2);   /* SLT: -1 < 1 true */

    /* 64 bits at the extremes: no overflow */
    dist_input(&in, 64, 0, ~(uint64_t)0, 0, 0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 0, 1, 0);                        /* EQ: 0 vs -1 */
    assert_dist2(d, 8, 0, 18446744073709551615.0);   /* ULT true */
    assert_dist2(d, 16, 2, 0);                       /* SLT: 0 < -1 false */
    dist_input(&in, 64, 0x8000000000000000ull, 0x7fffffffffffffffull, 0, 0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 12, 18446744073709551616.0, 0); /* SGT: MIN > MAX false, 2^64 - 1 + 1 */
    exec_free(x);
}

/* A hook given CTG_CMP_COUNT / CTG_BR_COUNT (a lean function's branch)
 * counts the edge the icmp / the bool takes, with or without distances. */
static void test_hook_counts(void **state)
{
    (void)state;
    static const struct {
        uint32_t bits;
        uint64_t a, b;
        int holds[10]; /* EQ NE UGT UGE ULT ULE SGT SGE SLT SLE */
    } cases[] = {
        {32, 5, 9, {0, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
        {32, 9, 9, {1, 0, 0, 1, 0, 1, 0, 1, 0, 1}},
        /* 8 bits: 0x3ff is 255 unsigned, -1 signed; b = 1 */
        {8, 0x3ff, 1, {0, 1, 1, 1, 0, 0, 0, 0, 1, 1}},
        /* 8 bits: the high bits do not count: 0x101 == 1 */
        {8, 0x101, 1, {1, 0, 0, 1, 0, 1, 0, 1, 0, 1}},
        {64, 0x8000000000000000ull, 0x7fffffffffffffffull, {0, 1, 1, 1, 0, 0, 0, 0, 1, 1}},
        {64, 0, ~(uint64_t)0, {0, 1, 0, 0, 1, 1, 1, 1, 0, 0}},
        /* a pointer (flagged) compares unsigned */
        {64 | CTG_CMP_PTR, 0x10, 0x20, {0, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
    };
    exec_t *x = dist_exec();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (uint32_t fl = 0; fl <= CTG_FL_DIST; fl += CTG_FL_DIST) {
            inbuf in;
            dist_input(&in, cases[i].bits, cases[i].a, cases[i].b, 0, 0, (int)(i & 1), 0, "");
            fx_run(x, in.b, in.n, fl, 0);
            const uint8_t *cov = exec_cov(x);
            for (uint32_t k = 0; k < 10; k++)
                if (cov[80 + 2 * k] != cases[i].holds[k] || cov[81 + 2 * k] != !cases[i].holds[k])
                    fail_msg("case %zu, predicate %u, flags %u: counted %u/%u", i, 32 + k, fl,
                             cov[80 + 2 * k], cov[81 + 2 * k]);
            assert_int_equal(cov[100], i & 1);
            assert_int_equal(cov[101], !(i & 1));
        }
    exec_free(x);
}

/* The compact hooks (__ctg_cmpc32, __ctg_cmpc: a == 9, the rest from
 * their table rows) count and measure as __ctg_cmp with those arguments:
 * the edge a == 9 takes, and with distances |a - 9| to the true side. */
static void test_hook_compact(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    static const uint64_t as[] = {5, 9, 0x100000009ull};
    for (size_t i = 0; i < 3; i++) {
        inbuf in;
        dist_input(&in, 32, as[i], 0, 0, 0, 0, 0, "");
        fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
        const uint8_t *cov = exec_cov(x);
        const double *d = exec_dist(x);
        bool eq32 = (uint32_t)as[i] == 9, eq64 = as[i] == 9;
        assert_int_equal(cov[102], eq32);
        assert_int_equal(cov[103], !eq32);
        assert_int_equal(cov[104], eq64);
        assert_int_equal(cov[105], !eq64);
        assert_dist2(d, 102, eq32 ? 0 : 4, eq32 ? 1 : 0);
    }
    exec_free(x);
}

static void test_real_distances(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    inbuf in;
    dist_input(&in, 32, 0, 0, 1.0, 3.5, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    const double *d = exec_dist(x);
    assert_dist2(d, 20 + 0, 1, 0);      /* false */
    assert_dist2(d, 20 + 2, 2.5, 0);    /* OEQ */
    assert_dist2(d, 20 + 4, 3.5, 0);    /* OGT */
    assert_dist2(d, 20 + 6, 2.5, 0);    /* OGE */
    assert_dist2(d, 20 + 8, 0, 2.5);    /* OLT */
    assert_dist2(d, 20 + 10, 0, 3.5);   /* OLE */
    assert_dist2(d, 20 + 12, 0, 2.5);   /* ONE */
    assert_dist2(d, 20 + 14, 0, 1);     /* ORD */
    assert_dist2(d, 20 + 16, 1, 0);     /* UNO */
    assert_dist2(d, 20 + 18, 2.5, 0);   /* UEQ */
    assert_dist2(d, 20 + 24, 0, 2.5);   /* ULT */
    assert_dist2(d, 20 + 30, 0, 1);     /* true */

    dist_input(&in, 32, 0, 0, NAN, 0.0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    /* a nan is as far from the other side as a number can be */
    assert_dist2(d, 20 + 2, DBL_MAX, 0);  /* OEQ with nan: false */
    assert_dist2(d, 20 + 8, DBL_MAX, 0);  /* OLT with nan: false */
    assert_dist2(d, 20 + 14, DBL_MAX, 0); /* ORD: false */
    assert_dist2(d, 20 + 16, 0, DBL_MAX); /* UNO: true */
    assert_dist2(d, 20 + 18, 0, DBL_MAX); /* UEQ: true */
    assert_dist2(d, 20 + 28, 0, DBL_MAX); /* UNE: true */

    dist_input(&in, 32, 0, 0, INFINITY, -INFINITY, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_true(d[20 + 4] == 1.0);                   /* OGT true */
    assert_true(isfinite(d[20 + 5]) && d[20 + 5] > 1e308); /* saturated, not inf */
    exec_free(x);
}

static void test_br_and_switch(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    inbuf in;
    dist_input(&in, 32, 0, 0, 0, 0, 1, 6, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    const double *d = exec_dist(x);
    const uint8_t *cov = exec_cov(x);
    assert_dist2(d, 52, 0, 1);
    assert_int_equal(cov[52], 1);
    assert_int_equal(cov[53], 0);
    /* switch on 6 over {-5, 0, 7, 1000}: default taken */
    assert_true(d[60] == 12 && d[61] == 7 && d[62] == 2 && d[63] == 995 && d[64] == 1);
    assert_int_equal(cov[64], 1);
    assert_int_equal(cov[60] + cov[61] + cov[62] + cov[63], 0);

    dist_input(&in, 32, 0, 0, 0, 0, 0, -5, "");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 52, 1, 0);
    assert_true(d[60] == 1 && d[61] == 6 && d[64] == 2);
    assert_int_equal(cov[60], 1);
    assert_int_equal(cov[64], 0);

    /* without CTG_FL_DIST: coverage, but no distances */
    exec_t *y = dist_exec();
    fx_run(y, in.b, in.n, 0, 0);
    assert_int_equal(exec_cov(y)[60], 1);
    for (uint32_t e = 0; e <= 80; e++)
        assert_true(exec_dist(y)[e] == 0.0);
    exec_free(y);
    exec_free(x);
}

static void test_string_distances(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    inbuf in;
    const double *d = exec_dist(x);
    const uint8_t *cov = exec_cov(x);

    dist_input(&in, 32, 0, 0, 0, 0, 0, 0, "hellp");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 70, 2 + 1 / 256.0, 0); /* 6 positions, differ at 4 by 1 */
    assert_int_equal(cov[71], 1);
    assert_dist2(d, 72, 0, 1);             /* strncmp(.., "help", 3) equal */
    assert_dist2(d, 74, 0, 1 + 1 / 256.0); /* memcmp(.., 5) != 0 */
    int res = strcmp("hellp", "hello");
    assert_dist2(d, 76, (double)res + 1, 0); /* < 0: plain signed comparison */

    dist_input(&in, 32, 0, 0, 0, 0, 0, 0, "he");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    double he = d[70];
    assert_true(he == 1 + 4 + 'l' / 256.0);
    dist_input(&in, 32, 0, 0, 0, 0, 0, 0, "h");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_true(d[70] > he); /* fewer matching leading characters: farther */
    dist_input(&in, 32, 0, 0, 0, 0, 0, 0, "hello");
    fx_run(x, in.b, in.n, CTG_FL_DIST, 0);
    assert_dist2(d, 70, 0, 1);
    assert_int_equal(cov[70], 1);
    exec_free(x);
}

static void test_cmplog(void **state)
{
    (void)state;
    exec_t *x = dist_exec();
    inbuf in;
    dist_input(&in, 16, 0x12345, 9, 2.0, 3.0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_CMPLOG, 0);
    const ctg_cmp_rec *c = exec_cmp(x);
    for (int k = 0; k < 10; k++) {
        assert_int_equal(c[k].a, 0x2345); /* masked to 16 bits */
        assert_int_equal(c[k].b, 9);
        assert_int_equal(c[k].bits, 16);
        assert_int_equal(c[k].hits, 1);
    }
    double two = 2.0;
    uint64_t u;
    memcpy(&u, &two, 8);
    assert_int_equal(c[10].a, u);
    assert_int_equal(c[10].hits, 16);
    assert_int_equal(c[11].bits, 0); /* never executed */
    fx_run(x, in.b, in.n, CTG_FL_CMPLOG, 0);
    assert_int_equal(c[0].hits, 1); /* reset per run */
    /* string compares log their first (up to 8) bytes, flagged */
    dist_input(&in, 16, 0, 0, 0, 0, 0, 0, "hellp");
    fx_run(x, in.b, in.n, CTG_FL_CMPLOG, 0);
    uint64_t hellp = 0, hello = 0, hel = 0;
    memcpy(&hellp, "hellp", 5);
    memcpy(&hello, "hello", 5);
    memcpy(&hel, "hel", 3);
    assert_int_equal(c[12].a, hellp);
    assert_int_equal(c[12].b, hello);
    assert_int_equal(c[12].bits, CTG_CMP_STRING | 40);
    assert_int_equal(c[13].a, hel); /* strncmp(s, "help", 3): 3 bytes */
    assert_int_equal(c[13].b, hel);
    assert_int_equal(c[13].bits, CTG_CMP_STRING | 24);
    assert_int_equal(c[14].bits, CTG_CMP_STRING | 40); /* memcmp(s, "hello", 5) */
    dist_input(&in, 16, 0, 0, 0, 0, 0, 0, "");
    fx_run(x, in.b, in.n, CTG_FL_CMPLOG, 0);
    assert_int_equal(c[12].a, 0); /* "" against "hello": NUL, then nothing read */
    assert_int_equal(c[12].b, hello);
    exec_free(x);
}

/* ==== fuzz.c: the libFuzzer driver ========================================= */

static void test_libfuzzer(void **state)
{
    (void)state;
    exec_t *x = fx_exec("fuzz64", 4, 0, 1000);
    assert_int_equal(exec_harness(x), CTG_HARNESS_LIBFUZZER);
    fx_out_clear();
    exec_result r = fx_run(x, "FUZZ", 4, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 0);
    assert_string_equal(fx_out_read(), "init=1 size=4 head=FUZZ\n");
    assert_int_equal(exec_cov(x)[1], 1);
    size_t n;
    const ctg_value_rec *v = exec_values(x, &n);
    assert_int_equal(n, 1);
    assert_int_equal(v[0].type, CTG_T_BYTES);
    assert_int_equal(v[0].size, 4);
    assert_int_equal(exec_consumed(x), 4);

    fx_out_clear();
    fx_run(x, NULL, 0, 0, 0);
    assert_string_equal(fx_out_read(), "init=1 size=0 head=\n");

    /* empty input under random extension: random bytes, reproducible */
    size_t len1, len2;
    static uint8_t first[CTG_MAX_INPUT];
    int nonempty = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        fx_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, seed);
        const uint8_t *p = exec_input(x, &len1);
        memcpy(first, p, len1);
        fx_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, seed);
        p = exec_input(x, &len2);
        assert_int_equal(len1, len2);
        assert_memory_equal(first, p, len1);
        assert_int_equal(exec_consumed(x), len1);
        nonempty += len1 > 0;
    }
    assert_true(nonempty >= 4);
    exec_free(x);
}

/* ==== exitfn.c, dtor.c: what runs after main returns ====================== */

static void test_exit_handlers_run(void **state)
{
    (void)state;
    exec_t *x = fx_exec("exitfn64", 4, 0, 1000);
    uint8_t sel = 0;
    exec_result r = fx_run(x, &sel, 1, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 4);
    assert_int_equal(exec_cov(x)[1], 1);
    sel = 1;
    r = fx_run(x, &sel, 1, 0, 0);
    assert_int_equal(r.kind, EXEC_ERROR);
    assert_int_equal(r.error_site, 1);
    sel = 2;
    r = fx_run(x, &sel, 1, 0, 0);
    assert_int_equal(r.exit_code, 5);
    assert_int_equal(exec_cov(x)[2], 1);
    sel = 3; /* no handler: the quick end keeps the exit code */
    r = fx_run(x, &sel, 1, 0, 0);
    assert_int_equal(r.kind, EXEC_NORMAL);
    assert_int_equal(r.exit_code, 6);
    assert_int_equal(exec_cov(x)[0], 1);
    assert_int_equal(exec_cov(x)[1] + exec_cov(x)[2], 0);
    exec_free(x);

    x = fx_exec("dtor64", 2, 0, 1000);
    r = fx_run(x, NULL, 0, 0, 0);
    assert_int_equal(r.exit_code, 3);
    assert_int_equal(exec_cov(x)[1], 1); /* the destructor ran */
    exec_free(x);
}

/* ==== stand-alone reproduce mode =========================================== */

static void test_standalone_reproduce(void **state)
{
    (void)state;
    inbuf in;
    char expect[1024], path[128], env[160];
    values_input(&in, 8, expect, sizeof expect);
    snprintf(path, sizeof path, "/tmp/ctg-test-in-%ld.bin", (long)getpid());
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(path, in.b, in.n, &e));
    snprintf(env, sizeof env, CTG_ENV_INPUT "=%s", path);
    char *envs[] = {env, NULL};
    char *argv[] = {(char *)fx_prog("values64"), NULL};
    proc_opts o = {0};
    o.env_add = envs;
    o.timeout_s = 10;
    proc_result pr;
    fx_out_path();
    fx_out_clear();
    assert_true(proc_run(argv, &o, &pr, &e));
    assert_true(pr.exited);
    assert_int_equal(pr.code, 7);
    assert_string_equal(fx_out_read(), expect);

    /* an error site is reported on stderr in reproduce mode */
    uint8_t sel = 9; /* faults.c: __ctg_error(1) */
    assert_true(fs_write_atomic(path, &sel, 1, &e));
    argv[0] = (char *)fx_prog("faults64");
    sbuf err = SBUF_INIT;
    o.err = &err;
    assert_true(proc_run(argv, &o, &pr, &e));
    assert_int_equal(pr.code, CTG_EXIT_ERROR);
    assert_non_null(err.data);
    assert_non_null(strstr(err.data, "error reached (site 1)"));
    sbuf_release(&err);
    unlink(path);
}

/* ==== rt_valgen.h ============================================================ */

static void test_valgen_distribution(void **state)
{
    (void)state;
    ctg_vg g, h;
    ctg_vg_seed(&g, 42);
    ctg_vg_seed(&h, 42);
    for (int i = 0; i < 100; i++)
        assert_int_equal(ctg_vg_next(&g), ctg_vg_next(&h));

    int small = 0, imin = 0, imax = 0, printable = 0, nul = 0, nan = 0, inf = 0, negzero = 0;
    int big_len = 0;
    for (int i = 0; i < 20000; i++) {
        uint8_t b[8];
        ctg_vg_value(&g, CTG_T_INT, 4, b);
        int32_t v;
        memcpy(&v, b, 4);
        small += v >= -16 && v <= 16;
        imin += v == INT32_MIN;
        imax += v == INT32_MAX;
        uint64_t u8 = ctg_vg_int(&g, 8, 0);
        assert_true(u8 <= 0xff);
        ctg_vg_value(&g, CTG_T_BOOL, 1, b);
        assert_true(b[0] <= 1);
        uint8_t ch = ctg_vg_char(&g);
        printable += ch >= 0x20 && ch < 0x7f;
        nul += ch == 0;
        double d;
        ctg_vg_value(&g, CTG_T_DOUBLE, 8, b);
        memcpy(&d, b, 8);
        nan += isnan(d);
        inf += isinf(d);
        negzero += d == 0.0 && signbit(d);
        uint32_t n = ctg_vg_len(&g, 1000);
        assert_true(n <= 1000);
        big_len += n > 512;
    }
    assert_true(small > 20000 / 4);
    assert_true(imin > 20 && imax > 20);
    assert_true(printable > 20000 / 2);
    assert_true(nul > 20000 / 20);
    assert_true(nan > 20 && inf > 20 && negzero > 10);
    assert_true(big_len < 20000 / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_64),
        cmocka_unit_test(test_values_32),
        cmocka_unit_test(test_ran_out),
        cmocka_unit_test(test_extend_random),
        cmocka_unit_test(test_log_and_input_limits),
        cmocka_unit_test(test_int_distances),
        cmocka_unit_test(test_hook_counts), cmocka_unit_test(test_hook_compact),
        cmocka_unit_test(test_real_distances),
        cmocka_unit_test(test_br_and_switch),
        cmocka_unit_test(test_string_distances),
        cmocka_unit_test(test_cmplog),
        cmocka_unit_test(test_libfuzzer),
        cmocka_unit_test(test_exit_handlers_run),
        cmocka_unit_test(test_standalone_reproduce),
        cmocka_unit_test(test_valgen_distribution),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fx_out_clear();
    return rc;
}
