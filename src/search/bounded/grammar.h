/*
 * grammar.h - context-free grammars for the `bounded` strategy (seed 002,
 * grammar-based testing): the data structure and the parser of the BNF file
 * format described in docs/grammar-format.md.
 *
 * A grammar is a list of nonterminals; each has alternatives in file order;
 * an alternative is a sequence of symbols, each a terminal byte string or a
 * nonterminal.  The first rule's left-hand side is the start symbol.  A
 * character class [a-z] becomes an anonymous nonterminal with one
 * single-byte alternative per character.  After parsing every nonterminal is
 * defined and derives at least one finite string; min_len holds the length of
 * its shortest terminal expansion (the "how long will it expand" estimate of
 * the producer's best priority).
 *
 * The struct is visible to the producer and tests; it is read-only after
 * gram_parse.
 */
#ifndef CTG_GRAMMAR_H
#define CTG_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"

/* One symbol of an alternative: a terminal (nt < 0) or a nonterminal. */
typedef struct gram_sym {
    int nt;        /* nonterminal index, or -1 for a terminal */
    uint8_t *text; /* terminal bytes (may contain NUL); NULL for nonterminals */
    size_t len;
} gram_sym;

typedef struct gram_alt {
    gram_sym *syms;
    size_t n;
} gram_alt;

typedef struct gram_nt {
    char *name;       /* without the angle brackets; "[a-z]" for a class */
    bool anonymous;   /* a character class                               */
    gram_alt *alts;
    size_t n_alts, cap_alts;
    size_t min_len;   /* bytes of the shortest terminal expansion        */
    int line, col;    /* first definition (or first use if undefined)    */
    bool defined;
} gram_nt;

typedef struct grammar {
    gram_nt *nts;
    size_t n_nts, cap_nts;
    int start; /* index of the start symbol */
} grammar;

/* Parses a grammar from text (need not be NUL-terminated).  `fname` is used
 * in messages only ("file:line:col: what was expected").  Returns NULL with e
 * set on a syntax error, an undefined nonterminal, a nonterminal that never
 * derives a finite string, an empty grammar, or out of memory. */
grammar *gram_parse(const char *text, size_t len, const char *fname, ctg_err *e);
/* Reads and parses a grammar file. */
grammar *gram_load(const char *path, ctg_err *e);
void gram_free(grammar *g);

/* Index of the nonterminal called name, or -1. */
int gram_find(const grammar *g, const char *name);

#endif
