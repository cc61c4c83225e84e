/*
 * suite.c - the output directory (see suite.h): Test-Comp test-format 1.1
 * XML written with libxml2's xmlTextWriter and read with its parser, raw
 * corpus files and crash reports.  Every file is written to memory first and
 * then put in place with fs_write_atomic, so a reader (or a crash of
 * ctestgen) never sees half a file.
 *
 * Numbering: test-NNNNN.xml and corpus/id-NNNNN share a number, counted from
 * 0; crashes/<kind>-NNNNN have their own counter.  An output directory that
 * already holds files is never cleared: numbering continues after the
 * highest number found (deciding whether to reuse a directory is the
 * caller's business).
 */
#include "suite.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"

#define TC_PUBID "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN"
#define TC_SYSID "https://sosy-lab.org/test-format/testcase-1.1.dtd"
#define MD_PUBID "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN"
#define MD_SYSID "https://sosy-lab.org/test-format/test-metadata-1.1.dtd"

struct suite {
    char *dir;     /* absolute output directory */
    char *tests;   /* <dir>/test-suite          */
    char *corpus;  /* <dir>/corpus              */
    char *crashes; /* <dir>/crashes             */
    int arch_bits;
    bool raw;      /* suite_meta.raw_tests       */
    unsigned n_tests, n_crashes;
    unsigned n_error_recs; /* of n_crashes: reproducers of reached errors */
    unsigned next_test, next_crash;
    const char *const *args; /* the program's arguments (suite_meta) */
    int n_args;
};

/* ==== numbering ========================================================== */

/* Number after the last '-' of a name like "test-00012.xml" or "abort-00003",
 * or -1 when the name has none; *rest gets what follows the number ("",
 * ".xml" or ".txt"). */
static long name_number(const char *name, const char **rest)
{
    const char *dash = strrchr(name, '-');
    if (!dash || dash[1] < '0' || dash[1] > '9')
        return -1;
    char *end;
    long n = strtol(dash + 1, &end, 10);
    *rest = end;
    return (*end == '\0' || !strcmp(end, ".xml") || !strcmp(end, ".txt")) ? n : -1;
}

/* One scan of dir over the numbered files whose name starts with prefix
 * (every file when prefix is ""): returns one more than the highest number;
 * *count gets how many have exactly suffix after the number (an earlier
 * run's tests or crashes, when a run is resumed). */
static unsigned scan_numbered(const char *dir, const char *prefix, const char *suffix,
                              unsigned *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    long max = -1;
    for (struct dirent *de; (de = readdir(d));) {
        if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 || strstr(de->d_name, ".tmp."))
            continue;
        const char *rest;
        long n = name_number(de->d_name, &rest);
        if (n < 0)
            continue;
        max = n > max ? n : max;
        *count += !strcmp(rest, suffix);
    }
    closedir(d);
    return (unsigned)(max + 1);
}

/* ==== XML writing ======================================================== */

typedef struct xml_out {
    xmlBufferPtr buf;
    xmlTextWriterPtr w;
    bool ok;
} xml_out;

/* Starts a document with the given DOCTYPE; out->ok is false on oom. */
static void xml_begin(xml_out *out, const char *root, const char *pubid, const char *sysid)
{
    out->buf = xmlBufferCreate();
    out->w = out->buf ? xmlNewTextWriterMemory(out->buf, 0) : NULL;
    out->ok = out->w != NULL;
    if (!out->ok)
        return;
    /* The DOCTYPE on one line (the writer splits it when indenting), the
     * elements indented. */
    out->ok = xmlTextWriterStartDocument(out->w, "1.0", "UTF-8", "no") >= 0 &&
              xmlTextWriterWriteDTD(out->w, BAD_CAST root, BAD_CAST pubid, BAD_CAST sysid, NULL) >= 0 &&
              xmlTextWriterWriteRaw(out->w, BAD_CAST "\n") >= 0 &&
              xmlTextWriterSetIndent(out->w, 1) >= 0 &&
              xmlTextWriterSetIndentString(out->w, BAD_CAST "  ") >= 0 &&
              xmlTextWriterStartElement(out->w, BAD_CAST root) >= 0;
}

static void xml_element(xml_out *out, const char *name, const char *text)
{
    if (out->ok)
        out->ok = xmlTextWriterWriteElement(out->w, BAD_CAST name, BAD_CAST text) >= 0;
}

