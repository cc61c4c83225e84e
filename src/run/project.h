/*
 * project.h - a program given as a project's own build: an executable, an
 * object or a static library built with ctestgen-cc among the arguments of
 * run/build/replay, and --compile-commands (CMake's, bear's database),
 * become the C files and the compiler and linker flags that the rest of
 * ctestgen takes (src/compile/ccrec.h reads the records).
 */
#ifndef CTG_PROJECT_H
#define CTG_PROJECT_H

#include <stdbool.h>

#include "../base/err.h"
#include "../opt/options.h"

/* Replaces every ELF file or archive among o's positional arguments (from
 * index `first` on) by the C files its compile records name, adds the
 * files of --compile-commands, and adds their flags to o->build.cflags
 * (each once).  False with e set naming the file and the way out. */
bool project_apply(ctg_options *o, int first, ctg_err *e);

#endif
