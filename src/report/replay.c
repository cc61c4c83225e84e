/*
 * replay.c - `ctestgen replay` (see replay.h): gcc --coverage build of the
 * program with the TestCov-style harness (src/runtime/replay_harness.c),
 * one process per testcase (or raw corpus file), gcov's JSON output parsed
 * with json-c.
 *
 * Work directory layout:
 *   obj/<i>-<name>.o/.gcno/.gcda   the program's objects and coverage data
 *   harness.o, prog                the harness and the linked program
 *   values/<testcase>.txt          the inputs of each testcase, one a line
 *                                  (raw mode: the harness reads the file
 *                                  itself, $CTESTGEN_REPLAY_RAW)
 *   status                         events the harness reports for a run
 * gcov data of earlier replays is removed first, so counts are this suite's.
 */
#include "replay.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/ccflags.h"
#include "../base/fsutil.h"
#include "../base/host.h"
#include "../base/hash.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/target.h"
#include "../compile/build.h"
#include "../suite/suite.h"
#include "../suite/test.h"
#include "stats.h"

#define HARNESS_FILE "replay_harness.c"
#define REPLAY_MAX_PROCS 256 /* RLIMIT_NPROC of a test (root is exempt) */

typedef struct replay_ctx {
    const replay_opts *o;
    replay_result *r;
    const char *what;  /* names the replay in messages: out_dir or the
                          first corpus path                          */
    int arch;
    char *suite_dir;   /* <out>/test-suite                          */
    char *work;        /* absolute work directory                    */
    bool work_is_tmp;
    char **objs;       /* program objects (absolute), n_sources of them */
    char *binary;
    char *status;
    char *scratch; /* working directory of each test, emptied before it */
    size_t bad_cap;
    char **cases;      /* testcase paths, sorted; raw mode: absolute paths */
    char **names;      /* raw mode: the paths as listed, for the report */
    size_t n_cases;
    suite_testcase *tcs; /* NULL in raw mode */
    char **argv;       /* binary, the program's arguments, NULL        */
    bool feed;         /* stdin or @@ target: the test's bytes are its
                          stdin or the file @@ names (the harness)     */
    size_t files_cap;  /* capacity of r->files                         */
    bool session;      /* replay_open: ctestgen has other children (the
                          search's fork servers), so a test's leftovers
                          are looked for in its process group only     */
} replay_ctx;

static const char *const outcome_names[REPLAY__COUNT] = {
    "normal", "error", "assume", "ran-out", "crash", "timeout", "bad-input",
};

const char *replay_outcome_name(replay_outcome o)
{
    return (unsigned)o < REPLAY__COUNT ? outcome_names[o] : "?";
}

/* ==== set-up ============================================================== */

/* Directory holding replay_harness.c (ctg_free): the option, else
 * build_runtime_dir() ($CTESTGEN_RUNTIME_DIR, else next to the executable). */
static char *runtime_dir(const replay_opts *o)
{
    return ctg_strdup(o->runtime_dir ? o->runtime_dir : build_runtime_dir());
}

/* Creates the work directory (a fresh temporary one when none is given)
 * and clears coverage data of earlier replays. */
static bool make_work_dir(replay_ctx *c, ctg_err *e)
{
    if (c->o->work_dir) {
        if (!fs_mkdir_p(c->o->work_dir, e))
            return false;
        c->work = fs_realpath(c->o->work_dir, e);
    } else {
        if (!(c->work = fs_mkdtemp("ctestgen-replay-", "a temporary directory", e)))
            return false;
        c->work_is_tmp = true;
    }
    if (!c->work)
        return err_set(e, "%s: cannot create the replay work directory", c->what);
    char *obj = fs_join(c->work, "obj"), *vals = fs_join(c->work, "values");
    c->status = fs_join(c->work, "status");
    c->scratch = fs_join(c->work, "scratch");
    c->binary = fs_join(c->work, "prog");
    bool ok = obj && vals && c->status && c->scratch && c->binary && fs_rm_rf(obj, e) &&
              fs_rm_rf(vals, e) &&
              fs_mkdir_p(obj, e) && fs_mkdir_p(vals, e);
    if (!ok)
        err_set(e, "%s: out of memory", c->work);
    ctg_free(obj);
    ctg_free(vals);
    return ok;
}

/* Checks one typed value of a testcase the way suite_read_testcase would;
 * values without a known type are left to the harness, as in TestCov. */
static bool check_input(const char *path, const suite_input *in, size_t i, int arch, ctg_err *e)
{
    enum ctg_type t;
    if (!in->type || !ctg_type_from_name(in->type, &t))
        return true;
    uint8_t b[8];
    ctg_err ve = {{0}};
    if (test_value_parse(t, in->text, b, ctg_type_size(t, arch), &ve))
        return true;
    return err_set(e, "%s:%d: input %zu: %s; fix or remove the value", path, in->line, i + 1, ve.msg);
}

