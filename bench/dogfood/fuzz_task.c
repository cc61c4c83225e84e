/* Dogfood: the task files of sv-benchmarks (ctestgen run task.yml). */
#include "run/task.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *path = df_file(d, n, ".yml");
    ctg_task t;
    ctg_err e = {{0}};
    if (path) {
        if (task_load(path, &t, &e))
            task_release(&t);
        unlink(path);
    }
    return 0;
}
