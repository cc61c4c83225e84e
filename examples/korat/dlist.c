/*
 * dlist.c - doubly linked lists for Korat: a list header and nodes with
 * next/prev links and a 0/1 value.  repOk: the head has no predecessor,
 * every node's successor points back to it, no node is reached twice.  With
 * at most three nodes there are 1 + 2 + 4 + 8 = 15 lists.
 *
 *   ctestgen run examples/korat/dlist.c --strategy bounded --korat examples/korat/dlist.fin
 */
#include <stdbool.h>
#include <stddef.h>

struct node {
    int val;
    struct node *next, *prev;
};

struct list {
    struct node *head;
};

bool repOk(struct list *l)
{
    if (!l)
        return false;
    struct node *seen[8];
    int n = 0;
    struct node *cur = l->head;
    if (cur && cur->prev)
        return false;
    for (; cur; cur = cur->next) {
        for (int i = 0; i < n; i++)
            if (seen[i] == cur)
                return false;
        if (n == 8)
            return false;
        seen[n++] = cur;
        (void)cur->val;
        if (cur->next && cur->next->prev != cur)
            return false;
    }
    return true;
}

/* Removes the first node holding 1; returns how many nodes are left. */
int remove_one(struct list *l)
{
    struct node *cur = l->head;
    while (cur && cur->val != 1)
        cur = cur->next;
    if (cur) {
        if (cur->prev)
            cur->prev->next = cur->next;
        else
            l->head = cur->next;
        if (cur->next)
            cur->next->prev = cur->prev;
    }
    int n = 0;
    for (cur = l->head; cur; cur = cur->next)
        n++;
    return n;
}
