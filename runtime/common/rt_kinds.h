/*
 * rt_kinds.h - the small enumerations the compiler and the runtime share.
 *
 * The compiler's intermediate representation records a parameter's
 * access and a table's interpolation and extrapolation with these values,
 * and the generated code hands the same values to the runtime (rt_model.h
 * includes this header), so there is one definition and nothing to map.
 */
#ifndef LMDL_RT_KINDS_H
#define LMDL_RT_KINDS_H

/* RtParamInfo.access, DaeParam.access: who may set a parameter at run time. */
enum {
    RT_PARAM_PUBLIC = 0,    /* --param and sweeps may set it */
    RT_PARAM_PRIVATE = 1,   /* parameters(Access = private): its component's own */
    RT_PARAM_OBSERVED = 2,  /* in a component declared with ExternalAccess =
                               observe or none: not modifiable from outside */
    RT_PARAM_NETWORK = 3,   /* NODE.param, a domain parameter as a node reads
                               it: its network's, set where that is set */
    RT_PARAM_INTERNAL = 4,  /* the compiler's own (a table's data built from
                               an expression): computed from the others */
};

/* A table's interpolation between grid points (tablelookup's
   interpolation = linear | smooth). */
enum { RT_INTERP_LINEAR = 0, RT_INTERP_SMOOTH = 1 };

/* A table's extrapolation outside its grid (extrapolation = linear |
   nearest | error). */
enum { RT_EXTRAP_LINEAR = 0, RT_EXTRAP_NEAREST = 1, RT_EXTRAP_ERROR = 2 };

#endif
