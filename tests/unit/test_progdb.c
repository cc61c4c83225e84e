/*
 * test_progdb.c - the program database: save/load round trip with extra
 * objects, edge names, string interning, corrupt and missing files, and
 * allocation failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "instrument/progdb.h"
#include "runtime/rt_protocol.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ctg-progdb-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(tmpdir, NULL) ? 0 : -1;
}

/* Path of name in the temporary directory (static buffer). */
static const char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

/* Sets the CSR CFG of f from an adjacency list given as pairs. */
static void set_cfg(pdb_func *f, uint32_t n_blocks, const uint32_t *starts, const uint32_t *succ,
                    uint32_t n_succ)
{
    f->n_blocks = n_blocks;
    f->succ_start = ctg_calloc(n_blocks + 1, sizeof *f->succ_start);
    f->succ = ctg_calloc(n_succ + 1, sizeof *f->succ);
    f->block_branch = ctg_calloc(n_blocks, sizeof *f->block_branch);
    memcpy(f->succ_start, starts, (n_blocks + 1) * sizeof *starts);
    memcpy(f->succ, succ, n_succ * sizeof *succ);
    for (uint32_t b = 0; b < n_blocks; b++)
        f->block_branch[b] = -1;
}

/* A db with one br and one switch (2 cases) in "main", one error site. */
static progdb *sample_db(void)
{
    progdb *db = progdb_new();
    assert_non_null(db);
    assert_true(progdb_alloc(db, 2, 2, 5, 1, 1));
    db->harness = CTG_HARNESS_LIBFUZZER;
    db->arch_bits = 32;
    db->n_inline_asm = 3;
    const char *file = progdb_intern(db, "/src/prog.c");
    pdb_func *f = &db->funcs[0];
    f->name = progdb_intern(db, "main");
    f->loc = (pdb_loc){file, 10, 0};
    static const uint32_t st0[] = {0, 2, 5, 5, 5, 5}, sc0[] = {1, 2, 3, 4, 2};
    set_cfg(f, 5, st0, sc0, 5);
    static const uint32_t cs0[] = {0, 0, 0, 0, 1, 1}, calls0[] = {1}; /* b3 calls func 1 */
    f->call_start = ctg_malloc(sizeof cs0);
    f->calls = ctg_malloc(sizeof calls0);
    memcpy(f->call_start, cs0, sizeof cs0);
    memcpy(f->calls, calls0, sizeof calls0);
    f->extra = json_object_new_object();
    json_object_object_add(f->extra, "loops", json_object_new_int(1));
    pdb_func *g = &db->funcs[1];
    g->name = progdb_intern(db, "reach_error");
    g->loc = (pdb_loc){file, 3, 0};
    static const uint32_t st1[] = {0, 0}, sc1[] = {0};
    set_cfg(g, 1, st1, sc1, 0);
    db->branches[0] = (pdb_branch){0, 0, PDB_BR, 0, 2, 0, progdb_intern(db, "icmp sle"),
                                   {file, 12, 9}, NULL};
    db->branches[0].extra = json_object_new_array();
    json_object_array_add(db->branches[0].extra, json_object_new_double(0.5));
    db->branches[1] = (pdb_branch){0, 1, PDB_SWITCH, 2, 3, -1, progdb_intern(db, "switch"),
                                   {file, 14, 5}, NULL};
    f->block_branch[0] = 0, f->block_branch[1] = 1;
    static const char *const labels[] = {"true", "false", "case -1", "case 7", "default"};
    static const uint32_t owner[] = {0, 0, 1, 1, 1}, target[] = {1, 2, 2, 3, 4};
    for (int k = 0; k < 5; k++)
        db->edges[k] = (pdb_edge){owner[k], target[k], progdb_intern(db, labels[k])};
    db->cmps[0] = (pdb_cmp){0, progdb_intern(db, "icmp"), {file, 12, 11}, true,
                            progdb_intern(db, "726f6f74")};
    db->errors[0] = (pdb_error){0, 3, {file, 16, 9}, progdb_intern(db, "reach_error"), true};
    db->extra = json_object_new_string("analysis");
    return db;
}