static bool load_out_corpus(replay_ctx *c, ctg_err *e);

/* Reads metadata.xml (for the architecture) and every testcase before
 * anything is built, so a broken file stops the replay at once.  An
 * output directory without test-suite/ is a byte-input target's: its
 * tests are corpus/ (load_out_corpus). */
static bool load_suite(replay_ctx *c, ctg_err *e)
{
    c->suite_dir = fs_join(c->o->out_dir, "test-suite");
    if (!c->suite_dir)
        return err_set(e, "%s: out of memory", c->o->out_dir);
    if (!fs_is_dir(c->suite_dir))
        return load_out_corpus(c, e);
    char *mpath = fs_join(c->suite_dir, "metadata.xml");
    suite_metadata md = {0};
    bool have_md = mpath && fs_exists(mpath);
    if (have_md && !suite_read_metadata(mpath, &md, e)) {
        ctg_free(mpath);
        return false;
    }
    ctg_free(mpath);
    c->arch = c->o->arch_bits ? c->o->arch_bits : have_md ? md.arch_bits : 64;
    char hex[HASH_HEX_LEN + 1];
    if (have_md && md.program_hash && *md.program_hash && c->o->n_sources > 0 &&
        hash_file(c->o->sources[0], hex, NULL))
        c->r->program_changed = strcmp(hex, md.program_hash) != 0;
    suite_metadata_release(&md);
    if (!suite_list_testcases(c->suite_dir, &c->cases, &c->n_cases, e))
        return false;
    c->tcs = ctg_calloc(c->n_cases + 1, sizeof *c->tcs);
    if (!c->tcs)
        return err_set(e, "%s: out of memory", c->suite_dir);
    size_t kept = 0;
    for (size_t i = 0; i < c->n_cases; i++) {
        ctg_err be = {{0}};
        bool ok = suite_parse_testcase(c->cases[i], &c->tcs[kept], &be);
        for (size_t k = 0; ok && k < c->tcs[kept].n_inputs; k++)
            ok = check_input(c->cases[i], &c->tcs[kept].inputs[k], k, c->arch, &be);
        if (ok) {
            c->cases[kept++] = c->cases[i];
            continue;
        }
        /* skipped: named in the result, the others are replayed */
        suite_testcase_release(&c->tcs[kept]);
        memset(&c->tcs[kept], 0, sizeof c->tcs[kept]);
        char *msg = ctg_strdup(be.msg);
        if (!msg || ctg_grow((void **)&c->r->bad, &c->bad_cap, c->r->n_bad + 1,
                             sizeof *c->r->bad) != 0) {
            ctg_free(msg);
            return err_set(e, "%s: out of memory", c->suite_dir);
        }
        c->r->bad[c->r->n_bad++] = msg;
        ctg_free(c->cases[i]);
    }
    c->n_cases = kept;
    return true;
}

/* ==== raw corpus =========================================================== */

/* Adds one raw input: checks that it can be opened for reading and keeps
 * its absolute path (to run the harness in the work directory) and the
 * name it was listed under. */
static bool add_raw_file(replay_ctx *c, size_t cap[2], const char *path, ctg_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_sys(e, "%s: cannot read the corpus file", path);
    close(fd);
    if (ctg_grow((void **)&c->cases, &cap[0], c->n_cases + 1, sizeof *c->cases) < 0 ||
        ctg_grow((void **)&c->names, &cap[1], c->n_cases + 1, sizeof *c->names) < 0)
        return err_set(e, "%s: out of memory", path);
    char *abs = fs_realpath(path, e), *name = ctg_strdup(path);
    if (!abs || !name) {
        ctg_free(abs);
        ctg_free(name);
        return err_set(e, "%s: out of memory", path);
    }
    c->cases[c->n_cases] = abs;
    c->names[c->n_cases++] = name;
    return true;
}

/* Lists every raw input of o->corpus: a directory's regular files, or a
 * file given directly. */
static bool load_corpus(replay_ctx *c, ctg_err *e)
{
    c->arch = c->o->arch_bits ? c->o->arch_bits : 64;
    c->r->raw = true;
    size_t cap[2] = {0, 0};
    for (int i = 0; i < c->o->n_corpus; i++) {
        const char *p = c->o->corpus[i];
        struct stat st;
        if (stat(p, &st) != 0)
            return err_sys(e, "%s: cannot open the corpus", p);
        if (!S_ISDIR(st.st_mode)) {
            if (!add_raw_file(c, cap, p, e))
                return false;
            continue;
        }
        char **files = NULL;
        size_t n = 0;
        bool ok = fs_list_files(p, &files, &n, e);
        for (size_t k = 0; ok && k < n; k++)
            ok = add_raw_file(c, cap, files[k], e);
        suite_free_list(files, n);
        if (!ok)
            return false;
    }
    return true;
}

