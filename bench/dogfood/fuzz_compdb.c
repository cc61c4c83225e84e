/* Dogfood: compile_commands.json (--compile-commands) and the compile
 * records of ctestgen-cc (the same JSON, one record a line). */
#include "compile/ccrec.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *path = df_file(d, n, ".json");
    ccrecs rs = {0};
    ctg_err e = {{0}};
    if (path) {
        ccrec_read_db(path, &rs, &e);
        unlink(path);
    }
    ccrecs_release(&rs);
    ccrec_parse((const char *)d, n, "records", &rs, &e);
    ccrecs_release(&rs);
    return 0;
}
