/*
 * ccflags.c - the meaning of compiler and linker flags (see ccflags.h).
 *
 * One table: a flag is matched by its prefix (or exactly), the first match
 * wins, so the more specific entries come first (-Wl, before -W, -fsanitize=
 * before -f).
 */
#include "ccflags.h"

#include <string.h>

typedef struct ccf_rule {
    const char *prefix;
    bool exact;      /* the whole argument, not a prefix            */
    bool split;      /* the exact prefix alone takes the next argument */
    ccf_kind kind;
    const char *why; /* CCF_IGNORE: why                              */
} ccf_rule;

static const ccf_rule rules[] = {
    {"-f", true, false, CCF_NONE, NULL}, /* ctestgen's --force */
    {"-m32", true, false, CCF_ARCH, NULL},
    {"-m64", true, false, CCF_ARCH, NULL},
    {"-I", false, true, CCF_COMPILE, NULL},
    {"-D", false, true, CCF_COMPILE, NULL},
    {"-U", false, true, CCF_COMPILE, NULL},
    {"-include", false, true, CCF_COMPILE, NULL},
    {"-isystem", false, true, CCF_COMPILE, NULL},
    {"-iquote", false, true, CCF_COMPILE, NULL},
    {"-idirafter", false, true, CCF_COMPILE, NULL},
    {"-std=", false, false, CCF_COMPILE, NULL},
    {"-ansi", true, false, CCF_COMPILE, NULL},
    {"-l", false, true, CCF_LINK, NULL},
    {"-L", false, true, CCF_LINK, NULL},
    {"-Wl,", false, false, CCF_LINK, NULL},
    {"-static", true, false, CCF_IGNORE, "the engine's binaries link dynamically"},
    {"-rdynamic", true, false, CCF_LINK, NULL},
    {"-pthread", true, false, CCF_BOTH, NULL},
    {"-fsanitize=", false, false, CCF_SANITIZE, NULL},
    {"-fno-sanitize", false, false, CCF_IGNORE, "ctestgen picks the sanitizer checks (--sanitize)"},
    {"-fsanitize-", false, false, CCF_IGNORE, "ctestgen picks the sanitizer checks (--sanitize)"},
    {"-fprofile-", false, false, CCF_IGNORE, "ctestgen measures coverage itself"},
    {"-fcoverage-", false, false, CCF_IGNORE, "ctestgen measures coverage itself"},
    {"-ftest-coverage", true, false, CCF_IGNORE, "ctestgen measures coverage itself"},
    {"--coverage", true, false, CCF_IGNORE, "ctestgen measures coverage itself"},
    {"-flto", false, false, CCF_IGNORE, "ctestgen links the bitcode itself"},
    {"-fembed-bitcode", false, false, CCF_IGNORE, "ctestgen keeps the bitcode itself"},
    {"-f", false, false, CCF_COMPILE, NULL},
    {"-march=", false, false, CCF_COMPILE, NULL},
    {"-mtune=", false, false, CCF_COMPILE, NULL},
    {"-m", false, false, CCF_COMPILE, NULL},
    {"-O", false, false, CCF_IGNORE,
     "the engine picks its own optimisation levels and the replay uses -O0, as TestCov"},
    {"-W", false, false, CCF_IGNORE, "warnings do not change the program"},
    {"-w", true, false, CCF_IGNORE, "warnings do not change the program"},
    {"-pedantic", false, false, CCF_IGNORE, "warnings do not change the program"},
    {"-g", false, false, CCF_IGNORE, "ctestgen adds the debug information it needs"},
    {"-pipe", true, false, CCF_IGNORE, "it only changes how the compiler runs"},
    {"-c", true, false, CCF_IGNORE, "ctestgen compiles and links the program itself"},
    {"-S", true, false, CCF_IGNORE, "ctestgen compiles and links the program itself"},
    {"-E", true, false, CCF_IGNORE, "ctestgen compiles and links the program itself"},
    {NULL, false, false, CCF_NONE, NULL},
};

/* The rule that matches a, or NULL. */
static const ccf_rule *rule_of(const char *a)
{
    if (!a || a[0] != '-' || !a[1])
        return NULL;
    for (const ccf_rule *r = rules; r->prefix; r++) {
        size_t n = strlen(r->prefix);
        if (r->exact ? !strcmp(a, r->prefix) : !strncmp(a, r->prefix, n))
            return r;
    }
    return NULL;
}

ccf_kind ccf_classify(const char *a, const char *next, int *n_args)
{
    *n_args = 1;
    const ccf_rule *r = rule_of(a);
    if (!r || r->kind == CCF_NONE)
        return CCF_NONE;
    if (r->split && !strcmp(a, r->prefix)) {
        if (!next)
            return CCF_NONE; /* "-I" with nothing after it: let the parser complain */
        *n_args = 2;
    }
    return r->kind;
}

const char *ccf_ignore_reason(const char *a)
{
    const ccf_rule *r = rule_of(a);
    return r && r->why ? r->why : "it does not apply to an instrumented build";
}

bool ccf_for_compile(const char *f)
{
    const ccf_rule *r = rule_of(f);
    return !r || r->kind == CCF_COMPILE || r->kind == CCF_BOTH;
}

bool ccf_for_link(const char *f)
{
    const ccf_rule *r = rule_of(f);
    return r && (r->kind == CCF_LINK || r->kind == CCF_BOTH);
}

bool ccf_takes_path(const char *f, int *prefix_len)
{
    static const char *const path_flags[] = {"-I", "-L", "-include", "-isystem", "-iquote",
                                             "-idirafter", "--sysroot=", NULL};
    for (int i = 0; path_flags[i]; i++) {
        size_t n = strlen(path_flags[i]);
        if (!strncmp(f, path_flags[i], n)) {
            if (n > 2 && path_flags[i][n - 1] != '=' && f[n]) /* -includeX: not this flag */
                continue;
            *prefix_len = f[n] ? (int)n : 0;
            return true;
        }
    }
    return false;
}
