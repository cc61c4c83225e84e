/*
 * grammar.c - the BNF grammar parser of the `bounded` strategy (format in
 * docs/grammar-format.md) and the shortest-expansion table the producer's
 * best priority uses.
 *
 * A hand-written lexer (tokens: <name>, ::=, |, "string", [class]) and a
 * recursive-descent parser.  A rule runs until the next `<name> ::=` or the
 * end of the file, so alternatives may continue over several lines.  Every
 * error names file:line:col and what was expected there.
 */
#include "grammar.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/sbuf.h"

/* ==== lexer ============================================================== */

typedef enum { TK_EOF, TK_NT, TK_DEF, TK_BAR, TK_STR, TK_CLASS, TK_BAD } tk_kind;

typedef struct lexer {
    const char *s;
    size_t len, pos;
    int line, col;
    const char *fname;
} lexer;

typedef struct token {
    tk_kind kind;
    int line, col;
    size_t start, end;  /* source span                         */
    uint8_t *bytes;     /* TK_STR: decoded bytes (owned)       */
    size_t n;
    uint8_t set[32];    /* TK_CLASS: bitmap of bytes           */
} token;

static int lx_peekc(const lexer *l, size_t ahead)
{
    return l->pos + ahead < l->len ? (unsigned char)l->s[l->pos + ahead] : -1;
}

static void lx_adv(lexer *l)
{
    if (l->pos >= l->len)
        return;
    if (l->s[l->pos] == '\n') {
        l->line++;
        l->col = 1;
    } else {
        l->col++;
    }
    l->pos++;
}

/* Skips blanks, newlines and # comments. */
static void lx_skip(lexer *l)
{
    for (;;) {
        int c = lx_peekc(l, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            lx_adv(l);
        } else if (c == '#') {
            while (lx_peekc(l, 0) >= 0 && lx_peekc(l, 0) != '\n')
                lx_adv(l);
        } else {
            return;
        }
    }
}