/* Ends the document and writes it atomically to path.  Frees everything. */
static bool xml_finish(xml_out *out, const char *path, ctg_err *e)
{
    if (out->ok)
        out->ok = xmlTextWriterEndDocument(out->w) >= 0;
    if (out->w)
        xmlFreeTextWriter(out->w); /* flushes into buf */
    bool ok = out->ok;
    if (ok)
        ok = fs_write_atomic(path, xmlBufferContent(out->buf), (size_t)xmlBufferLength(out->buf), e);
    else
        err_set(e, "%s: out of memory while writing XML", path);
    if (out->buf)
        xmlBufferFree(out->buf);
    return ok;
}

/* ISO 8601 UTC time of now, e.g. 2024-05-01T12:00:00Z. */
static void iso_now(char *buf, size_t cap)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Writes test-suite/metadata.xml, children in the order of the DTD. */
static bool write_metadata(const suite_t *s, const suite_meta *m, ctg_err *e)
{
    char when[32], *path = fs_join(s->tests, "metadata.xml");
    if (!path)
        return err_set(e, "%s: out of memory", s->tests);
    iso_now(when, sizeof when);
    xml_out out;
    xml_begin(&out, "test-metadata", MD_PUBID, MD_SYSID);
    xml_element(&out, "sourcecodelang", "C");
    xml_element(&out, "producer", m->producer ? m->producer : "ctestgen " CTG_VERSION);
    xml_element(&out, "specification", m->specification ? m->specification : SUITE_SPEC_BRANCHES);
    xml_element(&out, "programfile", m->program_file ? m->program_file : "");
    xml_element(&out, "programhash", m->program_hash ? m->program_hash : "");
    xml_element(&out, "entryfunction", m->entry ? m->entry : "main");
    xml_element(&out, "architecture", m->arch_bits == 32 ? "32bit" : "64bit");
    xml_element(&out, "creationtime", when);
    bool ok = xml_finish(&out, path, e);
    ctg_free(path);
    return ok;
}

/* ==== opening ============================================================ */

suite_t *suite_open(const char *out_dir, const suite_meta *m, ctg_err *e)
{
    if (!fs_mkdir_p(out_dir, e))
        return NULL;
    suite_t *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "%s: out of memory", out_dir);
        return NULL;
    }
    s->dir = fs_realpath(out_dir, e);
    s->tests = s->dir ? fs_join(s->dir, "test-suite") : NULL;
    s->corpus = s->dir ? fs_join(s->dir, "corpus") : NULL;
    s->crashes = s->dir ? fs_join(s->dir, "crashes") : NULL;
    s->arch_bits = m->arch_bits == 32 ? 32 : 64;
    s->args = m->args; /* the caller keeps them for the suite's life */
    s->n_args = m->n_args;
    s->raw = m->raw_tests;
    if (!s->tests || !s->corpus || !s->crashes) {
        err_set(e, "%s: out of memory", out_dir);
        suite_close(s);
        return NULL;
    }
    char *md = fs_join(s->tests, "metadata.xml");
    bool keep = m->keep_existing && md && fs_exists(md);
    ctg_free(md);
    if ((!s->raw && !fs_mkdir_p(s->tests, e)) || !fs_mkdir_p(s->corpus, e) ||
        !fs_mkdir_p(s->crashes, e) || (!s->raw && !keep && !write_metadata(s, m, e))) {
        suite_close(s);
        return NULL;
    }
    unsigned raw, xml;
    unsigned a = scan_numbered(s->tests, "test-", ".xml", &xml);
    unsigned b = scan_numbered(s->corpus, "id-", "", &raw);
    s->n_tests = s->raw ? raw : xml;
    s->next_test = a > b ? a : b;
    s->next_crash = scan_numbered(s->crashes, "", "", &s->n_crashes);
    (void)scan_numbered(s->crashes, "error-", "", &s->n_error_recs);
    return s;
}

void suite_close(suite_t *s)
{
    if (!s)
        return;
    ctg_free(s->dir);
    ctg_free(s->tests);
    ctg_free(s->corpus);
    ctg_free(s->crashes);
    ctg_free(s);
}

