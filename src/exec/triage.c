/*
 * triage.c - a crash's kind, place and identity from one more run (see
 * triage.h).
 */
#include "triage.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/hash.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"
#include "../runtime/rt_protocol.h"

#define REPORT_CAP (64u * 1024u) /* bytes of a report kept */

/* The sanitizers' options of a triage run: the report symbolised, with
 * UBSan's stack, ending in abort; ctestgen's handler keeps the signals. */
#define TRIAGE_ASAN                                                                            \
    "ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:symbolize=1:handle_segv=0:handle_sigbus=0:"  \
    "handle_sigfpe=0:handle_sigill=0:allocator_may_return_null=1:detect_odr_violation=0:"      \
    "external_symbolizer_path=" CTG_LLVM_BINDIR "/llvm-symbolizer"
#define TRIAGE_UBSAN                                                                           \
    "UBSAN_OPTIONS=abort_on_error=1:halt_on_error=1:print_stacktrace=1:symbolize=1:"           \
    "external_symbolizer_path=" CTG_LLVM_BINDIR "/llvm-symbolizer"

void triage_release(triage_info *t)
{
    if (!t)
        return;
    ctg_free(t->report);
    memset(t, 0, sizeof *t);
}

/* ==== parsing ================================================================ */

/* UBSan's messages and the kind each one is (the check's name). */
static const struct {
    const char *prefix, *kind;
} ub_kinds[] = {
    {"signed integer overflow", "signed-integer-overflow"},
    {"unsigned integer overflow", "unsigned-integer-overflow"},
    {"negation of", "signed-integer-overflow"},
    {"division by zero", "integer-divide-by-zero"},
    {"division of", "signed-integer-overflow"},
    {"shift exponent", "shift-exponent"},
    {"left shift", "shift-base"},
    {"load of null pointer", "null-pointer"},
    {"store to null pointer", "null-pointer"},
    {"member access within null pointer", "null-pointer"},
    {"applying", "pointer-overflow"},
    {"pointer index expression", "pointer-overflow"},
    {"addition of unsigned offset", "pointer-overflow"},
    {"subtraction of unsigned offset", "pointer-overflow"},
    {"load of misaligned address", "misaligned-access"},
    {"store to misaligned address", "misaligned-access"},
    {"member access within misaligned address", "misaligned-access"},
    {"index", "array-out-of-bounds"},
    {"execution reached an unreachable", "unreachable"},
    {"load of value", "invalid-value-load"},
    {"null pointer passed", "nonnull-attribute"},
    {"variable length array bound", "vla-bound"},
    {NULL, NULL},
};

/* Copies at most n bytes of s into dst (cap bytes), NUL-terminated. */
static void copy_n(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

/* ASan's kind from the text after "AddressSanitizer: ". */
static void asan_kind(const char *p, char *kind, size_t cap)
{
    if (!strncmp(p, "attempting ", 11))
        p += 11;
    size_t n = strcspn(p, " :(\n");
    copy_n(kind, cap, p, n);
    for (char *k = kind; *k; k++)
        *k = *k >= 'A' && *k <= 'Z' ? (char)(*k - 'A' + 'a') : *k;
}

/* UBSan's kind from the message after "runtime error: ". */
static void ubsan_kind(const char *msg, char *kind, size_t cap)
{
    for (int i = 0; ub_kinds[i].prefix; i++)
        if (!strncmp(msg, ub_kinds[i].prefix, strlen(ub_kinds[i].prefix))) {
            snprintf(kind, cap, "%s", ub_kinds[i].kind);
            return;
        }
    snprintf(kind, cap, "undefined-behavior");
}

/* The kind of a death by signal sig. */
static void signal_kind(int sig, char *kind, size_t cap)
{
    const char *k = sig == SIGSEGV ? "segv" : sig == SIGFPE ? "fpe" : sig == SIGABRT ? "abort"
                  : sig == SIGBUS  ? "bus"  : sig == SIGILL ? "ill"
                                            : "signal";
    snprintf(kind, cap, "%s", k);
}

/* True for frames that are not the program's: ctestgen's runtime (its
 * functions, its sources), the sanitizers' interceptors and runtime,
 * libc's start. */
static bool foreign_frame(const char *func, const char *file)
{
    if (!strncmp(file, CTG_RUNTIME_SRC, strlen(CTG_RUNTIME_SRC)))
        return true;
    static const char *const pre[] = {"__ctg_", "__asan", "__interceptor_", "__ubsan",
                                      "__sanitizer", "__libc_start", "_start", "__GI_", NULL};
    for (int i = 0; pre[i]; i++)
        if (!strncmp(func, pre[i], strlen(pre[i])))
            return true;
    return false;
}

/* Parses one stack line "    #N 0xADDR in FUNC FILE:LINE[:COL]" (or "in
 * FUNC (BIN+0xOFF)") into f; false when it is not one. */
static bool parse_frame(const char *line, triage_frame *f)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '#')
        return false;
    const char *in = strstr(p, " in ");
    const char *nl = strchr(p, '\n');
    if (!in || (nl && in > nl))
        return false;
    memset(f, 0, sizeof *f);
    p = in + 4;
    size_t n = strcspn(p, " \n");
    copy_n(f->func, sizeof f->func, p, n);
    p += n;
    if (*p != ' ' || p[1] == '(')
        return true;
    p++;
    n = strcspn(p, " \n");
    char loc[600];
    copy_n(loc, sizeof loc, p, n);
    char *c2 = strrchr(loc, ':'), *c1 = NULL;
    if (c2 && c2 > loc) {
        *c2 = 0;
        c1 = strrchr(loc, ':');
        if (c1 && strspn(c1 + 1, "0123456789") == strlen(c1 + 1) && c1[1]) {
            *c1 = 0;
            f->line = atoi(c1 + 1), f->col = atoi(c2 + 1);
        } else
            f->line = atoi(c2 + 1);
    }
    copy_n(f->file, sizeof f->file, loc, strlen(loc));
    return true;
}