static bool lx_err(const lexer *l, ctg_err *e, const char *what)
{
    return err_set(e, "%s:%d:%d: %s", l->fname, l->line, l->col, what);
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

/* Decodes one escape sequence after the backslash (already consumed).
 * Returns the byte, or -1 with e set. */
static int lx_escape(lexer *l, ctg_err *e)
{
    int c = lx_peekc(l, 0);
    static const char from[] = "ntr0\\\"'[]-";
    static const char to[] = "\n\t\r\0\\\"'[]-";
    const char *p = c > 0 ? strchr(from, c) : NULL;
    if (p) {
        lx_adv(l);
        return (unsigned char)to[p - from];
    }
    if (c == 'x' && hexval(lx_peekc(l, 1)) >= 0 && hexval(lx_peekc(l, 2)) >= 0) {
        int v = hexval(lx_peekc(l, 1)) * 16 + hexval(lx_peekc(l, 2));
        lx_adv(l), lx_adv(l), lx_adv(l);
        return v;
    }
    lx_err(l, e, "unknown escape sequence (use \\n \\t \\r \\0 \\\\ \\\" \\' \\[ \\] \\- or \\xHH)");
    return -1;
}

/* Lexes a "string" (opening quote is current). */
static bool lx_string(lexer *l, token *t, ctg_err *e)
{
    sbuf b = SBUF_INIT;
    lx_adv(l);
    for (;;) {
        int c = lx_peekc(l, 0);
        if (c < 0 || c == '\n') {
            sbuf_release(&b);
            return lx_err(l, e, "unterminated string: expected '\"' before the end of the line");
        }
        lx_adv(l);
        if (c == '"')
            break;
        if (c == '\\' && (c = lx_escape(l, e)) < 0) {
            sbuf_release(&b);
            return false;
        }
        sbuf_putc(&b, (char)c);
    }
    if (!sbuf_ok(&b)) {
        sbuf_release(&b);
        return err_set(e, "%s: out of memory reading the grammar", l->fname);
    }
    t->n = b.len;
    t->bytes = (uint8_t *)sbuf_take(&b);
    if (!t->bytes)
        t->bytes = (uint8_t *)ctg_strdup("");
    return t->bytes != NULL || err_set(e, "%s: out of memory reading the grammar", l->fname);
}

/* Reads one class character (maybe escaped); -1 with e set on error. */
static int lx_class_char(lexer *l, ctg_err *e)
{
    int c = lx_peekc(l, 0);
    if (c < 0 || c == '\n') {
        lx_err(l, e, "unterminated character class: expected ']'");
        return -1;
    }
    lx_adv(l);
    return c == '\\' ? lx_escape(l, e) : c;
}

/* Lexes a [class] of characters and ranges a-z (opening bracket is current). */
static bool lx_class(lexer *l, token *t, ctg_err *e)
{
    bool any = false;
    lx_adv(l);
    memset(t->set, 0, sizeof t->set);
    while (lx_peekc(l, 0) != ']') {
        int lo = lx_class_char(l, e), hi;
        if (lo < 0)
            return false;
        hi = lo;
        if (lx_peekc(l, 0) == '-' && lx_peekc(l, 1) != ']' && lx_peekc(l, 1) >= 0) {
            lx_adv(l);
            if ((hi = lx_class_char(l, e)) < 0)
                return false;
            if (hi < lo)
                return lx_err(l, e, "reversed range in character class: write the lower end first ([a-z])");
        }
        for (int c = lo; c <= hi; c++)
            t->set[c >> 3] |= (uint8_t)(1u << (c & 7));
        any = true;
    }
    if (!any)
        return lx_err(l, e, "empty character class: expected at least one character before ']'");
    lx_adv(l);
    return true;
}

/* Lexes a <name>. */
static bool lx_name(lexer *l, ctg_err *e)
{
    lx_adv(l);
    size_t n = 0;
    for (;;) {
        int c = lx_peekc(l, n);
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                  (n > 0 && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
        if (!ok)
            break;
        n++;
    }
    if (n == 0)
        return lx_err(l, e, "expected a nonterminal name (letters, digits, _ - .) after '<'");
    for (size_t i = 0; i < n; i++)
        lx_adv(l);
    if (lx_peekc(l, 0) != '>')
        return lx_err(l, e, "expected '>' to close the nonterminal name");
    lx_adv(l);
    return true;
}

/* Reads the next token into t (t->bytes is owned by the caller). */
static bool lx_next(lexer *l, token *t, ctg_err *e)
{
    lx_skip(l);
    memset(t, 0, sizeof *t);
    t->line = l->line;
    t->col = l->col;
    t->start = l->pos;
    int c = lx_peekc(l, 0);
    bool ok = true;
    if (c < 0) {
        t->kind = TK_EOF;
    } else if (c == '<') {
        t->kind = TK_NT;
        ok = lx_name(l, e);
    } else if (c == ':' && lx_peekc(l, 1) == ':' && lx_peekc(l, 2) == '=') {
        t->kind = TK_DEF;
        lx_adv(l), lx_adv(l), lx_adv(l);
    } else if (c == '|') {
        t->kind = TK_BAR;
        lx_adv(l);
    } else if (c == '"') {
        t->kind = TK_STR;
        ok = lx_string(l, t, e);
    } else if (c == '[') {
        t->kind = TK_CLASS;
        ok = lx_class(l, t, e);
    } else if (c == ':' || c == '=') {
        t->kind = TK_BAD;
        ok = lx_err(l, e, "expected '::=' (a rule is <name> ::= alternatives)");
    } else {
        t->kind = TK_BAD;
        ok = lx_err(l, e, "expected <nonterminal>, \"string\", [class], '|' or '::=' "
                          "(comments start with #)");
    }
    t->end = l->pos;
    return ok;
}

/* ==== grammar construction ================================================= */

typedef struct parser {
    lexer lx;
    token cur;
    grammar *g;
    ctg_err *e;
} parser;

static bool p_oom(parser *p)
{
    return err_set(p->e, "%s: out of memory reading the grammar", p->lx.fname);
}

/* Finds or adds the nonterminal `name` (len bytes); -1 on oom. */
static int g_intern(parser *p, const char *name, size_t len, int line, int col)
{
    grammar *g = p->g;
    for (size_t i = 0; i < g->n_nts; i++)
        if (!g->nts[i].anonymous && strlen(g->nts[i].name) == len &&
            memcmp(g->nts[i].name, name, len) == 0)
            return (int)i;
    if (ctg_grow((void **)&g->nts, &g->cap_nts, g->n_nts + 1, sizeof *g->nts) < 0)
        return p_oom(p), -1;
    gram_nt *nt = &g->nts[g->n_nts];
    memset(nt, 0, sizeof *nt);
    if (!(nt->name = ctg_strndup(name, len)))
        return p_oom(p), -1;
    nt->line = line;
    nt->col = col;
    return (int)g->n_nts++;
}

/* Appends an empty alternative to nonterminal nt; NULL on oom. */
static gram_alt *g_new_alt(parser *p, int nt)
{
    gram_nt *n = &p->g->nts[nt];
    if (ctg_grow((void **)&n->alts, &n->cap_alts, n->n_alts + 1, sizeof *n->alts) < 0)
        return p_oom(p), NULL;
    gram_alt *a = &n->alts[n->n_alts++];
    memset(a, 0, sizeof *a);
    return a;
}

/* Appends a symbol to an alternative; takes ownership of text. */
static bool g_add_sym(parser *p, gram_alt *a, int nt, uint8_t *text, size_t len)
{
    gram_sym *s = ctg_realloc(a->syms, (a->n + 1) * sizeof *s);
    if (!s) {
        ctg_free(text);
        return p_oom(p);
    }
    a->syms = s;
    s[a->n++] = (gram_sym){nt, text, len};
    return true;
}

/* Makes the anonymous nonterminal of a character class; -1 on oom. */
static int g_class(parser *p, const token *t)
{
    const char *src = p->lx.s + t->start;
    int nt = g_intern(p, "", 0, t->line, t->col);
    if (nt < 0)
        return -1;
    gram_nt *n = &p->g->nts[nt];
    ctg_free(n->name);
    if (!(n->name = ctg_strndup(src, t->end - t->start)))
        return p_oom(p), -1;
    n->anonymous = n->defined = true;
    for (int c = 0; c < 256; c++) {
        if (!(t->set[c >> 3] & (1u << (c & 7))))
            continue;
        gram_alt *a = g_new_alt(p, nt);
        uint8_t *b = a ? ctg_malloc(1) : NULL;
        if (!b)
            return p_oom(p), -1;
        b[0] = (uint8_t)c;
        if (!g_add_sym(p, a, -1, b, 1))
            return -1;
    }
    return nt;
}

/* ==== parser =============================================================== */

static bool p_next(parser *p)
{
    ctg_free(p->cur.bytes);
    p->cur.bytes = NULL;
    return lx_next(&p->lx, &p->cur, p->e);
}

/* True when the current token is <name> followed by ::= (a new rule). */
static bool p_at_rule_start(parser *p)
{
    if (p->cur.kind != TK_NT)
        return false;
    lexer save = p->lx;
    token t;
    ctg_err ignore = {{0}};
    bool def = lx_next(&save, &t, &ignore) && t.kind == TK_DEF;
    ctg_free(t.bytes);
    return def;
}

static bool p_expected(parser *p, const char *what)
{
    return err_set(p->e, "%s:%d:%d: expected %s", p->lx.fname, p->cur.line, p->cur.col, what);
}

/* Parses one alternative: one or more symbols. */
static bool p_sequence(parser *p, int lhs)
{
    gram_alt *a = g_new_alt(p, lhs);
    if (!a)
        return false;
    while (!p_at_rule_start(p)) {
        token *t = &p->cur;
        if (t->kind == TK_STR) {
            if (!g_add_sym(p, a, -1, t->bytes, t->n))
                return (t->bytes = NULL), false;
            t->bytes = NULL;
        } else if (t->kind == TK_NT) {
            const char *nm = p->lx.s + t->start + 1;
            int nt = g_intern(p, nm, t->end - t->start - 2, t->line, t->col);
            if (nt < 0 || !g_add_sym(p, a, nt, NULL, 0))
                return false;
        } else if (t->kind == TK_CLASS) {
            int nt = g_class(p, t);
            if (nt < 0 || !g_add_sym(p, a, nt, NULL, 0))
                return false;
        } else {
            break;
        }
        if (!p_next(p))
            return false;
    }
    if (a->n == 0)
        return p_expected(p, "a \"string\", <nonterminal> or [class] "
                             "(write \"\" for the empty string)");
    return true;
}

/* Parses `<name> ::= seq | seq ...`. */
static bool p_rule(parser *p)
{
    if (p->cur.kind != TK_NT)
        return p_expected(p, "a rule '<name> ::= ...'");
    token *t = &p->cur;
    int lhs = g_intern(p, p->lx.s + t->start + 1, t->end - t->start - 2, t->line, t->col);
    if (lhs < 0)
        return false;
    if (!p->g->nts[lhs].defined) {
        p->g->nts[lhs].defined = true;
        p->g->nts[lhs].line = t->line;
        p->g->nts[lhs].col = t->col;
    }
    if (!p_next(p))
        return false;
    if (p->cur.kind != TK_DEF)
        return p_expected(p, "'::=' after the rule's nonterminal");
    if (!p_next(p))
        return false;
    for (;;) {
        if (!p_sequence(p, lhs))
            return false;
        if (p->cur.kind != TK_BAR)
            break;
        if (!p_next(p))
            return false;
    }
    if (p->cur.kind != TK_EOF && !p_at_rule_start(p))
        return p_expected(p, "'|', a symbol, or a new rule '<name> ::= ...'");
    return true;
}

/* ==== checks ================================================================ */

static size_t sat_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

/* Computes min_len for every nonterminal by fixpoint iteration; SIZE_MAX
 * marks a nonterminal that derives no finite string. */
static void g_min_lengths(grammar *g)
{
    for (size_t i = 0; i < g->n_nts; i++)
        g->nts[i].min_len = SIZE_MAX;
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t i = 0; i < g->n_nts; i++) {
            gram_nt *n = &g->nts[i];
            for (size_t a = 0; a < n->n_alts; a++) {
                size_t len = 0;
                for (size_t s = 0; s < n->alts[a].n; s++) {
                    const gram_sym *y = &n->alts[a].syms[s];
                    len = sat_add(len, y->nt < 0 ? y->len : g->nts[y->nt].min_len);
                }
                if (len < n->min_len) {
                    n->min_len = len;
                    changed = true;
                }
            }
        }
    }
}

