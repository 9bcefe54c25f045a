/*
 * fmu_import.c - the test importer's loading half (fmu_import.h): unzip
 * with libzip, a small XML reader, dlopen and dlsym of every function.
 *
 * The XML reader knows what FMI 2.0's modelDescription.xml can hold:
 * a declaration, comments, elements with attributes in single or double
 * quotes, character data (skipped) and the five predefined entities and
 * character references.  It makes a flat list of elements, each with its
 * parent, and the importer picks what it needs from that list, the way
 * an importer reads the standard's structure: ModelExchange and
 * CoSimulation for the modelIdentifier, ScalarVariable with its Real,
 * Boolean or Integer child, ModelStructure/Derivatives for the states.
 */
#define _GNU_SOURCE
#include "fmu_import.h"

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fmu_import: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* ---- the log ----------------------------------------------------------- */

enum { LOG_MAX = 4096 };
static char *log_text[LOG_MAX];
static int log_status[LOG_MAX];
static int n_log;

void fmu_logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status,
                fmi2String category, fmi2String message, ...)
{
    (void)env;
    char buf[4096];
    va_list ap;
    va_start(ap, message);
    vsnprintf(buf, sizeof buf, message, ap);
    va_end(ap);
    if (getenv("FMU_TEST_VERBOSE"))
        fprintf(stderr, "[%s %s %d] %s\n", name, category, (int)status, buf);
    if (n_log < LOG_MAX) {
        log_status[n_log] = status;
        log_text[n_log++] = strdup(buf);
    }
}

const fmi2CallbackFunctions fmu_callbacks = {fmu_logger, calloc, free, NULL, NULL};

int fmu_log_count(void)
{
    return n_log;
}

const char *fmu_log_last(void)
{
    return n_log ? log_text[n_log - 1] : "";
}

const char *fmu_log_message(int n, int *status)
{
    if (n < 0 || n >= n_log)
        return NULL;
    if (status)
        *status = log_status[n];
    return log_text[n];
}

/* ---- unzipping ----------------------------------------------------------- */

static void mkdirs(const char *path)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0700);
            *s = '/';
        }
    }
}

static void unzip(const char *path, const char *dir)
{
    int err = 0;
    zip_t *za = zip_open(path, ZIP_RDONLY, &err);
    if (!za)
        die("cannot open the FMU '%s' (libzip error %d)", path, err);
    zip_int64_t n = zip_get_num_entries(za, 0);
    for (zip_int64_t i = 0; i < n; i++) {
        const char *name = zip_get_name(za, (zip_uint64_t)i, 0);
        if (!name || strstr(name, "..") || name[0] == '/')
            die("unsafe name in the archive: %s", name ? name : "?");
        char out[1024];
        snprintf(out, sizeof out, "%s/%s", dir, name);
        mkdirs(out);
        if (name[strlen(name) - 1] == '/')
            continue;
        zip_file_t *zf = zip_fopen_index(za, (zip_uint64_t)i, 0);
        FILE *fp = fopen(out, "wb");
        if (!zf || !fp)
            die("cannot extract %s", name);
        char buf[65536];
        zip_int64_t k;
        while ((k = zip_fread(zf, buf, sizeof buf)) > 0)
            fwrite(buf, 1, (size_t)k, fp);
        if (k < 0 || fclose(fp) != 0)
            die("cannot extract %s", name);
        zip_fclose(zf);
    }
    zip_close(za);
}

/* ---- the XML reader -------------------------------------------------------- */

typedef struct Elem {
    char name[64];
    int parent;             /* index, or -1 */
    int nattr;
    char *attr[32][2];      /* name, value */
} Elem;

typedef struct Xml {
    Elem *e;
    int n, cap;
} Xml;

static const char *attr(const Elem *e, const char *name)
{
    for (int i = 0; i < e->nattr; i++)
        if (!strcmp(e->attr[i][0], name))
            return e->attr[i][1];
    return NULL;
}

/* Decodes entities of s[0..n) into a new string. */
static char *decode(const char *s, size_t n)
{
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n;) {
        if (s[i] != '&') {
            *o++ = s[i++];
            continue;
        }
        const char *semi = memchr(s + i, ';', n - i);
        if (!semi)
            die("XML: '&' without ';'");
        size_t k = (size_t)(semi - (s + i));
        static const struct { const char *name, c; } ent[] = {
            {"&amp", '&'}, {"&lt", '<'}, {"&gt", '>'}, {"&quot", '"'}, {"&apos", '\''},
        };
        int done = 0;
        for (size_t j = 0; j < sizeof ent / sizeof ent[0] && !done; j++) {
            if (k == strlen(ent[j].name) && !strncmp(s + i, ent[j].name, k)) {
                *o++ = ent[j].c;
                done = 1;
            }
        }
        if (!done && k > 2 && s[i + 1] == '#') {
            long v = s[i + 2] == 'x' ? strtol(s + i + 3, NULL, 16) : strtol(s + i + 2, NULL, 10);
            if (v <= 0 || v > 127)
                die("XML: character reference beyond ASCII");
            *o++ = (char)v;
            done = 1;
        }
        if (!done)
            die("XML: unknown entity %.*s", (int)k + 1, s + i);
        i += k + 1;
    }
    *o = 0;
    return out;
}

