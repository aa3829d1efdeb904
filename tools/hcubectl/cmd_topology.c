// SPDX-License-Identifier: GPL-2.0
/* hcubectl topology set: group the CPUs into vertices. */
#include <string.h>
#include "hcubectl.h"

static int topology_set(struct hc_ctx *c, int argc, char **argv)
{
	const char *why;
	struct hc_req r;
	size_t size = 64;
	int i, mode;

	if (argc < 1)
		hc_usage(c, "missing mode (%s)",
			 hc_enum_list(hc_mode_names, ARRAY_SIZE(hc_mode_names), ", "));
	mode = hc_enum_parse(hc_mode_names, ARRAY_SIZE(hc_mode_names), argv[0]);
	if (mode < 0)
		hc_usage(c, "unknown mode '%s' (%s)", argv[0],
			 hc_enum_list(hc_mode_names, ARRAY_SIZE(hc_mode_names), ", "));
	if (mode != HCUBE_MODE_CUSTOM && argc > 1)
		hc_usage(c, "mode %s takes no CPU list", argv[0]);
	if (mode == HCUBE_MODE_CUSTOM && argc < 2)
		hc_usage(c, "custom needs one CPULIST per vertex");
	if (argc - 1 > 1 << HCUBE_MAX_DIM_UAPI)
		hc_usage(c, "custom takes at most %d CPULISTs", 1 << HCUBE_MAX_DIM_UAPI);
	for (i = 1; i < argc; i++) {
		if (!argv[i][0])
			hc_usage(c, "CPULIST %d is empty (every group needs a CPU)", i - 1);
		if (!hc_parse_cpulist(argv[i], &why))
			hc_usage(c, "CPULIST '%s' %s", argv[i], why);
		size += strlen(argv[i]) + 8;
	}

	hc_req_init(&r, c->cmd->nlcmd, false, size, c->what);
	hc_req_u32(&r, HCUBE_A_MODE, (uint32_t)mode, "mode %s", argv[0]);
	for (i = 1; i < argc; i++)
		hc_req_str(&r, HCUBE_A_GROUP, argv[i], "group %d ('%s')", i - 1, argv[i]);
	return hc_req_ack(c, &r);
}

static const struct hc_cmd topology_subs[] = {
	{
		.name = "set",
		.args = "cpu|node|llc\ncustom CPULIST CPULIST...",
		.nlcmd = HCUBE_CMD_TOPO_SET,
		.flags = HC_ARGS | HC_ACK,
		.handler = topology_set,
	},
	{ 0 },
};

const struct hc_cmd hc_cmd_topology = {
	.name = "topology",
	.alias = "topo",
	.summary = "group the CPUs into vertices by cpu, node, llc or by hand",
	.help =
	"Rebuilds the vertices: one per CPU, per NUMA node or per last-level\n"
	"cache group; or custom: one CPULIST (like 0-3,8) per vertex, in label\n"
	"order (the first is vertex 0): 1 to 1024 non-empty, disjoint lists of\n"
	"present CPUs. With a number of groups that is not a power of two, the\n"
	"labels past the last group have no CPU group (absent). Only while no\n"
	"task is registered. Prints nothing (-j: {}). Needs CAP_NET_ADMIN.\n"
	"'hcubectl show' prints the result.\n",
	.subs = topology_subs,
};
