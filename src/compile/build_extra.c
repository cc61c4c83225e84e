/*
 * build_extra.c - the binaries beyond prog.cov and prog.sym: the sanitizer
 * binary and the debug twin.
 *
 * prog.dbg is prog.cov again with its line tables (prog.cov drops them:
 * they cost a third of a small program's code generation), built when the
 * first crash of a run needs a stack with files and lines (crash triage).
 *
 * prog.san-LIST (build.h, --sanitize):
 * The program's sources are compiled again with clang's -fsanitize=LIST
 * (UndefinedBehaviorSanitizer's checks are made by the front end;
 * -fno-sanitize-recover: the first report ends the run), linked, prepared
 * and numbered like prog.cov, given the coverage hooks, and generated with
 * AddressSanitizer's pass after -O2 when the list has `address`; clang's
 * driver links the sanitizers' runtimes with ours.  Its line tables stay,
 * so the sanitizers' reports name files and lines.
 *
 * The checks' own branches carry !nosanitize and are not numbered
 * (inst_sites.c), so the binary's ids are prog.cov's: then it can run every
 * input in prog.cov's place.  Where they differ (a check that changed the
 * program's own branches), build_result.san_aligned is false and the
 * binary only re-runs inputs to see what the sanitizers say.
 * prog.san-LIST.ids holds a digest of its numbering for that comparison,
 * and its counts of edges and comparison sites (its executor's maps).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/hash.h"
#include "../base/mem.h"
#include "build_int.h"

/* The parts of --sanitize ctestgen builds (the rest of clang's list is
 * refused with the reason). */
static const char *const san_parts[] = {
    "address", "undefined", "integer", "nullability", "float-divide-by-zero", "implicit-conversion",
    "alignment", "bool", "builtin", "bounds", "enum", "float-cast-overflow", "function",
    "integer-divide-by-zero", "nonnull-attribute", "null", "object-size", "pointer-overflow",
    "return", "returns-nonnull-attribute", "shift", "shift-base", "shift-exponent",
    "signed-integer-overflow", "unsigned-integer-overflow", "unreachable", "vla-bound", NULL};

/* Whether part p (len bytes) is one of san_parts. */
static bool known_part(const char *p, size_t len)
{
    for (int i = 0; san_parts[i]; i++)
        if (strlen(san_parts[i]) == len && !strncmp(san_parts[i], p, len))
            return true;
    return false;
}

bool build_sanitize_list(const char *given, char *norm, size_t cap, ctg_err *e)
{
    norm[0] = 0;
    if (given && !strcmp(given, "none"))
        return true;
    sbuf b = SBUF_INIT;
    for (const char *p = given; p && *p;) {
        size_t len = strcspn(p, ",");
        bool fuzzer = (len == 6 && !strncmp(p, "fuzzer", 6)) ||
                      (len == 14 && !strncmp(p, "fuzzer-no-link", 14)); /* ctestgen fuzzes */
        if (!fuzzer && !known_part(p, len)) {
            sbuf_release(&b);
            return err_set(e, "--sanitize: '%.*s' is not supported; use address, undefined "
                              "(or one of its checks, such as signed-integer-overflow), or both",
                           (int)len, p);
        }
        if (!fuzzer)
            sbuf_printf(&b, "%s%.*s", b.len ? "," : "", (int)len, p);
        p += len + (p[len] == ',');
    }
    bool ok = sbuf_ok(&b) && b.len < cap;
    if (ok && b.len)
        memcpy(norm, b.data, b.len + 1);
    sbuf_release(&b);
    return ok || err_set(e, "--sanitize: the list '%s' is too long or out of memory", given);
}

/* The file name of the binary for list (commas as '+'). */
static void san_name(const char *list, char *buf, size_t cap)
{
    snprintf(buf, cap, "prog.san-%s", list);
    for (char *p = buf; *p; p++)
        if (*p == ',')
            *p = '+';
}

