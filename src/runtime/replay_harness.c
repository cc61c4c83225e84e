/*
 * replay_harness.c - the test harness `ctestgen replay` links with the
 * program under test, compiled by gcc with --coverage (src/report/replay.c).
 * It is not part of ctestgen and not part of the fork-server runtime: it is
 * copied to <build>/rt/ and compiled at replay time, for -m32 or -m64.
 *
 * It does what TestCov's harness does, so the coverage it measures is the
 * coverage the Test-Comp validator would measure:
 *   - every __VERIFIER_nondet_T() reads the next line of the values file
 *     ($CTESTGEN_REPLAY_VALUES, else stdin) and parses it with sscanf and
 *     the format of T ("%d", "%hhu", "%lf", ...); a line starting with 0x is
 *     hex, a quoted character is accepted for char, up to three C suffix
 *     letters (5u, 1.5f) are ignored.  _Bool is read as int, pointer as
 *     unsigned long.  Deviation: size_t is read as unsigned long (TestCov:
 *     unsigned int), so 64-bit values above 2^32 replay as generated.
 *   - when the values run out the run ends (exit 0, noted "ranout"), as in
 *     TestCov; __VERIFIER_assume(0) ends it silently (exit 0, "assume").
 *   - __VERIFIER_error() and reach_error() (when the program does not
 *     define it) note "error" and exit; a reach_error the program defines
 *     is detected through -finstrument-functions (the function-entry hook
 *     compares the address).
 *   - stdin and @@ targets ($CTESTGEN_REPLAY_STDIN): every value is one byte
 *     (raw mode: the file), and the bytes become the program's stdin, or
 *     the file an argument "@@" is replaced with.
 *   - when the program has no main, a weak main reads every value as one
 *     byte and calls LLVMFuzzerTestOneInput (libFuzzer targets); with
 *     neither, it notes "nomain".
 *   - raw mode ($CTESTGEN_REPLAY_RAW names a raw input file, e.g. from an
 *     AFL++ queue): values are decoded as ctestgen's runtime decodes them
 *     (src/runtime/rt_nondet.c): the next sizeof(T) bytes, little endian;
 *     _Bool is the low bit of one byte; a value that does not fit is 0 and
 *     so is every later one (noted "ranout" once, the run goes on).  A
 *     libFuzzer target gets the whole file as its data.
 *   - coverage is flushed (__gcov_dump) before a fatal signal takes the
 *     process down; the signal is then re-raised so the parent sees it.
 *     When the per-run alarm ($CTESTGEN_REPLAY_TIMEOUT_MS) fires the run
 *     is killed WITHOUT flushing: the validator credits a test that times
 *     out with no coverage at all, and so does this replay.
 *   - fork() fails with EAGAIN (the program is linked with --wrap=fork), as
 *     in ctestgen's runs, so the suite replays the paths it was made on
 *     and a fork-happy program cannot flood the machine.
 * Events go, one per line, to the file named by $CTESTGEN_REPLAY_STATUS.
 * Every definition is weak, so a program that defines one itself wins.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))
#define NOINSTR __attribute__((no_instrument_function))

extern void __gcov_dump(void);

/* The program's calls of fork() (linked with -Wl,--wrap=fork). */
pid_t __wrap_fork(void);
__attribute__((no_instrument_function)) pid_t __wrap_fork(void)
{
    errno = EAGAIN;
    return -1;
}

static FILE *values;
static int status_fd = -1;
static char *line;
static size_t line_cap;

/* raw mode: the whole input file and the read position */
static int raw_mode;
static unsigned char *raw_buf;
static size_t raw_len, raw_pos;
static int raw_out; /* "ranout" noted */

/* ==== events ============================================================== */

/* Appends an event line to the status file (async-signal-safe). */
static NOINSTR void note(const char *what)
{
    if (status_fd >= 0) {
        ssize_t w = write(status_fd, what, strlen(what));
        (void)w;
    }
}

