/*
 * driver.h - unit-level testing (`ctestgen run lib.c --function NAME`,
 * issue 3 part 3): the signature of a C function, read with libclang, and
 * the Test-Comp driver generated from it.
 *
 * The driver is a separate C file with a main() that reads every argument
 * with __VERIFIER_nondet_* and calls the function; it is built together
 * with lib.c.  It starts with a preamble that lets it (and the generated
 * regression tests) call the function from another file: lib.c's #include
 * and single-line #define lines, the type declarations the signature needs
 * (copied verbatim from lib.c, in source order) and the prototype.
 *
 * How arguments are read (the regression-test generator decodes a test's
 * values with exactly these rules, so both must change together):
 *   scalar        integers, chars, _Bool, floats: one value of the type
 *   enum          one unsigned char, index (mod count) into the enumerators
 *   string        char *: chars until a NUL or DRV_STR_MAX of them, into a
 *                 zeroed buffer of DRV_STR_BUF bytes (room for output)
 *   array         T *p paired with an adjacent integer parameter named like
 *                 a length (n, len, size, count, ...): first the length as
 *                 one unsigned char mod (DRV_ARR_MAX + 1), then the elements
 *   length        the pair of an array: passes the array's length, reads
 *                 nothing
 *   pointer       T *p to a scalar or enum: one element
 *   struct ptr    at depth >= --depth NULL without reading; else one
 *                 unsigned char, NULL when it is 0 mod 4, else a zeroed
 *                 struct whose fields are read in order (pointers one level
 *                 deeper)
 *   struct        by value: its fields in order
 *   fields        as parameters; char arrays as strings of at most size - 1
 *                 characters, other fixed arrays element by element
 *   other         function pointers, void *, unions, opaque structs: NULL
 *                 or zero, nothing read
 */
#ifndef CTG_DRIVER_H
#define CTG_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/err.h"
#include "../base/sbuf.h"

enum { DRV_STR_MAX = 32, DRV_STR_BUF = 256, DRV_ARR_MAX = 16 };

typedef enum drv_kind {
    DRV_SCALAR,
    DRV_ENUM,
    DRV_STRING,
    DRV_ARRAY,
    DRV_LENGTH,
    DRV_PTR,
    DRV_STRUCT_PTR,
    DRV_STRUCT,
    DRV_FIXED,   /* fixed-size array field (char arrays: strings)   */
    DRV_NULL
} drv_kind;

typedef struct drv_type {
    drv_kind kind;
    int vt;          /* enum ctg_type read for a scalar (arrays, pointers,
                        fixed arrays: of their elements)                */
    drv_kind elem;   /* arrays, pointers, fixed arrays: DRV_SCALAR,
                        DRV_ENUM or DRV_STRUCT                           */
    char *spell;     /* the type as written ("const char *", "size_t")  */
    char *elem_spell;/* element / pointee without qualifiers ("int")    */
    int rec, en;     /* record / enum index, -1                          */
    uint32_t count;  /* DRV_FIXED: elements                              */
    bool out;        /* DRV_STRING not const: compared after the call   */
    bool is_ptr;     /* a pointer type (for DRV_NULL: pass NULL)         */
} drv_type;

typedef struct drv_field {
    char *name;
    drv_type t;
} drv_field;

typedef struct drv_record {
    char *spell;     /* usable C spelling ("struct node", "node_t")      */
    drv_field *f;
    int n;
} drv_record;

typedef struct drv_enum {
    char *spell;
    int64_t *vals;
    int n;
} drv_enum;

typedef struct drv_param {
    char *name;
    drv_type t;
    int pair;        /* array <-> length partner, -1                     */
} drv_param;

typedef enum drv_ret { DRV_RET_NONE, DRV_RET_INT, DRV_RET_UINT, DRV_RET_FLOAT, DRV_RET_PTR } drv_ret;

typedef struct drv_sig {
    char *func;
    char *source;    /* absolute path of lib.c                           */
    char *ret_spell; /* "int", "void", ...                               */
    drv_ret ret;
    drv_param *p;
    int n;
    drv_record *rec;
    int n_rec;
    drv_enum *en;
    int n_en;
    int depth;       /* --depth                                          */
    char *preamble;  /* includes, defines, declarations, prototype       */
} drv_sig;

/* Reads the signature of `func` in `source` with libclang (cflags: -I/-D
 * ...).  NULL with e set when the file does not parse, the function is
 * missing, static, variadic or takes a struct/array it cannot build, or lib.c
 * defines main. */
drv_sig *drv_parse(const char *source, const char *func, const char *const *cflags, int n_cflags,
                   int depth, ctg_err *e);
void drv_free(drv_sig *s);

/* Appends the driver program to out. */
void drv_emit_driver(const drv_sig *s, sbuf *out);

/* Writes the driver for s to `path` (atomically). */
bool drv_write_driver(const drv_sig *s, const char *path, ctg_err *e);

/* Writes the driver into the build cache (cache_dir, else $CTESTGEN_CACHE or
 * ~/.cache/ctestgen) under drivers/<hash of its text>/driver_<func>.c and
 * returns that path (ctg_free); NULL with e set. */
char *drv_write_cached(const drv_sig *s, const char *cache_dir, ctg_err *e);

/* Unqualified copy of a type spelling ("const char" -> "char"); ctg_free. */
char *drv_unqualify(const char *spell);

#endif
