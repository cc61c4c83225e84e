/*
 * inst_stdin.h - calls that read the program's stdin: what makes a program
 * a stdin target (the numbering pass, inst_number.c) and what the symbolic
 * pass models (inst_sym_call.c: the bytes read become input bytes).
 */
#ifndef CTG_INST_STDIN_H
#define CTG_INST_STDIN_H

#include <llvm-c/Core.h>

typedef enum inst_stdin_kind {
    INST_STDIN_NONE = 0, /* not a read of stdin                                 */
    INST_STDIN_CHAR,     /* getchar, fgetc/getc(stdin): the result is a byte or EOF */
    INST_STDIN_FREAD,    /* fread(buf, size, n, stdin): result * size bytes     */
    INST_STDIN_FGETS,    /* fgets(buf, n, stdin): strlen(buf) bytes unless NULL */
    INST_STDIN_READ,     /* read(0, buf, n): result bytes                       */
    INST_STDIN_OTHER     /* scanf, gets, getline, ...: read, not modelled       */
} inst_stdin_kind;

/* What call (to the function named callee) does with stdin. */
inst_stdin_kind inst_stdin_call(LLVMValueRef call, const char *callee);

#endif
