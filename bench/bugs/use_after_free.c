/* bench/bugs: a use after free.  A tiny command language after "CMD":
 * 'n' makes a node, 'd' deletes it (the pointer stays), 'p' prints (reads)
 * it; "nd p" reads freed memory. */
#include <stdint.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4 || d[0] != 'C' || d[1] != 'M' || d[2] != 'D')
        return 0;
    struct node *cur = NULL;
    int seen = 0, out = 0;
    for (size_t i = 3; i < n; i++) {
        switch (d[i]) {
        case 'n':
            if (!cur && (cur = malloc(sizeof *cur)) != NULL)
                cur->value = (int)i, cur->next = NULL;
            break;
        case 'd':
            free(cur); /* BUG: cur still points at the freed node */
            seen = 1;
            break;
        case 'p':
            if (seen && cur)
                out += cur->value; /* reads the freed node */
            break;
        default:
            break;
        }
    }
    if (!seen)
        free(cur);
    return out;
}
