/*
 * korat.c - Korat's search over candidate vectors (seed 002): finitisation
 * building, slot layout, the increment-last-field / backtrack loop with
 * symmetry breaking, and the in-process accessor API that records the field
 * ordering of a repOk written in C.
 */
#include "korat.h"

#include <assert.h>
#include <string.h>

#include "../../base/mem.h"

/* ==== finitisation ============================================================== */

korat_fin *korat_fin_new(void) { return ctg_calloc(1, sizeof(korat_fin)); }

static void field_release(korat_field *f)
{
    ctg_free(f->name);
    ctg_free(f->vals);
}

void korat_fin_free(korat_fin *f)
{
    if (!f)
        return;
    for (size_t c = 0; c < f->n_classes; c++) {
        for (size_t i = 0; i < f->classes[c].n_fields; i++)
            field_release(&f->classes[c].fields[i]);
        ctg_free(f->classes[c].fields);
        ctg_free(f->classes[c].name);
    }
    for (size_t i = 0; i < f->n_roots; i++)
        field_release(&f->roots[i]);
    ctg_free(f->classes);
    ctg_free(f->roots);
    ctg_free(f);
}

int korat_fin_add_class(korat_fin *f, const char *name, int n_objs)
{
    korat_class *c = ctg_realloc(f->classes, (f->n_classes + 1) * sizeof *c);
    if (!c)
        return -1;
    f->classes = c;
    c += f->n_classes;
    memset(c, 0, sizeof *c);
    if (!(c->name = ctg_strdup(name)))
        return -1;
    c->n_objs = n_objs;
    return (int)f->n_classes++;
}

int korat_fin_find_class(const korat_fin *f, const char *name)
{
    for (size_t c = 0; c < f->n_classes; c++)
        if (strcmp(f->classes[c].name, name) == 0)
            return (int)c;
    return -1;
}

/* Appends an empty field to class cls (or the roots); NULL on oom. */
static korat_field *add_field(korat_fin *f, int cls, const char *name)
{
    korat_field **arr = cls == KORAT_ROOT ? &f->roots : &f->classes[cls].fields;
    size_t *n = cls == KORAT_ROOT ? &f->n_roots : &f->classes[cls].n_fields;
    korat_field *a = ctg_realloc(*arr, (*n + 1) * sizeof *a);
    if (!a)
        return NULL;
    *arr = a;
    a += *n;
    memset(a, 0, sizeof *a);
    if (!(a->name = ctg_strdup(name)))
        return NULL;
    (*n)++;
    return a;
}

bool korat_fin_add_ptr(korat_fin *f, int cls, const char *name, int target)
{
    korat_field *a = add_field(f, cls, name);
    if (!a)
        return false;
    a->kind = KF_PTR;
    a->target = target;
    return true;
}

bool korat_fin_add_vals(korat_fin *f, int cls, const char *name, const int64_t *vals, size_t n)
{
    korat_field *a = add_field(f, cls, name);
    if (!a)
        return false;
    a->kind = KF_VAL;
    a->target = -1;
    if (n && !(a->vals = ctg_malloc(n * sizeof *vals)))
        return false;
    if (n)
        memcpy(a->vals, vals, n * sizeof *vals);
    a->n_vals = n;
    return true;
}

bool korat_fin_add_range(korat_fin *f, int cls, const char *name, int64_t lo, int64_t hi)
{
    size_t n = hi >= lo ? (size_t)(hi - lo) + 1 : 0;
    int64_t *v = n ? ctg_malloc(n * sizeof *v) : NULL;
    if (n && !v)
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = lo + (int64_t)i;
    bool ok = korat_fin_add_vals(f, cls, name, v, n);
    ctg_free(v);
    return ok;
}

/* ==== candidate vector ============================================================= */

struct korat {
    const korat_fin *f;
    size_t n_slots;
    korat_slot *slots;     /* slot -> (class, object, field)            */
    size_t *class_base;    /* first slot of each class                  */
    int *obj_base;         /* global number of each class's first object */
    int n_objs;
    uint32_t *vec;
    size_t *stack;         /* field ordering being backtracked           */
    korat_stats st;
};

const korat_field *korat_field_of(const korat *k, size_t slot)
{
    korat_slot s = k->slots[slot];
    return s.cls == KORAT_ROOT ? &k->f->roots[s.field] : &k->f->classes[s.cls].fields[s.field];
}

