/*
 * fmu.c - `lmdlc fmu`: the FMU archive (fmu.h; docs/fmi.md).
 *
 * An FMU is a zip archive:
 *
 *   modelDescription.xml           fmu_xml.c, from the plan
 *   binaries/linux64/ID.so         the model and the FMI layer
 *   sources/ID.c                   the generated C: the model, then the
 *                                  value-reference table (lmdl_fmi.h)
 *   sources/rt_*.c, fmi_*.c, *.h   the runtime and the FMI layer, flat
 *
 * ID is the modelIdentifier (fmu_identifier: the model's name, which is
 * already a C identifier, with lmdl_ in front when it would not be a
 * safe one).  The shared object is the generated C compiled by build.c
 * (BUILD_SHARED: position-independent, hidden visibility) against
 * liblmdl_rt_pic.a, the runtime and FMI layer built for shared objects,
 * and the shared libgsl: an importing machine needs libgsl.so.27 and
 * libgslcblas.so.0 (Debian's libgsl27 and libgslcblas0).  sources/ holds
 * everything a rebuild needs but GSL: compiling every .c file there into a
 * shared object (with -fPIC -fvisibility=hidden, the sources directory as
 * the include path, and -lgsl -lgslcblas -lm) makes the same binary.
 *
 * The archive is made in memory with libzip and written like every other
 * output (outfile.c: a temporary file next to it, renamed when
 * complete); an output that is one of the model's files is refused first.
 */
#include "fmu.h"

#include "build.h"
#include "diag.h"
#include "fmu_vars.h"
#include "lmdl_fmi.h"
#include "outfile.h"
#include "paths.h"
#include "tool.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "zipdl.h"  /* after <zip.h>: its functions through dlsym */

#ifndef LMDL_FMU_RT_SOURCES
#error "LMDL_FMU_RT_SOURCES: the runtime files an FMU carries (runtime/CMakeLists.txt)"
#endif

/* One file of the archive. */
typedef struct Entry {
    char *name;             /* path in the archive */
    char *data;             /* its bytes */
    size_t len;             /* their count */
    unsigned mode;          /* Unix permissions for the archive */
} Entry;

typedef struct Archive {
    Entry *e;               /* the files */
    int n, cap;             /* used and allocated */
} Archive;

static void archive_add(Archive *a, const char *name, char *data, size_t len, unsigned mode)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->e = realloc(a->e, sizeof *a->e * (size_t)a->cap);
        if (!a->e)
            abort();
    }
    Entry *e = &a->e[a->n++];
    e->name = strdup(name);
    if (!e->name)
        abort();
    e->data = data;
    e->len = len;
    e->mode = mode;
}

static void archive_free(Archive *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->e[i].name);
        free(a->e[i].data);
    }
    free(a->e);
}

/* The whole file; NULL with errno on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *grown = realloc(buf, cap);
            if (!grown)
                abort();
            buf = grown;
        }
        size_t k = fread(buf + n, 1, cap - n, fp);
        n += k;
        if (k == 0)
            break;
    }
    int err = ferror(fp) ? EIO : 0;
    fclose(fp);
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    *len = n;
    return buf;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- the value-reference table --------------------------------------------- */

#define X_KIND_NAME(k, what) #k,
static const char *const kind_names[] = {LMDL_FMI_KINDS(X_KIND_NAME)};

/* The C that follows the model's: lmdl_fmi_model (lmdl_fmi.h).  The GUID
   and the identifier are hex digits, braces, dashes and identifier
   characters, so they need no escaping. */
