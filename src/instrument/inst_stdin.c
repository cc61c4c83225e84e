/*
 * inst_stdin.c - calls that read stdin (see inst_stdin.h).
 */
#include "inst_stdin.h"

#include <string.h>

/* libc functions that read a stream, the argument holding the stream (-1:
 * stdin itself, -2: a file descriptor that must be the constant 0), and
 * what a model makes of them. */
static const struct {
    const char *name;
    int stream;
    inst_stdin_kind kind;
} readers[] = {
    {"getchar", -1, INST_STDIN_CHAR},       {"getchar_unlocked", -1, INST_STDIN_CHAR},
    {"fgetc", 0, INST_STDIN_CHAR},          {"getc", 0, INST_STDIN_CHAR},
    {"_IO_getc", 0, INST_STDIN_CHAR},       {"fgetc_unlocked", 0, INST_STDIN_CHAR},
    {"getc_unlocked", 0, INST_STDIN_CHAR},  {"fread", 3, INST_STDIN_FREAD},
    {"fread_unlocked", 3, INST_STDIN_FREAD}, {"fgets", 2, INST_STDIN_FGETS},
    {"fgets_unlocked", 2, INST_STDIN_FGETS}, {"read", -2, INST_STDIN_READ},
    {"scanf", -1, INST_STDIN_OTHER},        {"__isoc99_scanf", -1, INST_STDIN_OTHER},
    {"vscanf", -1, INST_STDIN_OTHER},       {"__isoc99_vscanf", -1, INST_STDIN_OTHER},
    {"gets", -1, INST_STDIN_OTHER},         {"fscanf", 0, INST_STDIN_OTHER},
    {"__isoc99_fscanf", 0, INST_STDIN_OTHER}, {"vfscanf", 0, INST_STDIN_OTHER},
    {"__isoc99_vfscanf", 0, INST_STDIN_OTHER}, {"getline", 2, INST_STDIN_OTHER},
    {"getdelim", 3, INST_STDIN_OTHER},
};

/* The value is a load of the global `stdin`. */
static int is_stdin(LLVMValueRef v)
{
    if (!v || !LLVMIsALoadInst(v))
        return 0;
    LLVMValueRef g = LLVMGetOperand(v, 0);
    size_t n;
    const char *name = g && LLVMIsAGlobalVariable(g) ? LLVMGetValueName2(g, &n) : "";
    return !strcmp(name, "stdin") || !strcmp(name, "_IO_2_1_stdin_");
}

inst_stdin_kind inst_stdin_call(LLVMValueRef c, const char *callee)
{
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        if (strcmp(callee, readers[i].name))
            continue;
        int k = readers[i].stream, na = LLVMGetNumArgOperands(c);
        if (k == -2) {
            LLVMValueRef fd = na > 0 ? LLVMGetOperand(c, 0) : NULL;
            return fd && LLVMIsAConstantInt(fd) && LLVMConstIntGetZExtValue(fd) == 0
                       ? readers[i].kind
                       : INST_STDIN_NONE;
        }
        if (k == -1 || (na > k && is_stdin(LLVMGetOperand(c, (unsigned)k))))
            return readers[i].kind;
        return INST_STDIN_NONE;
    }
    return INST_STDIN_NONE;
}
