// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the command-line client of the hcube kernel module, over its
 * generic netlink family "hcube".
 */
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "show", cmd_show, "the cube, its vertices and the balancing trees" },
	{ "fault", cmd_fault, "mark a CPU or a vertex faulty, or healthy again" },
	{ "task", cmd_task, "register, unregister and list tasks" },
	{ "rebalance", cmd_rebalance, "balance the tasks now (or plan it: --dry-run)" },
	{ "stats", cmd_stats, "the module's counters" },
	{ "config", cmd_config, "show or change the policy and the automatic trigger" },
	{ "topology", cmd_topology, "group the CPUs into vertices by cpu, node, llc or by hand" },
	{ "monitor", cmd_monitor, "print the module's events as they come" },
};

#define NCOMMANDS ARRAY_SIZE(commands)

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: hcubectl [-j|--json] [-p|--pretty] COMMAND [ARGS]\n"
	      "\n"
	      "The command-line client of the hcube kernel module (generic netlink\n"
	      "family \"hcube\"), which treats the CPU groups of the machine as the\n"
	      "vertices of a hypercube and balances registered tasks between them.\n"
	      "\n"
	      "commands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\n"
	      "options (before or after the command):\n"
	      "  -j, --json     print JSON (one object or list; monitor: one per line)\n"
	      "  -p, --pretty   print indented JSON (implies -j)\n"
	      "  -V, --version  print the version\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "'hcubectl COMMAND --help' describes a command. Vertex labels are binary,\n"
	      "highest dimension first (0101 is vertex 5). Commands that change state\n"
	      "need CAP_NET_ADMIN.\n"
	      "\n"
	      "Exit status: 0 on success, 1 when the kernel (or the system) reports an\n"
	      "error, 2 on bad usage; errors are one line on stderr.\n", f);
}

static void version(void)
{
	printf("hcubectl (hcube generic netlink family version %d)\n",
	       HCUBE_FAMILY_VERSION);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	if (!strcmp(name, "topo"))
		return find_command("topology");
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "--json")) {
			hc_opts.json = true;
		} else if (!strcmp(a, "--pretty")) {
			hc_opts.json = hc_opts.pretty = true;
		} else if (!strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			version();
			return 0;
		} else if (a[1] && a[1] != '-') {
			const char *p;

			for (p = a + 1; *p; p++) {
				switch (*p) {
				case 'j':
					hc_opts.json = true;
					break;
				case 'p':
					hc_opts.json = hc_opts.pretty = true;
					break;
				case 'h':
					usage(stdout);
					return 0;
				case 'V':
					version();
					return 0;
				default:
					hc_usage_error(NULL, "unknown option '-%c'", *p);
				}
			}
		} else {
			hc_usage_error(NULL, "unknown option '%s'", a);
		}
	}
	if (i >= argc)
		hc_usage_error(NULL, "missing command");
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			usage(stdout);
			return 0;
		}
		cmd = find_command(argv[i + 1]);
		if (!cmd)
			hc_usage_error(NULL, "unknown command '%s'", argv[i + 1]);
		{
			char *help_argv[] = { argv[i + 1], (char *)"--help", NULL };

			return cmd->fn(2, help_argv);
		}
	}
	cmd = find_command(argv[i]);
	if (!cmd)
		hc_usage_error(NULL, "unknown command '%s'", argv[i]);
	ret = cmd->fn(argc - i, argv + i);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "hcubectl: %s: cannot write the output\n", cmd->name);
		return HC_EXIT_ERROR;
	}
	return ret;
}
