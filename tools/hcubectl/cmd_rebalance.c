// SPDX-License-Identifier: GPL-2.0
/* hcubectl rebalance: run (or plan) a rebalance and print its report. */
#include <string.h>
#include "hcubectl.h"

static void rebalance_usage(FILE *f)
{
	fputs("usage: hcubectl [-j] [-p] rebalance\n"
	      "         [--policy mcwa|dem|cwa|optimal|auto|rid|sid|sbn|sbn-cube|sbn-heur|pebble]\n"
	      "         [--dry-run]\n"
	      "\n"
	      "Balances the registered tasks between the healthy vertices and prints\n"
	      "the report: policy (and the one auto applied), trigger, balancing\n"
	      "subcube and tree depth, the load\n"
	      "of each vertex before -> planned -> after the moves, the transfers of\n"
	      "the plan by communication step (step 3: 1001->0001 7 = 7 tasks from\n"
	      "vertex 1001 to 0001), the counts (transfers, migrations = task-hops,\n"
	      "moved tasks, failed moves, tasks found exited, tasks evacuated from\n"
	      "failing vertices), the duration, and the tasks whose move failed or\n"
	      "whose affinity someone else had changed; the policy's messages, the\n"
	      "plan's imbalance (0: every vertex within floor/ceil of its component's\n"
	      "average) and, for pebble, the receivers that several owners contended.\n"
	      "  -P, --policy P  mcwa, dem, cwa (needs a fault-free cube), optimal\n"
	      "                  (fewest task-hops to balance), auto (the cheapest of\n"
	      "                  dem, mcwa, optimal among those balancing best), rid,\n"
	      "                  sid, sbn, sbn-cube, sbn-heur or pebble;\n"
	      "                  default: the policy 'hcubectl config show' shows\n"
	      "  -n, --dry-run   plan only: move nothing\n"
	      "Needs CAP_NET_ADMIN. -j prints one JSON object (keys shared with\n"
	      "'hcube-sim plan --json': policy, balancing_subcube, tree_depth,\n"
	      "loads_before, transfers, steps, migrations, moved_tasks, comm_steps,\n"
	      "messages; the plan's loads are loads_plan here, loads_after is after\n"
	      "moving; also applied, imbalance and contended).\n", f);
}

struct reply {
	struct hc_report report;
	bool got;
};

/* The reply's attributes are the report's (enum hcube_report_attr). */
static int report_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct reply *r = arg;

	(void)cmd;
	if (r->got)
		return -1;	/* one report per request */
	r->got = true;
	return hc_report_parse(&r->report, attrs, len);
}

static int cube_reply(uint8_t cmd, struct nlattr *attrs, int len, void *arg)
{
	struct nlattr *tb[HCUBE_A_MAX + 1];
	struct hc_cube c;

	(void)cmd;
	hc_parse(tb, HCUBE_A_MAX, attrs, len);
	hc_cube_parse(&c, tb);
	*(int *)arg = hc_cube_dim(&c);
	return 0;
}

int cmd_rebalance(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'P' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy_arg = NULL;
	struct reply rep = { 0 };
	bool dry_run = false, first = true;
	int c, policy = -1, dim = -1, ret;
	struct hc_nl nl;
	struct hc_req r;

	while ((c = hc_getopt(argc, argv, "rebalance", "P:n", opts, rebalance_usage,
			      &first)) != -1) {
		if (c == 'P') {
			policy_arg = optarg;
			policy = hc_policy_parse(optarg);
			if (policy < 0)
				hc_usage_error("rebalance", "unknown policy '%s' (%s)",
					       optarg, HC_POLICY_LIST);
		} else if (c == 'n') {
			dry_run = true;
		}
	}
	if (optind < argc)
		hc_usage_error("rebalance", "unexpected argument '%s'", argv[optind]);

	hc_nl_open(&nl);
	ret = hc_simple_get(&nl, HCUBE_CMD_CUBE_GET, false, "rebalance", cube_reply,
			    &dim);
	if (ret)
		goto out;
	hc_req_init(&r, &nl, HCUBE_CMD_REBALANCE, false, 64, "rebalance");
	if (policy >= 0)
		hc_req_u32(&r, HCUBE_R_A_POLICY, (uint32_t)policy, "policy %s", policy_arg);
	if (dry_run)
		hc_req_flag(&r, HCUBE_R_A_DRY_RUN, "--dry-run");
	ret = hc_req_run(&nl, &r, report_reply, &rep);
	hc_req_free(&r);
	if (ret)
		goto out;
	if (!rep.got) {
		fprintf(stderr, "hcubectl: rebalance: the kernel sent no report\n");
		ret = HC_EXIT_ERROR;
		goto out;
	}
	if (hc_opts.json) {
		struct json j;

		hc_json_begin(&j);
		json_obj_open(&j, NULL);
		hc_report_json(&j, &rep.report, dim);
		json_obj_close(&j);
		json_end(&j);
	} else {
		hc_report_text(stdout, &rep.report, dim);
	}
out:
	hc_report_free(&rep.report);
	hc_nl_close(&nl);
	return ret;
}