unsigned suite_n_tests(const suite_t *s) { return s->n_tests; }
unsigned suite_next_test_id(const suite_t *s) { return s->next_test; }
unsigned suite_n_crashes(const suite_t *s) { return s->n_crashes; }
unsigned suite_n_error_records(const suite_t *s) { return s->n_error_recs; }
const char *suite_dir(const suite_t *s) { return s->dir; }

/* ==== adding tests ======================================================= */

/* Writes the <input> elements of t: one per value, one per byte of a
 * CTG_T_BYTES value.  False with e set when t is inconsistent. */
static bool write_inputs(xml_out *out, const test_t *t, ctg_err *e)
{
    char text[64];
    for (size_t i = 0; i < t->n_vals && out->ok; i++) {
        const ctg_value_rec *v = &t->vals[i];
        size_t size = test_value_size(t, i);
        bool bytes = v->type == CTG_T_BYTES;
        if (v->offset > t->len || size > t->len - v->offset)
            return err_set(e, "test value %zu lies outside the test's %zu bytes", i, t->len);
        for (size_t k = 0; k < (bytes ? size : 1) && out->ok; k++) {
            const uint8_t *p = t->data + v->offset + k;
            if (test_value_format(bytes ? CTG_T_UCHAR : (enum ctg_type)v->type, p, bytes ? 1 : size,
                                  text, sizeof text) < 0)
                return err_set(e, "test value %zu: a %s cannot have %zu bytes", i,
                               ctg_type_name((enum ctg_type)v->type), size);
            out->ok = xmlTextWriterStartElement(out->w, BAD_CAST "input") >= 0 &&
                      xmlTextWriterWriteAttribute(out->w, BAD_CAST "type",
                                                  BAD_CAST ctg_type_name((enum ctg_type)v->type)) >= 0 &&
                      xmlTextWriterWriteString(out->w, BAD_CAST text) >= 0 &&
                      xmlTextWriterEndElement(out->w) >= 0;
        }
    }
    return true;
}

bool suite_write_testcase(const char *path, const test_t *t, bool covers_error, ctg_err *e)
{
    xml_out out;
    xml_begin(&out, "testcase", TC_PUBID, TC_SYSID);
    if (out.ok && covers_error)
        out.ok = xmlTextWriterWriteAttribute(out.w, BAD_CAST "coversError", BAD_CAST "true") >= 0;
    if (!write_inputs(&out, t, e)) {
        out.ok = false;
        xml_finish(&out, path, NULL);
        return false;
    }
    return xml_finish(&out, path, e);
}

/* test-suite/test-NNNNN.xml of test id (ctg_free; NULL on oom). */
static char *testcase_path(const suite_t *s, unsigned id)
{
    char name[32];
    snprintf(name, sizeof name, "test-%05u.xml", id);
    return fs_join(s->tests, name);
}

bool suite_add(suite_t *s, const test_t *t, ctg_err *e)
{
    char name[32];
    unsigned id = s->next_test;
    char *xml = testcase_path(s, id);
    snprintf(name, sizeof name, "id-%05u", id);
    char *raw = fs_join(s->corpus, name);
    bool ok = xml && raw;
    if (!ok)
        err_set(e, "%s: out of memory", s->dir);
    bool xml_ok = ok && (s->raw || suite_write_testcase(xml, t, t->kind == EXEC_ERROR, e));
    ok = xml_ok && fs_write_atomic(raw, t->data, t->len, e);
    if (xml_ok && !ok && !s->raw)
        unlink(xml); /* a test is on disk whole (testcase + corpus file) or not at all */
    ctg_free(xml);
    ctg_free(raw);
    if (ok) {
        s->next_test++;
        s->n_tests++;
    }
    return ok;
}

bool suite_set_covers_error(suite_t *s, unsigned id, const test_t *t, bool covers_error,
                            ctg_err *e)
{
    if (s->raw)
        return true;
    char *xml = testcase_path(s, id);
    bool ok = xml ? suite_write_testcase(xml, t, covers_error, e)
                  : err_set(e, "%s: out of memory", s->dir);
    ctg_free(xml);
    return ok;
}

/* ==== crashes ============================================================ */

/* Prefixes of crash files.  They are part of the output format (users and
 * scripts glob crashes/abort-*), hence fixed here rather than borrowed from
 * exec's display names. */
