/*
 * libclang.h - libclang-14 (the C API of clang), loaded the first time a
 * function's signature is read (driver_clang.c).
 *
 * ctestgen links LLVM statically where its archives are installed (a
 * process then starts in 3 ms, not the 22 ms that relocating libLLVM-14.so
 * takes, which is most of a small program's build).  libclang is a shared
 * library built on libLLVM-14.so, so it is not linked but opened here, in
 * the runs that need it.  Its copy of LLVM stays private to it.
 */
#ifndef CTG_LIBCLANG_H
#define CTG_LIBCLANG_H

#include <clang-c/Index.h>

#include "../base/err.h"

/* Every libclang function ctestgen calls. */
#define CTG_LIBCLANG_FUNCS(X) \
    X(clang_Cursor_getArgument) \
    X(clang_Cursor_getNumArguments) \
    X(clang_Cursor_getStorageClass) \
    X(clang_Cursor_isNull) \
    X(clang_Location_isFromMainFile) \
    X(clang_Type_getNamedType) \
    X(clang_Type_getSizeOf) \
    X(clang_Type_visitFields) \
    X(clang_createIndex) \
    X(clang_defaultDiagnosticDisplayOptions) \
    X(clang_disposeDiagnostic) \
    X(clang_disposeIndex) \
    X(clang_disposeString) \
    X(clang_disposeTranslationUnit) \
    X(clang_equalCursors) \
    X(clang_formatDiagnostic) \
    X(clang_getArrayElementType) \
    X(clang_getArraySize) \
    X(clang_getCString) \
    X(clang_getCanonicalType) \
    X(clang_getCursor) \
    X(clang_getCursorExtent) \
    X(clang_getCursorKind) \
    X(clang_getCursorLocation) \
    X(clang_getCursorReferenced) \
    X(clang_getCursorResultType) \
    X(clang_getCursorSpelling) \
    X(clang_getCursorType) \
    X(clang_getDiagnostic) \
    X(clang_getDiagnosticLocation) \
    X(clang_getDiagnosticOption) \
    X(clang_getDiagnosticSeverity) \
    X(clang_getEnumConstantDeclValue) \
    X(clang_getFileName) \
    X(clang_getNumDiagnostics) \
    X(clang_getPointeeType) \
    X(clang_getRangeEnd) \
    X(clang_getRangeStart) \
    X(clang_getSpellingLocation) \
    X(clang_getTranslationUnitCursor) \
    X(clang_getTypeDeclaration) \
    X(clang_getTypeSpelling) \
    X(clang_getTypedefDeclUnderlyingType) \
    X(clang_isConstQualifiedType) \
    X(clang_isCursorDefinition) \
    X(clang_isFunctionTypeVariadic) \
    X(clang_parseTranslationUnit2) \
    X(clang_visitChildren)

typedef struct ctg_libclang {
#define CTG_LIBCLANG_PTR(f) __typeof__(f) *f;
    CTG_LIBCLANG_FUNCS(CTG_LIBCLANG_PTR)
#undef CTG_LIBCLANG_PTR
} ctg_libclang;

/* The functions, loaded on the first call; NULL with e set when the
 * library or one of its functions cannot be found. */
const ctg_libclang *libclang_load(ctg_err *e);

#endif
