/* sections.c - a libFuzzer target reading lines: "[name]" opens a
 * section (a name of lower-case letters), "key=value" (a non-empty key) is
 * a key of the open section; a key in section "server" aborts.  No edge tells a key after a section from
 * one before any: the string compare's feature (both operands non-empty)
 * keeps the first such input, and input-to-state then writes "server". */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char section[16] = "";
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        size_t n = (size_t)(le - p);
        const char *eq = memchr(p, '=', n);
        if (n >= 2 && p[0] == '[' && le[-1] == ']' && n - 2 < sizeof section) {
            size_t k = 0;
            while (k < n - 2 && p[1 + k] >= 'a' && p[1 + k] <= 'z')
                k++;
            if (k == n - 2) {
                memcpy(section, p + 1, k);
                section[k] = '\0';
            }
        } else if (eq && eq > p && !strcmp(section, "server")) {
            abort();
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}
