// SPDX-License-Identifier: GPL-2.0
/* hcubectl rebalance: run (or plan) a rebalance and print its report. */
#include "hcubectl.h"

struct reply {
	struct hc_attrs report;
	struct hc_msg m;
	bool got;
};

/*
 * Keep the one REBALANCE reply's attributes (enum hcube_report_attr) in
 * @arg, a struct reply; a second reply is an error.
 */
static int report_reply(const struct hc_msg *m, void *arg)
{
	struct reply *r = arg;

	if (r->got)
		return -1;	/* one report per request */
	r->got = true;
	if (hc_attrs_copy(&r->report, &hc_set_report, m->attrs, m->len))
		return -1;
	r->m = (struct hc_msg){ .cmd = m->cmd, .attrs = r->report.buf, .len = m->len,
				.tb = r->report.tb };
	return hc_report_check(&r->m);
}

/* A REBALANCE dump: every transfer nest of its messages, in one stream. */
struct transfers {
	char *buf;
	size_t len, cap;
	uint32_t nests, n;
	bool got_n;
};

static int transfers_reply(const struct hc_msg *m, void *arg)
{
	struct transfers *t = arg;
	struct nlattr *a;
	int rem;

	if (m->tb[HCUBE_A_REPORT_NTRANSFERS]) {
		if (t->got_n)
			return -1;	/* in the first message only */
		t->n = nla_get_u32(m->tb[HCUBE_A_REPORT_NTRANSFERS]);
		t->got_n = true;
	}
	nla_for_each_attr(a, m->attrs, m->len, rem) {
		size_t sz = (size_t)nla_total_size(nla_len(a));

		if (nla_type(a) != HCUBE_A_REPORT_TRANSFER)
			continue;
		if (t->len + sz > t->cap) {
			t->cap = t->cap ? 2 * t->cap + sz : 4096 + sz;
			t->buf = hc_realloc(t->buf, t->cap);
		}
		memcpy(t->buf + t->len, a, sz);
		t->len += sz;
		t->nests++;
	}
	return 0;
}

/*
 * --transfers: every transfer of the last rebalance's plan or, with
 * --dry-run, of a plan made now, by a dump: a report lists the first
 * ones only (the module parameter report_transfers). Moves nothing.
 */
static int list_transfers(struct hc_ctx *c, struct hc_req *r, int dim)
{
	struct nlattr *tb[HC_TB_SIZE] = { 0 };
	struct transfers t = { 0 };
	struct hc_msg m;
	int ret;

	ret = hc_req_send(c, r, transfers_reply, &t, NULL);
	if (!ret && (!t.got_n || t.nests != t.n)) {
		fprintf(stderr, "hcubectl: %s: malformed reply from the kernel "
			"(%u transfers of %u)\n", r->what, t.nests, t.n);
		ret = HC_EXIT_ERROR;
	}
	if (!ret) {
		m = (struct hc_msg){ .cmd = HCUBE_CMD_REBALANCE,
				     .attrs = (struct nlattr *)t.buf,
				     .len = (int)t.len, .tb = tb };
		print_begin(false);
		open_json_object(NULL);
		print_bool(PRINT_JSON, "dry_run", NULL, hc_opt(c, 'n'));
		print_transfers(&m, dim);
		print_uint(PRINT_ANY, "ntransfers", "transfers %u\n", t.n);
		close_json_object();
		print_end();
	}
	free(t.buf);
	return ret;
}

static int rebalance(struct hc_ctx *c, int argc, char **argv)
{
	const char *policy = hc_opt(c, 'P');
	struct reply rep = { 0 };
	struct hc_str why = { 0 };
	struct hc_req r;
	int dim, ret, p = -1;

	(void)argc;
	(void)argv;
	if (policy) {
		p = hc_policy_parse(policy, &why);
		if (p < 0)
			hc_usage(c, "%s", why.s);
	}
	if (policy && hc_opt(c, 't') && !hc_opt(c, 'n'))
		hc_usage(c, "--transfers lists the last rebalance's plan: --policy needs --dry-run");
	ret = hc_cube_dim(c, &dim);
	if (ret)
		return ret;
	hc_req_init(&r, c->cmd->nlcmd, hc_opt(c, 't'), 64, c->what);
	if (policy)
		hc_req_u32(&r, HCUBE_A_REPORT_POLICY, (uint32_t)p, "policy %s", policy);
	if (hc_opt(c, 'n'))
		hc_req_flag(&r, HCUBE_A_REPORT_DRY_RUN, "--dry-run");
	if (hc_opt(c, 't')) {
		ret = list_transfers(c, &r, dim);
		hc_req_free(&r);
		return ret;
	}
	ret = hc_req_send(c, &r, report_reply, &rep, NULL);
	hc_req_free(&r);
	if (!ret && !rep.got) {
		fprintf(stderr, "hcubectl: rebalance: the kernel sent no report\n");
		ret = HC_EXIT_ERROR;
	}
	if (!ret) {
		print_begin(false);
		open_json_object(NULL);
		print_report(&rep.m, dim, false);
		close_json_object();
		print_end();
	}
	hc_attrs_free(&rep.report);
	return ret;
}

static const struct hc_opt rebalance_opts[] = {
	{ "policy", 'P', "P",
	  "one of the policies above: cwa needs a fault-free cube, optimal plans "
	  "the fewest task-hops to balance, auto the cheapest of dem, mcwa and optimal "
	  "among those balancing best (hcubectl(8) describes each); default: the "
	  "policy 'hcubectl config show' shows" },
	{ "dry-run", 'n', NULL, "plan only: move nothing" },
	{ "transfers", 't', NULL,
	  "move nothing; list every transfer of the last rebalance or, with --dry-run, "
	  "of a plan made now (a report lists the first report_transfers only)" },
	{ 0 },
};

const struct hc_cmd hc_cmd_rebalance = {
	.name = "rebalance",
	.args = "[--policy @POLICIES@] [--dry-run] [--transfers]",
	.summary = "balance the tasks now (or plan it: --dry-run)",
	.help =
	"Balances the registered tasks between the healthy vertices and prints\n"
	"the report: policy (and the one auto applied), trigger, balancing\n"
	"subcube and tree depth, the load of each vertex before -> planned ->\n"
	"after the moves, the transfers of the plan by communication step\n"
	"(step 3: 1001->0001 7 = 7 tasks from vertex 1001 to 0001), the counts\n"
	"(transfers, migrations = task-hops, moved tasks, failed moves, tasks\n"
	"found exited, tasks evacuated from failing vertices), the duration, and\n"
	"the tasks whose move failed or whose affinity someone else had changed;\n"
	"the policy's messages, the plan's imbalance (0: every vertex within\n"
	"floor/ceil of its component's average) and, for pebble, the receivers\n"
	"that several owners contended. Needs CAP_NET_ADMIN. -j prints one JSON\n"
	"object (keys shared with 'hcube-sim plan --json': policy,\n"
	"balancing_subcube, tree_depth, loads_before, transfers, steps,\n"
	"migrations, moved_tasks, comm_steps, messages; the plan's loads are\n"
	"loads_plan here, loads_after is after moving; also applied, imbalance\n"
	"and contended). A report lists the plan's first transfers only (the\n"
	"module parameter report_transfers, default 512) and says when it cut\n"
	"the list (-j: transfers_cut); --transfers lists them all.\n",
	.opts = rebalance_opts,
	.nlcmd = HCUBE_CMD_REBALANCE,
	.handler = rebalance,
};