static const char *const crash_prefix[EXEC__COUNT] = {
    [EXEC_NORMAL] = "exit",   [EXEC_ERROR] = "error", [EXEC_ASSUME] = "assume",
    [EXEC_ABORT] = "abort",   [EXEC_CRASH] = "crash", [EXEC_TIMEOUT] = "timeout",
    [EXEC_OOM] = "oom",
    [EXEC_SANITIZER] = "sanitizer",
};

static const char *crash_kind(exec_kind k)
{
    return (unsigned)k < EXEC__COUNT ? crash_prefix[k] : "crash";
}

void suite_crash_name(exec_kind k, unsigned num, char *buf, size_t cap)
{
    snprintf(buf, cap, "crashes/%s-%05u", crash_kind(k), num);
}

/* One line saying what happened in a run, e.g. "crash: signal 11
 * (Segmentation fault) at site 0x1a2b; 4 input bytes; found at execution 12
 * after 0.5 s". */
static void describe_result(sbuf *b, const test_t *t, const exec_result *r)
{
    const char *kind = crash_kind(r->kind);
    switch (r->kind) {
    case EXEC_NORMAL:
        sbuf_printf(b, "%s: exit code %d", kind, r->exit_code);
        break;
    case EXEC_ERROR:
        sbuf_printf(b, "%s: reach_error/__VERIFIER_error called at error site %u", kind,
                    r->error_site);
        break;
    case EXEC_SANITIZER:
        sbuf_printf(b, "%s: a sanitizer reported an error at site 0x%llx", kind,
                    (unsigned long long)r->crash_site);
        break;
    case EXEC_ABORT:
    case EXEC_CRASH:
        sbuf_printf(b, "%s: signal %d (%s)%s", kind, r->signal, strsignal(r->signal),
                    r->stack_overflow ? ", stack overflow" : "");
        if (r->crash_site && !r->stack_overflow)
            sbuf_printf(b, " at site 0x%llx", (unsigned long long)r->crash_site);
        break;
    case EXEC_TIMEOUT:
        sbuf_printf(b, "%s: still running after the per-run timeout, killed", kind);
        break;
    case EXEC_OOM:
        sbuf_printf(b, "%s: an allocation failed under the memory limit", kind);
        break;
    default:
        sbuf_printf(b, "%s", kind);
    }
    sbuf_printf(b, "; %zu input byte%s; found at execution %llu after %.1f s\n", t->len,
                t->len == 1 ? "" : "s", (unsigned long long)t->found_at_exec, t->found_at_s);
}

/* The copy of binary in OUT/bin/ (made once; ctg_free), so that the
 * reproduce command does not name the build cache; the binary itself when
 * it cannot be copied. */
static char *bin_copy(const suite_t *s, const char *binary)
{
    const char *base = strrchr(binary, '/');
    base = base ? base + 1 : binary;
    char *dir = fs_join(s->dir, "bin"), *to = dir ? fs_join(dir, base) : NULL;
    ctg_err ignored = {{0}};
    bool ok = to && (fs_exists(to) || (fs_mkdir_p(dir, &ignored) && fs_copy(binary, to, &ignored)));
    ctg_free(dir);
    if (ok)
        return to;
    ctg_free(to);
    return fs_realpath(binary, NULL);
}

/* The shell command that reproduces a crash: CTESTGEN_INPUT=<raw> <binary>. */
static void repro_command(const suite_t *s, sbuf *b, const char *raw, const char *binary)
{
    char *bin_abs = binary ? bin_copy(s, binary) : NULL;
    char *env = NULL;
    sbuf tmp = SBUF_INIT;
    sbuf_printf(&tmp, "%s=%s", CTG_ENV_INPUT, raw);
    env = sbuf_take(&tmp);
    char **argv = ctg_calloc((size_t)s->n_args + 3, sizeof *argv);
    char *cmd = NULL;
    if (env && argv) {
        argv[0] = env;
        argv[1] = bin_abs ? bin_abs : (char *)(binary ? binary : "prog.cov");
        for (int i = 0; i < s->n_args; i++) /* "@@" is the runtime's to replace */
            argv[2 + i] = (char *)s->args[i];
        cmd = proc_cmdline(argv);
    }
    sbuf_printf(b, "%s\n", cmd ? cmd : raw);
    ctg_free(cmd);
    ctg_free(argv);
    ctg_free(env);
    ctg_free(bin_abs);
}

