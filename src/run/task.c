/*
 * task.c - sv-benchmarks task definitions and Test-Comp property files
 * (see task.h).
 */
#include "task.h"

#include <string.h>
#include <yaml.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../suite/suite.h"


/* ==== YAML helpers ========================================================= */

/* The value node of key in a mapping node, NULL when absent. */
static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strlen(key) == k->data.scalar.length &&
            !memcmp(k->data.scalar.value, key, k->data.scalar.length))
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

/* A copy of a scalar node's text, NULL when n is not a scalar (or oom). */
static char *scalar(yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE)
        return NULL;
    return ctg_strndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

/* The base name of a property file without ".prp". */
static char *prop_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".prp"))
        n -= 4;
    return ctg_strndup(b, n);
}

/* Joins a path relative to the task file's directory. */
static char *beside(const char *yml, const char *rel)
{
    const char *slash = strrchr(yml, '/');
    if (rel[0] == '/' || !slash)
        return ctg_strdup(rel);
    char *dir = ctg_strndup(yml, (size_t)(slash - yml));
    if (!dir)
        return NULL;
    char *p = fs_join(dir, rel);
    ctg_free(dir);
    return p;
}

/* ==== the task ============================================================= */

/* Reads input_files: one scalar, or a sequence of one. */
static bool read_input(const char *yml, yaml_document_t *d, yaml_node_t *root, ctg_task *t,
                       ctg_err *e)
{
    yaml_node_t *in = map_get(d, root, "input_files");
    if (in && in->type == YAML_SEQUENCE_NODE) {
        yaml_node_item_t *it = in->data.sequence.items.start;
        long n = in->data.sequence.items.top - it;
        if (n != 1)
            return err_set(e, "%s: input_files lists %ld files; ctestgen takes one program per "
                              "task (give the files directly: ctestgen run A.c B.c)", yml, n);
        in = yaml_document_get_node(d, *it);
    }
    char *rel = scalar(in);
    if (!rel)
        return err_set(e, "%s: no input_files entry naming the program; add "
                          "input_files: 'prog.c'", yml);
    t->program = beside(yml, rel);
    ctg_free(rel);
    return t->program || err_set(e, "%s: out of memory", yml);
}

/* Reads properties: - property_file: PATH ... (names only). */
static bool read_props(const char *yml, yaml_document_t *d, yaml_node_t *root, ctg_task *t,
                       ctg_err *e)
{
    yaml_node_t *ps = map_get(d, root, "properties");
    if (!ps)
        return true;
    if (ps->type != YAML_SEQUENCE_NODE)
        return err_set(e, "%s: properties is not a list; write '- property_file: FILE.prp'",
                       yml);
    long n = ps->data.sequence.items.top - ps->data.sequence.items.start;
    t->props = ctg_calloc((size_t)n + 1, sizeof *t->props);
    if (!t->props)
        return err_set(e, "%s: out of memory", yml);
    for (long i = 0; i < n; i++) {
        yaml_node_t *p = yaml_document_get_node(d, ps->data.sequence.items.start[i]);
        char *file = scalar(map_get(d, p, "property_file"));
        if (!file)
            return err_set(e, "%s: property %ld has no property_file", yml, i + 1);
        char *path = beside(yml, file);
        ctg_err le = {{0}};
        const char *known = path ? task_property(path, &le) : NULL;
        t->props[t->n_props] = known ? ctg_strdup(known) : prop_name(file);
        ctg_free(path);
        ctg_free(file);
        if (!t->props[t->n_props++])
            return err_set(e, "%s: out of memory", yml);
    }
    return true;
}

/* Reads the parsed document into t. */
static bool read_task(const char *yml, yaml_document_t *d, ctg_task *t, ctg_err *e)
{
    yaml_node_t *root = yaml_document_get_root_node(d);
    if (!root || root->type != YAML_MAPPING_NODE)
        return err_set(e, "%s: not a task definition (no top-level mapping); see "
                          "sv-benchmarks' format 2.0", yml);
    char *ver = scalar(map_get(d, root, "format_version"));
    bool v2 = ver && !strcmp(ver, "2.0");
    if (!v2) {
        err_set(e, "%s: format_version is %s%s%s, ctestgen reads '2.0'; convert the task", yml,
                ver ? "'" : "", ver ? ver : "missing", ver ? "'" : "");
        ctg_free(ver);
        return false;
    }
    ctg_free(ver);
    if (!read_input(yml, d, root, t, e) || !read_props(yml, d, root, t, e))
        return false;
    yaml_node_t *opts = map_get(d, root, "options");
    t->language = scalar(map_get(d, opts, "language"));
    char *dm = scalar(map_get(d, opts, "data_model"));
    if (dm && strcmp(dm, "ILP32") && strcmp(dm, "LP64")) {
        err_set(e, "%s: data_model '%s' is not supported (ILP32 or LP64)", yml, dm);
        ctg_free(dm);
        return false;
    }
    t->arch_bits = !dm ? 0 : !strcmp(dm, "ILP32") ? 32 : 64;
    ctg_free(dm);
    return true;
}

bool task_load(const char *yml, ctg_task *t, ctg_err *e)
{
    memset(t, 0, sizeof *t);
    char *text = NULL;
    size_t len = 0;
    if (!fs_read(yml, &text, &len, e))
        return false;
    yaml_parser_t p;
    yaml_document_t d;
    bool ok = yaml_parser_initialize(&p) != 0;
    if (!ok) {
        ctg_free(text);
        return err_set(e, "%s: out of memory", yml);
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, &d)) {
        ok = err_set(e, "%s:%zu: not valid YAML: %s; fix the task file", yml,
                     (size_t)p.problem_mark.line + 1, p.problem ? p.problem : "parse error");
    } else {
        ok = read_task(yml, &d, t, e);
        yaml_document_delete(&d);
    }
    yaml_parser_delete(&p);
    ctg_free(text);
    if (!ok)
        task_release(t);
    return ok;
}

