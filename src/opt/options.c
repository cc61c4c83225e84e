/*
 * options.c - the common options table, its parser (getopt_long built from
 * the tables) and --help.  See options.h for the model.
 */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/ccflags.h"
#include "../base/mem.h"
#include "../base/sbuf.h"

#define OFF(field) offsetof(ctg_options, field)

/* The common options.  Order = order in --help. */
static const opt_desc common_options[] = {
    {"strategy", 's', OPT_STR, OFF(search.strategy), "NAME", "auto",
     "search strategy (see below)"},
    {"time", 't', OPT_DOUBLE, OFF(search.time_s), "SEC", "60",
     "time budget in seconds, the build included (0: none); none by default when --max-execs "
     "is given, so that the run is reproducible"},
    {"max-execs", 'n', OPT_U64, OFF(search.max_execs), "N", "0",
     "execution budget (0: none); the first budget reached stops the run"},
    {"seed", 0, OPT_U64, OFF(search.seed), "N", "1", "random seed: same seed, same run"},
    {"output", 'o', OPT_STR, OFF(out.out_dir), "DIR", "ctestgen-out", "output directory"},
    {"force", 'f', OPT_FLAG, OFF(out.force), NULL, NULL,
     "replace an earlier run in the output directory"},
    {"label", 0, OPT_STR, OFF(out.label), "NAME", NULL,
     "a name for this run in stats.json's info (ctestgen compare --by label)"},
    {"resume", 0, OPT_FLAG, OFF(out.resume), NULL, NULL,
     "continue the interrupted or finished run in the output directory: its tests, crashes "
     "and counters are read back and the budgets count on"},
    {"on-write-error", 0, OPT_STR, OFF(out.on_write_error), "stop|continue", "stop",
     "when a file of the output cannot be written (disk full): stop the search, or search "
     "on without writing (exit code 3 either way)"},
    {"input", 'i', OPT_STR, OFF(search.input_dir), "DIR", NULL,
     "initial inputs (AFL/libFuzzer corpus directory of raw files)"},
    {"stop-on-bug", 0, OPT_FLAG, OFF(search.stop_on_bug), NULL, NULL,
     "stop at the first crash, hang or sanitizer report (as libFuzzer does; by default the "
     "run records every bug it meets until the budget is spent)"},
    {"stop-on-error", 0, OPT_FLAG, OFF(search.stop_on_error), NULL, NULL,
     "stop at the first test that reaches an error"},
    {"keep-going", 0, OPT_FLAG, OFF(search.keep_going), NULL, NULL,
     "keep searching after every goal is covered (coverage-error-call: after the first "
     "error)"},
    {"property", 0, OPT_STR, OFF(search.property), "NAME|FILE.prp", "coverage-branches",
     "the Test-Comp goal: coverage-branches (every branch; the error call among the goals) "
     "or coverage-error-call (stop at the first test that calls reach_error); with a task "
     ".yml, one the task lists (default: branches when listed)"},
    {"suite-zip", 0, OPT_FLAG, OFF(out.suite_zip), NULL, NULL,
     "also write OUT/test-suite.zip as Test-Comp collects it (always with a task .yml)"},
    {"prove", 0, OPT_STR, OFF(search.prove), "auto|eva|bmc|none", "auto",
     "prove goals unreachable beside the search: eva (Frama-C's Eva, an abstract "
     "interpreter) and bmc (bounded symbolic reachability: every path up to a bound, each "
     "goal asked of the solver; a model becomes a test, and when no execution runs beyond "
     "the bound an unsat goal is unreachable).  An uncovered branch or error call ruled out "
     "for every input is reported as unreachable, the run stops once every other goal is "
     "covered, and with coverage-error-call at once.  auto: on a Test-Comp harness, eva "
     "(when frama-c is installed: `make deps` installs it), and bmc with a time budget (with "
     "--time 0 the execution budget is the whole budget: bmc only when asked for)"},
    {"no-explain", 0, OPT_FLAG, OFF(search.no_explain), NULL, NULL,
     "do not run the suite's tests once more at the end to say how close they came to each "
     "goal not covered (stats.json final.goals: closest_test, distance); for a program whose "
     "every run leaves a trace"},
    {"prove-time", 0, OPT_STR, OFF(search.prove_time), "SEC|auto", "auto",
     "CPU seconds the prover may take (auto: a quarter of --time, between 2 and 30 s, "
     "precision 1 then 4; with --time 0, when the run waits for the result at its end, 5 s "
     "and precision 1 only); with --time, a result that comes after the search ended is not "
     "waited for"},
    {"crash-min-execs", 0, OPT_U64, OFF(search.crash_min_execs), "N", "256",
     "runs spent minimising each new crash (part of --max-execs; 0: none)"},
    {"function", 0, OPT_STR, OFF(build.function), "NAME", NULL,
     "unit level: test this function through a generated driver"},
    {"depth", 0, OPT_INT, OFF(build.depth), "N", "2",
     "with --function: how deep struct pointers are filled"},
    {"arch", 0, OPT_INT, OFF(build.arch_bits), "32|64", "64",
     "target word size (a task .yml's data model sets it: ILP32 = 32)"},
    {"cflag", 0, OPT_LIST, OFF(build.cflags), "FLAG", NULL,
     "compiler or linker flag for the program (-I DIR, -D X=1, -lm, -L DIR, -f..., -pthread "
     "are accepted directly too; -O*, -W*, -g* are ignored with a note)"},
    {"sanitize", 0, OPT_STR, OFF(build.sanitize), "LIST|auto|none", "auto",
     "run the program under clang's sanitizers too: address, undefined, or both "
     "(address,undefined); a memory error or undefined behaviour becomes a crash of its own "
     "kind, with the sanitizer's report (-fsanitize=LIST says the same).  auto: "
     "address,undefined for a libFuzzer target (as its users build it), none for other "
     "programs"},
    {"compile-commands", 0, OPT_STR, OFF(build.compile_commands), "FILE", NULL,
     "the program's files and flags from a compilation database (CMake's "
     "CMAKE_EXPORT_COMPILE_COMMANDS, bear): its C files join those given (a file that defines "
     "main or LLVMFuzzerTestOneInput again is left out)"},
    {"sanitize-mode", 0, OPT_STR, OFF(exec.san_mode), "all|new|N", "all",
     "with --sanitize: all runs every input under the sanitizers (as libFuzzer with ASan); "
     "new runs the uninstrumented build and re-runs each new test and each crash under them "
     "(as AFL++ with a sanitizer build); N as new, plus one input in N"},
    {"cache-dir", 0, OPT_STR, OFF(build.cache_dir), "DIR", "~/.cache/ctestgen",
     "cache of instrumented binaries ($CTESTGEN_CACHE)"},
    {"no-cache", 0, OPT_FLAG, OFF(build.no_cache), NULL, NULL, "rebuild the binaries"},
    {"timeout-ms", 0, OPT_STR, OFF(exec.timeout_arg), "MS|auto", "auto",
     "per-run timeout of the program under test; auto: 5x the slowest run seen that did not "
     "hang, between 50 and 1000 ms, as AFL++ calibrates"},
    {"extend-limit", 0, OPT_U64, OFF(exec.extend_limit), "BYTES", "16384",
     "input a run may draw past its test's values (random or zero extension); a run that "
     "wants more ends there as 'ran out', as TestCov ends a test, so a program that reads in "
     "an endless loop ends instead of timing out (0: up to the 16 MiB input area)"},
    {"mem-limit", 0, OPT_U64, OFF(exec.mem_mb), "MB", "2048",
     "address-space limit of the program under test"},
    {"malloc-fail", 0, OPT_STR, OFF(exec.malloc_fail), "stop|null", "stop",
     "an allocation that fails under --mem-limit ends the run as out-of-memory (stop), or "
     "returns NULL to the program so that its NULL checks are covered (null)"},
    {"jobs", 'j', OPT_STR, OFF(exec.jobs_arg), "N|auto", "run 1, learn auto",
     "parallel processes (auto: one per core): run: workers on one output directory that "
     "exchange their tests, merged into one suite at the end; learn: evaluations"},
    {"mpi", 0, OPT_FLAG, OFF(exec.mpi), NULL, NULL,
     "run: one worker per MPI rank (mpirun -np N ctestgen run PROG.c --mpi -o OUT); rank 0 "
     "writes OUT, the others send it their tests; learn: the other ranks run evaluations too"},
    {"sync-s", 0, OPT_DOUBLE, OFF(search.sync_s), "SEC", "1",
     "run --jobs: seconds between a worker's imports of the others' new tests"},
    {"replay-timeout", 0, OPT_DOUBLE, OFF(replay.timeout_s), "SEC", "run 2, replay 3",
     "per-test limit of the gcc --coverage replay; a test still running then is killed and "
     "credited nothing, as by TestCov (run: such a test leaves test-suite/ for crashes/)"},
    {"no-replay-check", 0, OPT_FLAG, OFF(replay.no_check), NULL, NULL,
     "run: skip the replay of the suite with gcc --coverage after the search (it takes a "
     "compile plus at most --replay-timeout per test, after the budget)"},
    {"no-error-check", 0, OPT_FLAG, OFF(replay.no_error_check), NULL, NULL,
     "run: do not run each test that reaches an error under gcc during the search; by default "
     "an error counts (--stop-on-error, coverage-error-call) once a test reaches it under gcc "
     "-O0 too, as the validator runs it"},
    {"c", 0, OPT_STR, OFF(replay.export_c), "FILE", NULL,
     "export: the C file of regression tests to write (cc FILE prog.c && ./a.out)"},
    {"report", 0, OPT_FLAG, OFF(replay.report), NULL, NULL,
     "run: also write OUT/report/index.html at the end (as `ctestgen report OUT` does)"},
    {"corpus", 0, OPT_LIST, OFF(replay.corpus), "PATH", NULL,
     "replay: raw inputs (a file, or a directory's files: AFL++ queue, libFuzzer corpus, "
     "OUT/corpus) instead of OUT/test-suite; repeatable"},
    {"lcov", 0, OPT_STR, OFF(replay.lcov), "FILE", NULL,
     "replay: also write the coverage as an lcov tracefile (for genhtml, Codecov, IDEs; "
     "Debian's lcov makes it)"},
    {"cobertura", 0, OPT_STR, OFF(replay.cobertura), "FILE", NULL,
     "replay: also write the coverage as Cobertura XML (for CI servers; Debian's gcovr "
     "makes it)"},
    {"by", 0, OPT_STR, OFF(compare.by), "KEY", "strategy",
     "compare: group the runs by this entry of stats.json's info (strategy, search, seed, "
     "weights, program; KEY+KEY for several)"},
    {"json", 0, OPT_FLAG, OFF(compare.json), NULL, NULL, "compare: print JSON"},
    {"quiet", 'q', OPT_FLAG, OFF(ui.quiet), NULL, NULL, "no progress line, no summary"},
    {"verbose", 'v', OPT_FLAG, OFF(ui.verbose), NULL, NULL,
     "show tool command lines and details"},
    {"help", 'h', OPT_FLAG, OFF(ui.help), NULL, NULL, "this help"},
    {"version", 'V', OPT_FLAG, OFF(ui.version), NULL, NULL, "print the version"},
    {"man", 0, OPT_FLAG, OFF(ui.man), NULL, NULL,
     "print the manual page (troff, from these tables; make install puts it in share/man)"},
    {0},
};