/* The bug and report lines of a crash description. */
static void describe_bug(sbuf *b, const suite_crash_info *ci)
{
    if (ci && ci->bug)
        sbuf_printf(b, "bug: %s\n", ci->bug);
    if (ci && ci->report && *ci->report) {
        sbuf_printf(b, "report:\n");
        for (const char *p = ci->report; *p;) {
            size_t n = strcspn(p, "\n");
            sbuf_printf(b, "  %.*s\n", (int)n, p);
            p += n + (p[n] == '\n');
        }
    }
    if (ci && (ci->bug || ci->report))
        sbuf_printf(b, "reproduce (from any directory):\n");
}

/* Writes crashes/<kind>-<num> and its .txt (each atomically). */
static bool write_crash(suite_t *s, unsigned num, const test_t *t, const exec_result *r,
                        const suite_crash_info *ci, ctg_err *e)
{
    char name[64];
    snprintf(name, sizeof name, "%s-%05u", crash_kind(r->kind), num);
    char *raw = fs_join(s->crashes, name);
    sbuf txt = SBUF_INIT;
    sbuf_printf(&txt, "%s.txt", raw ? raw : "");
    sbuf desc = SBUF_INIT;
    describe_result(&desc, t, r);
    describe_bug(&desc, ci);
    if (raw)
        repro_command(s, &desc, raw, ci ? ci->repro_binary : NULL);
    bool ok = raw && sbuf_ok(&txt) && sbuf_ok(&desc);
    if (!ok)
        err_set(e, "%s: out of memory", s->crashes);
    ok = ok && fs_write_atomic(raw, t->data, t->len, e) &&
         fs_write_atomic(txt.data, desc.data, desc.len, e);
    ctg_free(raw);
    sbuf_release(&txt);
    sbuf_release(&desc);
    return ok;
}

bool suite_add_crash(suite_t *s, const test_t *t, const exec_result *r,
                     const suite_crash_info *ci, unsigned *num, ctg_err *e)
{
    if (!write_crash(s, s->next_crash, t, r, ci, e))
        return false;
    if (num)
        *num = s->next_crash;
    s->next_crash++;
    s->n_crashes++;
    s->n_error_recs += r->kind == EXEC_ERROR;
    return true;
}

bool suite_replace_crash(suite_t *s, unsigned num, const test_t *t, const exec_result *r,
                         const suite_crash_info *ci, ctg_err *e)
{
    return write_crash(s, num, t, r, ci, e);
}

/* ==== reading ============================================================ */

/* Parses an XML file (no network, no DTD loading, errors not printed).
 * NULL with e set to "<path>:<line>: ..." when it is unreadable or not
 * well-formed. */
static xmlDocPtr load_xml(const char *path, ctg_err *e)
{
    char *data = NULL;
    size_t len = 0;
    if (!fs_read(path, &data, &len, e))
        return NULL;
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    xmlDocPtr doc = NULL;
    if (!ctxt)
        err_set(e, "%s: out of memory while parsing", path);
    else
        doc = xmlCtxtReadMemory(ctxt, data, (int)len, path, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                    XML_PARSE_BIG_LINES);
    if (ctxt && !doc) {
        xmlErrorPtr x = xmlCtxtGetLastError(ctxt);
        char msg[256] = "empty file";
        if (x && x->message) {
            snprintf(msg, sizeof msg, "%s", x->message);
            msg[strcspn(msg, "\n")] = '\0';
        }
        err_set(e, "%s:%d: not a well-formed XML file (%s); fix it or generate the test suite again",
                path, x && x->line > 0 ? x->line : 1, msg);
    }
    xmlFreeParserCtxt(ctxt);
    ctg_free(data);
    return doc;
}

/* The root element of doc if it is called `name`; else NULL with e set. */
static xmlNodePtr expect_root(xmlDocPtr doc, const char *path, const char *name, ctg_err *e)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (root && !xmlStrcmp(root->name, BAD_CAST name))
        return root;
    err_set(e, "%s:%ld: not a %s document (root element <%s>); expected <%s> of the Test-Comp test format",
            path, root ? xmlGetLineNo(root) : 1L, name, root ? (const char *)root->name : "none",
            name);
    return NULL;
}

