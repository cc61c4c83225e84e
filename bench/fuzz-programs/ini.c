/*
 * ini.c - an INI file parser as a libFuzzer target (bench/fuzz).
 *
 * Lines end at '\n' (a '\r' before it is dropped).  A line is blank, a
 * comment (';' or '#'), a section "[name]" or "key = value"; names are
 * letters, digits, '_', '-' and '.'; values may be double-quoted with
 * \" \\ \n \t escapes, else end at an inline " ;" comment; both sides are
 * trimmed.  Integers accept a sign and 0x.  After too many malformed lines
 * the parser gives up.  The error: a [server] section with port = 8080
 * followed by an [admin] section where enabled is true and then
 * level = 1337.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void reach_error(void) { abort(); }

#define NAME_CAP 24
#define VALUE_CAP 32
#define MAX_BAD 6

typedef struct ini_state {
    char section[NAME_CAP];
    long server_port;
    int admin_enabled;
    int n_bad, n_keys, n_sections;
} ini_state;

static int name_char(int c) { return isalnum(c) || c == '_' || c == '-' || c == '.'; }

/* [b, e) without surrounding blanks. */
static void trim(const char **b, const char **e)
{
    while (*b < *e && (**b == ' ' || **b == '\t'))
        (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
}

/* Copies a name of [b, e) into out; 0 when empty, too long or bad. */
static int copy_name(const char *b, const char *e, char *out)
{
    if (b == e || e - b >= NAME_CAP)
        return 0;
    for (const char *p = b; p < e; p++)
        if (!name_char((unsigned char)*p))
            return 0;
    memcpy(out, b, (size_t)(e - b));
    out[e - b] = '\0';
    return 1;
}

/* The value of [b, e) into out: quoted with escapes, or bare up to " ;". */
static int parse_value(const char *b, const char *e, char *out)
{
    size_t n = 0;
    if (b < e && *b == '"') {
        for (b++; b < e && *b != '"'; b++) {
            char c = *b;
            if (c == '\\') {
                if (++b == e)
                    return 0;
                c = *b == 'n' ? '\n' : *b == 't' ? '\t' : *b;
                if (c != '\n' && c != '\t' && c != '"' && c != '\\')
                    return 0;
            }
            if (n + 1 >= VALUE_CAP)
                return 0;
            out[n++] = c;
        }
        if (b == e)
            return 0; /* unterminated */
        out[n] = '\0';
        for (b++; b < e; b++)
            if (*b != ' ' && *b != '\t')
                return *b == ';' || *b == '#';
        return 1;
    }
    for (const char *p = b; p < e; p++)
        if ((*p == ';' || *p == '#') && p > b && (p[-1] == ' ' || p[-1] == '\t')) {
            e = p;
            break;
        }
    trim(&b, &e);
    if (e - b >= VALUE_CAP)
        return 0;
    memcpy(out, b, (size_t)(e - b));
    out[e - b] = '\0';
    return 1;
}

/* A decimal or 0x integer; 0 when the text is not one. */
static int parse_int(const char *s, long *v)
{
    int neg = 0, base = 10;
    long x = 0;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return 0;
    for (; *s; s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0'
                : base == 16 && isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10
                : -1;
        if (d < 0 || x > 100000000L)
            return 0;
        x = x * base + d;
    }
    *v = neg ? -x : x;
    return 1;
}

static int parse_bool(const char *s)
{
    if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on") || !strcmp(s, "1"))
        return 1;
    if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off") || !strcmp(s, "0"))
        return 0;
    return -1;
}

/* What a key means in its section. */
static void apply(ini_state *st, const char *key, const char *value)
{
    long v;
    st->n_keys++;
    if (!strcmp(st->section, "server")) {
        if (!strcmp(key, "port") && parse_int(value, &v) && v > 0 && v < 65536)
            st->server_port = v;
    } else if (!strcmp(st->section, "admin") && st->server_port == 8080) {
        if (!strcmp(key, "enabled"))
            st->admin_enabled = parse_bool(value) == 1;
        else if (!strcmp(key, "level") && parse_int(value, &v) && st->admin_enabled && v == 1337)
            reach_error();
    }
}

/* One line [b, e); 0 when malformed. */
static int parse_line(ini_state *st, const char *b, const char *e)
{
    char key[NAME_CAP], value[VALUE_CAP];
    trim(&b, &e);
    if (b == e || *b == ';' || *b == '#')
        return 1;
    if (*b == '[') {
        if (e[-1] != ']')
            return 0;
        const char *nb = b + 1, *ne = e - 1;
        trim(&nb, &ne);
        if (!copy_name(nb, ne, st->section))
            return 0;
        st->n_sections++;
        return 1;
    }
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
        return 0;
    const char *kb = b, *ke = eq;
    trim(&kb, &ke);
    if (!copy_name(kb, ke, key) || !parse_value(eq + 1, e, value))
        return 0;
    apply(st, key, value);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ini_state st;
    memset(&st, 0, sizeof st);
    const char *p = (const char *)data, *end = p + size;
    while (p < end && st.n_bad < MAX_BAD) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (le > p && le[-1] == '\r')
            le--;
        if (!parse_line(&st, p, le))
            st.n_bad++;
        p = nl ? nl + 1 : end;
    }
    return st.n_keys + st.n_sections;
}
