/*
 * progdb.c - the program database (see progdb.h): lifecycle and string pool,
 * saving to and loading from JSON with json-c, edge names for messages.
 *
 * File format (format 1), one object:
 *   format, harness (the kind of target.h its harness gives: "values" | "libfuzzer" |
 *   "stdin"; "testcomp" is values), stdin_mixed (optional), error_direct
 *   (optional: every use of an error function is a direct call of it), arch_bits, n_edges, n_cmp,
 *   n_errors, inline_asm,
 *   files:     [path, ...]                 locations refer to files by index
 *   functions: [{name, file, line, col, n_blocks, succ_start[], succ[],
 *                call_start[]?, calls[]?, call_leads[]?, extra?}]  (no calls: none
 *                recorded; call_leads: the blocks whose first call every
 *                execution entering them makes)
 *   branches:  [{func, block, kind ("br" | "switch"), first_edge, n_edges,
 *                cmp_site, cond, file, line, col, targets[], labels[], extra?}]
 *   cmps:      [{branch, kind, file, line, col, const?}] (const: an operand is a constant)
 *   errors:    [{func, block, callee, leads, file, line, col}]
 *   extra?:    any object
 * block_branch and the edges array are rebuilt on load.
 */
#include "progdb.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/hash.h"
#include "../base/mem.h"
#include "../base/target.h"
#include "../runtime/rt_protocol.h"

/* ==== lifecycle and strings ============================================== */

progdb *progdb_new(void)
{
    progdb *db = ctg_calloc(1, sizeof *db);
    if (db) {
        db->arch_bits = 64;
        db->error_escapes = true; /* unknown until the instrumenter looks */
    }
    return db;
}

/* Frees one function's arrays and extra object. */
static void func_release(pdb_func *f)
{
    ctg_free(f->succ_start);
    ctg_free(f->succ);
    ctg_free(f->block_branch);
    ctg_free(f->call_start);
    ctg_free(f->call_leads);
    ctg_free(f->calls);
    if (f->extra)
        json_object_put(f->extra);
}

void progdb_free(progdb *db)
{
    if (!db)
        return;
    for (uint32_t i = 0; db->funcs && i < db->n_funcs; i++)
        func_release(&db->funcs[i]);
    for (uint32_t i = 0; db->branches && i < db->n_branches; i++)
        if (db->branches[i].extra)
            json_object_put(db->branches[i].extra);
    if (db->extra)
        json_object_put(db->extra);
    ctg_free(db->funcs);
    ctg_free(db->branches);
    ctg_free(db->edges);
    ctg_free(db->errors);
    ctg_free(db->cmps);
    for (uint32_t i = 0; i < db->n_strings; i++)
        ctg_free(db->strings[i]);
    ctg_free(db->strings);
    hmap_release(&db->index);
    ctg_free(db);
}

const char *progdb_intern(progdb *db, const char *s)
{
    if (!s)
        s = "";
    uint64_t h = hash_fnv1a64(HASH_FNV64_INIT, s, strlen(s)), id;
    for (size_t cur = 0; hmap_next(&db->index, h, &cur, &id);)
        if (!strcmp(db->strings[id], s))
            return db->strings[id];
    size_t cap = db->cap_strings;
    if (ctg_grow((void **)&db->strings, &cap, db->n_strings + 1, sizeof *db->strings) != 0)
        return NULL;
    db->cap_strings = (uint32_t)cap;
    char *copy = ctg_strdup(s);
    if (!copy || !hmap_push(&db->index, h, db->n_strings)) {
        ctg_free(copy);
        return NULL;
    }
    db->strings[db->n_strings++] = copy;
    return copy;
}

bool progdb_alloc(progdb *db, uint32_t n_funcs, uint32_t n_branches, uint32_t n_edges,
                  uint32_t n_errors, uint32_t n_cmp)
{
    pdb_func *f = ctg_calloc(n_funcs, sizeof *f);
    pdb_branch *b = ctg_calloc(n_branches, sizeof *b);
    pdb_edge *ed = ctg_calloc(n_edges, sizeof *ed);
    pdb_error *er = ctg_calloc(n_errors, sizeof *er);
    pdb_cmp *c = ctg_calloc(n_cmp, sizeof *c);
    if (!f || !b || !ed || !er || !c || db->funcs || db->branches) {
        ctg_free(f), ctg_free(b), ctg_free(ed), ctg_free(er), ctg_free(c);
        return false;
    }
    db->funcs = f, db->n_funcs = n_funcs;
    db->branches = b, db->n_branches = n_branches;
    db->edges = ed, db->n_edges = n_edges;
    db->errors = er, db->n_errors = n_errors;
    db->cmps = c, db->n_cmp = n_cmp;
    return true;
}

