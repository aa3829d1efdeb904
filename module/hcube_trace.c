// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the tracepoints (hcube_trace.h), defined here once for the files
 * that fire them, so that none of those depends on the module's init file.
 */
#define CREATE_TRACE_POINTS
#include "hcube_trace.h"