static char *table_c(const FmuModel *fm)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    fputs("\n/* The FMU's value references (lmdlc fmu; runtime/lmdl_fmi.h). */\n"
          "#include \"lmdl_fmi.h\"\n\n"
          "_Static_assert(LMDL_FMI_ABI == 2, \"generated for FMI table interface 2\");\n\n"
          "static const LmdlFmiVar fmi_reals[] = {\n", fp);
    int *bools = calloc((size_t)fm->nbools + 1, sizeof *bools);
    if (!bools)
        abort();
    unsigned next = 0;      /* aliases share the first one's reference */
    for (int i = 0; i < fm->nvars; i++) {
        const FmuVar *v = &fm->vars[i];
        if (v->boolean) {
            bools[v->vr] = v->index;
        } else if (!v->integer && v->vr == next) {
            fprintf(fp, "    {%s, %d},\n", kind_names[v->kind], v->index);
            next++;
        }
    }
    if (!fm->nreals)
        fputs("    {LMDL_FMI_COLUMN, 0},\n", fp);
    fputs("};\n\nstatic const int fmi_bools[] = {", fp);
    for (int i = 0; i < fm->nbools; i++)
        fprintf(fp, "%s%d", i ? ", " : "", bools[i]);
    fputs(fm->nbools ? "};\n" : "0};\n", fp);
    fputs("static const LmdlFmiVar fmi_ints[] = {\n", fp);
    unsigned next_int = 0;
    for (int i = 0; i < fm->nvars; i++) {
        const FmuVar *v = &fm->vars[i];
        if (v->integer && v->vr == next_int) {
            fprintf(fp, "    {%s, %d},\n", kind_names[v->kind], v->index);
            next_int++;
        }
    }
    if (!fm->nints)
        fputs("    {LMDL_FMI_COLUMN, 0},\n", fp);
    fputs("};\n", fp);
    fputs("static const int fmi_state_vrs[] = {", fp);
    for (int j = 0; j < fm->nstates; j++)
        fprintf(fp, "%s%u", j ? ", " : "", fm->vars[fm->state_var[j]].vr);
    fputs(fm->nstates ? "};\n" : "0};\n", fp);
    fputs("static const int fmi_der_vrs[] = {", fp);
    for (int j = 0; j < fm->nstates; j++)
        fprintf(fp, "%s%u", j ? ", " : "", fm->vars[fm->der_var[j]].vr);
    fputs(fm->nstates ? "};\n\n" : "0};\n\n", fp);
    fprintf(fp, "const LmdlFmiModel lmdl_fmi_model = {\n"
            "    .abi = LMDL_FMI_ABI,\n    .guid = \"%s\",\n    .model_identifier = \"%s\",\n"
            "    .n_reals = %d, .reals = fmi_reals,\n"
            "    .state_vrs = fmi_state_vrs, .der_vrs = fmi_der_vrs,\n"
            "    .n_bools = %d, .bools = fmi_bools,\n"
            "    .n_ints = %d, .ints = fmi_ints,\n};\n",
            fm->guid, fm->ident, fm->nreals, fm->nbools, fm->nints);
    fclose(fp);
    free(bools);
    return text;
}

/* ---- sources/ ------------------------------------------------------------------ */

/* Adds the runtime's sources (LMDL_FMU_RT_SOURCES, relative to the
   sources directory) and every header there, in fmi/ and in common/, flat, under
   sources/.  The .c names go to *cfiles.  -1 after a report. */
