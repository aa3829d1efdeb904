// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim: the hcube balancing core in userspace: plans for a given cube,
 * loads and faults (the same code the kernel module runs). This file only
 * dispatches to the commands; the helpers they share are in util.c.
 */
#include <stdio.h>
#include <string.h>
#include "sim.h"

static void usage(FILE *f)
{
	fputs("usage: hcube-sim COMMAND [OPTIONS]\n"
	      "\n"
	      "commands:\n"
	      "  plan    the transfers a policy makes for given loads and faults\n"
	      "  run     simulate Nam et al. (1999)'s workload under each policy\n"
	      "  experiment  the paper's grid of runs: CSV, tables and plot data\n"
	      "  sbn     Das et al. (2002)'s workloads: SBN beside the other policies\n"
	      "  demand  the policies balancing by count and by demand (issue 35)\n"
	      "  aapc    the fault-tolerant all-to-all personalized schedule of\n"
	      "          Masuyama and Masuyama (2003)\n"
	      "\n"
	      "'hcube-sim COMMAND --help' describes a command.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SIM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sbn"))
		return cmd_sbn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "demand"))
		return cmd_demand(argc - 1, argv + 1);
	if (!strcmp(argv[1], "aapc"))
		return cmd_aapc(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "experiment"))
		return cmd_experiment(argc - 1, argv + 1);
	sim_die("unknown command '%s' (try 'hcube-sim --help')", argv[1]);
}