/* The tests of a byte-input target's run (stdin or "@@": no test-suite/,
 * suite.h): OUT/corpus/id-NNNNN, named by their file names, in the data
 * model stats.json recorded. */
static bool load_out_corpus(replay_ctx *c, ctg_err *e)
{
    const char *out = c->o->out_dir;
    char *dir = fs_join(out, "corpus"), *sp = fs_join(out, "stats.json");
    if (!dir || !sp) {
        ctg_free(dir), ctg_free(sp);
        return err_set(e, "%s: out of memory", out);
    }
    bool ok = fs_is_dir(dir) && fs_exists(sp);
    if (!ok)
        err_set(e, "%s: no test-suite directory (nor the corpus of a stdin run); pass the output "
                   "directory of 'ctestgen run'", out);
    ctg_err se = {{0}};
    stats_t *st = ok ? stats_load(sp, &se) : NULL;
    const char *arch = st ? stats_get_info(st, "arch") : NULL;
    c->arch = c->o->arch_bits ? c->o->arch_bits : arch && !strcmp(arch, "32") ? 32 : 64;
    stats_free(st);
    c->r->raw = true;
    size_t cap[2] = {0, 0};
    char **files = NULL;
    size_t n = 0;
    ok = ok && fs_list_files(dir, &files, &n, e);
    for (size_t k = 0; ok && k < n; k++) {
        const char *base = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
        if (strncmp(base, "id-", 3) != 0)
            continue;
        ok = add_raw_file(c, cap, files[k], e);
        char *name = ok ? ctg_strdup(base) : NULL;
        if (ok && !name)
            ok = err_set(e, "%s: out of memory", out);
        if (ok) {
            ctg_free(c->names[c->n_cases - 1]);
            c->names[c->n_cases - 1] = name;
        }
    }
    suite_free_list(files, n);
    ctg_free(dir), ctg_free(sp);
    return ok;
}

/* The most telling line of compiler output for a one-line message: the
 * first "error:" or "undefined reference" line that is not collect2's
 * summary, else the first line. */
static void first_error(const sbuf *out, char *buf, size_t cap)
{
    const char *s = sbuf_str(out), *pick = NULL;
    for (const char *l = s; *l && !pick; l += strcspn(l, "\n"), l += *l == '\n') {
        size_t n = strcspn(l, "\n");
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%.*s", (int)(n < sizeof tmp ? n : sizeof tmp - 1), l);
        if ((strstr(tmp, "error:") || strstr(tmp, "undefined reference")) &&
            strncmp(tmp, "collect2", 8) != 0)
            pick = l;
    }
    if (!pick)
        pick = s;
    size_t n = strcspn(pick, "\n");
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, pick, n);
    buf[n] = '\0';
    if (!n)
        snprintf(buf, cap, "no diagnostics");
}

/* Runs a tool; false with e set to "<what>: <problem> (<first error>)<fix>"
 * when it cannot start or fails. */
static bool run_tool(char *const argv[], const char *what, const char *problem, const char *fix,
                     ctg_err *e)
{
    sbuf err = SBUF_INIT;
    proc_opts po = {0};
    po.err = &err;
    po.out = &err;
    proc_result pr;
    bool ok = proc_run(argv, &po, &pr, e);
    if (ok && !(pr.exited && pr.code == 0)) {
        char line[300];
        first_error(&err, line, sizeof line);
        ok = err_set(e, "%s: %s (%s)%s", what, problem, line, fix);
    }
    sbuf_release(&err);
    return ok;
}

/* Appends argument a to a NULL-terminated argv under construction. */
static void push(const char **argv, int *n, const char *a) { argv[(*n)++] = a; }

/* Compiles source i into obj/<i>-<name>.o with coverage instrumentation. */
static bool compile_source(replay_ctx *c, int i, ctg_err *e)
{
    const replay_opts *o = c->o;
    const char *src = o->sources[i], *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    sbuf p = SBUF_INIT;
    sbuf_printf(&p, "%s/obj/%d-%.*s.o", c->work, i, (int)strcspn(base, "."), base);
    c->objs[i] = sbuf_take(&p);
    char *abs_src = fs_realpath(src, e);
    const char **argv = ctg_calloc((size_t)o->n_cflags + 16, sizeof *argv);
    if (!c->objs[i] || !abs_src || !argv) {
        ctg_free(abs_src);
        ctg_free(argv);
        return err_set(e, "%s: cannot read the program or out of memory", src);
    }
    char arch[8];
    snprintf(arch, sizeof arch, "-m%d", c->arch);
    int n = 0;
    const char *fixed[] = {o->cc ? o->cc : "gcc", arch, "--coverage", "-O0", "-g",
                           "-finstrument-functions", "-c", abs_src, "-o", c->objs[i]};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        push(argv, &n, fixed[k]);
    for (int k = 0; k < o->n_cflags; k++)
        if (ccf_for_compile(o->cflags[k]))
            push(argv, &n, o->cflags[k]);
    bool ok = run_tool((char *const *)argv, src, "does not compile with gcc --coverage",
                       "; fix the program or pass the -I/-D flags it needs", e);
    ctg_free(abs_src);
    ctg_free(argv);
    return ok;
}