static int add_runtime_sources(Archive *a, char ***cfiles, int *ncfiles)
{
    const char *dir = paths_fmu_sources_dir();
    char *list = strdup(LMDL_FMU_RT_SOURCES);
    if (!list)
        abort();
    int rc = 0;
    for (char *save = NULL, *f = strtok_r(list, " ", &save); f && rc == 0;
         f = strtok_r(NULL, " ", &save)) {
        char path[4096], name[512];
        snprintf(path, sizeof path, "%s/%s", dir, f);
        snprintf(name, sizeof name, "sources/%s", base_name(f));
        size_t len = 0;
        char *data = slurp(path, &len);
        if (!data) {
            diag_error(src_none, "cannot read the runtime source '%s': %s", path,
                       strerror(errno));
            rc = -1;
            break;
        }
        archive_add(a, name, data, len, 0644);
        *cfiles = realloc(*cfiles, sizeof **cfiles * (size_t)(*ncfiles + 1));
        if (!*cfiles)
            abort();
        (*cfiles)[(*ncfiles)++] = strdup(base_name(f));
    }
    free(list);
    const char *subs[] = {"", "/fmi", "/common"};
    for (int s = 0; s < 3 && rc == 0; s++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s%s", dir, subs[s]);
        DIR *d = opendir(sub);
        if (!d) {
            diag_error(src_none, "cannot read the runtime sources in '%s': %s", sub,
                       strerror(errno));
            return -1;
        }
        /* in name order, so the archive is the same every time */
        struct dirent **names = NULL;
        int n = 0, cap = 0;
        for (struct dirent *e; (e = readdir(d));) {
            size_t k = strlen(e->d_name);
            if (k < 3 || strcmp(e->d_name + k - 2, ".h") != 0)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                names = realloc(names, sizeof *names * (size_t)cap);
                if (!names)
                    abort();
            }
            names[n] = malloc(sizeof **names);
            if (!names[n])
                abort();
            memcpy(names[n++], e, sizeof **names);
        }
        closedir(d);
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && strcmp(names[j - 1]->d_name, names[j]->d_name) > 0; j--) {
                struct dirent *t = names[j];
                names[j] = names[j - 1];
                names[j - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            char path[8192], name[512];
            snprintf(path, sizeof path, "%s/%s", sub, names[i]->d_name);
            snprintf(name, sizeof name, "sources/%s", names[i]->d_name);
            size_t len = 0;
            char *data = rc == 0 ? slurp(path, &len) : NULL;
            if (rc == 0 && !data) {
                diag_error(src_none, "cannot read the runtime header '%s': %s", path,
                           strerror(errno));
                rc = -1;
            }
            if (data)
                archive_add(a, name, data, len, 0644);
            free(names[i]);
        }
        free(names);
    }
    return rc;
}

/* ---- the shared object --------------------------------------------------------- */

/* Builds the shared object in a private directory next to out and reads
   it in.  NULL after a report. */
static char *build_binary(const char *c_text, const char *ident, const char *out, size_t *len)
{
    char *dir = outfile_private_dir(out);
    if (!dir) {
        diag_error(src_none, "cannot create a temporary directory next to '%s': %s", out,
                   strerror(errno));
        return NULL;
    }
    size_t n = strlen(dir) + strlen(ident) + 8;
    char *so = malloc(n);
    if (!so)
        abort();
    snprintf(so, n, "%s/%s.so", dir, ident);
    char *data = NULL;
    if (build_shared_object(c_text, so) == 0) {
        outfile_track(so);
        data = slurp(so, len);
        if (!data)
            diag_error(src_none, "cannot read the shared object '%s': %s", so,
                       strerror(errno));
        unlink(so);
        outfile_untrack(so);
    }
    rmdir(dir);
    outfile_untrack(dir);
    free(so);
    free(dir);
    return data;
}

/* ---- the archive --------------------------------------------------------------- */

