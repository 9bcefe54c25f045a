/*
 * fmu_xml.c - modelDescription.xml, FMI 2.0, from an FmuModel.
 *
 * The elements are those of the standard's schema
 * (fmi2ModelDescription.xsd), in its order: ModelExchange, CoSimulation
 * (each with its SourceFiles), UnitDefinitions, LogCategories,
 * DefaultExperiment, ModelVariables, ModelStructure (Outputs,
 * Derivatives, InitialUnknowns); tests/fmu/fmi2_subset.xsd checks it.
 *
 * Units: each distinct dimension gets one Unit, named as the simulator
 * names units (rt_unit_format: "N", "m/s", "kg*m^2"), with its SI base
 * exponents in a BaseUnit, factor 1 and offset 0 (a unit with a
 * fractional power, m^0.5, has no BaseUnit: FMI's exponents are
 * integers); values are SI, so no DisplayUnit is needed.  Dimensionless variables have no unit.
 *
 * Every text from the model (names, comments) is escaped for an XML
 * attribute; control characters, which XML 1.0 cannot carry, become
 * spaces.  Numbers are written with 17 significant digits, so they read
 * back as the doubles the compiler had.  Nothing depends on the time or
 * the machine: the same model gives the same file.
 */
#include "fmu.h"

#include "fmu_vars.h"
#include "lmdl_fmi.h"
#include "rt_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An attribute value, escaped. */
static void attr(FILE *fp, const char *name, const char *value)
{
    fprintf(fp, " %s=\"", name);
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&apos;", fp); break;
        case '\t': fputs("&#9;", fp); break;
        case '\n': fputs("&#10;", fp); break;
        case '\r': fputs("&#13;", fp); break;
        default: fputc(*c < 0x20 || *c == 0x7f ? ' ' : *c, fp); break;
        }
    }
    fputc('"', fp);
}

/* A number as XML Schema's xs:double spells it: INF, -INF and NaN for
   the values printf writes as inf and nan. */
static void attr_num(FILE *fp, const char *name, double v)
{
    char buf[40];
    if (isnan(v))
        snprintf(buf, sizeof buf, "NaN");
    else if (isinf(v))
        snprintf(buf, sizeof buf, "%sINF", v < 0 ? "-" : "");
    else
        snprintf(buf, sizeof buf, "%.17g", v);
    attr(fp, name, buf);
}

static void unit_name(Dim dim, char *buf, size_t len)
{
    rt_unit_format(dim.e, buf, len);
}

static bool dimless(Dim dim)
{
    for (int k = 0; k < RT_DIM_COUNT; k++)
        if (dim.e[k])
            return false;
    return true;
}

/* The capabilities both interfaces share. */
static void capabilities(FILE *fp, const FmuModel *fm)
{
    attr(fp, "modelIdentifier", fm->ident);
    attr(fp, "needsExecutionTool", "false");
    attr(fp, "canBeInstantiatedOnlyOncePerProcess", "false");
    attr(fp, "canNotUseMemoryManagementFunctions", "true");
    attr(fp, "canGetAndSetFMUstate", "true");
    attr(fp, "canSerializeFMUstate", "true");
    attr(fp, "providesDirectionalDerivative", "true");
}

static void source_files(FILE *fp, const char *const *sources, int nsources)
{
    fputs(">\n    <SourceFiles>\n", fp);
    for (int i = 0; i < nsources; i++) {
        fputs("      <File", fp);
        attr(fp, "name", sources[i]);
        fputs("/>\n", fp);
    }
    fputs("    </SourceFiles>\n", fp);
}

