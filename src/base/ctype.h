/*
 * ctype.h - the one table of the C value types (enum ctg_type of
 * rt_protocol.h): Test-Comp spelling, __VERIFIER_nondet_ suffix, the C
 * spelling generated code declares them with, size on ILP32 and LP64
 * targets, signedness.  Every module that needs a fact of a value type asks
 * here; tests/unit/test_ctype.c pins every row.
 *
 * CTG_T_BYTES (libFuzzer data, the rest of the input) counts 1 byte: the
 * size of one element; a BYTES value's length is its own.
 */
#ifndef CTG_CTYPE_H
#define CTG_CTYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "../runtime/rt_protocol.h"

typedef struct ctg_type_info {
    const char *name;             /* Test-Comp spelling ("unsigned char")     */
    const char *suffix;           /* __VERIFIER_nondet_<suffix> ("uchar")     */
    const char *decl;             /* C spelling in generated code             */
    unsigned char size32, size64; /* bytes on ILP32 / LP64 targets            */
    bool is_signed, is_float;
} ctg_type_info;

/* The row of a type; NULL for a value outside the enum. */
const ctg_type_info *ctg_type_info_of(enum ctg_type t);

/* Bytes a value of type t occupies on a target with arch_bits (32 or 64);
 * 0 outside the enum. */
size_t ctg_type_size(enum ctg_type t, int arch_bits);
/* Test-Comp spelling of a type ("int", "unsigned char", "_Bool", ...). */
const char *ctg_type_name(enum ctg_type t);
/* The __VERIFIER_nondet_ suffix of a type ("int", "uchar", "bool", ...). */
const char *ctg_type_suffix(enum ctg_type t);
/* How generated C declares a value of the type ("unsigned long", "void *"). */
const char *ctg_type_decl(enum ctg_type t);
/* Inverse of ctg_type_name; also accepts the nondet suffixes ("uint",
 * "uchar") and spellings other tools write ("unsigned", "u8", "long int"). */
bool ctg_type_from_name(const char *name, enum ctg_type *t);
bool ctg_type_is_signed(enum ctg_type t);
bool ctg_type_is_float(enum ctg_type t);

#endif