static void assert_loc_equal(pdb_loc a, pdb_loc b)
{
    assert_string_equal(a.file, b.file);
    assert_int_equal(a.line, b.line);
    assert_int_equal(a.col, b.col);
}

/* Calls recorded for block b of f (a function without lists calls nothing). */
static uint32_t n_calls(const pdb_func *f, uint32_t b)
{
    return f->call_start ? f->call_start[b + 1] - f->call_start[b] : 0;
}

static void assert_func_equal(const pdb_func *a, const pdb_func *b)
{
    for (uint32_t k = 0; k < a->n_blocks; k++) {
        assert_int_equal(n_calls(a, k), n_calls(b, k));
        for (uint32_t i = 0; i < n_calls(a, k); i++)
            assert_int_equal(a->calls[a->call_start[k] + i], b->calls[b->call_start[k] + i]);
    }
    assert_string_equal(a->name, b->name);
    assert_loc_equal(a->loc, b->loc);
    assert_int_equal(a->n_blocks, b->n_blocks);
    assert_memory_equal(a->succ_start, b->succ_start, (a->n_blocks + 1) * sizeof *a->succ_start);
    assert_memory_equal(a->succ, b->succ, a->succ_start[a->n_blocks] * sizeof *a->succ);
    assert_memory_equal(a->block_branch, b->block_branch, a->n_blocks * sizeof *a->block_branch);
}

static void assert_branch_equal(const pdb_branch *a, const pdb_branch *b)
{
    assert_int_equal(a->func, b->func);
    assert_int_equal(a->block, b->block);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->first_edge, b->first_edge);
    assert_int_equal(a->n_edges, b->n_edges);
    assert_int_equal(a->cmp_site, b->cmp_site);
    assert_string_equal(a->cond, b->cond);
    assert_loc_equal(a->loc, b->loc);
}

/* Everything survives save + load, extra objects included. */
static void test_round_trip(void **state)
{
    (void)state;
    progdb *db = sample_db();
    ctg_err e = {{0}};
    assert_true(progdb_save(db, tmp_path("db.json"), &e));
    progdb *ld = progdb_load(tmp_path("db.json"), &e);
    assert_non_null(ld);
    assert_int_equal(ld->harness, CTG_HARNESS_LIBFUZZER);
    assert_int_equal(ld->arch_bits, 32);
    assert_int_equal(ld->n_inline_asm, 3);
    assert_int_equal(ld->n_funcs, 2);
    assert_int_equal(ld->n_branches, 2);
    assert_int_equal(ld->n_edges, 5);
    assert_int_equal(ld->n_cmp, 1);
    assert_int_equal(ld->n_errors, 1);
    for (uint32_t i = 0; i < 2; i++)
        assert_func_equal(&db->funcs[i], &ld->funcs[i]);
    for (uint32_t i = 0; i < 2; i++)
        assert_branch_equal(&db->branches[i], &ld->branches[i]);
    for (uint32_t k = 0; k < 5; k++) {
        assert_int_equal(ld->edges[k].branch, db->edges[k].branch);
        assert_int_equal(ld->edges[k].target, db->edges[k].target);
        assert_string_equal(ld->edges[k].label, db->edges[k].label);
    }
    assert_int_equal(ld->cmps[0].branch, 0);
    assert_string_equal(ld->cmps[0].kind, "icmp");
    assert_loc_equal(ld->cmps[0].loc, db->cmps[0].loc);
    assert_true(ld->cmps[0].konst);
    assert_string_equal(ld->cmps[0].token, "726f6f74");
    assert_int_equal(ld->errors[0].block, 3);
    assert_string_equal(ld->errors[0].callee, "reach_error");
    assert_true(ld->errors[0].leads); /* the error call leads its block (engine_prove.c) */
    assert_loc_equal(ld->errors[0].loc, db->errors[0].loc);
    assert_string_equal(json_object_to_json_string(ld->funcs[0].extra), "{ \"loops\": 1 }");
    assert_true(json_object_equal(ld->branches[0].extra, db->branches[0].extra));
    assert_null(ld->branches[1].extra);
    assert_string_equal(json_object_get_string(ld->extra), "analysis");
    progdb_free(db);
    progdb_free(ld);
}

