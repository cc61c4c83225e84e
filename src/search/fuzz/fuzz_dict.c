/*
 * fuzz_dict.c - AFL++ / libFuzzer dictionary files (see fuzz_dict.h).
 */
#include "fuzz_dict.h"

#include <ctype.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parses the quoted token starting at *p (at the opening quote) into tok;
 * returns its length, or -1 with *why set. */
static long parse_token(const char **p, uint8_t *tok, const char **why)
{
    const char *s = *p + 1;
    long n = 0;
    for (; *s && *s != '"' && *s != '\n'; s++) {
        int c = (unsigned char)*s;
        if (c == '\\') {
            s++;
            if (*s == '\\' || *s == '"') {
                c = (unsigned char)*s;
            } else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
                c = hexval(s[1]) * 16 + hexval(s[2]);
                s += 2;
            } else {
                *why = "unknown escape (use \\\\, \\\" or \\xHH)";
                return -1;
            }
        }
        if (n == MUT_TOKEN_MAX) {
            *why = "token longer than 32 bytes";
            return -1;
        }
        tok[n++] = (uint8_t)c;
    }
    if (*s != '"') {
        *why = "missing closing quote";
        return -1;
    }
    if (n == 0) {
        *why = "empty token";
        return -1;
    }
    *p = s + 1;
    return n;
}

/* One line (without its newline); false with *why set. */
static bool parse_line(mut_dict *d, const char *s, const char **why)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0' || *s == '\n' || *s == '\r' || *s == '#')
        return true;
    if (*s != '"') { /* name[@level]= */
        while (isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '@' || *s == '.')
            s++;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != '=') {
            *why = "expected name=\"token\" or \"token\"";
            return false;
        }
        s++;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != '"') {
            *why = "expected a quoted token after '='";
            return false;
        }
    }
    uint8_t tok[MUT_TOKEN_MAX];
    long n = parse_token(&s, tok, why);
    if (n < 0)
        return false;
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    if (*s && *s != '\n') {
        *why = "unexpected text after the token";
        return false;
    }
    mut_dict_add(d, tok, (size_t)n);
    return true;
}

bool fuzz_dict_parse(mut_dict *d, const char *name, const char *text, ctg_err *e)
{
    int line = 1;
    for (const char *s = text; *s; line++) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        char *l = ctg_strndup(s, n);
        if (!l)
            return err_set(e, "%s: out of memory", name);
        const char *why = NULL;
        bool ok = parse_line(d, l, &why);
        ctg_free(l);
        if (!ok)
            return err_set(e, "%s:%d: %s", name, line, why);
        s = eol ? eol + 1 : s + n;
    }
    return true;
}

bool fuzz_dict_load(mut_dict *d, const char *path, ctg_err *e)
{
    char *text = NULL;
    size_t len = 0;
    if (!fs_read(path, &text, &len, e))
        return err_set(e, "%s: cannot read the dictionary (--dict)", path);
    if (memchr(text, '\0', len)) {
        ctg_free(text);
        return err_set(e, "%s: not a dictionary (binary data); give a text file of \"tokens\"",
                       path);
    }
    bool ok = fuzz_dict_parse(d, path, text, e);
    ctg_free(text);
    return ok;
}