/* ==== saving ============================================================== */

/* Files seen while saving, so locations refer to them by index. */
typedef struct file_tab {
    const char **v;
    size_t n, cap;
    bool oom;
} file_tab;

/* Index of file f in the table, adding it when new. */
static int file_index(file_tab *t, const char *f)
{
    if (!f)
        f = "";
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i] == f || strcmp(t->v[i], f) == 0)
            return (int)i;
    if (ctg_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v) != 0) {
        t->oom = true;
        return 0;
    }
    t->v[t->n] = f;
    return (int)t->n++;
}

/* Adds file/line/col keys of loc to o. */
static void put_loc(json_object *o, file_tab *t, pdb_loc loc)
{
    json_object_object_add(o, "file", json_object_new_int(file_index(t, loc.file)));
    json_object_object_add(o, "line", json_object_new_int(loc.line));
    json_object_object_add(o, "col", json_object_new_int(loc.col));
}

static void put_int(json_object *o, const char *k, int64_t v)
{
    json_object_object_add(o, k, json_object_new_int64(v));
}

static void put_str(json_object *o, const char *k, const char *v)
{
    json_object_object_add(o, k, json_object_new_string(v ? v : ""));
}

/* Adds a shared reference to extra under "extra" when present. */
static void put_extra(json_object *o, json_object *extra)
{
    if (extra)
        json_object_object_add(o, "extra", json_object_get(extra));
}

/* JSON array of n uint32 values. */
static json_object *u32_array(const uint32_t *v, uint32_t n)
{
    json_object *a = json_object_new_array_ext((int)n);
    for (uint32_t i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_int64(v[i]));
    return a;
}

static json_object *func_to_json(const pdb_func *f, file_tab *t)
{
    json_object *o = json_object_new_object();
    put_str(o, "name", f->name);
    put_loc(o, t, f->loc);
    put_int(o, "n_blocks", f->n_blocks);
    json_object_object_add(o, "succ_start", u32_array(f->succ_start, f->n_blocks + 1));
    json_object_object_add(o, "succ", u32_array(f->succ, f->succ_start[f->n_blocks]));
    if (f->call_start && f->call_start[f->n_blocks]) {
        json_object_object_add(o, "call_start", u32_array(f->call_start, f->n_blocks + 1));
        json_object_object_add(o, "calls", u32_array(f->calls, f->call_start[f->n_blocks]));
        json_object *leads = json_object_new_array();
        for (uint32_t b = 0; f->call_leads && leads && b < f->n_blocks; b++)
            if (f->call_leads[b])
                json_object_array_add(leads, json_object_new_int64(b));
        json_object_object_add(o, "call_leads", leads);
    }
    put_extra(o, f->extra);
    return o;
}

static json_object *branch_to_json(const progdb *db, const pdb_branch *b, file_tab *t)
{
    json_object *o = json_object_new_object();
    put_int(o, "func", b->func);
    put_int(o, "block", b->block);
    put_str(o, "kind", b->kind == PDB_SWITCH ? "switch" : "br");
    put_int(o, "first_edge", b->first_edge);
    put_int(o, "n_edges", b->n_edges);
    put_int(o, "cmp_site", b->cmp_site);
    put_str(o, "cond", b->cond);
    put_loc(o, t, b->loc);
    json_object *targets = json_object_new_array(), *labels = json_object_new_array();
    for (uint32_t k = 0; k < b->n_edges; k++) {
        const pdb_edge *ed = &db->edges[b->first_edge + k];
        json_object_array_add(targets, json_object_new_int64(ed->target));
        json_object_array_add(labels, json_object_new_string(ed->label ? ed->label : ""));
    }
    json_object_object_add(o, "targets", targets);
    json_object_object_add(o, "labels", labels);
    put_extra(o, b->extra);
    return o;
}

