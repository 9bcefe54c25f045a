/*
 * fmu.h - `lmdlc fmu FILE -o NAME.fmu`: an FMI 2.0 FMU, Model Exchange and
 * Co-Simulation in one archive (tools/fmu.c; docs/fmi.md).
 *
 * The driver runs the passes through codegen and hands the plan and the
 * generated C to fmu_write (DriverOptions.plan_tool), which writes
 * modelDescription.xml from the plan (fmu_vars.c, fmu_xml.c), builds the
 * shared object (build.c) and zips both with the sources.
 */
#ifndef LMDL_FMU_H
#define LMDL_FMU_H

#include "driver.h"

struct FmuModel;

/* The command: writes o->output.  Returns 0 (errors, reported through
   diag, make the driver's status 2), or 1 when the output is refused
   because it is one of the inputs. */
int fmu_write(const struct Plan *plan, const char *c_text, const char *model,
              const DriverOptions *o);

/* modelDescription.xml for the model, listing `sources` (names relative
   to sources/) for both interfaces; malloc'ed. */
char *fmu_xml(const struct FmuModel *fm, const char *const *sources, int nsources);

#endif