/* Compiles the harness (without coverage: only the program is measured). */
static bool compile_harness(replay_ctx *c, char **obj, ctg_err *e)
{
    char *rt = runtime_dir(c->o);
    char *src = rt ? fs_join(rt, HARNESS_FILE) : NULL;
    *obj = fs_join(c->work, "harness.o");
    ctg_free(rt);
    bool ok = src && *obj;
    if (ok && !fs_exists(src))
        ok = err_set(e, "%s: missing; rebuild ctestgen (make) or set CTESTGEN_RUNTIME_DIR", src);
    char arch[8];
    snprintf(arch, sizeof arch, "-m%d", c->arch);
    char *argv[] = {(char *)(c->o->cc ? c->o->cc : "gcc"), arch, "-O0", "-g", "-w", "-c", src,
                    "-o", *obj, NULL};
    ok = ok && run_tool(argv, src ? src : HARNESS_FILE, "does not compile with gcc",
                        c->arch == 32 ? "; install gcc-multilib for --arch 32" : "", e);
    ctg_free(src);
    return ok || err_set(e, "%s: out of memory", c->work);
}

/* Compiles the program's sources and the harness and links them. */
static bool build(replay_ctx *c, ctg_err *e)
{
    const replay_opts *o = c->o;
    if (o->n_sources <= 0)
        return err_set(e, "%s: no program given; pass the C file the suite was made for",
                       c->what);
    c->objs = ctg_calloc((size_t)o->n_sources, sizeof *c->objs);
    if (!c->objs)
        return err_set(e, "%s: out of memory", c->what);
    for (int i = 0; i < o->n_sources; i++)
        if (!compile_source(c, i, e))
            return false;
    char *harness = NULL;
    bool ok = compile_harness(c, &harness, e);
    const char **argv = ctg_calloc((size_t)(o->n_sources + o->n_cflags) + 12, sizeof *argv);
    char arch[8];
    snprintf(arch, sizeof arch, "-m%d", c->arch);
    if (ok && argv) {
        int n = 0;
        push(argv, &n, o->cc ? o->cc : "gcc");
        push(argv, &n, arch);
        push(argv, &n, "--coverage");
        for (int i = 0; i < o->n_sources; i++)
            push(argv, &n, c->objs[i]);
        push(argv, &n, harness);
        push(argv, &n, "-o");
        push(argv, &n, c->binary);
        for (int k = 0; k < o->n_cflags; k++)
            if (ccf_for_link(o->cflags[k]))
                push(argv, &n, o->cflags[k]);
        push(argv, &n, "-lm");
        push(argv, &n, "-Wl,--wrap=fork");
        ok = run_tool((char *const *)argv, o->sources[0], "does not link with gcc",
                      "; pass all of the program's source files and -l flags", e);
    } else if (ok) {
        ok = err_set(e, "%s: out of memory", c->what);
    }
    ctg_free(argv);
    ctg_free(harness);
    return ok;
}

/* ==== running ============================================================= */

/* Writes the values of testcase i, one a line, and returns the file's path
 * (ctg_free). */
static char *write_values(replay_ctx *c, size_t i, ctg_err *e)
{
    const char *name = strrchr(c->cases[i], '/') + 1;
    sbuf path = SBUF_INIT, text = SBUF_INIT;
    sbuf_printf(&path, "%s/values/%s.txt", c->work, name);
    for (size_t k = 0; k < c->tcs[i].n_inputs; k++)
        sbuf_printf(&text, "%s\n", c->tcs[i].inputs[k].text);
    char *p = NULL;
    if (!sbuf_ok(&path) || !sbuf_ok(&text))
        err_set(e, "%s: out of memory", c->work);
    else if (fs_write_atomic(path.data, text.data ? text.data : "", text.len, e))
        p = sbuf_take(&path);
    sbuf_release(&path);
    sbuf_release(&text);
    return p;
}