/* Builds the whole JSON document of db. */
static json_object *db_to_json(const progdb *db, file_tab *t)
{
    json_object *o = json_object_new_object();
    put_int(o, "format", PROGDB_FORMAT);
    put_str(o, "harness", target_of_harness((uint32_t)db->harness)->name);
    if (db->stdin_mixed)
        json_object_object_add(o, "stdin_mixed", json_object_new_boolean(1));
    if (!db->error_escapes) /* absent (an older db): unknown, so escaping */
        json_object_object_add(o, "error_direct", json_object_new_boolean(1));
    put_int(o, "arch_bits", db->arch_bits);
    put_int(o, "n_edges", db->n_edges);
    put_int(o, "n_cmp", db->n_cmp);
    put_int(o, "n_errors", db->n_errors);
    put_int(o, "inline_asm", db->n_inline_asm);
    json_object *a = json_object_new_array_ext((int)db->n_funcs);
    for (uint32_t i = 0; i < db->n_funcs; i++)
        json_object_array_add(a, func_to_json(&db->funcs[i], t));
    json_object_object_add(o, "functions", a);
    a = json_object_new_array_ext((int)db->n_branches);
    for (uint32_t i = 0; i < db->n_branches; i++)
        json_object_array_add(a, branch_to_json(db, &db->branches[i], t));
    json_object_object_add(o, "branches", a);
    a = json_object_new_array_ext((int)db->n_cmp);
    for (uint32_t i = 0; i < db->n_cmp; i++) {
        json_object *c = json_object_new_object();
        put_int(c, "branch", db->cmps[i].branch);
        put_str(c, "kind", db->cmps[i].kind);
        put_loc(c, t, db->cmps[i].loc);
        if (db->cmps[i].konst)
            json_object_object_add(c, "const", json_object_new_boolean(1));
        if (db->cmps[i].token)
            put_str(c, "token", db->cmps[i].token);
        json_object_array_add(a, c);
    }
    json_object_object_add(o, "cmps", a);
    a = json_object_new_array_ext((int)db->n_errors);
    for (uint32_t i = 0; i < db->n_errors; i++) {
        json_object *x = json_object_new_object();
        put_int(x, "func", db->errors[i].func);
        put_int(x, "block", db->errors[i].block);
        put_str(x, "callee", db->errors[i].callee);
        if (db->errors[i].leads)
            json_object_object_add(x, "leads", json_object_new_boolean(1));
        put_loc(x, t, db->errors[i].loc);
        json_object_array_add(a, x);
    }
    json_object_object_add(o, "errors", a);
    put_extra(o, db->extra);
    json_object *files = json_object_new_array();
    for (size_t i = 0; i < t->n; i++)
        json_object_array_add(files, json_object_new_string(t->v[i]));
    json_object_object_add(o, "files", files);
    return o;
}

bool progdb_save(const progdb *db, const char *path, ctg_err *e)
{
    file_tab t = {0};
    json_object *o = db_to_json(db, &t);
    size_t len = 0;
    const char *s = o ? json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN |
                                                                 JSON_C_TO_STRING_NOSLASHESCAPE,
                                                          &len)
                      : NULL;
    bool ok = s && !t.oom ? fs_write_atomic(path, s, len, e)
                          : err_set(e, "%s: out of memory while saving the program database", path);
    json_object_put(o);
    ctg_free(t.v);
    return ok;
}

/* ==== loading ============================================================= */

/* Loader state: the document, its file table, the db being filled and the
 * first problem found. */
typedef struct loader {
    progdb *db;
    json_object *files;
    const char *path;
    ctg_err *e;
    bool bad;
} loader;

/* Marks the file corrupt (first problem wins); returns false. */
static bool corrupt(loader *L, const char *what)
{
    if (!L->bad)
        err_set(L->e, "%s: corrupt program database (%s); delete it or rebuild with --no-cache",
                L->path, what);
    L->bad = true;
    return false;
}

/* Integer member k of o in [lo, hi]; marks the file corrupt otherwise. */
static int64_t get_int(loader *L, json_object *o, const char *k, int64_t lo, int64_t hi)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int)) {
        corrupt(L, k);
        return lo;
    }
    int64_t x = json_object_get_int64(v);
    if (x < lo || x > hi) {
        corrupt(L, k);
        return lo;
    }
    return x;
}

/* Interned string member k of o (missing: ""). */
static const char *get_str(loader *L, json_object *o, const char *k)
{
    json_object *v;
    const char *s = "";
    if (json_object_object_get_ex(o, k, &v)) {
        if (!json_object_is_type(v, json_type_string))
            corrupt(L, k);
        else
            s = json_object_get_string(v);
    }
    const char *r = progdb_intern(L->db, s);
    if (!r) {
        if (!L->bad)
            err_set(L->e, "%s: out of memory while loading", L->path);
        L->bad = true;
        return "";
    }
    return r;
}