/* The first stack of text from p on: its program frames into t->top. */
static void take_frames(const char *p, triage_info *t)
{
    bool seen = false;
    for (const char *line = p; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        triage_frame f;
        if (!parse_frame(line, &f)) {
            if (seen && t->n_top > 0)
                return; /* the end of the first stack */
            continue;
        }
        seen = true;
        if (!strcmp(f.func, "__ctg_user_main")) /* the program's main, renamed */
            snprintf(f.func, sizeof f.func, "main");
        if (!foreign_frame(f.func, f.file) && t->n_top < TRIAGE_FRAMES)
            t->top[t->n_top++] = f;
    }
}

/* t->key from the kind and the top frames (function, file's base name, line). */
static void make_key(triage_info *t)
{
    uint64_t h = hash_mix64(0x6374676275677321ull);
    for (const char *k = t->kind; *k; k++)
        h = hash_combine64(h, (unsigned char)*k);
    for (int i = 0; i < t->n_top; i++) {
        const char *base = strrchr(t->top[i].file, '/');
        base = base ? base + 1 : t->top[i].file;
        for (const char *s = t->top[i].func; *s; s++)
            h = hash_combine64(h, (unsigned char)*s);
        for (const char *s = base; *s; s++)
            h = hash_combine64(h, (unsigned char)*s);
        h = hash_combine64(h, (uint64_t)t->top[i].line);
    }
    t->key = h ? h : 1;
}

void triage_parse(const char *text, int sig, triage_info *t)
{
    t->n_top = 0;
    t->key = 0;
    const char *a = strstr(text, "ERROR: AddressSanitizer: ");
    const char *u = strstr(text, "runtime error: ");
    if (a) {
        asan_kind(a + strlen("ERROR: AddressSanitizer: "), t->kind, sizeof t->kind);
        take_frames(a, t);
    } else if (u) {
        ubsan_kind(u + strlen("runtime error: "), t->kind, sizeof t->kind);
        take_frames(u, t);
    } else if (strstr(text, "#0 ")) {
        signal_kind(sig, t->kind, sizeof t->kind);
        take_frames(text, t);
    } else
        return;
    make_key(t);
}

void triage_where(const triage_info *t, char *buf, size_t cap)
{
    if (t->n_top == 0) {
        snprintf(buf, cap, "an unknown place");
        return;
    }
    const triage_frame *f = &t->top[0];
    if (f->line)
        snprintf(buf, cap, "%s at %s:%d", f->func, f->file, f->line);
    else
        snprintf(buf, cap, "%s", f->func);
}

/* ==== the run ================================================================ */

/* "ctestgen-frames: SIG 0xA 0xB ..." in err, symbolised into "#K 0xOFF in
 * FUNC FILE:LINE:COL" lines appended to out (inlined frames each); the
 * signal into *sig. */
