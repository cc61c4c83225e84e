/* bst.c - a binary search tree built from input keys; the error needs a
 * degenerate right spine of depth 4 ending in the key 77. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

struct node { int key; struct node *l, *r; };

static struct node *insert(struct node *t, int k)
{
    if (!t) {
        struct node *n = malloc(sizeof *n);
        if (!n)
            abort();
        n->key = k;
        n->l = n->r = NULL;
        return n;
    }
    if (k < t->key)
        t->l = insert(t->l, k);
    else if (k > t->key)
        t->r = insert(t->r, k);
    return t;
}

static int depth(const struct node *t)
{
    if (!t)
        return 0;
    int a = depth(t->l), b = depth(t->r);
    return 1 + (a > b ? a : b);
}

int main(void)
{
    struct node *t = NULL;
    for (int i = 0; i < 5; i++)
        t = insert(t, __VERIFIER_nondet_int());
    const struct node *n = t;
    int spine = 0;
    while (n && !n->l) {
        spine++;
        if (!n->r)
            break;
        n = n->r;
    }
    if (depth(t) == 4 && spine == 4 && n->key == 77)
        reach_error();
    return 0;
}