/* Classifies a run from the harness's events and how the process ended. */
static void classify(replay_test *t, const char *events, const proc_result *pr)
{
    bool timeout = strstr(events, "timeout\n") || pr->timed_out;
    t->reached_error = strstr(events, "error\n") != NULL;
    t->signal = pr->exited ? 0 : pr->signal;
    t->exit_code = pr->exited ? pr->code : 0;
    if (t->reached_error)
        t->outcome = REPLAY_ERROR;
    else if (timeout)
        t->outcome = REPLAY_TIMEOUT;
    else if (!pr->exited)
        t->outcome = REPLAY_CRASH;
    else if (strstr(events, "badinput\n"))
        t->outcome = REPLAY_BAD_INPUT;
    else if (strstr(events, "ranout\n"))
        t->outcome = REPLAY_RAN_OUT;
    else if (strstr(events, "assume\n"))
        t->outcome = REPLAY_ASSUME;
    else
        t->outcome = REPLAY_NORMAL;
}

/* Runs testcase i in its own process and records its outcome. */
static bool run_test(replay_ctx *c, size_t i, ctg_err *e)
{
    replay_test *t = &c->r->tests[i];
    bool raw = c->tcs == NULL;
    t->name = ctg_strdup(raw ? c->names[i] : strrchr(c->cases[i], '/') + 1);
    t->covers_error = !raw && c->tcs[i].covers_error;
    char *vals = raw ? ctg_strdup(c->cases[i]) : write_values(c, i, e);
    if (!t->name || !vals) {
        ctg_free(vals);
        return err_set(e, "%s: out of memory", c->work);
    }
    double timeout = c->o->timeout_s > 0 ? c->o->timeout_s : 3.0;
    sbuf env[3] = {SBUF_INIT, SBUF_INIT, SBUF_INIT};
    sbuf_printf(&env[0], "CTESTGEN_REPLAY_%s=%s", raw ? "RAW" : "VALUES", vals);
    sbuf_printf(&env[1], "CTESTGEN_REPLAY_STATUS=%s", c->status);
    sbuf_printf(&env[2], "CTESTGEN_REPLAY_TIMEOUT_MS=%ld", (long)(timeout * 1000));
    char *env_add[] = {env[0].data, env[1].data, env[2].data, NULL, NULL};
    proc_opts po = {0};
    po.cwd = c->scratch;
    po.contain = !c->session;
    po.contain_group = c->session;
    po.max_procs = REPLAY_MAX_PROCS;
    po.env_add = env_add;
    po.timeout_s = timeout + 5; /* backstop: the harness's own alarm ends it first */
    po.mem_limit_mb = c->o->mem_limit_mb > 0 ? c->o->mem_limit_mb : 4096;
    c->argv[0] = c->binary;
    char **argv = c->argv;
    if (c->feed)
        env_add[3] = "CTESTGEN_REPLAY_STDIN=1";
    proc_result pr;
    unlink(c->status);
    bool ok = fs_rm_rf(c->scratch, e) && fs_mkdir_p(c->scratch, e) && sbuf_ok(&env[0]) &&
              sbuf_ok(&env[1]) && sbuf_ok(&env[2]) &&
              proc_run(argv, &po, &pr, e);
    char *events = NULL;
    if (ok && !fs_read(c->status, &events, NULL, NULL))
        events = NULL;
    if (ok && events && strstr(events, "nomain\n"))
        ok = err_set(e, "%s: defines neither main nor LLVMFuzzerTestOneInput; nothing to replay",
                     c->o->sources[0]);
    if (ok)
        classify(t, events ? events : "", &pr);
    ctg_free(events);
    ctg_free(vals);
    for (int k = 0; k < 3; k++)
        sbuf_release(&env[k]);
    return ok;
}

/* ==== gcov ================================================================= */

/* The entry for a source file in r->files, added when new (NULL on oom). */
static replay_file *file_entry(replay_result *r, size_t *cap, const char *path)
{
    for (size_t i = 0; i < r->n_files; i++)
        if (!strcmp(r->files[i].path, path))
            return &r->files[i];
    if (ctg_grow((void **)&r->files, cap, r->n_files + 1, sizeof *r->files) < 0)
        return NULL;
    replay_file *f = &r->files[r->n_files];
    memset(f, 0, sizeof *f);
    f->path = ctg_strdup(path);
    if (!f->path)
        return NULL;
    r->n_files++;
    return f;
}

static long long get_int(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static json_object *get_array(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_array) ? v
                                                                                            : NULL;
}

/* The entry of line n of f, the array grown as needed; NULL on oom or a
 * line number past any source. */
static replay_line *line_entry(replay_file *f, long long n)
{
    if (n < 1 || n > 10000000)
        return NULL;
    if ((unsigned)n >= f->n_line) {
        unsigned want = (unsigned)n + 1, cap = f->n_line ? f->n_line : 64;
        while (cap < want)
            cap *= 2;
        replay_line *l = ctg_realloc(f->line, cap * sizeof *l);
        if (!l)
            return NULL;
        for (unsigned i = f->n_line; i < cap; i++)
            l[i] = (replay_line){false, 0, 0, 0, -1};
        f->line = l;
        f->n_line = cap;
    }
    return &f->line[n];
}