static const struct {
    const char *name, *args, *help;
} commands[] = {
    {"run", "PROG.c [MORE.c ...]", "generate a test suite into -o DIR"},
    {"run", "TASK.yml", "the same for an sv-benchmarks task (program, data model, property)"},
    {"build", "PROG.c [MORE.c ...]", "only build the instrumented binaries; print where"},
    {"replay", "DIR PROG.c [MORE.c ...]",
     "run DIR/test-suite with gcc --coverage: independent branch coverage"},
    {"replay", "--corpus DIR PROG.c [MORE.c]",
     "the same for raw inputs: every file of DIR (AFL++/libFuzzer corpus, OUT/corpus)"},
    {"learn", "PROG.c [-o weights.txt]",
     "learn concolic search weights (seed 004: find, check, refine) for --search param"},
    {"compare", "RUN_DIR... [--by KEY]",
     "repeated runs side by side: metrics per group, Mann-Whitney U and A12"},
    {"export", "OUT --c FILE [PROG.c ...]",
     "the suite as one C file of regression tests: cc FILE prog.c && ./a.out"},
    {"report", "OUT [PROG.c ...]",
     "OUT/report/index.html: summary, coverage over time, annotated source"},
    {"doctor", "", "what this host can do: runtimes, 32-bit execution, gcc for replay"},
    {NULL, NULL, NULL},
};