static void unit_definitions(FILE *fp, const FmuModel *fm)
{
    /* BaseUnit's attributes in the standard's order, with our indices */
    static const struct { const char *name; int k; } base[] = {
        {"kg", 1}, {"m", 0}, {"s", 2}, {"A", 3}, {"K", 4}, {"mol", 5}, {"cd", 6},
    };
    Dim *seen = malloc(sizeof *seen * (size_t)(fm->nvars + 1));
    if (!seen)
        abort();
    int nseen = 0;
    for (int i = 0; i < fm->nvars; i++) {
        const FmuVar *v = &fm->vars[i];
        if (v->boolean || v->integer || dimless(v->dim))
            continue;
        bool dup = false;
        for (int j = 0; j < nseen && !dup; j++)
            dup = dim_eq(seen[j], v->dim);
        if (!dup)
            seen[nseen++] = v->dim;
    }
    if (nseen) {
        fputs("  <UnitDefinitions>\n", fp);
        for (int j = 0; j < nseen; j++) {
            char name[96];
            unit_name(seen[j], name, sizeof name);
            fputs("    <Unit", fp);
            attr(fp, "name", name);
            /* FMI's base exponents are integers: a unit with a fractional
               power (m^0.5) has its name only */
            bool whole = true;
            for (int k = 0; k < RT_DIM_COUNT; k++)
                whole = whole && seen[j].e[k] % RT_DIM_DEN == 0;
            if (!whole) {
                fputs("/>\n", fp);
                continue;
            }
            fputs(">\n      <BaseUnit", fp);
            for (size_t b = 0; b < sizeof base / sizeof base[0]; b++)
                if (seen[j].e[base[b].k])
                    fprintf(fp, " %s=\"%d\"", base[b].name,
                            seen[j].e[base[b].k] / RT_DIM_DEN);
            fputs(" factor=\"1\" offset=\"0\"/>\n    </Unit>\n", fp);
        }
        fputs("  </UnitDefinitions>\n", fp);
    }
    free(seen);
}

static void log_categories(FILE *fp)
{
#define X_LOG_XML(id, name, what) {name, what},
    static const struct { const char *name, *what; } cats[] = {
        LMDL_FMI_LOG_CATEGORIES(X_LOG_XML)
    };
    fputs("  <LogCategories>\n", fp);
    for (size_t i = 0; i < sizeof cats / sizeof cats[0]; i++) {
        fputs("    <Category", fp);
        attr(fp, "name", cats[i].name);
        attr(fp, "description", cats[i].what);
        fputs("/>\n", fp);
    }
    fputs("  </LogCategories>\n", fp);
}

static void variable(FILE *fp, const FmuModel *fm, int i)
{
    const FmuVar *v = &fm->vars[i];
    char num[32];
    fprintf(fp, "    <!-- %d -->\n    <ScalarVariable", i + 1);
    attr(fp, "name", v->name);
    snprintf(num, sizeof num, "%u", v->vr);
    attr(fp, "valueReference", num);
    if (v->description && *v->description)
        attr(fp, "description", v->description);
    attr(fp, "causality", fmu_causality_names[v->causality]);
    attr(fp, "variability", fmu_variability_names[v->variability]);
    fputs(">\n", fp);
    if (v->boolean) {
        fputs("      <Boolean", fp);
        if (v->has_start)
            attr(fp, "start", v->start != 0 ? "true" : "false");
    } else if (v->integer) {
        fputs("      <Integer", fp);
    } else {
        fputs("      <Real", fp);
        if (!dimless(v->dim)) {
            char unit[96];
            unit_name(v->dim, unit, sizeof unit);
            attr(fp, "unit", unit);
        }
        if (v->has_start)
            attr_num(fp, "start", v->start);
        if (v->derivative_of > 0) {
            snprintf(num, sizeof num, "%d", v->derivative_of);
            attr(fp, "derivative", num);
        }
    }
    fputs("/>\n    </ScalarVariable>\n", fp);
}

/* An Unknown, with the dependencies deps[0..ndeps) unless deps is NULL
   (on every known). */
static void unknown(FILE *fp, int index, const int *deps, int ndeps)
{
    fprintf(fp, "      <Unknown index=\"%d\"", index);
    if (deps) {
        fputs(" dependencies=\"", fp);
        for (int k = 0; k < ndeps; k++)
            fprintf(fp, "%s%d", k ? " " : "", deps[k]);
        fputc('"', fp);
    }
    fputs("/>\n", fp);
}

