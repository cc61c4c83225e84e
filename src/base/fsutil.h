/*
 * fsutil.h - files and directories: reading, atomic writing, mkdir -p,
 * recursive removal, and where the ctestgen executable lives.
 * Functions return false and fill `e` on failure.
 */
#ifndef CTG_FSUTIL_H
#define CTG_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* Reads a whole file; *data is NUL-terminated (not counted in *len) and owned
 * by the caller (ctg_free). */
bool fs_read(const char *path, char **data, size_t *len, ctg_err *e);
/* Writes via a temporary file and rename(2), so readers never see a partial
 * file and an old version survives a failed write (full disk). */
bool fs_write_atomic(const char *path, const void *data, size_t len, ctg_err *e);
bool fs_mkdir_p(const char *path, ctg_err *e);
bool fs_rm_rf(const char *path, ctg_err *e);
bool fs_exists(const char *path);
bool fs_is_dir(const char *path);
/* The regular files of dir (links followed; dot files and everything else
 * skipped) as full paths sorted by name, in a new array of new strings
 * (*paths, *n; the caller frees each and the array).  False with e set
 * when dir cannot be read or an entry cannot be examined (a dangling
 * link): a corpus with a broken entry is reported, not half read. */
bool fs_list_files(const char *dir, char ***paths, size_t *n, ctg_err *e);
/* Joins two path parts into a new string (ctg_free); NULL on oom. */
char *fs_join(const char *a, const char *b);
/* Absolute path of an existing file (ctg_free); NULL with e set on failure. */
char *fs_realpath(const char *path, ctg_err *e);
/* Creates a new directory $TMPDIR/<prefix>XXXXXX (/tmp when TMPDIR is unset
 * or empty) and returns its path (ctg_free); NULL with e set naming what
 * it is `for`. */
char *fs_mkdtemp(const char *prefix, const char *what_for, ctg_err *e);
/* Creates a new directory <path_prefix>XXXXXX (e.g. "/cache/abc.tmp.") and
 * returns its path (ctg_free); NULL with e set naming what it is `for`. */
char *fs_mkdtemp_at(const char *path_prefix, const char *what_for, ctg_err *e);
/* Directory holding the running executable (ctg_free); NULL on failure. */
char *fs_exe_dir(void);
/* Copies a file, preserving the execute bits. */
bool fs_copy(const char *from, const char *to, ctg_err *e);
/* Seconds since an arbitrary epoch, monotonic. */
double fs_now(void);

#endif
