/*
 * suite.h - the output directory: the Test-Comp test suite (test-suite/
 * metadata.xml + one testcase XML per test), the raw corpus (corpus/, readable
 * by AFL++ and libFuzzer) and the crashes (crashes/, with a reproduce command).
 * A byte-input target (stdin or "@@": suite_meta.raw_tests) has no Test-Comp
 * suite: its tests are the corpus files alone.
 *
 * Files are written as tests are found, each atomically, so an interrupted
 * run keeps everything found so far.
 */
#ifndef CTG_SUITE_H
#define CTG_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/err.h"
#include "../exec/exec.h"
#include "test.h"

/* A byte-input target's C regression tests (`ctestgen run` writes them
 * with export_c, report/export.h). */
#define SUITE_REGRESSION_FILE "regression.c"

/* The specification texts of the two Test-Comp goals (metadata.xml). */
#define SUITE_SPEC_BRANCHES "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )"
#define SUITE_SPEC_ERROR_CALL "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )"

typedef struct suite_meta {
    const char *program_file;  /* path as given by the user               */
    const char *program_hash;  /* SHA-256 (hex) of the program file       */
    const char *entry;         /* "main", or the function under test      */
    int arch_bits;             /* 32 or 64                                */
    const char *specification; /* Test-Comp property text                 */
    const char *producer;      /* "ctestgen 0.1"                          */
    bool keep_existing;        /* a resumed run: an existing metadata.xml
                                  stays as it is                          */
    const char *const *args;   /* the program's arguments ("@@" too): the
                                  crashes' reproduce commands repeat them */
    int n_args;
    bool raw_tests;            /* a stdin / file target: tests are corpus
                                  files only, no test-suite/ is written  */
} suite_meta;

typedef struct suite suite_t;

/* Creates <out_dir>/test-suite, corpus, crashes and writes metadata.xml
 * (with raw_tests: corpus and crashes only). */
suite_t *suite_open(const char *out_dir, const suite_meta *m, ctg_err *e);
void suite_close(suite_t *s);

/* Writes test-suite/test-NNNNN.xml (coversError when t->kind == EXEC_ERROR;
 * not with raw_tests) and corpus/id-NNNNN. */
bool suite_add(suite_t *s, const test_t *t, ctg_err *e);
/* Rewrites test-suite/test-NNNNN.xml (id = NNNNN) with coversError as
 * given (a test that reaches an error only in the engine's build claims
 * none); nothing to do with raw_tests. */
bool suite_set_covers_error(suite_t *s, unsigned id, const test_t *t, bool covers_error,
                            ctg_err *e);
/* What is known of a crash beyond its run (crash triage, exec/triage.h). */
typedef struct suite_crash_info {
    const char *repro_binary; /* the binary that reproduces it: copied once to
                                 OUT/bin/, which the reproduce command names;
                                 NULL: none                                */
    const char *bug;          /* one line, "heap-buffer-overflow in f at
                                 /abs/a.c:3", or NULL                       */
    const char *report;       /* the sanitizer's report or the symbolised
                                 stack, or NULL                             */
} suite_crash_info;

/* Writes crashes/<kind>-NNNNN (raw input) and crashes/<kind>-NNNNN.txt: a
 * line saying what happened (kind, signal, crash site, input size, when
 * found), the bug and its report when ci has them, and last the command
 * that reproduces it from any directory.  *num (may be NULL) gets NNNNN. */
bool suite_add_crash(suite_t *s, const test_t *t, const exec_result *r,
                     const suite_crash_info *ci, unsigned *num, ctg_err *e);
/* "crashes/<kind>-NNNNN", the name of crash num of kind k, in buf. */
void suite_crash_name(exec_kind k, unsigned num, char *buf, size_t cap);
/* Rewrites crash NNNNN = num (both files, same names) with another input of
 * the same crash, e.g. a smaller one; r must have the kind it was added with.
 * The count of crashes does not change. */
bool suite_replace_crash(suite_t *s, unsigned num, const test_t *t, const exec_result *r,
                         const suite_crash_info *ci, ctg_err *e);
/* Tests and crashes on disk, those of an earlier run in the directory
 * (--resume) included. */
unsigned suite_n_tests(const suite_t *s);
unsigned suite_n_crashes(const suite_t *s);
/* Of those, the records of reached errors (error-NNNNN): not crashes. */
unsigned suite_n_error_records(const suite_t *s);

/* The number of the next test (test-NNNNN.xml, corpus/id-NNNNN). */
unsigned suite_next_test_id(const suite_t *s);

/* Absolute path of the output directory. */
const char *suite_dir(const suite_t *s);

/* Writes one testcase file (what suite_add does for test-suite/); also for
 * tools and tests that build suites by hand. */
bool suite_write_testcase(const char *path, const test_t *t, bool covers_error, ctg_err *e);

/* Reads one testcase XML (libxml2, DTD not required).  The values become a
 * test whose layout follows the types given (the `type` attribute, else
 * `default_type`), sized for arch_bits.  With default_type CTG_T_BYTES every
 * input is read as one byte of a single byte-array value (a libFuzzer test),
 * whatever its type attribute.  The test's kind is EXEC_ERROR when the file
 * says coversError="true".  False with e set on unreadable or malformed
 * files (the message names the file and line). */
bool suite_read_testcase(const char *path, int arch_bits, enum ctg_type default_type, test_t **out,
                         bool *covers_error, ctg_err *e);

/* One <input> of a testcase file, as written. */
typedef struct suite_input {
    char *text; /* content without surrounding white space */
    char *type; /* the type attribute, or NULL             */
    int line;   /* line of the element in the file         */
} suite_input;

typedef struct suite_testcase {
    suite_input *inputs;
    size_t n_inputs;
    bool covers_error;
} suite_testcase;

/* Reads a testcase file without interpreting its values (replay feeds the
 * text to the program as TestCov does).  Same errors as suite_read_testcase
 * except bad values; release with suite_testcase_release. */
bool suite_parse_testcase(const char *path, suite_testcase *tc, ctg_err *e);
void suite_testcase_release(suite_testcase *tc);

/* test-suite/metadata.xml as read back; absent elements are NULL. */
typedef struct suite_metadata {
    char *program_file, *program_hash, *entry, *specification, *producer, *creation_time;
    int arch_bits; /* 32 when architecture is "32bit", else 64 */
} suite_metadata;

bool suite_read_metadata(const char *path, suite_metadata *m, ctg_err *e);
void suite_metadata_release(suite_metadata *m);

/* The testcase files of a test-suite directory (every *.xml but
 * metadata.xml), sorted by name; free with suite_free_list. */
bool suite_list_testcases(const char *dir, char ***paths, size_t *n, ctg_err *e);
void suite_free_list(char **paths, size_t n);

/* Writes <out_dir>/test-suite.zip as Test-Comp collects a suite: the
 * entries test-suite/metadata.xml and test-suite/<each testcase>.xml, from
 * what is in <out_dir>/test-suite/ now.  Replaces an earlier zip atomically
 * (a failed write leaves the old one).  False with e set (suite_zip.c). */
bool suite_write_zip(const char *out_dir, ctg_err *e);

#endif
