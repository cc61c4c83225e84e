/*
 * build_cache.h - the cache of instrumented builds (internal to src/compile).
 *
 * An entry is the directory <root>/<key>, key = sha256 of the key material:
 * ctestgen's version and executable, the architecture, the flags, every
 * source (absolute path and contents) and the runtime archive.  Headers are
 * not known before compiling, so the entry stores deps.json, the files clang
 * read (its -MD output) with their sha256; an entry whose dependencies
 * changed is stale and gets rebuilt.  Entries are built in a temporary
 * directory and renamed into place, so concurrent builds never see a partial
 * entry.
 */
#ifndef CTG_BUILD_CACHE_H
#define CTG_BUILD_CACHE_H

#include <stdbool.h>

#include "../base/err.h"
#include "../base/hash.h"
#include "../base/sbuf.h"
#include "build.h"

#define BCACHE_HEX (HASH_HEX_LEN + 1) /* sha256 in hex + NUL (base/hash.h) */


/* The cache root: o->cache_dir, $CTESTGEN_CACHE or ~/.cache/ctestgen
 * (ctg_free).  NULL with e set when none can be determined. */
char *bcache_root(const build_opts *o, ctg_err *e);

/* Writes the key material of a build to *material (human-readable lines)
 * and its sha256 to key; sym_archive (the symbolic runtime, may be NULL)
 * is part of the key so prog.sym is rebuilt when it changes.  False with e
 * set when a source cannot be read. */
bool bcache_key(const build_opts *o, const char *rt_archive, const char *sym_archive,
                sbuf *material, char key[BCACHE_HEX], ctg_err *e);

/* True when dir is a complete entry whose recorded dependencies are
 * unchanged. */
bool bcache_valid(const char *dir);

/* Writes dir/deps.json from clang's dependency files (make syntax). */
bool bcache_save_deps(const char *dir, char *const *dep_files, int n, ctg_err *e);

/* Removes leftovers of interrupted builds of `key` (temporary and stale
 * directories older than an hour) from root. */
void bcache_sweep(const char *root, const char *key);

/* Moves the finished temporary entry tmp to final.  An existing valid entry
 * is kept (a concurrent build of the same program won) unless `replace`
 * (--no-cache).  Returns the directory that holds the result (final, or tmp
 * when the cache could not take it; ctg_free), NULL with e set on failure. */
char *bcache_publish(const char *tmp, const char *final, bool replace, ctg_err *e);

#endif
