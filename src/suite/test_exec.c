/*
 * test_exec.c - test_from_exec (see test.h): turns the last run of an
 * executor into a test.  Kept apart from test.c so that code using tests
 * without an executor links without src/exec.
 */
#include <string.h>

#include "../base/mem.h"
#include "test.h"

/* Bytes the test must keep: what the run consumed, extended to cover every
 * logged value (a value read after the input ran out was 0 and is kept as
 * zero bytes, so the test replays the run exactly). */
static size_t needed_len(const ctg_value_rec *v, size_t n, size_t consumed)
{
    size_t need = consumed;
    for (size_t i = 0; i < n; i++) {
        if (v[i].type == CTG_T_BYTES)
            continue;
        size_t end = (size_t)v[i].offset + v[i].size;
        if (end > need)
            need = end;
    }
    return need;
}

/* How many leading records of the value log are what the runtime writes:
 * a known type, a size, inside the input (not necessarily in order: a
 * stdin target may seek back and read again).  The log is
 * in memory the program under test can reach: a wild or overflowing write
 * of a buggy program may land there (sv-benchmarks tree_del_rec_incorrect
 * writes past a calloc'd array), and the test then keeps the values before
 * the damage. */
static size_t sound_values(const ctg_value_rec *v, size_t n, size_t in_len)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].type >= CTG_T__COUNT)
            return i;
        if (v[i].type == CTG_T_BYTES) /* libFuzzer data: the rest of the input */
            continue;
        if (v[i].size == 0 || (size_t)v[i].offset + v[i].size > in_len)
            return i;
    }
    return n;
}

test_t *test_from_exec(const exec_t *x, const exec_result *r)
{
    size_t in_len = 0, n_vals = 0;
    const uint8_t *in = exec_input(x, &in_len);
    const ctg_value_rec *vals = exec_values(x, &n_vals);
    n_vals = sound_values(vals, n_vals, in_len);
    size_t consumed = exec_consumed(x);
    if (consumed > in_len)
        consumed = in_len;
    for (size_t i = 0; i < n_vals; i++) /* libFuzzer data: the whole input */
        if (vals[i].type == CTG_T_BYTES && in_len > consumed)
            consumed = in_len;
    size_t len = needed_len(vals, n_vals, consumed);
    test_t *t = test_new(NULL, 0, vals, n_vals);
    uint8_t *data = ctg_calloc(len ? len : 1, 1);
    if (!t || !data) {
        test_free(t);
        ctg_free(data);
        return NULL;
    }
    memcpy(data, in, len < in_len ? len : in_len);
    ctg_free(t->data);
    t->data = data;
    t->len = len;
    t->kind = r->kind;
    t->error_site = r->error_site;
    t->found_at_exec = exec_count(x);
    return t;
}