/* The zip of every entry, in memory; NULL after a report. */
static char *zip_archive(const Archive *a, size_t *len)
{
    char why[512];
    if (zipdl_load(why, sizeof why) != 0) {
        diag_error(src_none, "cannot make the FMU archive: %s", why);
        return NULL;
    }
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &ze);
    zip_t *za = src ? zip_open_from_source(src, ZIP_TRUNCATE, &ze) : NULL;
    char *out = NULL;
    if (!za) {
        diag_error(src_none, "cannot make the FMU archive: %s", zip_error_strerror(&ze));
        if (src)
            zip_source_free(src);
        zip_error_fini(&ze);
        return NULL;
    }
    zip_source_keep(src);
    int ok = 1;
    for (int i = 0; i < a->n && ok; i++) {
        zip_source_t *fs = zip_source_buffer(za, a->e[i].data, a->e[i].len, 0);
        zip_int64_t idx = fs ? zip_file_add(za, a->e[i].name, fs, ZIP_FL_ENC_UTF_8) : -1;
        if (idx < 0) {
            if (fs)
                zip_source_free(fs);
            ok = 0;
            break;
        }
        zip_file_set_external_attributes(za, (zip_uint64_t)idx, 0, ZIP_OPSYS_UNIX,
                                          (zip_uint32_t)(0100000 | a->e[i].mode) << 16);
    }
    if (!ok) {
        diag_error(src_none, "cannot make the FMU archive: %s", zip_strerror(za));
        zip_discard(za);
    } else if (zip_close(za) != 0) {
        diag_error(src_none, "cannot make the FMU archive: %s", zip_strerror(za));
        zip_discard(za);
        ok = 0;
    }
    zip_stat_t st;
    if (ok && zip_source_stat(src, &st) == 0 && zip_source_open(src) == 0) {
        out = malloc(st.size + 1);
        if (!out)
            abort();
        zip_int64_t got = zip_source_read(src, out, st.size);
        zip_source_close(src);
        if (got < 0 || (zip_uint64_t)got != st.size) {
            diag_error(src_none, "cannot read back the FMU archive");
            free(out);
            out = NULL;
        } else {
            *len = (size_t)st.size;
        }
    } else if (ok) {
        diag_error(src_none, "cannot read back the FMU archive");
    }
    zip_source_free(src);
    zip_error_fini(&ze);
    return out;
}

/* ---- the command ------------------------------------------------------------- */

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n > k && strcmp(s + n - k, tail) == 0;
}

int fmu_write(const struct Plan *plan, const char *c_text, const char *model,
              const DriverOptions *o)
{
    const char *out = o->output;
    if (!ends_with(out, ".fmu"))
        return tool_usage_error("fmu writes an FMI archive: name it NAME.fmu, not '%s'", out);
    if (outfile_is_input(out))
        return 1;
    FmuModel *fm = fmu_model_make(plan, model, c_text);
    char *table = table_c(fm);
    size_t nc = strlen(c_text), nt = strlen(table);
    char *full = malloc(nc + nt + 1);
    if (!full)
        abort();
    memcpy(full, c_text, nc);
    memcpy(full + nc, table, nt + 1);
    free(table);

    Archive a = {0};
    char **cfiles = NULL;
    int ncfiles = 0;
    char name[512];
    /* the model's own C comes first in SourceFiles */
    cfiles = malloc(sizeof *cfiles);
    if (!cfiles)
        abort();
    snprintf(name, sizeof name, "%s.c", fm->ident);
    cfiles[ncfiles++] = strdup(name);
    size_t so_len = 0;
    char *so = add_runtime_sources(&a, &cfiles, &ncfiles) == 0
                   ? build_binary(full, fm->ident, out, &so_len) : NULL;
    if (so) {
        char *xml = fmu_xml(fm, (const char *const *)cfiles, ncfiles);
        archive_add(&a, "modelDescription.xml", xml, strlen(xml), 0644);
        snprintf(name, sizeof name, "binaries/linux64/%s.so", fm->ident);
        archive_add(&a, name, so, so_len, 0755);
        snprintf(name, sizeof name, "sources/%s.c", fm->ident);
        archive_add(&a, name, full, strlen(full), 0644);
        full = NULL;
        size_t zlen = 0;
        char *zip = zip_archive(&a, &zlen);
        if (zip && outfile_write(out, zip, zlen) != 0)
            diag_error(src_none, "cannot write '%s': %s", out, strerror(errno));
        free(zip);
    }
    free(full);
    for (int i = 0; i < ncfiles; i++)
        free(cfiles[i]);
    free(cfiles);
    archive_free(&a);
    fmu_model_free(fm);
    return 0;
}