/* Adds the counts of one file of gcov's JSON output to r.  A file that
 * appears in several objects (a header) is counted once per object.  With
 * first >= 0 (a pass after test `first`), only the lines' first tests are
 * noted; with detail, the final pass records every line. */
static bool add_gcov_file(replay_result *r, size_t *cap, json_object *jf, int first, bool detail)
{
    json_object *name;
    if (!json_object_object_get_ex(jf, "file", &name))
        return true;
    replay_file *f = file_entry(r, cap, json_object_get_string(name));
    if (!f)
        return false;
    json_object *lines = get_array(jf, "lines"), *funcs = get_array(jf, "functions");
    for (size_t i = 0; lines && i < json_object_array_length(lines); i++) {
        json_object *l = json_object_array_get_idx(lines, i), *br = get_array(l, "branches");
        long long cnt = get_int(l, "count");
        replay_line *ln = first >= 0 || detail ? line_entry(f, get_int(l, "line_number")) : NULL;
        if (first >= 0) {
            if (ln && cnt > 0 && ln->first_test < 0)
                ln->first_test = first;
            continue;
        }
        f->lines++;
        f->lines_covered += cnt > 0;
        if (ln) {
            ln->code = true;
            ln->count += (unsigned long long)(cnt > 0 ? cnt : 0);
        }
        for (size_t k = 0; br && k < json_object_array_length(br); k++) {
            bool taken = get_int(json_object_array_get_idx(br, k), "count") > 0;
            f->branches++;
            f->branches_covered += taken;
            if (ln) {
                ln->branches++;
                ln->branches_covered += taken;
            }
        }
    }
    if (first >= 0)
        return true;
    for (size_t i = 0; funcs && i < json_object_array_length(funcs); i++) {
        json_object *fn = json_object_array_get_idx(funcs, i), *fname;
        if (json_object_object_get_ex(fn, "name", &fname) &&
            !strcmp(json_object_get_string(fname), "reach_error")) {
            r->reach_error_defined = true;
            r->reach_error_calls += (unsigned long)get_int(fn, "execution_count");
        }
    }
    return true;
}

/* Runs gcov on one object and adds its counts to r (first: see
 * add_gcov_file). */
static bool gcov_object(replay_ctx *c, const char *obj, size_t *cap, int first, ctg_err *e)
{
    sbuf out = SBUF_INIT, err = SBUF_INIT;
    proc_opts po = {0};
    po.cwd = c->work;
    po.out = &out;
    po.err = &err;
    char *argv[] = {(char *)(c->o->gcov ? c->o->gcov : "gcov"), "-b", "--json-format", "--stdout",
                    (char *)obj, NULL};
    proc_result pr;
    bool ok = proc_run(argv, &po, &pr, e);
    json_object *root = ok ? json_tokener_parse(sbuf_str(&out)) : NULL;
    json_object *files = root ? get_array(root, "files") : NULL;
    if (ok && !files) {
        char line[300];
        first_error(&err, line, sizeof line);
        ok = err_set(e, "%s: gcov gave no JSON coverage (%s); check that gcov matches gcc", obj, line);
    }
    for (size_t i = 0; ok && i < json_object_array_length(files); i++)
        if (!add_gcov_file(c->r, cap, json_object_array_get_idx(files, i), first,
                           c->o->line_detail))
            ok = err_set(e, "%s: out of memory", c->work);
    json_object_put(root);
    sbuf_release(&out);
    sbuf_release(&err);
    return ok;
}

/* Collects coverage of every object and the totals. */
static bool collect_coverage(replay_ctx *c, ctg_err *e)
{
    replay_result *r = c->r;
    for (int i = 0; i < c->o->n_sources; i++)
        if (!gcov_object(c, c->objs[i], &c->files_cap, -1, e))
            return false;
    for (size_t i = 0; i < r->n_files; i++) {
        r->branches += r->files[i].branches;
        r->branches_covered += r->files[i].branches_covered;
        r->lines += r->files[i].lines;
        r->lines_covered += r->files[i].lines_covered;
    }
    for (size_t i = 0; i < r->n_tests; i++) {
        r->n_outcome[r->tests[i].outcome]++;
        r->error_reached |= r->tests[i].reached_error;
    }
    r->error_reached |= r->reach_error_calls > 0;
    return true;
}

/* ==== exports: lcov, Cobertura ============================================== */

/* Directory of the first source (gcovr's root: reports name files under
 * it), as a new string; NULL on oom. */
static char *source_root(const replay_ctx *c)
{
    char *abs = fs_realpath(c->o->sources[0], NULL);
    if (!abs)
        return NULL;
    char *slash = strrchr(abs, '/');
    if (slash)
        *(slash == abs ? slash + 1 : slash) = '\0';
    return abs;
}