/* Text content of a node without surrounding white space (ctg_free); NULL on oom. */
static char *node_text(xmlNodePtr n)
{
    xmlChar *c = xmlNodeGetContent(n);
    const char *s = c ? (const char *)c : "";
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    size_t len = strlen(s);
    while (len && strchr(" \t\n\r", s[len - 1]))
        len--;
    char *r = ctg_strndup(s, len);
    xmlFree(c);
    return r;
}

/* Appends one <input> element to tc; false on oom. */
static bool add_input(suite_testcase *tc, size_t *cap, xmlNodePtr n)
{
    if (ctg_grow((void **)&tc->inputs, cap, tc->n_inputs + 1, sizeof *tc->inputs) < 0)
        return false;
    suite_input *in = &tc->inputs[tc->n_inputs];
    memset(in, 0, sizeof *in);
    in->line = (int)xmlGetLineNo(n);
    in->text = node_text(n);
    xmlChar *type = xmlGetProp(n, BAD_CAST "type");
    if (type) {
        in->type = ctg_strdup((const char *)type);
        xmlFree(type);
    }
    tc->n_inputs++;
    return in->text && (!type || in->type);
}

bool suite_parse_testcase(const char *path, suite_testcase *tc, ctg_err *e)
{
    memset(tc, 0, sizeof *tc);
    xmlDocPtr doc = load_xml(path, e);
    if (!doc)
        return false;
    xmlNodePtr root = expect_root(doc, path, "testcase", e);
    bool ok = root != NULL;
    if (ok) {
        xmlChar *ce = xmlGetProp(root, BAD_CAST "coversError");
        tc->covers_error = ce && !xmlStrcmp(ce, BAD_CAST "true");
        xmlFree(ce);
    }
    size_t cap = 0;
    for (xmlNodePtr n = root ? root->children : NULL; ok && n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_CAST "input"))
            continue;
        if (!add_input(tc, &cap, n))
            ok = err_set(e, "%s: out of memory", path);
    }
    xmlFreeDoc(doc);
    if (!ok)
        suite_testcase_release(tc);
    return ok;
}

void suite_testcase_release(suite_testcase *tc)
{
    for (size_t i = 0; i < tc->n_inputs; i++) {
        ctg_free(tc->inputs[i].text);
        ctg_free(tc->inputs[i].type);
    }
    ctg_free(tc->inputs);
    memset(tc, 0, sizeof *tc);
}

/* Type of an input: its type attribute, else dflt.  False with e set for a
 * type name that is not a C type of the input model. */
static bool input_type(const char *path, const suite_input *in, enum ctg_type dflt,
                       enum ctg_type *t, ctg_err *e)
{
    *t = dflt;
    if (!in->type || dflt == CTG_T_BYTES || ctg_type_from_name(in->type, t))
        return true;
    return err_set(e, "%s:%d: unknown input type '%s'; use a C type name such as int or unsigned char",
                   path, in->line, in->type);
}

/* Appends value bytes to a test under construction; false on oom. */
static bool test_append(test_t *t, size_t *cap_data, size_t *cap_vals, const uint8_t *b,
                        size_t size, enum ctg_type type)
{
    if (ctg_grow((void **)&t->data, cap_data, t->len + size, 1) < 0 ||
        ctg_grow((void **)&t->vals, cap_vals, t->n_vals + 1, sizeof *t->vals) < 0)
        return false;
    memcpy(t->data + t->len, b, size);
    t->vals[t->n_vals++] = (ctg_value_rec){(uint32_t)t->len, (uint16_t)type, (uint16_t)size};
    t->len += size;
    return true;
}