void options_defaults(ctg_options *o)
{
    memset(o, 0, sizeof *o);
    o->build.arch_bits = 0; /* unset: the task's data model, else 64 (task_apply) */
    o->build.depth = 2;
    o->search.strategy = "auto";
    o->search.time_s = -1; /* unset: 60, or none with --max-execs (validate) */
    o->search.max_execs = 0;
    o->search.seed = 1;
    o->search.crash_min_execs = 256;
    o->search.prove = "auto";
    o->search.prove_time = "auto";
    o->search.sync_s = 1.0;
    o->exec.timeout_arg = "auto";
    o->exec.timeout_ms = 1000;
    o->exec.mem_mb = 2048;
    o->exec.malloc_fail = "stop";
    o->exec.san_mode = "all";
    o->replay.timeout_s = -1;
    o->exec.extend_limit = 16384;
    o->out.out_dir = "ctestgen-out";
    o->out.on_write_error = "stop";
    o->compare.by = "strategy";
}

/* Appends s to a list; false on oom. */
static bool list_add(str_list *l, const char *s)
{
    size_t cap = (size_t)l->cap;
    if (ctg_grow((void **)&l->items, &cap, (size_t)l->n + 1, sizeof *l->items) != 0)
        return false;
    l->cap = (int)cap;
    l->items[l->n++] = s;
    return true;
}