static void xml_parse(Xml *x, const char *s)
{
    int stack[64], depth = 0;
    for (const char *p = s; *p;) {
        if (*p != '<') {
            p++;
            continue;
        }
        if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
            const char *end = strstr(p, p[1] == '?' ? "?>" : "-->");
            if (!end)
                die("XML: unterminated declaration or comment");
            p = end + (p[1] == '?' ? 2 : 3);
            continue;
        }
        if (p[1] == '/') {
            const char *end = strchr(p, '>');
            if (!end || depth == 0)
                die("XML: bad end tag");
            size_t k = strcspn(p + 2, " \t\r\n>");
            if (strncmp(x->e[stack[depth - 1]].name, p + 2, k) != 0)
                die("XML: </%.*s> closes <%s>", (int)k, p + 2, x->e[stack[depth - 1]].name);
            depth--;
            p = end + 1;
            continue;
        }
        if (x->n == x->cap) {
            x->cap = x->cap ? 2 * x->cap : 256;
            x->e = realloc(x->e, sizeof *x->e * (size_t)x->cap);
            if (!x->e)
                die("out of memory");
        }
        Elem *e = &x->e[x->n];
        memset(e, 0, sizeof *e);
        e->parent = depth ? stack[depth - 1] : -1;
        p++;
        size_t k = strcspn(p, " \t\r\n/>");
        if (k == 0 || k >= sizeof e->name)
            die("XML: bad element name");
        memcpy(e->name, p, k);
        p += k;
        for (;;) {
            p += strspn(p, " \t\r\n");
            if (*p == '>' || !strncmp(p, "/>", 2))
                break;
            size_t an = strcspn(p, " \t\r\n=");
            const char *eq = p + an;
            eq += strspn(eq, " \t\r\n");
            if (*eq != '=' || e->nattr == 32)
                die("XML: bad attribute in <%s>", e->name);
            eq++;
            eq += strspn(eq, " \t\r\n");
            char q = *eq;
            if (q != '"' && q != '\'')
                die("XML: unquoted attribute in <%s>", e->name);
            const char *end = strchr(eq + 1, q);
            if (!end)
                die("XML: unterminated attribute in <%s>", e->name);
            e->attr[e->nattr][0] = decode(p, an);
            e->attr[e->nattr][1] = decode(eq + 1, (size_t)(end - eq - 1));
            for (int i = 0; i < e->nattr; i++)
                if (!strcmp(e->attr[i][0], e->attr[e->nattr][0]))
                    die("XML: attribute %s twice in <%s>", e->attr[i][0], e->name);
            e->nattr++;
            p = end + 1;
        }
        int self = *p == '/';
        p += self ? 2 : 1;
        if (!self) {
            if (depth == 64)
                die("XML: too deep");
            stack[depth++] = x->n;
        }
        x->n++;
    }
    if (depth)
        die("XML: <%s> not closed", x->e[stack[depth - 1]].name);
}

static void xml_free(Xml *x)
{
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < x->e[i].nattr; j++) {
            free(x->e[i].attr[j][0]);
            free(x->e[i].attr[j][1]);
        }
    free(x->e);
}

static int is(const Xml *x, int i, const char *name)
{
    return i >= 0 && !strcmp(x->e[i].name, name);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        die("cannot read %s: %s", path, strerror(errno));
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *buf = xmalloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, fp) != (size_t)n)
        die("cannot read %s", path);
    fclose(fp);
    return buf;
}

/* ---- the FMU ------------------------------------------------------------------ */

