/* bench/bugs: a double free.  "KV" then key=value pairs separated by ';';
 * a value longer than 8 bytes is an error, whose clean-up frees the value
 * that the duplicate-key path freed already. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 3 || d[0] != 'K' || d[1] != 'V')
        return 0;
    char key = 0, *val = NULL;
    size_t i = 2;
    while (i + 2 < n) {
        char k = (char)d[i];
        if (d[i + 1] != '=')
            break;
        size_t s = i + 2, e = s;
        while (e < n && d[e] != ';')
            e++;
        if (k == key)
            free(val); /* duplicate key: the old value goes (BUG: val not cleared) */
        if (e - s > 8) {
            free(val); /* BUG: freed again after a duplicate key */
            return 0;
        }
        val = malloc(e - s + 1);
        if (!val)
            return 0;
        memcpy(val, d + s, e - s);
        val[e - s] = 0;
        key = k;
        i = e + 1;
    }
    free(val);
    return 0;
}
