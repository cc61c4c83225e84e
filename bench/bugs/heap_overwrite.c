/* bench/bugs: a heap over-write of one byte.  "STR" VERSION TEXT: version 2
 * unescapes the text into a buffer of its length and ends it with a NUL,
 * one byte past the buffer when the text has no escape to shrink it. */
#include <stdint.h>
#include <stdlib.h>

static char *unescape(const uint8_t *s, size_t n)
{
    char *out = malloc(n ? n : 1);
    if (!out)
        return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            i++;
            out[j++] = s[i] == 'n' ? '\n' : s[i] == 't' ? '\t' : (char)s[i];
        } else
            out[j++] = (char)s[i];
    }
    out[j] = 0; /* BUG: j == n when nothing was unescaped */
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6 || d[0] != 'S' || d[1] != 'T' || d[2] != 'R' || d[3] != 2)
        return 0;
    char *s = unescape(d + 4, n - 4);
    int r = s && s[0] == 'x';
    free(s);
    return r;
}