void options_release(ctg_options *o)
{
    ctg_free(o->positional.items);
    ctg_free(o->build.cflags.items);
    ctg_free(o->replay.corpus.items);
    ctg_free(o->exec.prog_args.items);
    o->exec.prog_args = (str_list){0};
    for (int i = 0; i < o->kv.n; i++)
        ctg_free((char *)o->kv.items[i]);
    ctg_free(o->kv.items);
    for (int i = 0; i < o->own.n; i++)
        ctg_free((char *)o->own.items[i]);
    ctg_free(o->own.items);
    ctg_free(o->build.ignored.items);
    o->own = (str_list){0};
    o->build.ignored = (str_list){0};
    ctg_free(o->task.program);
    o->task.program = NULL;
    o->positional = (str_list){0};
    o->build.cflags = (str_list){0};
    o->replay.corpus = (str_list){0};
    o->kv = (str_list){0};
}

/* ---- the tables ----------------------------------------------------------- */

static const opt_group *groups; /* options_set_groups */
static int n_groups;

void options_set_groups(const opt_group *g, int n)
{
    groups = g;
    n_groups = n < 0 ? 0 : n > OPT_MAX_GROUPS ? OPT_MAX_GROUPS : n;
}

/* The group named name, or NULL. */
static const opt_group *find_group(const char *name)
{
    for (int s = 0; name && s < n_groups; s++)
        if (!strcmp(groups[s].name, name))
            return &groups[s];
    return NULL;
}

typedef struct opt_ref {
    const opt_desc *d;
    const char *owner; /* strategy name, or NULL for common options */
} opt_ref;

/* Collects every option of every table into refs (n entries); NULL on oom. */
static opt_ref *all_options(int *n)
{
    int count = 0;
    for (const opt_desc *d = common_options; d->name; d++)
        count++;
    for (int s = 0; s < n_groups; s++)
        for (const opt_desc *d = groups[s].table; d && d->name; d++)
            count++;
    opt_ref *refs = ctg_calloc((size_t)count + 1, sizeof *refs);
    if (!refs)
        return NULL;
    int k = 0;
    for (const opt_desc *d = common_options; d->name; d++)
        refs[k++] = (opt_ref){d, NULL};
    for (int s = 0; s < n_groups; s++)
        for (const opt_desc *d = groups[s].table; d && d->name; d++)
            refs[k++] = (opt_ref){d, groups[s].name};
    *n = count;
    return refs;
}

/* Finds a strategy option by name in every strategy's table. */
static const opt_desc *find_kv_option(const char *name)
{
    for (int s = 0; s < n_groups; s++)
        for (const opt_desc *d = groups[s].table; d && d->name; d++)
            if (!strcmp(d->name, name))
                return d;
    return NULL;
}

void opt_each_kv(const ctg_options *o, void (*fn)(void *user, const char *name, const char *value),
                 void *user)
{
    for (int s = 0; s < n_groups; s++)
        for (const opt_desc *d = groups[s].table; d && d->name; d++) {
            const char *v = opt_get_str(o, d->name);
            fn(user, d->name, v ? v : (d->kind == OPT_FLAG ? "0" : ""));
        }
}

/* ---- values ----------------------------------------------------------------- */

/* Checks that text is a valid value of the option's kind. */
static bool check_value(const opt_desc *d, const char *v, ctg_err *e)
{
    char *end;
    errno = 0;
    switch (d->kind) {
    case OPT_INT:
        (void)strtol(v, &end, 0);
        break;
    case OPT_U64:
        if (*v == '-')
            return err_set(e, "--%s: '%s' is not a non-negative number", d->name, v);
        (void)strtoull(v, &end, 0);
        break;
    case OPT_DOUBLE: {
        double x = strtod(v, &end);
        if (!*end && (isnan(x) || x < 0))
            return err_set(e, "--%s: '%s' must be a non-negative number", d->name, v);
        break;
    }
    default:
        return true;
    }
    if (errno || end == v || *end)
        return err_set(e, "--%s: '%s' is not a valid number; see --help", d->name, v);
    return true;
}