static void symbolise_frames(const triage_opts *o, const char *err, sbuf *out, int *sig)
{
    const char *p = strstr(err, "ctestgen-frames: ");
    if (!p)
        return;
    p += strlen("ctestgen-frames: ");
    *sig = atoi(p);
    char *argv[24] = {CTG_LLVM_BINDIR "/llvm-symbolizer", "--obj", (char *)o->binary};
    char addr[16][24];
    int n = 3, k = 0;
    for (p = strchr(p, ' '); p && p[1] == '0' && k < 16; p = strchr(p + 1, ' '), k++) {
        unsigned long long off = strtoull(p + 1, NULL, 16);
        snprintf(addr[k], sizeof addr[k], "0x%llx", off ? off - 1 : 0);
        argv[n++] = addr[k];
    }
    argv[n] = NULL;
    sbuf sym = SBUF_INIT;
    proc_opts po = {.out = &sym, .timeout_s = 30};
    proc_result r;
    ctg_err ignored = {{0}};
    if (k && proc_run(argv, &po, &r, &ignored)) {
        int frame = 0;
        char *s = sym.data ? sym.data : (char *)"";
        sbuf_printf(out, "%s (signal %d); the stack (ctestgen's runtime left out):\n",
                    strsignal(*sig), *sig);
        for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
            char *loc = strtok(NULL, "\n");
            if (loc && !strncmp(loc, CTG_RUNTIME_SRC, strlen(CTG_RUNTIME_SRC)))
                continue;
            sbuf_printf(out, "    #%d in %s %s\n", frame++,
                        strcmp(line, "__ctg_user_main") ? line : "main", loc ? loc : "??:0");
        }
    }
    sbuf_release(&sym);
}

/* Writes the input to work_dir/triage-input (absolute: the run's working
 * directory is work_dir; ctg_free), or NULL. */
static char *write_input(const triage_opts *o, const uint8_t *in, size_t len, ctg_err *e)
{
    char *dir = fs_realpath(o->work_dir ? o->work_dir : ".", e);
    char *path = dir ? fs_join(dir, "triage-input") : NULL;
    ctg_free(dir);
    if (!path || !fs_write_atomic(path, in, len, e)) {
        ctg_free(path);
        return NULL;
    }
    return path;
}

bool triage_run(const triage_opts *o, const uint8_t *in, size_t len, triage_info *t, ctg_err *e)
{
    memset(t, 0, sizeof *t);
    char *path = write_input(o, in, len, e);
    if (!path)
        return false;
    sbuf env = SBUF_INIT, err = SBUF_INIT, text = SBUF_INIT;
    sbuf_printf(&env, "%s=%s", CTG_ENV_INPUT, path);
    char *envs[] = {env.data, TRIAGE_ASAN, TRIAGE_UBSAN, NULL};
    char **argv = ctg_calloc((size_t)o->n_args + 2, sizeof *argv);
    bool ok = argv && sbuf_ok(&env);
    if (ok) {
        argv[0] = (char *)o->binary;
        for (int i = 0; i < o->n_args; i++)
            argv[i + 1] = (char *)o->args[i];
        proc_opts po = {.err = &err, .cwd = o->work_dir, .timeout_s = o->timeout_s,
                        .env_add = envs, .mem_limit_mb = o->sanitizer ? 0 : o->mem_limit_mb,
                        .contain_group = true};
        proc_result r;
        ok = proc_run(argv, &po, &r, e);
        int sig = ok && !r.exited ? r.signal : 0;
        for (const char *p = sbuf_str(&err); *p;) { /* the frames line: symbolised below */
            size_t n = strcspn(p, "\n");
            if (strncmp(p, "ctestgen-frames: ", 17))
                sbuf_printf(&text, "%.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
        symbolise_frames(o, sbuf_str(&err), &text, &sig);
        if (ok && (sig || strstr(sbuf_str(&text), "runtime error: ")))
            triage_parse(sbuf_str(&text), sig, t);
        if (t->key && text.len)
            t->report = ctg_strdup(text.len > REPORT_CAP ? text.data + text.len - REPORT_CAP
                                                         : text.data);
    } else
        err_set(e, "out of memory while looking at a crash");
    unlink(path);
    ctg_free(path);
    ctg_free(argv);
    sbuf_release(&env), sbuf_release(&err), sbuf_release(&text);
    return ok;
}