/* Checks domains and targets of every field of the finitisation. */
static bool check_fields(const korat_fin *f, const korat_field *a, size_t n, const char *owner,
                         ctg_err *e)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].kind == KF_PTR && (a[i].target < 0 || (size_t)a[i].target >= f->n_classes))
            return err_set(e, "finitisation: %s.%s points to an undeclared struct; declare it",
                           owner, a[i].name);
        if (a[i].kind == KF_VAL && a[i].n_vals == 0)
            return err_set(e, "finitisation: %s.%s has an empty domain; give it values", owner,
                           a[i].name);
        if (a[i].kind == KF_VAL && a[i].n_vals > UINT32_MAX)
            return err_set(e, "finitisation: %s.%s has too many values", owner, a[i].name);
    }
    return true;
}

static bool layout(korat *k, ctg_err *e)
{
    const korat_fin *f = k->f;
    size_t n = f->n_roots;
    int objs = 0;
    if (!(k->class_base = ctg_calloc(f->n_classes + 1, sizeof *k->class_base)) ||
        !(k->obj_base = ctg_calloc(f->n_classes + 1, sizeof *k->obj_base)))
        return err_set(e, "korat: out of memory");
    for (size_t c = 0; c < f->n_classes; c++) {
        const korat_class *kc = &f->classes[c];
        if (kc->n_objs < 0 || kc->n_objs > 100000)
            return err_set(e, "finitisation: struct %s: object count %d out of range 0..100000",
                           kc->name, kc->n_objs);
        if (!check_fields(f, kc->fields, kc->n_fields, kc->name, e))
            return false;
        k->class_base[c] = n;
        k->obj_base[c] = objs;
        n += (size_t)kc->n_objs * kc->n_fields;
        objs += kc->n_objs;
    }
    if (!check_fields(f, f->roots, f->n_roots, "argument", e))
        return false;
    if (n == 0)
        return err_set(e, "finitisation: no arguments and no fields: nothing to enumerate");
    k->n_slots = n;
    k->n_objs = objs;
    if (!(k->slots = ctg_calloc(n, sizeof *k->slots)) || !(k->vec = ctg_calloc(n, sizeof *k->vec)) ||
        !(k->stack = ctg_calloc(n, sizeof *k->stack)))
        return err_set(e, "korat: out of memory");
    for (size_t r = 0; r < f->n_roots; r++)
        k->slots[r] = (korat_slot){KORAT_ROOT, 0, (int)r};
    for (size_t c = 0; c < f->n_classes; c++)
        for (int o = 0; o < f->classes[c].n_objs; o++)
            for (size_t fl = 0; fl < f->classes[c].n_fields; fl++)
                k->slots[korat_slot_index(k, (int)c, o, (int)fl)] = (korat_slot){(int)c, o, (int)fl};
    return true;
}

korat *korat_new(const korat_fin *f, ctg_err *e)
{
    korat *k = ctg_calloc(1, sizeof *k);
    if (!k) {
        err_set(e, "korat: out of memory");
        return NULL;
    }
    k->f = f;
    if (!layout(k, e)) {
        korat_free(k);
        return NULL;
    }
    return k;
}

void korat_free(korat *k)
{
    if (!k)
        return;
    ctg_free(k->slots);
    ctg_free(k->class_base);
    ctg_free(k->obj_base);
    ctg_free(k->vec);
    ctg_free(k->stack);
    ctg_free(k);
}

size_t korat_n_slots(const korat *k) { return k->n_slots; }
korat_slot korat_slot_of(const korat *k, size_t slot) { return k->slots[slot]; }
const uint32_t *korat_vector(const korat *k) { return k->vec; }
const korat_stats *korat_get_stats(const korat *k) { return &k->st; }

size_t korat_slot_index(const korat *k, int cls, int obj, int field)
{
    if (cls == KORAT_ROOT)
        return (size_t)field;
    return k->class_base[cls] + (size_t)obj * k->f->classes[cls].n_fields + (size_t)field;
}

/* ==== the search ===================================================================== */

/* Increments slot s if its domain allows; the first `depth` entries of the
 * stack are the fields read before s (symmetry breaking looks at them). */
static bool inc_field(korat *k, size_t s, size_t depth)
{
    const korat_field *fl = korat_field_of(k, s);
    if (fl->kind == KF_VAL) {
        if (k->vec[s] + 1 >= fl->n_vals)
            return false;
        k->vec[s]++;
        return true;
    }
    /* highest object index of the target class among earlier fields */
    long max = -1;
    for (size_t i = 0; i < depth; i++) {
        size_t t = k->stack[i];
        const korat_field *tf = korat_field_of(k, t);
        if (tf->kind == KF_PTR && tf->target == fl->target && (long)k->vec[t] - 1 > max)
            max = (long)k->vec[t] - 1;
    }
    long limit = max + 2; /* values 0 (NULL) .. object max+1 */
    if (limit > k->f->classes[fl->target].n_objs)
        limit = k->f->classes[fl->target].n_objs;
    if ((long)k->vec[s] + 1 > limit)
        return false;
    k->vec[s]++;
    return true;
}

