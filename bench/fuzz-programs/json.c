/*
 * json.c - a small JSON parser as a libFuzzer target (bench/fuzz).
 *
 * Recursive descent over objects, arrays, strings (escapes, \uXXXX),
 * numbers (sign, fraction, exponent), true/false/null, with a depth limit;
 * the whole input must be one value with only white space after it.
 * Each object remembers its "id" (a number) and "admin" (a boolean) members.
 * The error: an object nested at least three levels deep with id 31337 and
 * admin true, e.g. [[{"id":31337,"admin":true}]].
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void reach_error(void) { abort(); }

#define MAX_DEPTH 12
#define KEY_CAP 16

enum kind { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct parser {
    const uint8_t *p, *end;
    int depth;
} parser;

static int parse_value(parser *ps, enum kind *kind, long *num);

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int peek(const parser *ps) { return ps->p < ps->end ? *ps->p : -1; }

static int literal(parser *ps, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, lit, n) != 0)
        return 0;
    ps->p += n;
    return 1;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string into buf (truncated to cap - 1 bytes); its length, -1 if bad. */
static int parse_string(parser *ps, char *buf, size_t cap)
{
    size_t n = 0;
    ps->p++; /* the opening quote */
    while (ps->p < ps->end) {
        int c = *ps->p++;
        if (c == '"') {
            buf[n < cap ? n : cap - 1] = '\0';
            return (int)n;
        }
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (ps->p >= ps->end)
                return -1;
            switch (c = *ps->p++) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                unsigned v = 0;
                if (ps->end - ps->p < 4)
                    return -1;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(ps->p[i]);
                    if (h < 0)
                        return -1;
                    v = v * 16 + (unsigned)h;
                }
                ps->p += 4;
                if (v >= 0xd800 && v <= 0xdfff)
                    return -1; /* no surrogates */
                c = v < 0x80 ? (int)v : '?';
                break;
            }
            default:
                return -1;
            }
        }
        if (n + 1 < cap)
            buf[n] = (char)c;
        n++;
    }
    return -1;
}

/* A number; its integer part (saturated) in *num. */
static int parse_number(parser *ps, long *num)
{
    int neg = 0;
    long v = 0;
    if (peek(ps) == '-') {
        neg = 1;
        ps->p++;
    }
    if (peek(ps) == '0') {
        ps->p++;
    } else if (peek(ps) >= '1' && peek(ps) <= '9') {
        while (peek(ps) >= '0' && peek(ps) <= '9') {
            if (v < 100000000L)
                v = v * 10 + (*ps->p - '0');
            ps->p++;
        }
    } else {
        return 0;
    }
    if (peek(ps) == '.') {
        ps->p++;
        if (!(peek(ps) >= '0' && peek(ps) <= '9'))
            return 0;
        while (peek(ps) >= '0' && peek(ps) <= '9')
            ps->p++;
    }
    if (peek(ps) == 'e' || peek(ps) == 'E') {
        ps->p++;
        if (peek(ps) == '+' || peek(ps) == '-')
            ps->p++;
        if (!(peek(ps) >= '0' && peek(ps) <= '9'))
            return 0;
        while (peek(ps) >= '0' && peek(ps) <= '9')
            ps->p++;
    }
    *num = neg ? -v : v;
    return 1;
}

static int parse_array(parser *ps)
{
    enum kind k;
    long n;
    ps->p++;
    skip_ws(ps);
    if (peek(ps) == ']') {
        ps->p++;
        return 1;
    }
    for (;;) {
        if (!parse_value(ps, &k, &n))
            return 0;
        skip_ws(ps);
        if (peek(ps) == ']') {
            ps->p++;
            return 1;
        }
        if (peek(ps) != ',')
            return 0;
        ps->p++;
    }
}

static int parse_object(parser *ps)
{
    long id = -1, n;
    int admin = 0;
    enum kind k;
    char key[KEY_CAP];
    ps->p++;
    skip_ws(ps);
    if (peek(ps) == '}') {
        ps->p++;
        return 1;
    }
    for (;;) {
        skip_ws(ps);
        if (peek(ps) != '"' || parse_string(ps, key, sizeof key) < 0)
            return 0;
        skip_ws(ps);
        if (peek(ps) != ':')
            return 0;
        ps->p++;
        if (!parse_value(ps, &k, &n))
            return 0;
        if (strcmp(key, "id") == 0 && k == J_NUM)
            id = n;
        else if (strcmp(key, "admin") == 0)
            admin = k == J_TRUE;
        skip_ws(ps);
        if (peek(ps) == '}')
            break;
        if (peek(ps) != ',')
            return 0;
        ps->p++;
    }
    ps->p++;
    if (ps->depth >= 3 && admin && id == 31337)
        reach_error();
    return 1;
}

static int parse_value(parser *ps, enum kind *kind, long *num)
{
    char s[KEY_CAP];
    int ok;
    skip_ws(ps);
    *num = 0;
    switch (peek(ps)) {
    case '{':
    case '[':
        if (ps->depth >= MAX_DEPTH)
            return 0;
        ps->depth++;
        *kind = peek(ps) == '{' ? J_OBJ : J_ARR;
        ok = *kind == J_OBJ ? parse_object(ps) : parse_array(ps);
        ps->depth--;
        return ok;
    case '"':
        *kind = J_STR;
        return parse_string(ps, s, sizeof s) >= 0;
    case 't':
        *kind = J_TRUE;
        return literal(ps, "true");
    case 'f':
        *kind = J_FALSE;
        return literal(ps, "false");
    case 'n':
        *kind = J_NULL;
        return literal(ps, "null");
    default:
        *kind = J_NUM;
        return parse_number(ps, num);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parser ps = {data, data + size, 0};
    enum kind k;
    long n;
    if (!parse_value(&ps, &k, &n))
        return 0;
    skip_ws(&ps);
    return ps.p == ps.end ? 1 : 0;
}
