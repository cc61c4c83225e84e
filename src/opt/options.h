/*
 * options.h - ctestgen's configuration: one struct, grouped by component,
 * defaults set in one place (options_defaults), read-only after parsing.
 *
 * The command line is described by tables of opt_desc: one table for the
 * common options (options.c) and one per strategy (in the strategy's file),
 * so adding a strategy option touches that strategy only.  The same tables
 * drive getopt_long and --help.  Strategy options are stored as name=value
 * pairs and read with opt_get_* which fall back to the table's default.
 *
 * This module sits below the command line (src/cli) and the search
 * (src/search), which both read the options: it knows no strategy.  The
 * strategies' tables reach it as option groups (options_set_groups, called
 * by main from the strategy registry); --strategy must name a group.
 */
#ifndef CTG_OPTIONS_H
#define CTG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/err.h"

/* The values of --property (search.property), the two Test-Comp goals. */
#define PROP_BRANCHES "coverage-branches"
#define PROP_ERROR_CALL "coverage-error-call"

typedef enum opt_kind { OPT_FLAG, OPT_STR, OPT_INT, OPT_U64, OPT_DOUBLE, OPT_LIST } opt_kind;

/* Where a parsed value goes: a field of ctg_options (offset) or, with
 * OPT_KV, the name=value store read by opt_get_*. */
#define OPT_KV ((size_t)-1)

typedef struct opt_desc {
    const char *name;    /* long name without "--"                        */
    char short_name;     /* 0: none                                       */
    opt_kind kind;
    size_t offset;       /* offsetof(ctg_options, ...) or OPT_KV          */
    const char *metavar; /* "N", "FILE", ...                              */
    const char *def;     /* default as text (shown by --help), or NULL    */
    const char *help;    /* one line                                      */
} opt_desc;

typedef struct str_list {
    const char **items;
    int n, cap;
} str_list;