/* Stores a parsed value into the options struct or the kv store. */
static bool store(ctg_options *o, const opt_desc *d, const char *v, ctg_err *e)
{
    if (v && !check_value(d, v, e))
        return false;
    if (d->offset == OPT_KV) {
        sbuf b = SBUF_INIT;
        sbuf_printf(&b, "%s=%s", d->name, d->kind == OPT_FLAG ? "1" : v);
        char *s = sbuf_take(&b);
        if (!s || !list_add(&o->kv, s)) {
            ctg_free(s);
            return err_set(e, "out of memory while parsing options");
        }
        return true;
    }
    void *field = (char *)o + d->offset;
    switch (d->kind) {
    case OPT_FLAG:
        *(bool *)field = true;
        break;
    case OPT_STR:
        *(const char **)field = v;
        break;
    case OPT_INT:
        *(int *)field = (int)strtol(v, NULL, 0);
        break;
    case OPT_U64:
        *(uint64_t *)field = strtoull(v, NULL, 0);
        break;
    case OPT_DOUBLE:
        *(double *)field = strtod(v, NULL);
        break;
    case OPT_LIST:
        if (!list_add((str_list *)field, v))
            return err_set(e, "out of memory while parsing options");
        break;
    }
    return true;
}

/* Checks combinations after parsing. */
static bool validate(ctg_options *o, ctg_err *e)
{
    if (o->build.arch_bits != 0 && o->build.arch_bits != 32 && o->build.arch_bits != 64)
        return err_set(e, "--arch: must be 32 or 64, not %d", o->build.arch_bits);
    const char *j = o->exec.jobs_arg;
    bool is_run = o->command && !strcmp(o->command, "run");
    if ((j && !strcmp(j, "auto")) || (!j && !is_run)) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->exec.jobs = n > 0 ? (int)n : 1;
    } else if (j) {
        char *end;
        errno = 0;
        long n = strtol(j, &end, 10);
        if (errno || end == j || *end || n < 1 || n > 1024)
            return err_set(e, "--jobs: '%s' must be auto or between 1 and 1024", j);
        o->exec.jobs = (int)n;
    } else
        o->exec.jobs = 1;
    if (o->exec.mpi && o->exec.jobs > 1 && is_run)
        return err_set(e, "--mpi: the ranks are the jobs; leave --jobs out");
    if (!(o->search.sync_s > 0))
        return err_set(e, "--sync-s: must be a positive number of seconds");
    if (o->search.time_s < 0)
        o->search.time_s = o->search.max_execs ? 0 : 60;
    o->exec.timeout_auto = !strcmp(o->exec.timeout_arg, "auto");
    if (!o->exec.timeout_auto) {
        char *end;
        errno = 0;
        long ms = strtol(o->exec.timeout_arg, &end, 10);
        if (errno || end == o->exec.timeout_arg || *end || ms < 1 || ms > 3600000)
            return err_set(e, "--timeout-ms: '%s' must be auto or between 1 and 3600000",
                           o->exec.timeout_arg);
        o->exec.timeout_ms = (uint32_t)ms;
    }
    if (o->replay.timeout_s < 0)
        o->replay.timeout_s = o->command && !strcmp(o->command, "replay") ? 3 : 2;
    else if (o->replay.timeout_s < 0.01 || o->replay.timeout_s > 3600)
        return err_set(e, "--replay-timeout: %g s must be between 0.01 and 3600",
                       o->replay.timeout_s);
    if (o->exec.extend_limit > (1u << 24))
        return err_set(e, "--extend-limit: %llu bytes is more than the 16 MiB input area",
                       (unsigned long long)o->exec.extend_limit);
    if (o->exec.mem_mb < 16)
        return err_set(e, "--mem-limit: %llu MB is too small (at least 16)",
                       (unsigned long long)o->exec.mem_mb);
    if (o->build.depth < 0 || o->build.depth > 16)
        return err_set(e, "--depth: must be between 0 and 16");
    if (o->replay.corpus.n > 0 && (!o->command || strcmp(o->command, "replay")))
        return err_set(e, "--corpus: only 'ctestgen replay' reads a corpus; use -i DIR to seed a run");
    if (strcmp(o->exec.malloc_fail, "stop") && strcmp(o->exec.malloc_fail, "null"))
        return err_set(e, "--malloc-fail: must be stop or null, not '%s'", o->exec.malloc_fail);
    if (strcmp(o->exec.san_mode, "all") && strcmp(o->exec.san_mode, "new") &&
        (strspn(o->exec.san_mode, "0123456789") != strlen(o->exec.san_mode) ||
         atoll(o->exec.san_mode) < 1))
        return err_set(e, "--sanitize-mode: must be all, new or a number of inputs, not '%s'",
                       o->exec.san_mode);
    if (strcmp(o->search.prove, "auto") && strcmp(o->search.prove, "eva") &&
        strcmp(o->search.prove, "bmc") && strcmp(o->search.prove, "none"))
        return err_set(e, "--prove: must be auto, eva, bmc or none, not '%s'", o->search.prove);
    char *end = NULL;
    o->search.prove_s = strcmp(o->search.prove_time, "auto") ? strtod(o->search.prove_time, &end) : 0;
    if (end && (*end || end == o->search.prove_time || !(o->search.prove_s > 0)))
        return err_set(e, "--prove-time: '%s' is not a number of seconds above 0 or auto",
                       o->search.prove_time);
    if (o->out.resume && o->out.force)
        return err_set(e, "--resume and --force exclude each other: --force deletes the run "
                          "that --resume continues");
    if (strcmp(o->out.on_write_error, "stop") && strcmp(o->out.on_write_error, "continue"))
        return err_set(e, "--on-write-error: must be stop or continue, not '%s'",
                       o->out.on_write_error);
    o->out.write_continue = !strcmp(o->out.on_write_error, "continue");
    if (!find_group(o->search.strategy))
        return err_set(e, "--strategy: unknown strategy '%s'; see --help for the list",
                       o->search.strategy);
    return true;
}

