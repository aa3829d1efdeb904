// SPDX-License-Identifier: GPL-2.0
/* hcubectl stats: the module's counters, named as the spec names them. */
#include "hcubectl.h"

static int stats_reply(const struct hc_msg *m, void *arg)
{
	const struct hc_attr_set *set = &hc_set_stats;
	struct nlattr *tb[HC_TB_SIZE];
	int i;

	(void)arg;
	if (!m->tb[HCUBE_A_STATS] || hc_parse_nested(tb, set, m->tb[HCUBE_A_STATS]))
		return -1;
	print_begin(false);
	open_json_object(NULL);
	for (i = HCUBE_A_STATS_PAD + 1; i <= set->max; i++) {
		print_attr_u64(PRINT_JSON, set->keys[i], NULL, tb[i]);
		if (tb[i])
			print_fp("%-16s %llu\n", set->keys[i],
				 (unsigned long long)nla_get_u64(tb[i]));
	}
	close_json_object();
	print_end();
	return 0;
}

static int stats(struct hc_ctx *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return hc_run(c, stats_reply, NULL);
}

const struct hc_cmd hc_cmd_stats = {
	.name = "stats",
	.summary = "the module's counters",
	.help =
	"The module's counters since it was loaded: rebalances (and of those\n"
	"automatic), dry runs, migrations (task-hops planned), tasks moved, moves\n"
	"that failed, evacuations, tasks found exited, affinity changes by others,\n"
	"tasks registered and unregistered, tasks registered now, and of the new\n"
	"threads and children of registered tasks: those registered (adopted),\n"
	"refused over max_tasks, released (of tasks registered as one thread), and\n"
	"the creations found by a scan when the module's event ring overflowed;\n"
	"then the tasks let go instead of moved (revoked); then the machine-check\n"
	"records seen, the CPUs they marked faulty, the records ignored: of CPUs\n"
	"in no vertex (outside), of offline CPUs, of faulty CPUs or during unload\n"
	"(ignored), the marks refused for the last healthy vertex, and the\n"
	"records of no core's error, counted against no CPU, by why: memory\n"
	"(memory controller), bus (bus, interconnect, I/O), shared_cache (the\n"
	"LLC), firmware (firmware-first reports) and other (internal\n"
	"unclassified, unknown). A counter is shown when the module sends it.\n"
	"-j prints one object: rebalances, auto_rebalances, dry_runs, migrations,\n"
	"moved, failures, evacuations, exited, changed, registered, unregistered,\n"
	"tasks, adopted, refused, released, events_lost, revoked, mce_records,\n"
	"mce_marks, mce_outside, mce_offline, mce_ignored, mce_refused,\n"
	"mce_memory, mce_bus, mce_shared_cache, mce_firmware, mce_other (null\n"
	"when the module does not send it).\n",
	.nlcmd = HCUBE_CMD_STATS_GET,
	.handler = stats,
};
