/*
 * test.h - a test: the input bytes of one run and their typed decomposition
 * (DESIGN.md section 2), plus how values are written as text in the Test-Comp
 * test format and read back.
 *
 * Rules: vals[i].offset/size index into data; values are in call order and do
 * not overlap; data may be longer than the last value (unconsumed bytes are
 * dropped by test_from_exec).  A CTG_T_BYTES value (libFuzzer data) covers the
 * whole input.
 */
#ifndef CTG_TEST_H
#define CTG_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/ctype.h" /* the value types: ctg_type_size, _name, ... */
#include "../base/err.h"
#include "../exec/exec.h"
#include "../runtime/rt_protocol.h"

typedef struct test {
    uint8_t *data;
    size_t len;
    ctg_value_rec *vals;
    size_t n_vals;
    /* where it came from */
    exec_kind kind;
    uint32_t error_site;
    uint64_t found_at_exec;
    double found_at_s;
    unsigned id;         /* its number in the suite (test-NNNNN.xml), once kept */
} test_t;

/* Copies a test; NULL on oom.  vals may be NULL with n_vals 0. */
test_t *test_new(const uint8_t *data, size_t len, const ctg_value_rec *vals, size_t n_vals);
/* The consumed part of the last run of x, with its value log; NULL on oom. */
test_t *test_from_exec(const exec_t *x, const exec_result *r);
void test_free(test_t *t);
/* Size in bytes of value i of t; for a CTG_T_BYTES value (whose rec.size
 * keeps only 16 bits) the rest of the input from its offset. */
size_t test_value_size(const test_t *t, size_t i);


/* Writes value bytes (little endian, `size` bytes) as the text TestCov reads
 * with scanf: decimal integers, floats with round-trip precision ("%.17g",
 * "nan", "inf").  Returns the length written (snprintf semantics), or -1
 * for a size the type cannot have (a CTG_T_BYTES value is formatted one
 * byte at a time, as unsigned char). */
int test_value_format(enum ctg_type t, const uint8_t *bytes, size_t size, char *out, size_t cap);
/* Parses text into `size` little-endian bytes.  Accepts decimal, 0x hex,
 * negative numbers for unsigned types (wrapped, as scanf does) and, for chars,
 * a quoted character ('a'); out-of-range numbers saturate or wrap as with
 * scanf, and up to three C suffix letters (5u, 1.5f) are ignored, as
 * TestCov does.  False with e set on malformed text (the message quotes the
 * text and names the type; the caller adds the file). */
bool test_value_parse(enum ctg_type t, const char *text, uint8_t *bytes, size_t size, ctg_err *e);

#endif
