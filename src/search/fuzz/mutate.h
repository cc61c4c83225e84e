/*
 * mutate.h - the fuzzer's mutators: an AFL-style havoc stack over raw
 * bytes, typed value mutations for Test-Comp inputs, a dictionary, and
 * input-to-state replacement (Redqueen's idea: an operand of a comparison
 * that appears in the input is replaced by the operand it was compared
 * with).
 *
 * Byte operators: bit flip, interesting 8/16/32/64-bit values (either byte
 * order), add/subtract 1..35 on 8/16/32/64 bits, random byte, block delete,
 * block insert (copy of a block or a run of one byte), block overwrite,
 * block duplicate, dictionary insert/overwrite, splice with another input.
 * Typed operators (when the input's value log is given): a value of type T
 * becomes a boundary value of T, a small value, value +-1..35, its
 * negation, a fresh random value of T (drawn as the runtime draws them), a
 * comparison operand of T's width; floats get special values (0, -0, 1,
 * inf, nan, ...), doubling and halving; a value is deleted, duplicated or
 * swapped with another of the same size.
 *
 * Every function works on a caller's buffer with room for `max` bytes and
 * returns the new length (>= 1 unless the input was empty and stays so).
 */
#ifndef CTG_MUTATE_H
#define CTG_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/rng.h"
#include "../../runtime/rt_protocol.h"

/* ---- dictionary -------------------------------------------------------- */

#define MUT_TOKEN_MAX 32 /* bytes of a dictionary token */

typedef struct mut_dict mut_dict;

/* A dictionary of at most cap tokens; NULL on oom. */
mut_dict *mut_dict_new(size_t cap);
void mut_dict_free(mut_dict *d);
/* Adds a token of 1..MUT_TOKEN_MAX bytes; true when it was new.  When the
 * dictionary is full the token replaces the oldest one added after the last
 * mut_dict_fix. */
bool mut_dict_add(mut_dict *d, const uint8_t *tok, size_t len);
/* The tokens added so far are never replaced. */
void mut_dict_fix(mut_dict *d);
size_t mut_dict_size(const mut_dict *d);
const uint8_t *mut_dict_get(const mut_dict *d, size_t i, size_t *len);

/* ---- sources of a mutation ---------------------------------------------- */

/* Operands of one comparison of the seed's run (CTG_FL_CMPLOG). */
typedef struct mut_cmp {
    uint64_t a, b;
    uint32_t bits; /* 8, 16, 32 or 64; for strings 8 * (1..8)            */
    bool str;      /* bytes of a string compare: replaced as they are,
                      never widened, swapped or moved by +-1             */
    bool exact;    /* an equality to restore: never moved by +-1         */
} mut_cmp;

typedef struct mut_src {
    const ctg_value_rec *vals; /* typed decomposition of the input, or NULL */
    size_t n_vals;
    const mut_dict *dict;      /* may be NULL                               */
    const mut_cmp *cmps;       /* may be NULL                               */
    size_t n_cmps;
    const uint8_t *splice;     /* another input to splice with, or NULL     */
    size_t splice_len;
    const uint8_t *other;      /* another input whose parts havoc may copy
                                  in (AFL++'s splice insert/overwrite), or
                                  NULL                                      */
    size_t other_len;
} mut_src;

/* Applies `stack` randomly chosen operators to buf[0..len) (room for max
 * bytes, max >= 1) and returns the new length.  Typed operators are used
 * while the value log still describes the buffer (until an operator changes
 * the length). */
size_t mut_havoc(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s, unsigned stack);

/* Input-to-state: for a random comparison in s->cmps whose operands differ,
 * finds one operand's bytes (little or big endian, the comparison's width,
 * also +-1 of it) in buf and writes the other operand there (+-1 alike).
 * A string operand is its bytes up to its NUL (the runtime pads the
 * shorter string of a compare with zeros), so "x" in "[x]" becomes
 * "server" of strcmp(name, "server"): *len changes by the difference, the
 * tail moves, within max.  Returns true when something was replaced. */
bool mut_i2s(rng *r, uint8_t *buf, size_t *len, size_t max, const mut_src *s);
/* Input-to-state on text (as Redqueen's ASCII encodings): for a random
 * integer comparison, finds one operand written in decimal as a whole
 * number in buf (not inside a longer run of digits) and writes the other
 * operand there, in decimal (+-1 for an ordering); the length changes with
 * the digits, up to max.  This is how scanf("%d")'s comparisons reach
 * stdin's text.  Half of the time (operands 0..2^32-1) the encoding is
 * hexadecimal instead: the operand's digit pairs, lower or upper case,
 * anywhere in buf, become the other's ("%5F" -> "%2B" when a decoded
 * escape is compared with '+').  Returns the new length, 0 when nothing
 * was replaced. */
size_t mut_i2s_text(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s);

/* Splice: the first part of buf (up to a random point) followed by the rest
 * of s->splice from the same point; returns the new length (len when there
 * is nothing to splice with). */
size_t mut_splice(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s);

#endif