/* Writes the gcov data of the replay as an lcov tracefile and / or
 * Cobertura XML, with the Debian tools that read gcov data (lcov, gcovr):
 * their formats have quirks (branch blocks, line hit rules) that consumers
 * expect exactly as these tools write them. */
/* True when path can be written (created empty); e names it otherwise. */
static bool writable(const char *path, ctg_err *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return err_sys(e, "%s: cannot write the coverage report; choose a writable path", path);
    fclose(f);
    return true;
}

static bool export_coverage(replay_ctx *c, ctg_err *e)
{
    const char *gcov = c->o->gcov ? c->o->gcov : "gcov";
    if ((c->o->lcov_file && !writable(c->o->lcov_file, e)) ||
        (c->o->cobertura_file && !writable(c->o->cobertura_file, e)))
        return false;
    if (c->o->lcov_file) {
        char *argv[] = {"lcov", "--quiet", "--capture", "--rc", "lcov_branch_coverage=1",
                        "--gcov-tool", (char *)gcov, "--directory", c->work,
                        "--output-file", (char *)c->o->lcov_file, NULL};
        if (!run_tool(argv, c->o->lcov_file, "lcov could not write the tracefile",
                      "; is Debian's lcov installed (apt-get install lcov)?", e))
            return false;
    }
    if (c->o->cobertura_file) {
        char *root = source_root(c);
        if (!root)
            return err_set(e, "%s: out of memory", c->what);
        char *argv[] = {"gcovr", "--root", root, "--gcov-executable", (char *)gcov,
                        "--cobertura", (char *)c->o->cobertura_file, c->work, NULL};
        bool ok = run_tool(argv, c->o->cobertura_file, "gcovr could not write the Cobertura XML",
                           "; is Debian's gcovr installed (apt-get install gcovr)?", e);
        ctg_free(root);
        if (!ok)
            return false;
    }
    return true;
}

/* ==== the whole replay ===================================================== */

static void ctx_release(replay_ctx *c)
{
    for (size_t i = 0; c->tcs && i < c->n_cases; i++)
        suite_testcase_release(&c->tcs[i]);
    ctg_free(c->tcs);
    suite_free_list(c->cases, c->n_cases);
    if (c->names)
        suite_free_list(c->names, c->n_cases);
    for (int i = 0; c->objs && i < c->o->n_sources; i++)
        ctg_free(c->objs[i]);
    ctg_free(c->objs);
    if (c->work_is_tmp && c->work)
        fs_rm_rf(c->work, NULL);
    ctg_free(c->work);
    ctg_free(c->suite_dir);
    for (size_t i = 1; c->argv && c->argv[i]; i++)
        ctg_free(c->argv[i]);
    ctg_free(c->argv);
    ctg_free(c->binary);
    ctg_free(c->status);
    if (c->scratch)
        fs_rm_rf(c->scratch, NULL);
    ctg_free(c->scratch);
}

/* Appends a copy of s to the NULL-terminated c->argv (slot 0 is the
 * binary's, filled when a test runs). */
static bool push_arg(replay_ctx *c, size_t *n, const char *s, size_t len)
{
    char **a = ctg_realloc(c->argv, (*n + 2) * sizeof *a);
    if (!a)
        return false;
    c->argv = a;
    if (!(a[*n] = ctg_malloc(len + 1)))
        return false;
    memcpy(a[*n], s, len);
    a[*n][len] = '\0';
    a[++*n] = NULL;
    return true;
}

/* How a test reaches the program: the arguments (given, else those the
 * run recorded in stats.json - next to test-suite/, or next to a corpus
 * directory OUT/corpus) and whether its bytes are fed as stdin or as the
 * file "@@" names (the kind the run recorded feeds them, target.h, or an
 * argument is "@@"). */
static bool input_setup(replay_ctx *c, ctg_err *e)
{
    const replay_opts *o = c->o;
    size_t n = 1;
    if (!(c->argv = ctg_calloc(2, sizeof *c->argv)))
        return err_set(e, "%s: out of memory", c->what);
    char *stats = NULL;
    if (o->n_corpus == 0)
        stats = fs_join(o->out_dir, "stats.json");
    else
        stats = fs_join(o->corpus[0], "../stats.json");
    ctg_err se = {{0}}; /* no readable stats.json: nothing recorded */
    stats_t *st = stats && fs_exists(stats) ? stats_load(stats, &se) : NULL;
    ctg_free(stats);
    const char *kind = st ? stats_get_info(st, "input") : NULL;
    const char *rec = st ? stats_get_info(st, "args") : NULL;
    const target_kind *k = kind ? target_by_input(kind) : NULL;
    c->feed = k && k->feed;
    bool ok = true;
    for (int i = 0; ok && i < o->n_args; i++) {
        ok = push_arg(c, &n, o->args[i], strlen(o->args[i]));
        c->feed |= !strcmp(o->args[i], "@@");
    }
    const char *arg;
    size_t len;
    for (const char *p = rec; ok && o->n_args == 0 && stats_next_arg(&p, &arg, &len);)
        ok = push_arg(c, &n, arg, len);
    stats_free(st);
    return ok || err_set(e, "%s: out of memory", c->what);
}

