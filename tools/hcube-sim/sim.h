/* SPDX-License-Identifier: GPL-2.0 */
/* hcube-sim: shared declarations of its commands. */
#ifndef HCUBE_SIM_H
#define HCUBE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include "hcube_core.h"

/* Exit status for bad usage or input, as documented. */
#define SIM_EXIT_USAGE 2

/* Print "hcube-sim: <message>" on stderr and exit with SIM_EXIT_USAGE. */
void sim_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Parse a comma-separated list of unsigned integers, each at most @max,
 * into @out (room for @cap). Returns the count; dies naming @what on error.
 */
size_t sim_parse_list(const char *what, const char *s, unsigned long long max,
		      u32 *out, size_t cap);
unsigned long long sim_parse_uint(const char *what, const char *s,
				  unsigned long long max);

/* A vertex label written as dim binary digits, highest dimension first. */
const char *sim_label(char *buf, u32 dim, u32 v);

/* Memory for the core at one dimension. */
struct sim_core {
	u32 dim;
	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;
};

void sim_core_init(struct sim_core *c, u32 dim);
void sim_core_free(struct sim_core *c);

int cmd_plan(int argc, char **argv);

#endif
