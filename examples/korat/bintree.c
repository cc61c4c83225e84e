/*
 * bintree.c - the BinTree of seed 002's Korat slides in C: repOk walks the
 * tree breadth first and rejects a node reached twice.  With at most three
 * nodes Korat yields the 1 + 1 + 2 + 5 = 9 binary trees (Catalan numbers),
 * each once up to isomorphism, and hands each to height().
 *
 *   ctestgen run examples/korat/bintree.c --strategy bounded --korat examples/korat/bintree.fin
 */
#include <stdbool.h>

struct node {
    struct node *left, *right;
};

bool repOk(struct node *root)
{
    struct node *queue[64];
    int head = 0, tail = 0;
    if (root)
        queue[tail++] = root;
    while (head < tail) {
        struct node *cur = queue[head++];
        for (int i = 0; i < head - 1; i++)
            if (queue[i] == cur)
                return false; /* visited twice: not a tree */
        if (tail > 60)
            return false;
        if (cur->left)
            queue[tail++] = cur->left;
        if (cur->right)
            queue[tail++] = cur->right;
    }
    return true;
}

int height(struct node *n)
{
    if (!n)
        return 0;
    int l = height(n->left), r = height(n->right);
    return 1 + (l > r ? l : r);
}