/* Array member k of o; NULL (and corrupt) when missing. */
static json_object *get_array(loader *L, json_object *o, const char *k)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_array)) {
        corrupt(L, k);
        return NULL;
    }
    return v;
}

/* Takes a reference to the optional "extra" member of o. */
static json_object *get_extra(json_object *o)
{
    json_object *v;
    return json_object_object_get_ex(o, "extra", &v) && v ? json_object_get(v) : NULL;
}

static pdb_loc get_loc(loader *L, json_object *o)
{
    pdb_loc loc = {"", 0, 0};
    int64_t nf = (int64_t)json_object_array_length(L->files);
    int64_t fi = get_int(L, o, "file", 0, nf ? nf - 1 : 0);
    json_object *f = nf ? json_object_array_get_idx(L->files, (size_t)fi) : NULL;
    loc.file = progdb_intern(L->db, f ? json_object_get_string(f) : "");
    if (!loc.file)
        loc.file = "", corrupt(L, "out of memory");
    loc.line = (int)get_int(L, o, "line", 0, INT32_MAX);
    loc.col = (int)get_int(L, o, "col", 0, INT32_MAX);
    return loc;
}

/* Reads an array of n uint32 values below `bound` into a new buffer. */
static uint32_t *get_u32s(loader *L, json_object *o, const char *k, uint32_t n, uint32_t bound)
{
    json_object *a = get_array(L, o, k);
    if (!a || json_object_array_length(a) != n) {
        corrupt(L, k);
        return NULL;
    }
    uint32_t *v = ctg_calloc(n + 1, sizeof *v);
    if (!v) {
        corrupt(L, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t x = json_object_get_int64(json_object_array_get_idx(a, i));
        if (x < 0 || x > bound)
            corrupt(L, k);
        v[i] = (uint32_t)x;
    }
    return v;
}

/* The optional call lists of f (absent: no block calls anything). */
static void load_calls(loader *L, json_object *o, pdb_func *f)
{
    json_object *calls;
    if (!json_object_object_get_ex(o, "calls", &calls)) {
        f->call_start = ctg_calloc(f->n_blocks + 1, sizeof *f->call_start);
        if (!f->call_start)
            corrupt(L, "out of memory");
        return;
    }
    if (!json_object_is_type(calls, json_type_array)) {
        corrupt(L, "calls");
        return;
    }
    uint32_t nc = (uint32_t)json_object_array_length(calls);
    f->call_start = get_u32s(L, o, "call_start", f->n_blocks + 1, nc);
    f->calls = get_u32s(L, o, "calls", nc, L->db->n_funcs - 1);
    for (uint32_t b = 0; f->call_start && b < f->n_blocks; b++)
        if (f->call_start[b] > f->call_start[b + 1])
            corrupt(L, "call_start");
    if (f->call_start && f->call_start[f->n_blocks] != nc)
        corrupt(L, "call_start");
    json_object *leads;
    f->call_leads = ctg_calloc(f->n_blocks + 1, 1);
    if (!f->call_leads)
        corrupt(L, "out of memory");
    else if (json_object_object_get_ex(o, "call_leads", &leads) &&
             json_object_is_type(leads, json_type_array))
        for (size_t i = 0; i < json_object_array_length(leads); i++) {
            int64_t b = json_object_get_int64(json_object_array_get_idx(leads, i));
            if (b < 0 || b >= f->n_blocks || !f->call_start ||
                f->call_start[b] == f->call_start[b + 1])
                corrupt(L, "call_leads");
            else
                f->call_leads[b] = 1;
        }
}

static void load_func(loader *L, json_object *o, pdb_func *f)
{
    f->name = get_str(L, o, "name");
    f->loc = get_loc(L, o);
    f->n_blocks = (uint32_t)get_int(L, o, "n_blocks", 1, 1 << 28);
    json_object *succ = get_array(L, o, "succ");
    uint32_t ns = succ ? (uint32_t)json_object_array_length(succ) : 0;
    f->succ_start = get_u32s(L, o, "succ_start", f->n_blocks + 1, ns);
    f->succ = get_u32s(L, o, "succ", ns, f->n_blocks - 1);
    f->block_branch = ctg_malloc((f->n_blocks + 1) * sizeof *f->block_branch);
    if (!f->block_branch)
        corrupt(L, "out of memory");
    for (uint32_t b = 0; f->block_branch && b < f->n_blocks; b++)
        f->block_branch[b] = -1;
    for (uint32_t b = 0; f->succ_start && b < f->n_blocks; b++)
        if (f->succ_start[b] > f->succ_start[b + 1])
            corrupt(L, "succ_start");
    if (f->succ_start && f->succ_start[f->n_blocks] != ns)
        corrupt(L, "succ_start");
    load_calls(L, o, f);
    f->extra = get_extra(o);
}

/* Loads branch i; its edges go to db->edges. */
static void load_branch(loader *L, json_object *o, uint32_t i)
{
    progdb *db = L->db;
    pdb_branch *b = &db->branches[i];
    b->func = (uint32_t)get_int(L, o, "func", 0, (int64_t)db->n_funcs - 1);
    if (L->bad)
        return;
    pdb_func *f = &db->funcs[b->func];
    b->block = (uint32_t)get_int(L, o, "block", 0, f->n_blocks - 1);
    b->kind = strcmp(get_str(L, o, "kind"), "switch") == 0 ? PDB_SWITCH : PDB_BR;
    b->first_edge = (uint32_t)get_int(L, o, "first_edge", 0, db->n_edges);
    b->n_edges = (uint32_t)get_int(L, o, "n_edges", 1, db->n_edges - b->first_edge);
    b->cmp_site = (int32_t)get_int(L, o, "cmp_site", -1, (int64_t)db->n_cmp - 1);
    b->cond = get_str(L, o, "cond");
    b->loc = get_loc(L, o);
    b->extra = get_extra(o);
    json_object *t = get_array(L, o, "targets"), *l = get_array(L, o, "labels");
    if (L->bad || json_object_array_length(t) != b->n_edges ||
        json_object_array_length(l) != b->n_edges)
        return (void)corrupt(L, "targets");
    for (uint32_t k = 0; k < b->n_edges; k++) {
        pdb_edge *ed = &db->edges[b->first_edge + k];
        if (ed->label)
            return (void)corrupt(L, "first_edge");
        int64_t tg = json_object_get_int64(json_object_array_get_idx(t, k));
        if (tg < 0 || tg >= f->n_blocks)
            return (void)corrupt(L, "targets");
        ed->branch = i;
        ed->target = (uint32_t)tg;
        ed->label = progdb_intern(db, json_object_get_string(json_object_array_get_idx(l, k)));
        if (!ed->label)
            return (void)corrupt(L, "out of memory");
    }
    if (f->block_branch)
        f->block_branch[b->block] = (int32_t)i;
}

/* Loads the arrays of the document into L->db (already allocated). */
static void load_arrays(loader *L, json_object *root)
{
    progdb *db = L->db;
    json_object *a = get_array(L, root, "functions");
    for (uint32_t i = 0; !L->bad && i < db->n_funcs; i++)
        load_func(L, json_object_array_get_idx(a, i), &db->funcs[i]);
    a = get_array(L, root, "branches");
    for (uint32_t i = 0; !L->bad && i < db->n_branches; i++)
        load_branch(L, json_object_array_get_idx(a, i), i);
    for (uint32_t k = 0; !L->bad && k < db->n_edges; k++)
        if (!db->edges[k].label)
            corrupt(L, "edges not covered by branches");
    a = get_array(L, root, "cmps");
    for (uint32_t i = 0; !L->bad && i < db->n_cmp; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        db->cmps[i].branch = (int32_t)get_int(L, o, "branch", -1, (int64_t)db->n_branches - 1);
        db->cmps[i].kind = get_str(L, o, "kind");
        db->cmps[i].loc = get_loc(L, o);
        json_object *k; /* optional: absent means no constant operand */
        db->cmps[i].konst = json_object_object_get_ex(o, "const", &k) && json_object_get_boolean(k);
        db->cmps[i].token = NULL; /* optional */
        if (json_object_object_get_ex(o, "token", &k) && json_object_is_type(k, json_type_string))
            db->cmps[i].token = progdb_intern(db, json_object_get_string(k));
    }
    a = get_array(L, root, "errors");
    for (uint32_t i = 0; !L->bad && i < db->n_errors; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        pdb_error *er = &db->errors[i];
        er->func = (uint32_t)get_int(L, o, "func", 0, (int64_t)db->n_funcs - 1);
        if (L->bad)
            break;
        er->block = (uint32_t)get_int(L, o, "block", 0, db->funcs[er->func].n_blocks - 1);
        er->callee = get_str(L, o, "callee");
        er->loc = get_loc(L, o);
        json_object *k;
        er->leads = json_object_object_get_ex(o, "leads", &k) && json_object_get_boolean(k);
    }
}

/* Length of array member k, or corrupt. */
static uint32_t array_len(loader *L, json_object *root, const char *k)
{
    json_object *a = get_array(L, root, k);
    return a ? (uint32_t)json_object_array_length(a) : 0;
}

/* Fills db from a parsed document; false with L->e set on a bad document. */
static bool load_doc(loader *L, json_object *root)
{
    progdb *db = L->db;
    if (!json_object_is_type(root, json_type_object))
        return corrupt(L, "not an object");
    if (get_int(L, root, "format", 0, 1000) != PROGDB_FORMAT)
        return corrupt(L, "unknown format version");
    const char *hn = get_str(L, root, "harness");
    const target_kind *k = target_by_name(hn); /* "testcomp" before there were kinds */
    db->harness = (int)(k ? k->harness : target_of_harness(0)->harness);
    json_object *mixed;
    db->stdin_mixed = json_object_object_get_ex(root, "stdin_mixed", &mixed) &&
                      json_object_get_boolean(mixed);
    db->error_escapes = !(json_object_object_get_ex(root, "error_direct", &mixed) &&
                          json_object_get_boolean(mixed));
    db->arch_bits = (int)get_int(L, root, "arch_bits", 32, 64);
    db->n_inline_asm = (uint32_t)get_int(L, root, "inline_asm", 0, UINT32_MAX);
    L->files = get_array(L, root, "files");
    uint32_t ne = (uint32_t)get_int(L, root, "n_edges", 0, 1 << 28);
    uint32_t nc = array_len(L, root, "cmps"), nx = array_len(L, root, "errors");
    if (get_int(L, root, "n_cmp", 0, 1 << 28) != nc ||
        get_int(L, root, "n_errors", 0, 1 << 28) != nx)
        return corrupt(L, "counts");
    uint32_t nf = array_len(L, root, "functions"), nb = array_len(L, root, "branches");
    if (L->bad)
        return false;
    if (!progdb_alloc(db, nf, nb, ne, nx, nc))
        return corrupt(L, "out of memory");
    load_arrays(L, root);
    db->extra = get_extra(root);
    return !L->bad;
}

progdb *progdb_load(const char *path, ctg_err *e)
{
    char *text;
    size_t len;
    if (!fs_read(path, &text, &len, e))
        return NULL;
    enum json_tokener_error jerr = json_tokener_success;
    json_object *root = json_tokener_parse_verbose(text, &jerr);
    ctg_free(text);
    if (!root) {
        err_set(e, "%s: corrupt program database (%s); delete it or rebuild with --no-cache", path,
                json_tokener_error_desc(jerr));
        return NULL;
    }
    progdb *db = progdb_new();
    loader L = {db, NULL, path, e, false};
    bool ok = db ? load_doc(&L, root) : err_set(e, "%s: out of memory while loading", path);
    json_object_put(root);
    if (!ok) {
        progdb_free(db);
        return NULL;
    }
    return db;
}

/* ==== names =============================================================== */

const char *progdb_edge_name(const progdb *db, uint32_t edge)
{
    static _Thread_local char buf[512];
    if (edge >= db->n_edges) {
        snprintf(buf, sizeof buf, "edge%u", edge);
        return buf;
    }
    const pdb_edge *ed = &db->edges[edge];
    const pdb_branch *b = &db->branches[ed->branch];
    uint32_t k = edge - b->first_edge;
    char side[32];
    if (b->kind == PDB_BR)
        snprintf(side, sizeof side, "%s", k == 0 ? "T" : "F");
    else if (k + 1 == b->n_edges)
        snprintf(side, sizeof side, "D");
    else
        snprintf(side, sizeof side, "c%u", k);
    snprintf(buf, sizeof buf, "%s:%u:%s", db->funcs[b->func].name, b->block, side);
    return buf;
}

const char *progdb_edge_loc(const progdb *db, uint32_t edge)
{
    static _Thread_local char buf[1024];
    if (edge >= db->n_edges)
        return "?";
    const pdb_loc *l = &db->branches[db->edges[edge].branch].loc;
    if (!l->file || !l->file[0])
        return "?";
    snprintf(buf, sizeof buf, "%s:%d:%d", l->file, l->line, l->col);
    return buf;
}
