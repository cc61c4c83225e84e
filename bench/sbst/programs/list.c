/*
 * list.c - a linked list built by the driver up to --depth nodes: length,
 * order and a key at a given position.
 */
struct node {
    int key;
    struct node *next;
};

int list_check(const struct node *head);

int list_check(const struct node *head)
{
    int len = 0, sorted = 1, flags = 0;
    for (const struct node *p = head; p; p = p->next) {
        len++;
        if (p->next && p->key > p->next->key)
            sorted = 0;
        if (len == 2 && p->key == 77)
            flags |= 1;
    }
    if (len == 0)
        return -1;
    if (len >= 2 && sorted)
        flags |= 2;
    return flags;
}
