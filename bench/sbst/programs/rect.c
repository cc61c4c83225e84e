/*
 * rect.c - structs through pointers (NULL or filled field by field):
 * overlap and containment of two rectangles.
 */
struct point {
    int x, y;
};

struct rect {
    struct point lo, hi;
};

int rect_relation(const struct rect *a, const struct rect *b);

/* A rectangle whose corners are in order. */
static int valid(const struct rect *r) { return r->lo.x <= r->hi.x && r->lo.y <= r->hi.y; }

int rect_relation(const struct rect *a, const struct rect *b)
{
    if (!a || !b)
        return -1;
    if (!valid(a) || !valid(b))
        return -2;
    if (a->hi.x < b->lo.x || b->hi.x < a->lo.x || a->hi.y < b->lo.y || b->hi.y < a->lo.y)
        return 0; /* disjoint */
    if (a->lo.x <= b->lo.x && a->lo.y <= b->lo.y && a->hi.x >= b->hi.x && a->hi.y >= b->hi.y)
        return 2; /* a contains b */
    return 1;     /* overlap */
}
