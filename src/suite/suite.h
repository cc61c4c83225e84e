/*
 * suite.h - the output directory: the Test-Comp test suite (test-suite/
 * metadata.xml + one testcase XML per test), the raw corpus (corpus/, readable
 * by AFL++ and libFuzzer) and the crashes (crashes/, with a reproduce command).
 *
 * Files are written as tests are found, each atomically, so an interrupted
 * run keeps everything found so far.
 */
#ifndef CTG_SUITE_H
#define CTG_SUITE_H

#include <stdbool.h>

#include "../base/err.h"
#include "../exec/exec.h"
#include "test.h"

typedef struct suite_meta {
    const char *program_file;  /* path as given by the user               */
    const char *program_hash;  /* SHA-256 (hex) of the program file       */
    const char *entry;         /* "main", or the function under test      */
    int arch_bits;             /* 32 or 64                                */
    const char *specification; /* Test-Comp property text                 */
    const char *producer;      /* "ctestgen 0.1"                          */
} suite_meta;

typedef struct suite suite_t;

/* Creates <out_dir>/test-suite, corpus, crashes and writes metadata.xml. */
suite_t *suite_open(const char *out_dir, const suite_meta *m, ctg_err *e);
void suite_close(suite_t *s);

/* Writes test-suite/test-NNNNN.xml (coversError when t->kind == EXEC_ERROR)
 * and corpus/id-NNNNN. */
bool suite_add(suite_t *s, const test_t *t, ctg_err *e);
/* Writes crashes/<kind>-NNNNN (raw input) and crashes/<kind>-NNNNN.txt with a
 * one-line description and the reproduce command. */
bool suite_add_crash(suite_t *s, const test_t *t, const exec_result *r, const char *repro_binary,
                     ctg_err *e);
unsigned suite_n_tests(const suite_t *s);
unsigned suite_n_crashes(const suite_t *s);

/* Reads one testcase XML (libxml2, DTD not required).  The values become a
 * test whose layout follows the types given (the `type` attribute, else
 * `default_type`), sized for arch_bits.  False with e set on unreadable or
 * malformed files (the message names the file and line). */
bool suite_read_testcase(const char *path, int arch_bits, enum ctg_type default_type, test_t **out,
                         bool *covers_error, ctg_err *e);

#endif