/* Flushes coverage, then lets the signal terminate the process. */
static NOINSTR void on_fatal(int sig)
{
    char buf[24] = "signal ";
    int n = 7;
    if (sig >= 10)
        buf[n++] = (char)('0' + sig / 10);
    buf[n++] = (char)('0' + sig % 10);
    buf[n++] = '\n';
    buf[n] = '\0';
    note(sig == SIGALRM ? "timeout\n" : buf);
    if (sig != SIGALRM)
        __gcov_dump();
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

static char alt_stack[1 << 18];

/* Installs the fatal-signal handlers (on an alternate stack, so stack
 * overflows are caught too) and the per-run alarm. */
static NOINSTR void install_handlers(void)
{
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, NULL);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGALRM,
                               SIGXCPU, SIGXFSZ, SIGTERM};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    const char *ms = getenv("CTESTGEN_REPLAY_TIMEOUT_MS");
    long t = ms ? atol(ms) : 0;
    if (t > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = t / 1000;
        it.it_value.tv_usec = (t % 1000) * 1000;
        setitimer(ITIMER_REAL, &it, NULL);
    }
}

/* Reads the raw input file of raw mode into raw_buf; false on failure. */
static NOINSTR int read_raw(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 4096;
    raw_buf = malloc(cap);
    for (size_t n; raw_buf && (n = fread(raw_buf + raw_len, 1, cap - raw_len, f)) > 0;) {
        raw_len += n;
        if (raw_len == cap && !(raw_buf = realloc(raw_buf, cap *= 2)))
            raw_len = 0;
    }
    int ok = raw_buf && !ferror(f);
    fclose(f);
    return ok;
}

static NOINSTR uint8_t *read_bytes(size_t *n);

/* stdin and @@ targets ($CTESTGEN_REPLAY_STDIN): the test's bytes (every
 * value one byte, or the raw file) as a file; an argument "@@" becomes its
 * path, else it becomes stdin - as ctestgen's runtime does (rt_main.c). */
static NOINSTR void feed_input(char **argv)
{
    size_t n = raw_len;
    uint8_t *data = raw_mode ? raw_buf : read_bytes(&n);
    int fd = memfd_create("ctestgen-input", 0);
    if (fd < 0 || (n && write(fd, data, n) != (ssize_t)n)) {
        fprintf(stderr, "ctestgen replay harness: cannot hold the input: %s\n", strerror(errno));
        note("badinput\n");
        _exit(2);
    }
    lseek(fd, 0, SEEK_SET);
    if (!raw_mode)
        free(data);
    int at = 0;
    static char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    for (char **a = argv; a && *a; a++)
        if (!strcmp(*a, "@@")) {
            *a = path;
            at = 1;
        }
    if (!at) {
        dup2(fd, 0);
        close(fd);
    }
}