void korat_set_vector(korat *k, const uint32_t *vec)
{
    memcpy(k->vec, vec, k->n_slots * sizeof *vec);
}

bool korat_advance(korat *k, const size_t *order, size_t n_order, bool valid)
{
    k->st.candidates++;
    k->st.valid += valid;
    assert(n_order <= k->n_slots);
    memcpy(k->stack, order, n_order * sizeof *order);
    size_t depth = n_order;
    while (depth > 0) {
        size_t s = k->stack[--depth];
        if (inc_field(k, s, depth))
            return true;
        k->vec[s] = 0;
    }
    return false;
}

/* ==== in-process repOk ======================================================== */

struct korat_view {
    korat *k;
    size_t *order;
    size_t n_order;
    uint8_t *read; /* per slot: already in the ordering */
};

static void kv_touch(korat_view *v, size_t slot)
{
    if (!v->read[slot]) {
        v->read[slot] = 1;
        v->order[v->n_order++] = slot;
    }
}

int korat_view_class(const korat_view *v, korat_ref obj)
{
    assert(obj > 0 && obj <= v->k->n_objs);
    int c = 0;
    while ((size_t)c + 1 < v->k->f->n_classes && obj - 1 >= v->k->obj_base[c + 1])
        c++;
    return c;
}

int korat_view_index(const korat_view *v, korat_ref obj) { return obj - 1 - v->k->obj_base[korat_view_class(v, obj)]; }

int korat_view_n_objects(const korat_view *v) { return v->k->n_objs; }

/* Reference of pointer value x of a field pointing to class target. */
static korat_ref to_ref(const korat *k, int target, uint32_t x)
{
    return x == 0 ? 0 : k->obj_base[target] + (int)x;
}

static size_t obj_slot(korat_view *v, korat_ref obj, int field)
{
    int c = korat_view_class(v, obj);
    assert(field >= 0 && (size_t)field < v->k->f->classes[c].n_fields);
    return korat_slot_index(v->k, c, korat_view_index(v, obj), field);
}

korat_ref korat_view_root_ptr(korat_view *v, int root)
{
    assert(root >= 0 && (size_t)root < v->k->f->n_roots && v->k->f->roots[root].kind == KF_PTR);
    kv_touch(v, (size_t)root);
    return to_ref(v->k, v->k->f->roots[root].target, v->k->vec[root]);
}

int64_t kv_root_val(korat_view *v, int root)
{
    assert(root >= 0 && (size_t)root < v->k->f->n_roots && v->k->f->roots[root].kind == KF_VAL);
    kv_touch(v, (size_t)root);
    return v->k->f->roots[root].vals[v->k->vec[root]];
}

korat_ref korat_view_ptr(korat_view *v, korat_ref obj, int field)
{
    size_t s = obj_slot(v, obj, field);
    const korat_field *fl = korat_field_of(v->k, s);
    assert(fl->kind == KF_PTR);
    kv_touch(v, s);
    return to_ref(v->k, fl->target, v->k->vec[s]);
}

int64_t kv_val(korat_view *v, korat_ref obj, int field)
{
    size_t s = obj_slot(v, obj, field);
    const korat_field *fl = korat_field_of(v->k, s);
    assert(fl->kind == KF_VAL);
    kv_touch(v, s);
    return fl->vals[v->k->vec[s]];
}

/* A view recording into fresh buffers; false on oom. */
static bool view_init(korat_view *v, korat *k)
{
    v->k = k;
    v->n_order = 0;
    v->order = ctg_calloc(k->n_slots, sizeof(size_t));
    v->read = ctg_calloc(k->n_slots, 1);
    return v->order && v->read;
}

static void view_release(korat_view *v)
{
    ctg_free(v->order);
    ctg_free(v->read);
}

int korat_check(korat *k, korat_repok ok, void *user, size_t *order, size_t *n_order)
{
    korat_view v;
    if (!view_init(&v, k)) {
        view_release(&v);
        return -1;
    }
    int r = ok(&v, user);
    if (order) {
        memcpy(order, v.order, v.n_order * sizeof *order);
        *n_order = v.n_order;
    }
    view_release(&v);
    return r;
}

long korat_run(korat *k, korat_repok ok, korat_yield yield, void *user, uint64_t max_cands)
{
    korat_view v;
    long found = view_init(&v, k) ? 0 : -1;
    for (uint64_t n = 0; found >= 0 && (!max_cands || n < max_cands); n++) {
        v.n_order = 0;
        memset(v.read, 0, k->n_slots);
        bool valid = ok(&v, user);
        if (valid) {
            found++;
            if (yield)
                yield(k, user);
        }
        if (!korat_advance(k, v.order, v.n_order, valid))
            break;
    }
    view_release(&v);
    return found;
}