/* Builds the test of a parsed testcase; NULL with e set on a bad value. */
static test_t *testcase_to_test(const char *path, const suite_testcase *tc, int arch_bits,
                                enum ctg_type dflt, ctg_err *e)
{
    test_t *t = test_new(NULL, 0, NULL, 0);
    size_t cap_data = 0, cap_vals = 0;
    bool ok = t != NULL;
    for (size_t i = 0; ok && i < tc->n_inputs; i++) {
        const suite_input *in = &tc->inputs[i];
        enum ctg_type type;
        ok = input_type(path, in, dflt, &type, e);
        bool bytes = type == CTG_T_BYTES;
        size_t size = bytes ? 1 : ctg_type_size(type, arch_bits);
        uint8_t b[8];
        ctg_err ve = {{0}};
        if (ok && !test_value_parse(bytes ? CTG_T_UCHAR : type, in->text, b, size, &ve))
            ok = err_set(e, "%s:%d: input %zu: %s; fix or remove the value", path, in->line, i + 1,
                         ve.msg);
        if (ok && bytes && t->n_vals == 1) { /* extend the one byte-array value */
            ok = ctg_grow((void **)&t->data, &cap_data, t->len + 1, 1) == 0;
            if (ok)
                t->data[t->len++] = b[0];
        } else if (ok) {
            ok = test_append(t, &cap_data, &cap_vals, b, size, type);
        }
        if (!ok)
            err_set(e, "%s: out of memory", path);
    }
    if (!ok) {
        test_free(t);
        return NULL;
    }
    if (t->n_vals == 1 && t->vals[0].type == CTG_T_BYTES)
        t->vals[0].size = (uint16_t)t->len;
    return t;
}

bool suite_read_testcase(const char *path, int arch_bits, enum ctg_type default_type, test_t **out,
                         bool *covers_error, ctg_err *e)
{
    suite_testcase tc;
    *out = NULL;
    if (!suite_parse_testcase(path, &tc, e))
        return false;
    *out = testcase_to_test(path, &tc, arch_bits, default_type, e);
    if (covers_error)
        *covers_error = tc.covers_error;
    if (*out) {
        (*out)->kind = tc.covers_error ? EXEC_ERROR : EXEC_NORMAL;
    }
    suite_testcase_release(&tc);
    return *out != NULL;
}

/* ==== metadata =========================================================== */

/* Copies the text of child element `name` of root into *dst (NULL if absent). */
static bool child_text(xmlNodePtr root, const char *name, char **dst)
{
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name)) {
            *dst = node_text(n);
            return *dst != NULL;
        }
    }
    return true;
}

bool suite_read_metadata(const char *path, suite_metadata *m, ctg_err *e)
{
    memset(m, 0, sizeof *m);
    xmlDocPtr doc = load_xml(path, e);
    if (!doc)
        return false;
    xmlNodePtr root = expect_root(doc, path, "test-metadata", e);
    char *arch = NULL;
    bool ok = root && child_text(root, "programfile", &m->program_file) &&
              child_text(root, "programhash", &m->program_hash) &&
              child_text(root, "entryfunction", &m->entry) &&
              child_text(root, "specification", &m->specification) &&
              child_text(root, "producer", &m->producer) &&
              child_text(root, "creationtime", &m->creation_time) &&
              child_text(root, "architecture", &arch);
    if (root && !ok)
        err_set(e, "%s: out of memory", path);
    m->arch_bits = arch && !strcmp(arch, "32bit") ? 32 : 64;
    ctg_free(arch);
    xmlFreeDoc(doc);
    if (!ok)
        suite_metadata_release(m);
    return ok;
}

void suite_metadata_release(suite_metadata *m)
{
    ctg_free(m->program_file);
    ctg_free(m->program_hash);
    ctg_free(m->entry);
    ctg_free(m->specification);
    ctg_free(m->producer);
    ctg_free(m->creation_time);
    memset(m, 0, sizeof *m);
}

/* qsort comparator for strings. */
bool suite_list_testcases(const char *dir, char ***paths, size_t *n, ctg_err *e)
{
    char **all;
    size_t n_all;
    *paths = NULL;
    *n = 0;
    if (!fs_is_dir(dir))
        return err_set(e, "%s: cannot open the test-suite directory: no such directory", dir);
    if (!fs_list_files(dir, &all, &n_all, e)) /* sorted by name */
        return false;
    for (size_t i = 0; i < n_all; i++) { /* the testcases: NAME.xml but metadata.xml */
        const char *base = strrchr(all[i], '/') + 1;
        size_t len = strlen(base);
        if (len >= 5 && !strcmp(base + len - 4, ".xml") && strcmp(base, "metadata.xml"))
            all[(*n)++] = all[i];
        else
            ctg_free(all[i]);
    }
    *paths = all;
    return true;
}

void suite_free_list(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
}