/* glibc passes constructors main's arguments. */
static NOINSTR __attribute__((constructor)) void ctg_replay_init(int argc, char **argv)
{
    (void)argc;
    const char *st = getenv("CTESTGEN_REPLAY_STATUS");
    if (st)
        status_fd = open(st, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const char *raw = getenv("CTESTGEN_REPLAY_RAW");
    if (raw) {
        raw_mode = 1;
        if (!read_raw(raw)) {
            fprintf(stderr, "ctestgen replay harness: %s: %s\n", raw, strerror(errno));
            note("badinput\n");
            _exit(2);
        }
        install_handlers();
        if (getenv("CTESTGEN_REPLAY_STDIN"))
            feed_input(argv);
        return;
    }
    const char *in = getenv("CTESTGEN_REPLAY_VALUES");
    values = in ? fopen(in, "r") : stdin;
    if (!values) {
        fprintf(stderr, "ctestgen replay harness: %s: %s\n", in, strerror(errno));
        note("badinput\n");
        _exit(2);
    }
    install_handlers();
    if (getenv("CTESTGEN_REPLAY_STDIN"))
        feed_input(argv);
}

/* ==== reading values ====================================================== */

/* The next value line without its newline; ends the run when none is left. */
static NOINSTR char *next_value(void)
{
    ssize_t n = getline(&line, &line_cap, values);
    if (n < 0) {
        fprintf(stderr, "ctestgen replay harness: no more test inputs, exiting\n");
        note("ranout\n");
        exit(0);
    }
    if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    if (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
    return line;
}

static NOINSTR void bad_input(const char *text, const char *fmt)
{
    fprintf(stderr, "ctestgen replay harness: cannot parse input '%s' with %s\n", text, fmt);
    note("badinput\n");
    exit(0);
}

/* Parses text with a scanf conversion into dst as TestCov does: hex after
 * 0x, quotes around a character stripped, leftovers other than C suffix
 * letters rejected. */
static NOINSTR void parse_value(char *text, const char *fmt, void *dst, size_t size)
{
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') && fmt[strlen(fmt) - 1] != 'f') {
        char *end;
        unsigned long long u = strtoull(text, &end, 16);
        if (end == text + 2 || strspn(end, "uUlL") != strlen(end) || strlen(end) > 3)
            bad_input(text, fmt);
        memcpy(dst, &u, size); /* little endian: the low bytes */
        return;
    }
    size_t n = strlen(text);
    if (n >= 2 && (text[0] == '\'' || text[0] == '"')) {
        text[n - 1] = '\0';
        text++;
    }
    char full[16], left[4];
    snprintf(full, sizeof full, "%s%%c%%c%%c%%c", fmt);
    int filled = sscanf(text, full, dst, &left[0], &left[1], &left[2], &left[3]);
    if (filled <= 0 || filled == 5)
        bad_input(text, fmt);
    for (int i = 0; i < filled - 1; i++)
        if (!strchr("lLuUfF", left[i]))
            bad_input(text, fmt);
}

/* Raw mode: the next size bytes into dst (little endian: the targets are);
 * zeros once a value does not fit, and then for good, as in the runtime. */
static NOINSTR void raw_take(void *dst, size_t size)
{
    if (size > raw_len - raw_pos) {
        memset(dst, 0, size);
        if (!raw_out)
            note("ranout\n");
        raw_out = 1;
        raw_len = raw_pos; /* exhausted: no later, smaller value takes the rest */
        return;
    }
    memcpy(dst, raw_buf + raw_pos, size);
    raw_pos += size;
}

#define NONDET(T, name, fmt)                                                                       \
    WEAK NOINSTR T __VERIFIER_nondet_##name(void)                                                  \
    {                                                                                              \
        T v = 0;                                                                                   \
        if (raw_mode)                                                                              \
            raw_take(&v, sizeof v);                                                                \
        else                                                                                       \
            parse_value(next_value(), fmt, &v, sizeof v);                                          \
        return v;                                                                                  \
    }

WEAK NOINSTR char __VERIFIER_nondet_char(void)
{
    char v = 0;
    if (raw_mode) {
        raw_take(&v, 1);
        return v;
    }
    char *t = next_value();
    if (t[0] == '\'' && strlen(t) == 3)
        v = t[1];
    else
        parse_value(t, "%hhd", &v, sizeof v);
    return v;
}

NONDET(unsigned char, uchar, "%hhu")
NONDET(short, short, "%hd")
NONDET(unsigned short, ushort, "%hu")
NONDET(int, int, "%d")
NONDET(unsigned int, uint, "%u")
NONDET(long, long, "%ld")
NONDET(unsigned long, ulong, "%lu")
NONDET(long long, longlong, "%lld")
NONDET(unsigned long long, ulonglong, "%llu")
NONDET(float, float, "%f")
NONDET(double, double, "%lf")
NONDET(size_t, size_t, "%zu")

WEAK NOINSTR _Bool __VERIFIER_nondet_bool(void)
{
    unsigned char b = 0;
    if (!raw_mode)
        return (_Bool)__VERIFIER_nondet_int();
    raw_take(&b, 1);
    return b & 1u;
}
WEAK NOINSTR void *__VERIFIER_nondet_pointer(void) { return (void *)__VERIFIER_nondet_ulong(); }

/* Aliases found in SV-COMP programs: the same set as the runtime's
 * (src/runtime/rt_nondet.c), read with the format of their base type. */
#define ALIAS(T, name, base)                                                                       \
    WEAK NOINSTR T __VERIFIER_nondet_##name(void) { return (T)__VERIFIER_nondet_##base(); }

ALIAS(unsigned int, unsigned, uint)
ALIAS(unsigned int, unsigned_int, uint)
ALIAS(unsigned char, unsigned_char, uchar)
ALIAS(char *, pchar, pointer)
ALIAS(long long, loff_t, longlong)
ALIAS(unsigned long long, sector_t, ulonglong)
ALIAS(unsigned long long, u64, ulonglong)
ALIAS(unsigned int, u32, uint)
ALIAS(unsigned short, u16, ushort)
ALIAS(unsigned char, u8, uchar)
ALIAS(long long, s64, longlong)
ALIAS(int, s32, int)
ALIAS(short, s16, short)
ALIAS(signed char, s8, char)
ALIAS(unsigned long, pthread_t, ulong)

WEAK NOINSTR void __VERIFIER_atomic_begin(void) {}
WEAK NOINSTR void __VERIFIER_atomic_end(void) {}

/* ==== assumptions and errors =============================================== */

WEAK NOINSTR void __VERIFIER_assume(int cond)
{
    if (!cond) {
        note("assume\n");
        exit(0);
    }
}

WEAK NOINSTR void __VERIFIER_error(void)
{
    note("error\n");
    exit(86);
}

/* Used only when the program calls reach_error without defining it. */
WEAK NOINSTR void reach_error(void) { __VERIFIER_error(); }

/* -finstrument-functions hooks: notice the program's own reach_error. */
NOINSTR void __cyg_profile_func_enter(void *fn, void *site);
NOINSTR void __cyg_profile_func_exit(void *fn, void *site);

NOINSTR void __cyg_profile_func_enter(void *fn, void *site)
{
    static int noted;
    (void)site;
    if (!noted && fn == (void *)reach_error) {
        noted = 1;
        note("error\n");
    }
}

NOINSTR void __cyg_profile_func_exit(void *fn, void *site)
{
    (void)fn;
    (void)site;
}

/* ==== libFuzzer targets ==================================================== */

extern int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) WEAK;
extern int LLVMFuzzerInitialize(int *argc, char ***argv) WEAK;

/* Reads every remaining value as one byte. */
static NOINSTR uint8_t *read_bytes(size_t *n)
{
    size_t cap = 4096;
    uint8_t *buf = malloc(cap);
    *n = 0;
    while (buf && getline(&line, &line_cap, values) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        unsigned char b = 0;
        if (line[0] == '\'' && strlen(line) == 3)
            b = (unsigned char)line[1];
        else
            parse_value(line, "%hhu", &b, 1);
        if (*n == cap && !(buf = realloc(buf, cap *= 2)))
            break;
        buf[(*n)++] = b;
    }
    return buf;
}

WEAK NOINSTR int main(int argc, char **argv)
{
    if (!LLVMFuzzerTestOneInput) {
        fprintf(stderr, "ctestgen replay harness: the program defines neither main nor "
                        "LLVMFuzzerTestOneInput\n");
        note("nomain\n");
        return 3;
    }
    size_t n = raw_len;
    uint8_t *data = raw_mode ? raw_buf : read_bytes(&n);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    LLVMFuzzerTestOneInput(data ? data : (const uint8_t *)"", data ? n : 0);
    if (!raw_mode)
        free(data);
    return 0;
}
