/*
 * expr_print.c - SMT-LIB-like rendering of expressions for logs, test
 * failures and --verbose output.  Iterative (deep terms do not recurse) and
 * cut after a caller-given number of characters.
 */
#include "expr_int.h"

#include "../base/mem.h"

static const char *const fcmp_names[16] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                           "one",   "ord", "uno", "ueq", "ugt", "uge",
                                           "ult",   "ule", "une", "true"};

static void print_const(sbuf *out, unsigned w, expr_u128 v)
{
    char buf[140];
    size_t n = 0;
    if (w % 4 == 0) {
        buf[n++] = '#';
        buf[n++] = 'x';
        for (int i = (int)w / 4 - 1; i >= 0; i--)
            buf[n++] = "0123456789abcdef"[(unsigned)(v >> (4 * i)) & 15];
    } else {
        buf[n++] = '#';
        buf[n++] = 'b';
        for (int i = (int)w - 1; i >= 0; i--)
            buf[n++] = (char)('0' + (unsigned)((v >> i) & 1));
    }
    sbuf_append(out, buf, n);
}

/* Prints a leaf, or the head of an application ("(bvadd", "((_ extract 7 0)"). */
static void print_head(sbuf *out, const expr *e)
{
    switch (e->op) {
    case EXPR_CONST: print_const(out, e->width, e->val); return;
    case EXPR_INPUT: sbuf_printf(out, "in%u", e->aux); return;
    case EXPR_VAR: sbuf_printf(out, "v%u", e->aux); return;
    case EXPR_ARR_CONST:
        sbuf_puts(out, "(const-array ");
        print_const(out, 8, e->val);
        sbuf_putc(out, ')');
        return;
    case EXPR_EXTRACT:
        sbuf_printf(out, "((_ extract %u %u)", e->aux + e->width - 1, e->aux);
        return;
    case EXPR_ZEXT:
    case EXPR_SEXT:
        sbuf_printf(out, "((_ %s %u)", expr_op_name((expr_op)e->op),
                    (unsigned)(e->width - e->args[0]->width));
        return;
    case EXPR_FCMP: sbuf_printf(out, "(fcmp.%s", fcmp_names[e->aux & 15]); return;
    case EXPR_FPEXT:
    case EXPR_FPTRUNC:
    case EXPR_SITOFP:
    case EXPR_UITOFP:
    case EXPR_FPTOSI:
    case EXPR_FPTOUI:
        sbuf_printf(out, "((_ %s %u)", expr_op_name((expr_op)e->op), e->width);
        return;
    default: sbuf_printf(out, "(%s", expr_op_name((expr_op)e->op)); return;
    }
}

typedef struct item {
    const expr *e; /* NULL: print tok */
    char tok;
} item;

void expr_print(const expr *e, sbuf *out, size_t max_chars)
{
    if (!e) {
        sbuf_puts(out, "<null>");
        return;
    }
    size_t start = out->len, n = 0, cap = 0;
    item *st = NULL;
    if (ctg_grow((void **)&st, &cap, 1, sizeof *st)) {
        out->oom = true;
        return;
    }
    st[n++] = (item){e, 0};
    while (n) {
        if (max_chars && out->len - start > max_chars) {
            sbuf_puts(out, "...");
            break;
        }
        item it = st[--n];
        if (!it.e) {
            sbuf_putc(out, it.tok);
            continue;
        }
        print_head(out, it.e);
        unsigned k = expr_nargs((expr_op)it.e->op);
        if (!k)
            continue;
        if (ctg_grow((void **)&st, &cap, n + 2 * k + 1, sizeof *st)) {
            out->oom = true;
            break;
        }
        st[n++] = (item){NULL, ')'};
        for (unsigned i = k; i-- > 0;) {
            st[n++] = (item){it.e->args[i], 0};
            st[n++] = (item){NULL, ' '};
        }
    }
    ctg_free(st);
}