typedef struct ctg_options {
    const char *command; /* run, build, replay, ...                       */
    str_list positional; /* sources (run/build), out dir + sources (replay;
                            only sources with --corpus) */
    struct {
        str_list cflags;  /* -I/-D/-l/-f... for clang and the link (ccflags.h) */
        str_list ignored; /* compiler flags given and ignored (-O2, -Wall) */
        const char *sanitize; /* --sanitize LIST (or -fsanitize=LIST), NULL */
        const char *compile_commands; /* --compile-commands FILE (cli/project.h) */
        int arch_bits;    /* --arch 32|64; 0 until task_apply: the task's
                                 data model, else 64                     */
        const char *cache_dir;
        bool no_cache;
        const char *function; /* --function NAME: unit-level driver     */
        int depth;            /* --depth: struct pointer fill depth     */
    } build;
    struct {
        const char *strategy; /* --strategy                              */
        double time_s;        /* --time                                  */
        uint64_t max_execs;   /* --max-execs                             */
        uint64_t seed;        /* --seed                                  */
        const char *input_dir;/* -i DIR: initial corpus                 */
        bool stop_on_error;   /* --stop-on-error                         */
        bool stop_on_bug;     /* --stop-on-bug: at the first crash file   */
        bool keep_going;      /* --keep-going: do not stop when all goals are covered
                                 (or, for coverage-error-call, at the first error) */
        const char *property; /* --property: PROP_BRANCHES or PROP_ERROR_CALL
                                 once task_apply (task.h) has run         */
        uint64_t crash_min_execs; /* --crash-min-execs: runs minimising each new crash */
        const char *prove;    /* --prove auto|eva|none (engine_prove.c)   */
        bool no_explain;      /* --no-explain (engine_explain.c)          */
        const char *prove_time; /* --prove-time as given: SEC or auto      */
        double prove_s;       /* its seconds; 0: auto (engine_prove.c)   */
        /* set by run --jobs for its processes, not options of their own: */
        const char *sync_dir; /* a worker: OUT/.jobs, where its siblings write */
        int worker;           /* a worker: its number (its dir: sync_dir/wN) */
        const char *merge_dir;/* the merge: the workers' dirs to read in  */
        double sync_s;        /* --sync-s: seconds between a worker's imports */
    } search;
    struct {
        const char *timeout_arg; /* --timeout-ms as given: "auto" or MS   */
        uint32_t timeout_ms;  /* --timeout-ms; with auto, the cap (1000)  */
        bool timeout_auto;    /* calibrate from measured run times       */
        uint64_t mem_mb;      /* --mem-limit                             */
        const char *jobs_arg; /* --jobs as given: N, auto, or NULL        */
        bool mpi;             /* --mpi: one worker per MPI rank           */
        int jobs;             /* --jobs: parallel processes; run: 1 by
                                 default, learn: the cores             */
        const char *malloc_fail; /* --malloc-fail stop|null              */
        uint64_t extend_limit;   /* --extend-limit: bytes a run may draw past
                                    its input (0: up to the 1 MiB area)   */
        const char *san_mode; /* --sanitize-mode all|new|N (engine_san.c) */
        str_list prog_args;   /* after "--": the program's arguments; "@@"
                                 becomes the path of a file with the test */
    } exec;
    struct {
        str_list corpus;      /* --corpus PATH: replay raw inputs        */
        double timeout_s;     /* --replay-timeout: per test; -1 unset:
                                 3 s (TestCov's) in replay, 2 s in run  */
        bool no_check;        /* --no-replay-check: run skips the replay */
        bool no_error_check;  /* --no-error-check: error tests unchecked  */
        bool report;          /* --report: run writes OUT/report/         */
        const char *export_c; /* export --c FILE                          */
        const char *lcov;     /* --lcov FILE: lcov tracefile of the replay */
        const char *cobertura;/* --cobertura FILE: Cobertura XML of it     */
    } replay;
    struct {
        const char *by;       /* compare --by KEY (an info key)          */
        bool json;            /* compare --json                          */
    } compare;
    struct {
        const char *out_dir;  /* -o                                      */
        bool force;           /* --force: replace an earlier run in -o   */
        bool resume;          /* --resume: continue the run in -o        */
        const char *label;    /* --label: a name in stats.json's info    */
        bool write_continue;  /* --on-write-error continue: search on when
                                 the output cannot be written (disk full) */
        const char *on_write_error; /* "stop" or "continue"             */
        bool suite_zip;       /* --suite-zip (always for a task file):
                                 also OUT/test-suite.zip                 */
    } out;
    struct {
        const char *yml;      /* the task file run (task.h), or NULL     */
        char *program;        /* its program (owned)                     */
    } task;
    struct {
        bool quiet, verbose, help, version, man;
    } ui;
    str_list kv; /* "name=value" of OPT_KV options, in command-line order */
    str_list own; /* strings the parser made (joined flags): freed with it */
} ctg_options;

/* Sets every default. */
/* A named table of options beyond the common ones: a strategy's (name,
 * one-line summary, its table or NULL).  Its options parse as --NAME VALUE
 * into the name=value store, opt_get_* find their defaults in it, and
 * --help lists it. */
typedef struct opt_group {
    const char *name;
    const char *summary;
    const opt_desc *table;
} opt_group;

/* Registers the groups (the array must outlive every options call; n at
 * most OPT_MAX_GROUPS).  Before it, only the common options exist. */
#define OPT_MAX_GROUPS 32
void options_set_groups(const opt_group *groups, int n);

void options_defaults(ctg_options *o);
/* Parses argv (argv[1] is the command).  Returns false with e set on an
 * unknown option, a missing or malformed value, or a bad combination. */
bool options_parse(ctg_options *o, int argc, char **argv, ctg_err *e);
void options_release(ctg_options *o);
/* Prints --help: usage, commands, common options, each strategy's options. */
void options_help(FILE *f);
/* The manual page (troff) from the same tables as --help. */
void options_man(FILE *f);

/* Strategy options (OPT_KV): the last value given, else the default of the
 * table entry with that name (every name used must be in a table). */
const char *opt_get_str(const ctg_options *o, const char *name);
double opt_get_double(const ctg_options *o, const char *name);
long opt_get_long(const ctg_options *o, const char *name);
bool opt_get_flag(const ctg_options *o, const char *name);
/* Calls fn with every strategy option (OPT_KV) of every group and the
 * value in effect (given, else its default; "" when it has none). */
void opt_each_kv(const ctg_options *o, void (*fn)(void *user, const char *name, const char *value),
                 void *user);
/* True when the command line gave strategy option name (not its default). */
bool opt_given(const ctg_options *o, const char *name);

#endif
