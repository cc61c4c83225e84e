/*
 * kspec.h - Korat finitisation files (`--korat FILE`, format in
 * docs/korat-format.md): which struct types, how many objects of each, the
 * domain of every field repOk reads, the repOk predicate and the function
 * under test.  Parsed into a korat_fin (korat.h) plus the C spellings the
 * generated harness needs.
 *
 *     struct node 3                  # struct node: up to 3 objects
 *     field node.left  -> node       # pointer: NULL or a node object
 *     field node.right -> node
 *     field node.key   = 1..3        # scalar: one of the values
 *     repok repOk(node *root)        # bool repOk(struct node *root)
 *     function bst_insert(root, int key)
 */
#ifndef CTG_KSPEC_H
#define CTG_KSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "../../base/err.h"
#include "../../runtime/rt_protocol.h"
#include "korat.h"

/* An argument of the function under test: a repOk argument or a fresh
 * nondeterministic scalar. */
typedef struct kspec_arg {
    char *name;
    int root;            /* index of the repOk argument, or -1 */
    enum ctg_type type;  /* root < 0: the scalar's type        */
} kspec_arg;

typedef struct kspec {
    korat_fin *fin;
    char **ctype;        /* per class: "struct node" or a typedef name  */
    char *repok;         /* predicate name                               */
    char *function;      /* function under test, or NULL                 */
    kspec_arg *fargs;    /* its arguments (when function is set)         */
    size_t n_fargs;
    int line_function;   /* line of the `function` entry (0: none)       */
} kspec;

/* Parses a finitisation; fname is used in messages ("bst.fin:3: ...").
 * NULL with e set on any error. */
kspec *kspec_parse(const char *text, const char *fname, ctg_err *e);
kspec *kspec_load(const char *path, ctg_err *e);
void kspec_free(kspec *k);

/* Sets the function under test when the file has none (--function NAME):
 * it then takes the repOk arguments.  False on oom. */
bool kspec_default_function(kspec *k, const char *name);

/* C spelling and __VERIFIER_nondet_ suffix of a scalar argument type. */
const char *kspec_ctype(enum ctg_type t);
const char *kspec_nondet(enum ctg_type t);

#endif