/* A digest of db's numbering: counts, and each branch's place and edges. */
static uint64_t sites_digest(const progdb *db)
{
    uint64_t h = hash_combine64(hash_combine64(db->n_edges, db->n_cmp), db->n_errors);
    for (uint32_t i = 0; i < db->n_branches; i++) {
        const pdb_branch *b = &db->branches[i];
        h = hash_combine64(h, ((uint64_t)(uint32_t)b->loc.line << 32) | (uint32_t)b->loc.col);
        h = hash_combine64(h, b->n_edges);
    }
    return h;
}

/* Reads the digest file `ids` ("DIGEST EDGES CMPS") into r: whether it
 * matches prog.cov's db, and the binary's own counts. */
static void read_ids(const char *ids, build_result *r)
{
    FILE *f = fopen(ids, "r");
    unsigned long long d = 0;
    unsigned edges = 0, cmps = 0;
    bool ok = f && fscanf(f, "%llx %u %u", &d, &edges, &cmps) == 3;
    if (f)
        fclose(f);
    r->san_aligned = ok && d == sites_digest(r->db);
    r->san_n_edges = ok ? edges : r->db->n_edges;
    r->san_n_cmp = ok ? cmps : r->db->n_cmp;
}

/* B->mod (instrumented) generated with its line tables (plus extra on the
 * level, EMIT_ASAN) and linked as dir/stem; the module is disposed. */
static bool emit_linked(bctx *B, const char *stem, int extra)
{
    unsigned largest = 0, spared = 0;
    int level = bld_codegen_level(B->mod, &largest, &spared, true) | extra;
    gen_files g = {0};
    double passes = 0, codegen = 0;
    bool ok = bld_generate(B, B->mod, stem, level, &g, &passes, &codegen) &&
              bld_link_binary(B, &g, stem, NULL, &codegen);
    LLVMDisposeModule(B->mod);
    B->mod = NULL;
    return ok;
}

/* Prepares and numbers B->mod into a new db (harness as prog.cov's). */
static progdb *number_san(bctx *B, const progdb *cov_db)
{
    int harness = 0;
    progdb *db = progdb_new();
    if (!db) {
        err_set(B->e, "out of memory");
        return NULL;
    }
    if (!inst_prepare(B->mod, &harness, B->e) || !inst_number(B->mod, db, B->e)) {
        progdb_free(db);
        return NULL;
    }
    db->harness = cov_db->harness;
    return db;
}

/* Compiles, numbers, instruments and links prog.san in B->dir; *digest:
 * its numbering's, *edges and *cmps its counts. */
static bool san_fresh(bctx *B, uint64_t *digest, unsigned *edges, unsigned *cmps)
{
    if (!bld_name_files(B))
        return false;
    for (int i = 0; i < B->o->n_sources; i++)
        if (!bld_compile(B, i))
            return false;
    B->ctx = LLVMContextCreate();
    if (!bld_link_modules(B) || !(B->db = number_san(B, B->r->db)))
        return false;
    *digest = sites_digest(B->db);
    *edges = B->db->n_edges;
    *cmps = B->db->n_cmp;
    inst_stats st;
    return inst_cov(B->mod, B->db, &st, B->e) &&
           emit_linked(B, "prog.san", strstr(B->san, "address") ? EMIT_ASAN : 0);
}

/* Checks that every source is C that can be compiled again. */
static bool sources_are_c(const build_opts *o, ctg_err *e)
{
    for (int i = 0; i < o->n_sources; i++) {
        size_t n = strlen(o->sources[i]);
        if (n < 2 || (strcmp(o->sources[i] + n - 2, ".c") && strcmp(o->sources[i] + n - 2, ".i")))
            return err_set(e, "%s: --sanitize needs the program's C sources (clang adds the "
                              "checks), not bitcode", o->sources[i]);
    }
    return true;
}

