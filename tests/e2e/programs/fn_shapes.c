/*
 * fn_shapes.c - function mode with structs, pointers, arrays with a length,
 * enums and strings (tests/e2e/t0303-function-mode.sh).
 */
#include <stddef.h>
#include <string.h>

typedef enum kind { CIRCLE = 1, SQUARE = 4, TRIANGLE = 9 } kind;

struct point {
    int x, y;
};

typedef struct shape {
    kind k;
    struct point origin;
    char name[8];
    struct shape *next;
} shape;

int classify(const shape *s, const int *w, size_t n, const char *tag);
static int helper(int x) { return x * 2; }
int hidden(int x);

int classify(const shape *s, const int *w, size_t n, const char *tag)
{
    int score = 0;
    if (!s)
        return -1;
    if (s->k == SQUARE && s->origin.x > 10)
        score += 1;
    if (s->next && s->next->k == TRIANGLE)
        score += 2;
    if (n > 2 && w[0] + w[1] == w[2])
        score += 4;
    if (!strcmp(s->name, "ab"))
        score += 8;
    if (tag[0] == '#')
        score += helper(16);
    return score;
}

static int hidden_impl(int x) { return x; }
int hidden(int x) { return hidden_impl(x); }