/* Builds the getopt_long tables from refs. */
static bool make_getopt(const opt_ref *refs, int n, struct option **lo, char **so)
{
    *lo = ctg_calloc((size_t)n + 1, sizeof **lo);
    *so = ctg_calloc((size_t)n * 2 + 3, 1);
    if (!*lo || !*so)
        return false;
    char *p = *so;
    *p++ = '-'; /* arguments in order: a non-option comes back as 1 */
    *p++ = ':'; /* report a missing value as ':' */
    for (int i = 0; i < n; i++) {
        const opt_desc *d = refs[i].d;
        (*lo)[i].name = d->name;
        (*lo)[i].has_arg = d->kind == OPT_FLAG ? no_argument : required_argument;
        (*lo)[i].flag = NULL;
        (*lo)[i].val = 256 + i;
        if (d->short_name) {
            *p++ = d->short_name;
            if (d->kind != OPT_FLAG)
                *p++ = ':';
        }
    }
    return true;
}

/* Index in refs of the option with this short name, -1 if none. */
static int find_short(const opt_ref *refs, int n, int c)
{
    for (int i = 0; i < n; i++)
        if (refs[i].d->short_name == c)
            return i;
    return -1;
}

/* Stores compiler flag argv[r] (and argv[r + 1] when it takes two: -I DIR
 * becomes -IDIR where the flag allows it) by its kind; the arguments it
 * took, or -1 with e set on oom. */
static int take_cflag(ctg_options *o, char **argv, int r, int argc, ctg_err *e)
{
    const char *a = argv[r], *next = r + 1 < argc ? argv[r + 1] : NULL;
    int n;
    ccf_kind k = ccf_classify(a, next, &n);
    if (k == CCF_NONE)
        return 0;
    bool ok = true;
    if (k == CCF_ARCH)
        o->build.arch_bits = a[2] == '3' ? 32 : 64;
    else if (k == CCF_SANITIZE)
        o->build.sanitize = a + strlen("-fsanitize=");
    else if (k == CCF_IGNORE)
        ok = list_add(&o->build.ignored, a);
    else if (n == 2 && strlen(a) == 2) { /* -I DIR, -L DIR, -l m, -D X: joined */
        sbuf j = SBUF_INIT;
        sbuf_printf(&j, "%s%s", a, next);
        char *s = sbuf_take(&j);
        ok = s && list_add(&o->own, s) && list_add(&o->build.cflags, s);
        if (s && !ok)
            ctg_free(s);
    } else
        ok = list_add(&o->build.cflags, a) && (n == 1 || list_add(&o->build.cflags, next));
    if (!ok)
        return err_set(e, "out of memory while parsing options"), -1;
    return n;
}

/* Moves compiler flags (-I x, -Dx, -lm, -O2, ...; ccflags.h) out of argv
 * into o->build, so getopt never sees them.  Returns the new argc. */
static int extract_cflags(ctg_options *o, int argc, char **argv, ctg_err *e)
{
    int w = 1;
    for (int r = 1; r < argc; r++) {
        if (!strcmp(argv[r], "--")) { /* the rest: the program's own arguments */
            while (++r < argc)
                if (!list_add(&o->exec.prog_args, argv[r]))
                    return err_set(e, "out of memory while parsing options"), -1;
            break;
        }
        int took = take_cflag(o, argv, r, argc, e);
        if (took < 0)
            return -1;
        if (took > 0)
            r += took - 1;
        else
            argv[w++] = argv[r];
    }
    return w;
}

