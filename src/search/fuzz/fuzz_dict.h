/*
 * fuzz_dict.h - reads AFL++ / libFuzzer dictionary files (-x / -dict=).
 *
 * Format: one token per line, `name="value"` or `"value"`; `#` starts a
 * comment line; blank lines are ignored.  Inside the quotes `\\`, `\"` and
 * `\xHH` are escapes; other bytes stand for themselves.  An AFL "@level"
 * suffix on the name is accepted and ignored.
 */
#ifndef CTG_FUZZ_DICT_H
#define CTG_FUZZ_DICT_H

#include <stdbool.h>

#include "../../base/err.h"
#include "mutate.h"

/* Adds the tokens of the file at path to d.  False with e set to
 * "path:line: what is wrong" on a malformed line or an unreadable file. */
bool fuzz_dict_load(mut_dict *d, const char *path, ctg_err *e);
/* Same for text already in memory (name is used in messages). */
bool fuzz_dict_parse(mut_dict *d, const char *name, const char *text, ctg_err *e);

#endif
