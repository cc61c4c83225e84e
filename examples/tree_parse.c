/*
 * tree_parse.c - a libFuzzer target that parses the binary trees of seed
 * 002 ("x" is a leaf, "(L R)" a node; examples/grammars/bintree.bnf) and has
 * a bug on one shape: the right comb with five leaves.  Random bytes almost
 * never form a tree; the grammar producer enumerates them shortest first.
 *
 *   ctestgen run examples/tree_parse.c --strategy bounded \
 *       --grammar examples/grammars/bintree.bnf --grammar-max-len 17
 *
 * balanced() is a filter predicate (--filter balanced): it accepts a tree
 * whose left and right subtrees differ by at most one leaf at every node.
 */
#include <stddef.h>
#include <stdint.h>

extern void abort(void);
void reach_error(void) { abort(); }

typedef struct cursor {
    const uint8_t *p, *end;
    int depth, max_depth;
    int balanced;
} cursor;

/* Parses one tree at c; returns its number of leaves, or -1. */
static int tree(cursor *c)
{
    if (c->p >= c->end)
        return -1;
    if (*c->p == 'x') {
        c->p++;
        return 1;
    }
    if (*c->p != '(' || ++c->depth > 64)
        return -1;
    c->p++;
    if (c->depth > c->max_depth)
        c->max_depth = c->depth;
    int l = tree(c);
    if (l < 0 || c->p >= c->end || *c->p != ' ')
        return -1;
    c->p++;
    int r = tree(c);
    if (r < 0 || c->p >= c->end || *c->p != ')')
        return -1;
    c->p++;
    c->depth--;
    if (l - r > 1 || r - l > 1)
        c->balanced = 0;
    return l + r;
}

/* Filter: a complete, balanced tree. */
int balanced(const char *s)
{
    const uint8_t *u = (const uint8_t *)s;
    size_t n = 0;
    while (s[n])
        n++;
    cursor c = {u, u + n, 0, 0, 1};
    return tree(&c) > 0 && c.p == c.end && c.balanced;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cursor c = {data, data + size, 0, 0, 1};
    int leaves = tree(&c);
    if (leaves < 0 || c.p != c.end)
        return 0; /* not a tree */
    if (leaves == 5 && c.max_depth == 4 && data[1] == 'x' && data[4] == 'x' && data[7] == 'x')
        reach_error(); /* (x (x (x (x x)))) */
    return 0;
}