/* Builds prog.san-LIST into the entry of r, publishing it by rename. */
static bool san_build(const build_opts *o, const char *rt, build_result *r, const char *name,
                      ctg_err *e)
{
    char *tmp = bld_entry_tmp(r, "san", e);
    if (!tmp)
        return false;
    bctx B = {.o = o, .dir = tmp, .rt_archive = rt, .san = o->sanitize, .e = e, .r = r};
    uint64_t digest = 0;
    unsigned edges = 0, cmps = 0;
    bool ok = sources_are_c(o, e) && san_fresh(&B, &digest, &edges, &cmps);
    bld_remove_intermediates(&B);
    char *from = bld_in_dir(&B, "prog.san"), *to = fs_join(r->dir, name);
    sbuf ids = SBUF_INIT, txt = SBUF_INIT;
    sbuf_printf(&ids, "%s.ids", to ? to : "");
    sbuf_printf(&txt, "%llx %u %u\n", (unsigned long long)digest, edges, cmps);
    ok = ok && from && to && sbuf_ok(&ids) &&
         fs_write_atomic(ids.data, txt.data, txt.len, e);
    if (ok && rename(from, to) != 0)
        ok = err_sys(e, "%s: cannot move %s into the cache", r->dir, name);
    ctg_free(from), ctg_free(to);
    sbuf_release(&ids), sbuf_release(&txt);
    progdb_free(B.db);
    B.db = NULL;
    bld_release(&B);
    fs_rm_rf(tmp, NULL);
    ctg_free(tmp);
    return ok;
}

/* prog.cov from the entry's prog.bc, line tables kept, into dir/prog.dbg. */
static bool dbg_fresh(bctx *B)
{
    B->ctx = LLVMContextCreate();
    if (!(B->mod = bld_read_bitcode(B, B->r->bitcode)))
        return false;
    inst_stats st;
    return inst_cov(B->mod, B->r->db, &st, B->e) && emit_linked(B, "prog.dbg", 0);
}

char *build_debug_twin(const build_result *r, const build_opts *o, ctg_err *e)
{
    char *path = fs_join(r->dir, "prog.dbg");
    if (!path || fs_exists(path))
        return path ? path : (err_set(e, "out of memory"), NULL);
    build_opts eff = *o;
    if (!eff.arch_bits)
        eff.arch_bits = r->db->arch_bits;
    char name[32], *rt = NULL;
    snprintf(name, sizeof name, "libctg_rt%d.a", eff.arch_bits == 32 ? 32 : 64);
    rt = fs_join(build_runtime_dir(), name);
    char *tmp = rt ? bld_entry_tmp(r, "dbg", e) : NULL;
    bctx B = {.o = &eff, .dir = tmp, .rt_archive = rt, .e = e, .r = (build_result *)r};
    bool ok = tmp && dbg_fresh(&B);
    char *from = tmp ? bld_in_dir(&B, "prog.dbg") : NULL;
    if (ok && (!from || rename(from, path) != 0))
        ok = err_sys(e, "%s: cannot move prog.dbg into the cache", r->dir);
    ctg_free(from);
    bld_release(&B);
    if (tmp)
        fs_rm_rf(tmp, NULL);
    ctg_free(tmp);
    ctg_free(rt);
    if (!ok) {
        ctg_free(path);
        return NULL;
    }
    return path;
}

bool build_add_san(const build_opts *o, const char *rt, build_result *r, ctg_err *e)
{
    char name[256];
    san_name(o->sanitize, name, sizeof name);
    char *path = fs_join(r->dir, name);
    if (!path)
        return err_set(e, "out of memory");
    double t0 = fs_now();
    bool ok = fs_exists(path) || san_build(o, rt, r, name, e);
    if (ok) {
        sbuf ids = SBUF_INIT;
        sbuf_printf(&ids, "%s.ids", path);
        if (sbuf_ok(&ids))
            read_ids(ids.data, r);
        sbuf_release(&ids);
        r->san_bin = path;
        r->stage.san = fs_now() - t0;
    } else
        ctg_free(path);
    return ok;
}
