/*
 * bst.c - binary search trees for Korat (ctestgen --strategy bounded --korat).
 *
 * repOk is the representation invariant: the nodes reachable from the root
 * form a tree (no node reached twice) whose keys increase in order.  Korat
 * enumerates every valid tree with at most 3 nodes over the keys 1..3 (15 of
 * them up to isomorphism) and calls bst_insert on each with every key of the
 * small int domain.  bst_insert has a bug: a key that is already present is
 * inserted again, which breaks the invariant, and the check after the
 * insertion reaches reach_error.
 *
 *   ctestgen run examples/korat/bst.c --strategy bounded --korat examples/korat/bst.fin
 */
#include <stdbool.h>
#include <stdlib.h>

extern void abort(void);
void reach_error(void) { abort(); }

struct node {
    int key;
    struct node *left, *right;
};

/* Keys of the subtree at n lie strictly between lo and hi; *count nodes so
 * far (a node reached twice makes the count exceed the number of nodes). */
static bool ordered(struct node *n, long lo, long hi, int *count)
{
    if (!n)
        return true;
    if (++*count > 16)
        return false; /* a cycle */
    if (n->key <= lo || n->key >= hi)
        return false;
    return ordered(n->left, lo, n->key, count) && ordered(n->right, n->key, hi, count);
}

bool repOk(struct node *root)
{
    int count = 0;
    return ordered(root, -1000000, 1000000, &count);
}

/* Inserts key (the bug: duplicates are not detected). */
struct node *bst_insert(struct node *root, int key)
{
    struct node *n = calloc(1, sizeof *n);
    if (!n)
        return root;
    n->key = key;
    if (!root)
        return n;
    struct node *cur = root;
    for (;;) {
        struct node **next = key < cur->key ? &cur->left : &cur->right;
        if (!*next) {
            *next = n;
            break;
        }
        cur = *next;
    }
    if (!repOk(root))
        reach_error();
    return root;
}
