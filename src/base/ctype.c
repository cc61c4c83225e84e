/*
 * ctype.c - the table of C value types (see ctype.h).
 */
#include "ctype.h"

#include <string.h>

static const ctg_type_info types[CTG_T__COUNT] = {
    [CTG_T_BOOL] = {"_Bool", "bool", "_Bool", 1, 1, false, false},
    [CTG_T_CHAR] = {"char", "char", "char", 1, 1, true, false},
    [CTG_T_UCHAR] = {"unsigned char", "uchar", "unsigned char", 1, 1, false, false},
    [CTG_T_SHORT] = {"short", "short", "short", 2, 2, true, false},
    [CTG_T_USHORT] = {"unsigned short", "ushort", "unsigned short", 2, 2, false, false},
    [CTG_T_INT] = {"int", "int", "int", 4, 4, true, false},
    [CTG_T_UINT] = {"unsigned int", "uint", "unsigned int", 4, 4, false, false},
    [CTG_T_LONG] = {"long", "long", "long", 4, 8, true, false},
    [CTG_T_ULONG] = {"unsigned long", "ulong", "unsigned long", 4, 8, false, false},
    [CTG_T_LONGLONG] = {"long long", "longlong", "long long", 8, 8, true, false},
    [CTG_T_ULONGLONG] = {"unsigned long long", "ulonglong", "unsigned long long", 8, 8, false,
                         false},
    [CTG_T_FLOAT] = {"float", "float", "float", 4, 4, true, true},
    [CTG_T_DOUBLE] = {"double", "double", "double", 8, 8, true, true},
    [CTG_T_POINTER] = {"void *", "pointer", "void *", 4, 8, false, false},
    /* size_t is unsigned long on both Linux data models: generated code
     * need not include <stddef.h> */
    [CTG_T_SIZE_T] = {"size_t", "size_t", "unsigned long", 4, 8, false, false},
    [CTG_T_BYTES] = {"unsigned char", "bytes", "unsigned char", 1, 1, false, false},
};

/* Other spellings found in test suites of other tools. */
static const struct {
    const char *name;
    enum ctg_type t;
} synonyms[] = {
    {"bool", CTG_T_BOOL},
    {"signed char", CTG_T_CHAR},
    {"unsigned_char", CTG_T_UCHAR},
    {"u8", CTG_T_UCHAR},
    {"short int", CTG_T_SHORT},
    {"signed short", CTG_T_SHORT},
    {"unsigned short int", CTG_T_USHORT},
    {"u16", CTG_T_USHORT},
    {"signed int", CTG_T_INT},
    {"signed", CTG_T_INT},
    {"unsigned", CTG_T_UINT},
    {"u32", CTG_T_UINT},
    {"long int", CTG_T_LONG},
    {"signed long", CTG_T_LONG},
    {"unsigned long int", CTG_T_ULONG},
    {"long long int", CTG_T_LONGLONG},
    {"unsigned long long int", CTG_T_ULONGLONG},
    {"u64", CTG_T_ULONGLONG},
    {"void*", CTG_T_POINTER},
};

const ctg_type_info *ctg_type_info_of(enum ctg_type t)
{
    return (unsigned)t < CTG_T__COUNT ? &types[t] : NULL;
}

size_t ctg_type_size(enum ctg_type t, int arch_bits)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return !i ? 0 : arch_bits == 32 ? i->size32 : i->size64;
}

const char *ctg_type_name(enum ctg_type t)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return i ? i->name : "?";
}

const char *ctg_type_suffix(enum ctg_type t)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return i ? i->suffix : "?";
}

const char *ctg_type_decl(enum ctg_type t)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return i ? i->decl : "?";
}

bool ctg_type_from_name(const char *name, enum ctg_type *t)
{
    for (int i = 0; i < CTG_T__COUNT; i++) {
        if (i == CTG_T_BYTES)
            continue; /* "unsigned char" means one byte value */
        if (!strcmp(name, types[i].name) || !strcmp(name, types[i].suffix)) {
            *t = (enum ctg_type)i;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof synonyms / sizeof synonyms[0]; i++) {
        if (!strcmp(name, synonyms[i].name)) {
            *t = synonyms[i].t;
            return true;
        }
    }
    return false;
}

bool ctg_type_is_signed(enum ctg_type t)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return i && i->is_signed;
}

bool ctg_type_is_float(enum ctg_type t)
{
    const ctg_type_info *i = ctg_type_info_of(t);
    return i && i->is_float;
}
