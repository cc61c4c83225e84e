/*
 * replay_fmt.c - the text report of a replay (replay_format, replay.h).
 */
#include <stddef.h>

#include "../base/sbuf.h"
#include "replay.h"

static double pct(unsigned a, unsigned b) { return b ? 100.0 * a / b : 100.0; }

/* Appends "label (n): name (detail) name ..." for the tests with outcome o,
 * at most REPLAY_LIST_MAX names. */
static void list_tests(const replay_result *r, sbuf *b, replay_outcome o, const char *label)
{
    if (!r->n_outcome[o])
        return;
    sbuf_printf(b, "%s (%u):", label, r->n_outcome[o]);
    unsigned shown = 0;
    for (size_t i = 0; i < r->n_tests && shown < REPLAY_LIST_MAX; i++) {
        const replay_test *t = &r->tests[i];
        if (t->outcome != o)
            continue;
        sbuf_printf(b, " %s", t->name);
        if (o == REPLAY_CRASH)
            sbuf_printf(b, " (signal %d)", t->signal);
        shown++;
    }
    if (r->n_outcome[o] > shown)
        sbuf_printf(b, " ... and %u more", r->n_outcome[o] - shown);
    sbuf_putc(b, '\n');
}

/* The reach_error verdict with the tests that reached it. */
static void format_error(const replay_result *r, sbuf *b)
{
    if (!r->error_reached) {
        sbuf_printf(b, "reach_error: not reached\n");
        return;
    }
    sbuf_printf(b, "reach_error: reached");
    if (r->reach_error_defined)
        sbuf_printf(b, " (gcov: reach_error called %lu time%s)", r->reach_error_calls,
                    r->reach_error_calls == 1 ? "" : "s");
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (r->tests[i].reached_error && shown == REPLAY_LIST_MAX)
            more++;
        else if (r->tests[i].reached_error)
            sbuf_printf(b, "%s %s", shown++ ? "," : " by", r->tests[i].name);
    }
    if (more)
        sbuf_printf(b, " ... and %zu more", more);
    sbuf_putc(b, '\n');
}

void replay_format(const replay_result *r, sbuf *b)
{
    sbuf_printf(b, "replay: %zu %s%s, %d-bit, gcc --coverage\n", r->n_tests,
                r->raw ? "raw input" : "test", r->n_tests == 1 ? "" : "s", r->arch_bits);
    if (r->program_changed)
        sbuf_printf(b, "warning: the program differs from the one the suite was generated for "
                       "(SHA-256 of metadata.xml)\n");
    sbuf_printf(b, "branches: %u/%u (%.2f%%), lines: %u/%u (%.2f%%)\n", r->branches_covered,
                r->branches, pct(r->branches_covered, r->branches), r->lines_covered, r->lines,
                pct(r->lines_covered, r->lines));
    for (size_t i = 0; i < r->n_files; i++)
        sbuf_printf(b, "  %s: branches %u/%u, lines %u/%u\n", r->files[i].path,
                    r->files[i].branches_covered, r->files[i].branches,
                    r->files[i].lines_covered, r->files[i].lines);
    format_error(r, b);
    list_tests(r, b, REPLAY_CRASH, "crashed");
    list_tests(r, b, REPLAY_TIMEOUT, "timed out, credited nothing");
    list_tests(r, b, REPLAY_RAN_OUT,
               r->raw ? "ran out of bytes, later values 0" : "ran out of inputs");
    list_tests(r, b, REPLAY_BAD_INPUT, "unparsable inputs");
    list_tests(r, b, REPLAY_ASSUME, "assumption failed");
}