static void read_description(Fmu *f)
{
    char path[512];
    snprintf(path, sizeof path, "%s/modelDescription.xml", f->dir);
    char *text = slurp(path);
    Xml x = {0};
    xml_parse(&x, text);
    free(text);
    if (x.n == 0 || !is(&x, 0, "fmiModelDescription"))
        die("modelDescription.xml: the root is not fmiModelDescription");
    const char *v = attr(&x.e[0], "fmiVersion");
    if (!v || strcmp(v, "2.0") != 0)
        die("modelDescription.xml: fmiVersion is %s, not 2.0", v ? v : "missing");
    v = attr(&x.e[0], "guid");
    if (!v)
        die("modelDescription.xml: no guid");
    snprintf(f->guid, sizeof f->guid, "%s", v);
    v = attr(&x.e[0], "numberOfEventIndicators");
    f->nindicators = v ? atoi(v) : 0;
    f->ident[0] = 0;
    f->vars = xmalloc(sizeof *f->vars * (size_t)x.n);
    f->state_vars = xmalloc(sizeof(int) * (size_t)x.n);
    f->der_vars = xmalloc(sizeof(int) * (size_t)x.n);
    for (int i = 0; i < x.n; i++) {
        Elem *e = &x.e[i];
        if (is(&x, i, "ModelExchange") || is(&x, i, "CoSimulation")) {
            const char *id = attr(e, "modelIdentifier");
            if (!id)
                die("%s without modelIdentifier", e->name);
            if (f->ident[0] && strcmp(f->ident, id) != 0)
                die("ModelExchange and CoSimulation name different binaries");
            snprintf(f->ident, sizeof f->ident, "%s", id);
        } else if (is(&x, i, "ScalarVariable")) {
            FmuVariable *sv = &f->vars[f->nvars++];
            const char *name = attr(e, "name"), *vr = attr(e, "valueReference");
            if (!name || !vr)
                die("ScalarVariable without name or valueReference");
            sv->name = strdup(name);
            sv->vr = (unsigned)strtoul(vr, NULL, 10);
            const char *c = attr(e, "causality");
            snprintf(sv->causality, sizeof sv->causality, "%s", c ? c : "local");
        } else if ((is(&x, i, "Real") || is(&x, i, "Boolean") || is(&x, i, "Integer"))
                   && is(&x, e->parent, "ScalarVariable")) {
            FmuVariable *sv = &f->vars[f->nvars - 1];
            sv->type = e->name[0];
            const char *d = attr(e, "derivative"), *st = attr(e, "start");
            sv->derivative = d ? atoi(d) : 0;
            if (st) {
                sv->has_start = 1;
                sv->start = sv->type == 'B' ? !strcmp(st, "true") : strtod(st, NULL);
            }
        } else if (is(&x, i, "Unknown") && is(&x, e->parent, "Derivatives")) {
            const char *idx = attr(e, "index");
            if (!idx)
                die("Unknown without index");
            f->der_vars[f->nstates++] = atoi(idx) - 1;
        }
    }
    for (int j = 0; j < f->nstates; j++) {
        int d = f->der_vars[j];
        if (d < 0 || d >= f->nvars || f->vars[d].derivative < 1
            || f->vars[d].derivative > f->nvars)
            die("Derivatives: entry %d is not a derivative", j + 1);
        f->state_vars[j] = f->vars[d].derivative - 1;
    }
    if (!f->ident[0])
        die("modelDescription.xml: neither ModelExchange nor CoSimulation");
    xml_free(&x);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

/* Removes the unzipped tree, deepest first. */
static void remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The directories this process unzipped and has not removed yet.  A run
 * that ends through exit() (a failed call, a refused --set) removes them
 * at exit, so a failing test leaves nothing in $TMPDIR. */
#define MAX_UNZIPPED 8
static char unzipped[MAX_UNZIPPED][256];

static void remove_unzipped(void)
{
    for (int i = 0; i < MAX_UNZIPPED; i++)
        if (unzipped[i][0]) {
            remove_tree(unzipped[i]);
            unzipped[i][0] = 0;
        }
}

/* Notes DIR for removal at exit (on = 1) or forgets it (on = 0). */
static void note_unzipped(const char *dir, int on)
{
    static int registered;
    if (!registered && atexit(remove_unzipped) == 0)
        registered = 1;
    for (int i = 0; i < MAX_UNZIPPED; i++) {
        if (on && !unzipped[i][0]) {
            snprintf(unzipped[i], sizeof unzipped[i], "%s", dir);
            return;
        }
        if (!on && !strcmp(unzipped[i], dir)) {
            unzipped[i][0] = 0;
            return;
        }
    }
}

void fmu_load(Fmu *f, const char *path)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* an FMU already unzipped (tests/fmu/sources.sh rebuilds one) */
        snprintf(f->dir, sizeof f->dir, "%s", path);
        f->keep_dir = 1;
    } else {
        snprintf(f->dir, sizeof f->dir, "%s/fmu-test.XXXXXX",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(f->dir))
            die("mkdtemp: %s", strerror(errno));
        note_unzipped(f->dir, 1);
        unzip(path, f->dir);
    }
    read_description(f);
    snprintf(f->resources, sizeof f->resources, "file://%s/resources", f->dir);
    char so[512];
    snprintf(so, sizeof so, "%s/binaries/linux64/%s.so", f->dir, f->ident);
    f->so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!f->so)
        die("dlopen %s: %s", so, dlerror());
#define X_FMI2_SYM(name, ret, params)                                                      \
    *(void **)&f->api.name = dlsym(f->so, #name);                                         \
    if (!f->api.name)                                                                     \
        die("the FMU does not export %s", #name);
    FMI2_FUNCTIONS(X_FMI2_SYM)
}

void fmu_unload(Fmu *f)
{
    if (f->so)
        dlclose(f->so);
    for (int i = 0; i < f->nvars; i++)
        free(f->vars[i].name);
    free(f->vars);
    free(f->state_vars);
    free(f->der_vars);
    if (!f->keep_dir) {
        remove_tree(f->dir);
        note_unzipped(f->dir, 0);
    }
    for (int i = 0; i < n_log; i++)
        free(log_text[i]);
    n_log = 0;
}

int fmu_find(const Fmu *f, const char *name)
{
    for (int i = 0; i < f->nvars; i++)
        if (!strcmp(f->vars[i].name, name))
            return i;
    return -1;
}
