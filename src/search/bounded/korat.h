/*
 * korat.h - Korat-style enumeration of bounded data structures (seed 002,
 * "Korat": repOk, finitisation, candidate vector, field ordering, symmetry
 * breaking, non-isomorphic instances).
 *
 * A finitisation (korat_fin) bounds the space: a number of objects per struct
 * type ("class"), and for every field either a pointer to a class (NULL or one
 * of its objects) or a scalar domain (a list of values).  The arguments of
 * repOk are "roots": fields of one implicit argument object.
 *
 * The candidate vector has one slot per root and per (object, field), in the
 * order roots, then class by class, object by object, field by field.  A slot
 * holds an index into its domain: for a pointer 0 is NULL and v >= 1 is
 * object v-1 of the target class; for a scalar, v indexes the value list.
 *
 * The search (korat_advance) is the seed's generator: run repOk on the
 * current candidate, collect the field ordering (the slots it read, in the
 * order of their first read), then increment the last field of the ordering;
 * when it cannot be incremented reset it and backtrack to the previous one.
 * A pointer slot may only take an object index up to one more than the
 * highest index of that class among the slots before it in the ordering
 * (symmetry breaking), so each valid structure is produced once up to
 * isomorphism, provided repOk is deterministic and reads every field its
 * answer depends on.
 */
#ifndef CTG_KORAT_H
#define CTG_KORAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"

typedef enum korat_kind { KF_PTR, KF_VAL } korat_kind;

typedef struct korat_field {
    char *name;
    korat_kind kind;
    int target;     /* KF_PTR: index of the pointee class          */
    int64_t *vals;  /* KF_VAL: the domain, in enumeration order    */
    size_t n_vals;
} korat_field;

typedef struct korat_class {
    char *name;
    int n_objs;
    korat_field *fields;
    size_t n_fields;
} korat_class;

/* A finitisation; built with korat_fin_* and read-only afterwards. */
typedef struct korat_fin {
    korat_class *classes;
    size_t n_classes;
    korat_field *roots; /* repOk's arguments, in order */
    size_t n_roots;
} korat_fin;

#define KORAT_ROOT (-1) /* pseudo class index of the roots */

korat_fin *korat_fin_new(void);
void korat_fin_free(korat_fin *f);
/* Adds a class with n_objs objects; returns its index, or -1 on oom. */
int korat_fin_add_class(korat_fin *f, const char *name, int n_objs);
/* Adds a pointer field to class cls (KORAT_ROOT: a root) pointing to class
 * target.  Returns false on oom. */
bool korat_fin_add_ptr(korat_fin *f, int cls, const char *name, int target);
/* Adds a scalar field whose domain is vals[0..n) (copied). */
bool korat_fin_add_vals(korat_fin *f, int cls, const char *name, const int64_t *vals, size_t n);
/* Adds a scalar field with domain lo..hi. */
bool korat_fin_add_range(korat_fin *f, int cls, const char *name, int64_t lo, int64_t hi);
int korat_fin_find_class(const korat_fin *f, const char *name);

/* ---- the search ---------------------------------------------------------- */

typedef struct korat korat;

typedef struct korat_slot {
    int cls;   /* KORAT_ROOT or a class index */
    int obj;   /* object index within the class (0 for roots) */
    int field; /* field (or root) index */
} korat_slot;

/* Starts at the first candidate (every slot 0).  NULL with e set when the
 * finitisation is empty or malformed (a scalar field with an empty domain, a
 * pointer to an unknown class) or on oom. */
korat *korat_new(const korat_fin *f, ctg_err *e);
void korat_free(korat *k);

size_t korat_n_slots(const korat *k);
korat_slot korat_slot_of(const korat *k, size_t slot);
const korat_field *korat_field_of(const korat *k, size_t slot);
/* Slot of field `field` of object obj of class cls (cls KORAT_ROOT: root). */
size_t korat_slot_index(const korat *k, int cls, int obj, int field);
/* The current candidate: a domain index per slot. */
const uint32_t *korat_vector(const korat *k);

/* Replaces the current candidate (n_slots domain indices, each in range);
 * for tests and brute-force comparisons. */
void korat_set_vector(korat *k, const uint32_t *vec);

/* Reports repOk's verdict on the current candidate and its field ordering
 * (distinct slots in first-read order; copied) and moves to the next
 * candidate.  Returns false when the space is exhausted.  Slots outside the
 * ordering must not matter to repOk. */
bool korat_advance(korat *k, const size_t *order, size_t n_order, bool valid);

typedef struct korat_stats {
    uint64_t candidates; /* repOk executions reported */
    uint64_t valid;      /* of which valid            */
} korat_stats;
const korat_stats *korat_get_stats(const korat *k);

/* ---- in-process repOk (tests, C predicates) -------------------------------- */

/* Object references seen by an in-process repOk: 0 is NULL, otherwise
 * 1 + the global object number (classes in order, objects in order). */
typedef int korat_ref;

typedef struct korat_view korat_view;

/* Reads a root or a field of an object, recording the slot in the field
 * ordering.  Reading a field of NULL or the wrong kind is a bug of the
 * predicate: it asserts. */
korat_ref korat_view_root_ptr(korat_view *v, int root);
int64_t kv_root_val(korat_view *v, int root);
korat_ref korat_view_ptr(korat_view *v, korat_ref obj, int field);
int64_t kv_val(korat_view *v, korat_ref obj, int field);
/* Class and index within the class of a non-NULL reference. */
int korat_view_class(const korat_view *v, korat_ref obj);
int korat_view_index(const korat_view *v, korat_ref obj);
/* Number of objects over all classes (references are 1..this). */
int korat_view_n_objects(const korat_view *v);

typedef bool (*korat_repok)(korat_view *v, void *user);
/* Called for every valid candidate (korat_vector holds it). */
typedef void (*korat_yield)(const korat *k, void *user);

/* Runs ok on the current candidate without moving; the field ordering goes
 * to order (n_slots entries) when not NULL.  -1 on oom, else 0/1. */
int korat_check(korat *k, korat_repok ok, void *user, size_t *order, size_t *n_order);

/* Runs the whole search with an in-process predicate; at most max_cands
 * candidates (0: no limit).  Returns the number of valid structures, or -1
 * on oom. */
long korat_run(korat *k, korat_repok ok, korat_yield yield, void *user, uint64_t max_cands);

#endif
