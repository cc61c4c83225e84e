/* lines_kv.c - a libFuzzer target reading "key=value" lines, values at most
 * 8 bytes: what it covers depends on short, clean lines, which trimming
 * (--fuzz-trim on) keeps its seeds to. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int line(const char *b, const char *e)
{
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq || eq == b)
        return 0;
    if (e - eq - 1 > 8)
        return 0;
    if (eq - b == 1 && *b == 'k')
        return e - eq - 1 == 2 ? 3 : 2;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    int score = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        score += line(p, le);
        p = nl ? nl + 1 : end;
    }
    return score > 5;
}