bool options_parse(ctg_options *o, int argc, char **argv, ctg_err *e)
{
    argc = extract_cflags(o, argc, argv, e);
    if (argc < 0)
        return false;
    int n;
    opt_ref *refs = all_options(&n);
    struct option *lo = NULL;
    char *so = NULL;
    if (!refs || !make_getopt(refs, n, &lo, &so)) {
        ctg_free(refs), ctg_free(lo), ctg_free(so);
        return err_set(e, "out of memory while parsing options");
    }
    bool ok = true;
    optind = 1;
    opterr = 0;
    for (;;) {
        int idx = -1;
        int c = getopt_long(argc, argv, so, lo, &idx);
        if (c == -1)
            break;
        if (c == 1) { /* a command or a positional argument, in order */
            if (!o->command)
                o->command = optarg;
            else if (!list_add(&o->positional, optarg))
                ok = err_set(e, "out of memory while parsing options");
            if (!ok)
                break;
            continue;
        }
        if (c == '?' || c == ':') {
            char shrt[3] = {'-', (char)optopt, 0}; /* within a cluster (-xq): optopt */
            const char *bad = c == '?' && optopt ? shrt : argv[optind - 1];
            ok = err_set(e, c == ':' ? "%s: needs a value; see --help"
                                     : "%s: unknown option; see --help",
                         bad);
            break;
        }
        int i = c >= 256 ? c - 256 : find_short(refs, n, c);
        if (i < 0 || !(ok = store(o, refs[i].d, optarg, e)))
            break;
    }
    for (int k = optind; ok && k < argc; k++) {
        if (!o->command)
            o->command = argv[k];
        else if (!list_add(&o->positional, argv[k]))
            ok = err_set(e, "out of memory while parsing options");
    }
    ctg_free(refs);
    ctg_free(lo);
    ctg_free(so);
    return ok && validate(o, e);
}

/* ---- --help ------------------------------------------------------------------ */

/* Prints one option line: "  -o, --output DIR     help (default: x)". */
static void help_line(FILE *f, const opt_desc *d)
{
    char head[64];
    if (d->short_name)
        snprintf(head, sizeof head, "-%c, --%s%s%s", d->short_name, d->name, d->metavar ? " " : "",
                 d->metavar ? d->metavar : "");
    else
        snprintf(head, sizeof head, "    --%s%s%s", d->name, d->metavar ? " " : "",
                 d->metavar ? d->metavar : "");
    fprintf(f, "  %-28s %s", head, d->help);
    if (d->def)
        fprintf(f, " (default: %s)", d->def);
    fputc('\n', f);
}

void options_help(FILE *f)
{
    fprintf(f, "ctestgen %s - test generation for C programs\n\nUsage:\n", CTG_VERSION);
    for (int i = 0; commands[i].name; i++)
        fprintf(f, "  ctestgen %-7s %-28s %s\n", commands[i].name, commands[i].args,
                commands[i].help);
    fprintf(f, "\nCompiler and linker flags go on the command line: -I DIR, -D NAME[=VAL], -U NAME,\n"
               "-include FILE, -std=..., -f..., -m... reach the compiler, -l, -L, -Wl,..., -pthread\n"
               "the link; -O*, -W*, -g* are ignored with a note.  A project's own build: make\n"
               "CC=ctestgen-cc, then ctestgen run ./BINARY (or HARNESS.c LIB.a); CMake's database:\n"
               "--compile-commands FILE.  A libFuzzer target runs under ASan and UBSan by default\n"
               "(--sanitize auto: every input, --sanitize-mode all) until the budget is spent.\n");
    fprintf(f, "\nOptions:\n");
    for (const opt_desc *d = common_options; d->name; d++)
        help_line(f, d);
    fprintf(f, "\nStrategies (--strategy):\n");
    for (int s = 0; s < n_groups; s++)
        fprintf(f, "  %-12s %s\n", groups[s].name, groups[s].summary);
    for (int s = 0; s < n_groups; s++) {
        const opt_desc *t = groups[s].table;
        if (!t || !t->name)
            continue;
        fprintf(f, "\nOptions of --strategy %s:\n", groups[s].name);
        for (const opt_desc *d = t; d->name; d++)
            help_line(f, d);
    }
    fprintf(f, "\nExit codes: 0 done, 1 error (bad input, build failure), 2 usage error,\n"
               "  3 the output could not be completely written (disk full; what is on disk is\n"
               "    valid and the summary counts only that),\n"
               "  130 interrupted (SIGINT/SIGTERM: the current run finishes, everything is\n"
               "    written, --resume continues; a second signal exits at once).\n"
               "\nReproducibility: with --max-execs and --time 0 the same seed gives the same\n"
               "suite (unless runs time out near the calibrated timeout); a --time budget\n"
               "depends on the machine's speed and is not reproducible.\n");
}

