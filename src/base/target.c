/*
 * target.c - the table of target kinds (target.h).
 */
#include "target.h"

#include <string.h>

#include "../runtime/rt_protocol.h"

enum { T_VALUES, T_LIBFUZZER, T_STDIN, T_FILE, T_FUNCTION, T_N };

/* clang-format off */
static const target_kind kinds[T_N] = {
    [T_VALUES] = {.name = "values", .input = "values",
                  .about = "__VERIFIER_nondet_* calls read its values",
                  .harness = CTG_HARNESS_TESTCOMP, .error_check = true},
    [T_LIBFUZZER] = {.name = "libfuzzer", .input = "libfuzzer",
                     .about = "LLVMFuzzerTestOneInput gets its bytes",
                     .harness = CTG_HARNESS_LIBFUZZER, .bytes = true, .sized = true,
                     .persistent = true, .sanitize_auto = true, .runner_main = true},
    [T_STDIN] = {.name = "stdin", .input = "stdin", .about = "stdin holds its bytes",
                 .harness = CTG_HARNESS_STDIN, .bytes = true, .raw_tests = true,
                 .text = true, .feed = true},
    [T_FILE] = {.name = "file", .input = "file", .about = "file named by @@ holds its bytes",
                .harness = CTG_HARNESS_STDIN, .bytes = true, .raw_tests = true,
                .text = true, .feed = true, .at_file = true},
    [T_FUNCTION] = {.name = "function", .input = "values",
                    .about = "a generated driver passes its arguments, read as values",
                    .harness = CTG_HARNESS_TESTCOMP, .driver = true},
};
/* clang-format on */

const target_kind *target_of_harness(uint32_t harness)
{
    for (int i = 0; i < T_N; i++)
        if (kinds[i].harness == harness)
            return &kinds[i];
    return &kinds[T_VALUES];
}

static bool has_at(const char *const *args, int n)
{
    for (int i = 0; args && i < n; i++)
        if (args[i] && !strcmp(args[i], "@@"))
            return true;
    return false;
}

const target_kind *target_resolve(uint32_t harness, const char *const *args, int n,
                                  bool function)
{
    const target_kind *k = target_of_harness(harness);
    if (k->harness == CTG_HARNESS_TESTCOMP)
        return function ? &kinds[T_FUNCTION] : has_at(args, n) ? &kinds[T_FILE] : k;
    if (k->harness == CTG_HARNESS_STDIN && has_at(args, n))
        return &kinds[T_FILE];
    return k;
}

const target_kind *target_by_input(const char *input)
{
    for (int i = 0; input && i < T_N; i++)
        if (!strcmp(kinds[i].input, input))
            return &kinds[i];
    return NULL;
}

const target_kind *target_by_name(const char *name)
{
    for (int i = 0; name && i < T_N; i++)
        if (!strcmp(kinds[i].name, name))
            return &kinds[i];
    return NULL;
}

const target_kind *target_at(int i) { return i >= 0 && i < T_N ? &kinds[i] : NULL; }

int target_count(void) { return T_N; }