static void model_structure(FILE *fp, const FmuModel *fm)
{
    fputs("  <ModelStructure>\n", fp);
    int nout = 0;
    for (int i = 0; i < fm->nvars; i++)
        nout += fm->vars[i].causality == FMU_OUTPUT;
    if (nout) {
        fputs("    <Outputs>\n", fp);
        for (int i = 0; i < fm->nvars; i++)
            if (fm->vars[i].causality == FMU_OUTPUT)
                unknown(fp, i + 1, fm->vars[i].deps, fm->vars[i].ndeps);
        fputs("    </Outputs>\n", fp);
    }
    if (fm->nstates) {
        /* in the order of the continuous states */
        fputs("    <Derivatives>\n", fp);
        for (int j = 0; j < fm->nstates; j++)
            unknown(fp, fm->der_var[j] + 1, fm->vars[fm->der_var[j]].deps,
                    fm->vars[fm->der_var[j]].ndeps);
        fputs("    </Derivatives>\n", fp);
    }
    /* outputs, states and derivatives, all computed at initialization,
       ascending, with the parameters and inputs they depend on there (no
       dependencies attribute, on every known, where fmu_vars.c does not
       follow the initialization) */
    bool *initial = calloc((size_t)fm->nvars + 1, sizeof *initial);
    if (!initial)
        abort();
    int ninit = 0;
    for (int i = 0; i < fm->nvars; i++)
        initial[i] = fm->vars[i].causality == FMU_OUTPUT;
    for (int j = 0; j < fm->nstates; j++)
        initial[fm->state_var[j]] = initial[fm->der_var[j]] = true;
    for (int i = 0; i < fm->nvars; i++)
        ninit += initial[i];
    if (ninit) {
        fputs("    <InitialUnknowns>\n", fp);
        for (int i = 0; i < fm->nvars; i++)
            if (initial[i])
                unknown(fp, i + 1, fm->init_deps ? fm->vars[i].init_deps : NULL,
                        fm->vars[i].ninit_deps);
        fputs("    </InitialUnknowns>\n", fp);
    }
    free(initial);
    fputs("  </ModelStructure>\n", fp);
}

char *fmu_xml(const FmuModel *fm, const char *const *sources, int nsources)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription", fp);
    attr(fp, "fmiVersion", "2.0");
    attr(fp, "modelName", fm->name);
    attr(fp, "guid", fm->guid);
    attr(fp, "generationTool", "lmdlc " LMDL_VERSION);
    attr(fp, "variableNamingConvention", "flat");
    fprintf(fp, " numberOfEventIndicators=\"%d\">\n", fm->nrels);

    fputs("  <ModelExchange", fp);
    capabilities(fp, fm);
    attr(fp, "completedIntegratorStepNotNeeded", "false");
    source_files(fp, sources, nsources);
    fputs("  </ModelExchange>\n  <CoSimulation", fp);
    capabilities(fp, fm);
    attr(fp, "canHandleVariableCommunicationStepSize", "true");
    attr(fp, "canInterpolateInputs", "false");
    attr(fp, "maxOutputDerivativeOrder", "0");
    attr(fp, "canRunAsynchronuously", "false");
    source_files(fp, sources, nsources);
    fputs("  </CoSimulation>\n", fp);

    unit_definitions(fp, fm);
    log_categories(fp);
    /* the simulator's defaults: --stop-time 1, 500 output steps, rtol 1e-6 */
    fputs("  <DefaultExperiment startTime=\"0\" stopTime=\"1\" tolerance=\"1e-06\" "
          "stepSize=\"0.002\"/>\n", fp);

    fputs("  <ModelVariables>\n", fp);
    for (int i = 0; i < fm->nvars; i++)
        variable(fp, fm, i);
    fputs("  </ModelVariables>\n", fp);
    model_structure(fp, fm);
    fputs("</fmiModelDescription>\n", fp);
    fclose(fp);
    return text;
}