/* ---- the manual page ------------------------------------------------------------ */

/* Text for troff: backslashes doubled, '-' as \-, a leading '.' or '\'' escaped. */
static void man_text(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

static void man_option(FILE *f, const opt_desc *d)
{
    fputs(".TP\n\\fB", f);
    if (d->short_name)
        fprintf(f, "\\-%c\\fR, \\fB", d->short_name);
    fputs("\\-\\-", f);
    man_text(f, d->name);
    fputs("\\fR", f);
    if (d->metavar) {
        fputs(" \\fI", f);
        man_text(f, d->metavar);
        fputs("\\fR", f);
    }
    fputc('\n', f);
    man_text(f, d->help);
    if (d->def) {
        fputs(" (default: ", f);
        man_text(f, d->def);
        fputc(')', f);
    }
    fputc('\n', f);
}

void options_man(FILE *f)
{
    fprintf(f, ".TH CTESTGEN 1 \"\" \"ctestgen %s\" \"User Commands\"\n", CTG_VERSION);
    fputs(".SH NAME\nctestgen \\- test generation for C programs\n.SH SYNOPSIS\n", f);
    for (int i = 0; commands[i].name; i++) {
        fprintf(f, ".B ctestgen %s\n", commands[i].name);
        man_text(f, commands[i].args);
        fputs("\n.br\n", f);
    }
    fputs(".SH DESCRIPTION\nctestgen generates a test suite for a C program (a Test\\-Comp "
          "harness, a libFuzzer target, a program reading stdin or a file named by @@, or one "
          "function) that covers as many branches as it can and reaches the errors it can, "
          "with greybox fuzzing, search\\-based testing, bounded\\-exhaustive generation "
          "and concolic testing.\n.SH COMMANDS\n", f);
    for (int i = 0; commands[i].name; i++) {
        fprintf(f, ".TP\n\\fB%s\\fR ", commands[i].name);
        man_text(f, commands[i].args);
        fputc('\n', f);
        man_text(f, commands[i].help);
        fputc('\n', f);
    }
    fputs(".SH OPTIONS\n", f);
    for (const opt_desc *d = common_options; d->name; d++)
        man_option(f, d);
    fputs(".SH STRATEGIES\n", f);
    for (int s = 0; s < n_groups; s++) {
        fprintf(f, ".TP\n\\fB%s\\fR\n", groups[s].name);
        man_text(f, groups[s].summary);
        fputc('\n', f);
    }
    for (int s = 0; s < n_groups; s++) {
        const opt_desc *t = groups[s].table;
        if (!t || !t->name)
            continue;
        fprintf(f, ".SS Options of \\-\\-strategy %s\n", groups[s].name);
        for (const opt_desc *d = t; d->name; d++)
            man_option(f, d);
    }
    fputs(".SH EXIT STATUS\n0 done, 1 error (bad input, build failure), 2 usage error, 3 the "
          "output could not be completely written (what is on disk is valid), 130 "
          "interrupted (\\-\\-resume continues).\n.SH SEE ALSO\n"
          ".BR gcov (1),\n.BR afl\\-fuzz (8)\n", f);
}

/* ---- strategy options ---------------------------------------------------------- */

/* The last value the command line gave option name, NULL when none. */
static const char *kv_value(const ctg_options *o, const char *name)
{
    size_t n = strlen(name);
    for (int i = o->kv.n - 1; i >= 0; i--)
        if (!strncmp(o->kv.items[i], name, n) && o->kv.items[i][n] == '=')
            return o->kv.items[i] + n + 1;
    return NULL;
}

bool opt_given(const ctg_options *o, const char *name) { return kv_value(o, name) != NULL; }

const char *opt_get_str(const ctg_options *o, const char *name)
{
    const char *v = kv_value(o, name);
    if (v)
        return v;
    const opt_desc *d = find_kv_option(name);
    return d ? d->def : NULL;
}

double opt_get_double(const ctg_options *o, const char *name)
{
    const char *v = opt_get_str(o, name);
    return v ? strtod(v, NULL) : 0.0;
}

long opt_get_long(const ctg_options *o, const char *name)
{
    const char *v = opt_get_str(o, name);
    return v ? strtol(v, NULL, 0) : 0;
}

bool opt_get_flag(const ctg_options *o, const char *name)
{
    const char *v = opt_get_str(o, name);
    return v && strcmp(v, "0") && strcmp(v, "false") && strcmp(v, "no");
}