static bool g_check(grammar *g, const char *fname, ctg_err *e)
{
    if (g->n_nts == 0)
        return err_set(e, "%s: the grammar has no rules; write at least one '<start> ::= ...'",
                       fname);
    for (size_t i = 0; i < g->n_nts; i++) {
        gram_nt *n = &g->nts[i];
        if (!n->defined)
            return err_set(e, "%s:%d:%d: <%s> is used but never defined; add a rule '<%s> ::= ...'",
                           fname, n->line, n->col, n->name, n->name);
    }
    g_min_lengths(g);
    for (size_t i = 0; i < g->n_nts; i++) {
        gram_nt *n = &g->nts[i];
        if (n->min_len == SIZE_MAX)
            return err_set(e, "%s:%d:%d: <%s> never derives a finite string (every alternative "
                              "needs a nonterminal that never ends); add an alternative without it",
                           fname, n->line, n->col, n->name);
    }
    return true;
}

/* ==== public API ============================================================= */

grammar *gram_parse(const char *text, size_t len, const char *fname, ctg_err *e)
{
    parser p = {.lx = {text, len, 0, 1, 1, fname ? fname : "<grammar>"}, .e = e};
    if (!(p.g = ctg_calloc(1, sizeof *p.g))) {
        err_set(e, "%s: out of memory reading the grammar", p.lx.fname);
        return NULL;
    }
    bool ok = p_next(&p);
    while (ok && p.cur.kind != TK_EOF)
        ok = p_rule(&p);
    ctg_free(p.cur.bytes);
    if (ok)
        ok = g_check(p.g, p.lx.fname, e);
    if (!ok) {
        gram_free(p.g);
        return NULL;
    }
    p.g->start = 0;
    return p.g;
}

grammar *gram_load(const char *path, ctg_err *e)
{
    char *text;
    size_t len;
    if (!fs_read(path, &text, &len, e))
        return NULL;
    grammar *g = gram_parse(text, len, path, e);
    ctg_free(text);
    return g;
}

void gram_free(grammar *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n_nts; i++) {
        gram_nt *n = &g->nts[i];
        for (size_t a = 0; a < n->n_alts; a++) {
            for (size_t s = 0; s < n->alts[a].n; s++)
                ctg_free(n->alts[a].syms[s].text);
            ctg_free(n->alts[a].syms);
        }
        ctg_free(n->alts);
        ctg_free(n->name);
    }
    ctg_free(g->nts);
    ctg_free(g);
}

int gram_find(const grammar *g, const char *name)
{
    for (size_t i = 0; i < g->n_nts; i++)
        if (!g->nts[i].anonymous && strcmp(g->nts[i].name, name) == 0)
            return (int)i;
    return -1;
}