bool replay_suite(const replay_opts *o, replay_result *r, ctg_err *e)
{
    memset(r, 0, sizeof *r);
    replay_ctx c = {0};
    c.o = o;
    c.r = r;
    c.what = o->n_corpus > 0 ? o->corpus[0] : o->out_dir;
    bool ok = (o->n_corpus > 0 ? load_corpus(&c, e) : load_suite(&c, e)) &&
              input_setup(&c, e) && (c.arch != 32 || host_exec32(NULL, e)) && make_work_dir(&c, e) &&
              build(&c, e);
    r->arch_bits = c.arch;
    if (ok) {
        r->tests = ctg_calloc(c.n_cases + 1, sizeof *r->tests);
        ok = r->tests || err_set(e, "%s: out of memory", c.what);
    }
    for (size_t i = 0; ok && i < c.n_cases; i++) {
        ok = run_test(&c, i, e);
        r->n_tests = i + 1;
        for (int k = 0; ok && o->line_detail && k < o->n_sources; k++)
            ok = gcov_object(&c, c.objs[k], &c.files_cap, (int)i, e);
    }
    ok = ok && collect_coverage(&c, e) && export_coverage(&c, e);
    ctx_release(&c);
    return ok;
}

void replay_result_release(replay_result *r)
{
    for (size_t i = 0; i < r->n_tests; i++)
        ctg_free(r->tests[i].name);
    for (size_t i = 0; i < r->n_files; i++) {
        ctg_free(r->files[i].path);
        ctg_free(r->files[i].line);
    }
    for (size_t i = 0; i < r->n_bad; i++)
        ctg_free(r->bad[i]);
    ctg_free(r->bad);
    ctg_free(r->tests);
    ctg_free(r->files);
    memset(r, 0, sizeof *r);
}

/* ==== one test at a time ==================================================== */

struct replay_session {
    replay_opts o;
    replay_result r;
    replay_ctx c;
    char *path;           /* the testcase file replay_one writes */
    char *cases[1];
    suite_testcase tcs[1];
    replay_test tests[1];
};

replay_session *replay_open(const replay_opts *o, ctg_err *e)
{
    replay_session *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "%s: out of memory", o->out_dir ? o->out_dir : "replay");
        return NULL;
    }
    s->o = *o;
    s->o.n_corpus = 0;
    s->c.o = &s->o;
    s->c.r = &s->r;
    s->c.session = true;
    s->c.what = o->out_dir ? o->out_dir : o->n_sources > 0 ? o->sources[0] : "replay";
    s->c.arch = s->r.arch_bits = o->arch_bits ? o->arch_bits : 64;
    bool ok = o->out_dir && input_setup(&s->c, e) && (s->c.arch != 32 || host_exec32(NULL, e)) &&
              make_work_dir(&s->c, e) && build(&s->c, e);
    if (ok && !(s->path = fs_join(s->c.work, "check.xml")))
        ok = err_set(e, "%s: out of memory", s->c.what);
    if (!ok && !o->out_dir)
        err_set(e, "replay: no output directory given");
    if (!ok) {
        replay_close(s);
        return NULL;
    }
    return s;
}

bool replay_one(replay_session *s, const struct test *t, bool covers_error, replay_test *out,
                ctg_err *e)
{
    memset(out, 0, sizeof *out);
    replay_ctx *c = &s->c;
    memset(s->tcs, 0, sizeof s->tcs);
    if (!suite_write_testcase(s->path, t, covers_error, e) ||
        !suite_parse_testcase(s->path, &s->tcs[0], e))
        return false;
    memset(s->tests, 0, sizeof s->tests);
    s->cases[0] = s->path;
    c->cases = s->cases, c->tcs = s->tcs, c->n_cases = 1;
    s->r.tests = s->tests, s->r.n_tests = 1;
    bool ok = run_test(c, 0, e);
    *out = s->tests[0];
    if (!ok) {
        ctg_free(out->name);
        out->name = NULL;
    }
    suite_testcase_release(&s->tcs[0]);
    c->cases = NULL, c->tcs = NULL, c->n_cases = 0;
    s->r.tests = NULL, s->r.n_tests = 0;
    return ok;
}

void replay_close(replay_session *s)
{
    if (!s)
        return;
    ctx_release(&s->c);
    replay_result_release(&s->r);
    ctg_free(s->path);
    ctg_free(s);
}