static void test_edge_names(void **state)
{
    (void)state;
    progdb *db = sample_db();
    assert_string_equal(progdb_edge_name(db, 0), "main:0:T");
    assert_string_equal(progdb_edge_name(db, 1), "main:0:F");
    assert_string_equal(progdb_edge_name(db, 2), "main:1:c0");
    assert_string_equal(progdb_edge_name(db, 3), "main:1:c1");
    assert_string_equal(progdb_edge_name(db, 4), "main:1:D");
    assert_string_equal(progdb_edge_name(db, 99), "edge99");
    assert_string_equal(progdb_edge_loc(db, 3), "/src/prog.c:14:5");
    progdb_free(db);
}

/* Equal strings share one copy, across a growing table. */
static void test_intern(void **state)
{
    (void)state;
    progdb *db = progdb_new();
    const char *a = progdb_intern(db, "true");
    char name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "case %d", i);
        assert_non_null(progdb_intern(db, name));
    }
    assert_ptr_equal(progdb_intern(db, "true"), a);
    assert_ptr_equal(progdb_intern(db, "case 500"), progdb_intern(db, "case 500"));
    assert_int_equal(db->n_strings, 1001);
    assert_string_equal(progdb_intern(db, NULL), "");
    progdb_free(db);
}

/* Writes text to name and expects progdb_load to reject it with a message
 * containing want. */
static void expect_load_error(const char *text, const char *want)
{
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(tmp_path("bad.json"), text, strlen(text), &e));
    progdb *db = progdb_load(tmp_path("bad.json"), &e);
    assert_null(db);
    if (!strstr(e.msg, want))
        fail_msg("message '%s' lacks '%s'", e.msg, want);
    assert_null(strchr(e.msg, '\n'));
}

static void test_corrupt(void **state)
{
    (void)state;
    expect_load_error("{ \"format\": 1, ", "corrupt program database");
    expect_load_error("[1, 2]", "not an object");
    expect_load_error("{\"format\": 7}", "unknown format");
    /* a branch pointing at a function that does not exist */
    progdb *db = sample_db();
    ctg_err e = {{0}};
    assert_true(progdb_save(db, tmp_path("db.json"), &e));
    progdb_free(db);
    char *text;
    assert_true(fs_read(tmp_path("db.json"), &text, NULL, &e));
    char *p = strstr(text, "\"branches\":[{\"func\":0");
    assert_non_null(p);
    p[strlen("\"branches\":[{\"func\":")] = '7';
    expect_load_error(text, "(func)");
    p[strlen("\"branches\":[{\"func\":")] = '0';
    /* a call to a function that does not exist */
    p = strstr(text, "\"calls\":[1]");
    assert_non_null(p);
    p[strlen("\"calls\":[")] = '5';
    expect_load_error(text, "(calls)");
    ctg_free(text);
    e.msg[0] = '\0';
    assert_null(progdb_load(tmp_path("missing.json"), &e));
    assert_non_null(strstr(e.msg, "missing.json: cannot open"));
}

/* Allocation failures are reported, never a crash. */
static void test_oom(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    progdb *db = sample_db();
    assert_true(progdb_save(db, tmp_path("db.json"), &e));
    progdb_free(db);
    for (long n = 0; n < 40; n++) {
        mem_fail_after(n);
        progdb *ld = progdb_load(tmp_path("db.json"), &e);
        mem_fail_reset();
        if (!ld)
            assert_true(err_is_set(&e));
        progdb_free(ld);
        err_clear(&e);
    }
    mem_fail_after(0);
    assert_null(progdb_new());
    mem_fail_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_edge_names),
        cmocka_unit_test(test_intern),     cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