void task_release(ctg_task *t)
{
    for (int i = 0; i < t->n_props; i++)
        ctg_free(t->props[i]);
    ctg_free(t->props);
    ctg_free(t->program);
    ctg_free(t->language);
    memset(t, 0, sizeof *t);
}

/* ==== properties =========================================================== */

/* The property a .prp text states, NULL when neither Test-Comp goal. */
static const char *prop_from_text(const char *text)
{
    if (strstr(text, "@DECISIONEDGE"))
        return PROP_BRANCHES;
    if (strstr(text, "@CALL(reach_error)"))
        return PROP_ERROR_CALL;
    return NULL;
}

/* PROP_BRANCHES or PROP_ERROR_CALL when name is one of them, else NULL. */
static const char *prop_known(const char *name)
{
    return !name                            ? NULL
           : !strcmp(name, PROP_BRANCHES)   ? PROP_BRANCHES
           : !strcmp(name, PROP_ERROR_CALL) ? PROP_ERROR_CALL
                                            : NULL;
}

const char *task_property(const char *arg, ctg_err *e)
{
    const char *known = prop_known(arg);
    if (known)
        return known;
    if (fs_exists(arg)) {
        char *text = NULL;
        if (!fs_read(arg, &text, NULL, e))
            return NULL;
        known = prop_from_text(text);
        ctg_free(text);
        if (!known)
            err_set(e, "%s: not a Test-Comp test property (COVER EDGES(@DECISIONEDGE) or "
                       "COVER EDGES(@CALL(reach_error))); ctestgen generates tests for those two",
                    arg);
        return known;
    }
    char *name = prop_name(arg);
    known = prop_known(name);
    if (!known)
        err_set(e, "--property: '%s' is not supported; use coverage-branches, "
                   "coverage-error-call or a .prp file of one of them", arg);
    ctg_free(name);
    return known;
}

const char *task_spec(const char *property)
{
    return property && !strcmp(property, PROP_ERROR_CALL) ? SUITE_SPEC_ERROR_CALL : SUITE_SPEC_BRANCHES;
}

/* ==== applying a task to the options ======================================= */

static bool is_task_file(const char *p)
{
    size_t n = strlen(p);
    return (n > 4 && !strcmp(p + n - 4, ".yml")) || (n > 5 && !strcmp(p + n - 5, ".yaml"));
}

/* The property to run for a task: --property if given (it must be one the
 * task lists), else branches when listed, else error-call when listed. */
static bool pick_property(ctg_options *o, const ctg_task *t, const char *yml, ctg_err *e)
{
    bool br = false, ec = false;
    for (int i = 0; i < t->n_props; i++) {
        br = br || !strcmp(t->props[i], PROP_BRANCHES);
        ec = ec || !strcmp(t->props[i], PROP_ERROR_CALL);
    }
    if (o->search.property) {
        bool listed = !strcmp(o->search.property, PROP_BRANCHES) ? br : ec;
        if (!listed)
            return err_set(e, "%s: the task does not list %s; drop --property or pick one it "
                              "lists", yml, o->search.property);
        return true;
    }
    if (!br && !ec)
        return err_set(e, "%s: unsupported: none of the task's %d propert%s (%s%s) is a "
                          "Test-Comp test property (coverage-branches, coverage-error-call)",
                       yml, t->n_props, t->n_props == 1 ? "y" : "ies",
                       t->n_props ? t->props[0] : "none", t->n_props > 1 ? ", ..." : "");
    o->search.property = br ? PROP_BRANCHES : PROP_ERROR_CALL;
    return true;
}

/* Takes program, data model and property from the task file. */
static bool apply_task(ctg_options *o, ctg_err *e)
{
    const char *yml = o->positional.items[0];
    if (o->positional.n > 1)
        return err_set(e, "%s: a task file names its program; give no other sources", yml);
    ctg_task t;
    if (!task_load(yml, &t, e))
        return false;
    bool ok = true;
    if (t.language && strcmp(t.language, "C"))
        ok = err_set(e, "%s: unsupported: language %s (ctestgen tests C programs)", yml,
                     t.language);
    else if (!fs_exists(t.program))
        ok = err_set(e, "%s: its input file %s does not exist; put the program beside the task",
                     yml, t.program);
    else
        ok = pick_property(o, &t, yml, e);
    if (ok) {
        if (!o->build.arch_bits)
            o->build.arch_bits = t.arch_bits;
        o->task.yml = yml;
        o->task.program = t.program;
        t.program = NULL;
        o->positional.items[0] = o->task.program;
        o->out.suite_zip = true;
    }
    task_release(&t);
    return ok;
}

bool task_apply(ctg_options *o, ctg_err *e)
{
    if (o->search.property) {
        const char *p = task_property(o->search.property, e);
        if (!p)
            return false;
        o->search.property = p;
    }
    bool runs = o->command && (!strcmp(o->command, "run") || !strcmp(o->command, "build"));
    if (runs && o->positional.n > 0 && is_task_file(o->positional.items[0]) &&
        !apply_task(o, e))
        return false;
    if (!o->build.arch_bits)
        o->build.arch_bits = 64;
    if (!o->search.property)
        o->search.property = PROP_BRANCHES;
    if (!strcmp(o->search.property, PROP_ERROR_CALL) && !o->search.keep_going)
        o->search.stop_on_error = true;
    return true;
}
