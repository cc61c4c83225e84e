/*
 * sorted.c - sorted singly linked lists for Korat: keys from 1..3 in
 * non-decreasing order, no cycle.  With at most three nodes there are
 * 1 + 3 + 6 + 10 = 20 lists; sorted_insert gets each with every key.
 * repOk reads the key of every node: Korat only varies the fields repOk
 * reads (a key it never looks at stays at its first value).
 *
 *   ctestgen run examples/korat/sorted.c --strategy bounded --korat examples/korat/sorted.fin
 */
#include <stdbool.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

bool repOk(struct node *head)
{
    int n = 0, last = 0;
    for (struct node *cur = head; cur; cur = cur->next) {
        if (++n > 3)
            return false; /* longer than the scope: a cycle */
        if (n > 1 && cur->key < last)
            return false;
        last = cur->key; /* every key is read, so Korat varies every key */
    }
    return true;
}

struct node *sorted_insert(struct node *head, int key)
{
    struct node *n = malloc(sizeof *n);
    if (!n)
        return head;
    n->key = key;
    struct node **at = &head;
    while (*at && (*at)->key < key)
        at = &(*at)->next;
    n->next = *at;
    *at = n;
    return head;
}
