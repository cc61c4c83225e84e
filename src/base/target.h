/*
 * target.h - the one table of target kinds: how a test reaches the program
 * under test, and what follows from it for the build, the search, the
 * replay and the export.  Every module that needs a fact of a target kind
 * asks here instead of comparing a harness (enum ctg_harness of
 * rt_protocol.h) or a stats.json "input" string; tests/unit/test_target.c
 * pins every row.
 *
 *   values    main() calling __VERIFIER_nondet_* (Test-Comp)
 *   libfuzzer LLVMFuzzerTestOneInput(data, size)
 *   stdin     main() reading its standard input
 *   file      main() reading the file "@@" in its arguments names
 *   function  one C function, called by a generated driver (--function),
 *             its arguments read as values
 *
 * The kind is found once (target_resolve: the harness the instrumenter
 * detected, the program's arguments, --function) and is recorded in
 * stats.json as info.input, where replay and export read it back
 * (target_by_input).  Adding a kind is one row here and, if it needs one, a
 * harness in the runtime.
 */
#ifndef CTG_TARGET_H
#define CTG_TARGET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct target_kind {
    const char *name;  /* the kind's own name (the list above)                 */
    const char *input; /* stats.json info.input: values, libfuzzer, stdin, file */
    const char *about; /* how a test reaches the program, for people            */
    uint32_t harness;  /* the runtime's enum ctg_harness                         */
    bool bytes;        /* a test is one byte string (mutated as bytes); else a
                          list of typed values                                   */
    bool raw_tests;    /* a suite test holds the bytes as the program reads them */
    bool text;         /* the bytes are read as text (scanf): number seeds help  */
    bool sized;        /* the program gets the length (libFuzzer's size)         */
    bool persistent;   /* a child may run many inputs: executor batches         */
    bool error_check;  /* a reach_error test is checked under gcc -O0 in the run */
    bool sanitize_auto;/* --sanitize auto means address,undefined                */
    bool feed;         /* replay and export give the bytes on stdin or in a file */
    bool at_file;      /* ... in the file "@@" names                             */
    bool driver;       /* the program built is a generated driver                */
    bool runner_main;  /* the program has no main: a runner calls its entry     */
} target_kind;

/* The kind of a program: harness as the instrumenter found it (0 when
 * unknown is Test-Comp's), args its arguments (n of them; "@@" makes a
 * byte target read a file, or a Test-Comp main with no nondet call read
 * it), function whether --function's driver calls it.  Never NULL. */
const target_kind *target_resolve(uint32_t harness, const char *const *args, int n,
                                  bool function);
/* The kind a harness alone gives (no arguments, not --function). */
const target_kind *target_of_harness(uint32_t harness);
/* The kind recorded as stats.json's info.input; NULL for an unknown name. */
const target_kind *target_by_input(const char *input);
/* The kind named name (the list above); NULL for an unknown name. */
const target_kind *target_by_name(const char *name);
/* Row i of the table (0 .. target_count()-1), for tests and doctor. */
const target_kind *target_at(int i);
int target_count(void);

#endif
