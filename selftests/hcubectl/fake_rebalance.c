// SPDX-License-Identifier: GPL-2.0
/*
 * The fake kernel's balancing: REBALANCE, a report laid out as the module
 * lays it out from a plan of the project's own core (module/core, the code
 * the module runs) on the fake cube; STATS_GET (made-up counters);
 * CONFIG_GET and CONFIG_SET (kept in HCUBE_FAKE_STATE when it is set).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "fake.h"

/* The module parameter report_transfers: HCUBE_FAKE_REPORT_TRANSFERS, or 512. */
static size_t report_transfers(void)
{
	const char *s = getenv("HCUBE_FAKE_REPORT_TRANSFERS");

	return s && *s ? strtoul(s, NULL, 10) : 512;
}

static void put_transfer(struct mb *b, const struct hcube_transfer *x)
{
	size_t nest = nest_begin(b, HCUBE_A_REPORT_TRANSFER | NLA_F_NESTED);

	put_u32(b, HCUBE_A_TRANSFER_STEP, x->step);
	put_u32(b, HCUBE_A_TRANSFER_FROM, x->from);
	put_u32(b, HCUBE_A_TRANSFER_TO, x->to);
	put_u32(b, HCUBE_A_TRANSFER_COUNT, x->count);
	nest_end(b, nest);
}

/*
 * A report from the core's plan, as the module lays it out: the report's
 * attributes at the top level of the message, one HCUBE_A_REPORT_TRANSFER nest
 * per transfer (none for a plan without any), report_transfers at most,
 * then TRANSFERS_CUT when some were left out.
 */
bool put_report(struct mb *b, u32 policy, bool dry_run, u32 trigger)
{
	struct hcube_cube c = { .dim = cube.dim, .state = cube.core_state, .load = cube.load };
	struct hcube_plan p;
	void *mem = malloc(hcube_plan_memsize(cube.dim));
	size_t i;
	int err;

	hcube_plan_init(&p, cube.dim, mem);
	err = hcube_plan_build(&p, policy, &c, &cube.topo, cube.work);
	if (err) {
		free(mem);
		return false;
	}
	put_u32(b, HCUBE_A_REPORT_POLICY, policy);
	if (dry_run)
		put_attr(b, HCUBE_A_REPORT_DRY_RUN, NULL, 0);
	put_u32(b, HCUBE_A_REPORT_TRIGGER, trigger);
	put_attr(b, HCUBE_A_REPORT_LOADS_BEFORE, cube.load, cube.n * 4);
	/* as the module: a dry run moves nothing, after = before */
	put_attr(b, HCUBE_A_REPORT_LOADS_AFTER, dry_run ? cube.load : p.after, cube.n * 4);
	put_u32(b, HCUBE_A_REPORT_MOVED, dry_run ? 0 : p.stats.moved_tasks);
	put_u32(b, HCUBE_A_REPORT_FAILED, dry_run ? 0 : 1);
	put_u32(b, HCUBE_A_REPORT_EXITED, dry_run ? 0 : 2);
	put_u32(b, HCUBE_A_REPORT_EVACUATED, 0);
	put_u64(b, HCUBE_A_REPORT_DURATION_NS, 123456, HCUBE_A_REPORT_PAD);
	put_attr(b, HCUBE_A_REPORT_LOADS_PLAN, p.after, cube.n * 4);
	put_u32(b, HCUBE_A_REPORT_NTRANSFERS, p.ntransfers);
	put_u32(b, HCUBE_A_REPORT_STEPS, p.nsteps);
	put_u32(b, HCUBE_A_REPORT_COMM_STEPS, p.stats.comm_steps);
	put_u64(b, HCUBE_A_REPORT_MIGRATIONS, p.stats.migrations, HCUBE_A_REPORT_PAD);
	put_u32(b, HCUBE_A_REPORT_APPLIED, p.applied);
	put_u32(b, HCUBE_A_REPORT_MESSAGES, p.stats.messages);
	put_u32(b, HCUBE_A_REPORT_IMBALANCE, p.stats.imbalance);
	if (p.applied == HCUBE_POLICY_PEBBLE)
		put_u32(b, HCUBE_A_REPORT_CONTENDED, p.stats.contended);
	if (p.stopped_short)
		put_attr(b, HCUBE_A_REPORT_STOPPED_SHORT, NULL, 0);
	for (i = 0; i < p.ntransfers && i < report_transfers(); i++)
		put_transfer(b, &p.transfers[i]);
	if (i < p.ntransfers)
		put_attr(b, HCUBE_A_REPORT_TRANSFERS_CUT, NULL, 0);
	if (p.applied == HCUBE_POLICY_MCWA || p.applied == HCUBE_POLICY_CWA) {
		put_pattern(b, HCUBE_A_REPORT_CB_PATTERN);
		put_u32(b, HCUBE_A_REPORT_TREE_DEPTH, cube.topo.depth);
	}
	if (!dry_run) {
		struct task_desc f = {
			.pid = 4242, .comm = "stuck", .vertex = healthy_vertex(0),
			.has_error = true, .error = -EPERM,
		};
		struct task_desc ch = {
			.pid = 4343, .tgid = 4343, .comm = "pinned", .vertex = healthy_vertex(1),
			.state = HCUBE_TASK_CHANGED, .cpus = "0", .orig = "0-31",
		};

		put_task(b, HCUBE_A_REPORT_FAILURE, &f);
		put_task(b, HCUBE_A_REPORT_CHANGED, &ch);
	}
	free(mem);
	return true;
}

/*
 * REBALANCE's dump: every transfer of the plan (the fake keeps no last
 * rebalance: a plan made now either way), 400 a message, NTRANSFERS in
 * the first.
 */
static void dump_transfers(const struct req *r, u32 policy)
{
	struct hcube_cube c = { .dim = cube.dim, .state = cube.core_state, .load = cube.load };
	struct hcube_plan p;
	void *mem = malloc(hcube_plan_memsize(cube.dim));
	size_t i = 0;

	hcube_plan_init(&p, cube.dim, mem);
	if (hcube_plan_build(&p, policy, &c, &cube.topo, cube.work)) {
		free(mem);
		fail(r, EIO, "the plan failed", NULL, false, 0, 0);
		return;
	}
	do {
		struct mb b = { 0 };
		size_t end = i + 400 < p.ntransfers ? i + 400 : p.ntransfers;

		reply_begin(&b, r, NLM_F_MULTI);
		if (!i)
			put_u32(&b, HCUBE_A_REPORT_NTRANSFERS, p.ntransfers);
		for (; i < end; i++)
			put_transfer(&b, &p.transfers[i]);
		msg_end_queue(&b);
		free(b.d);
	} while (i < p.ntransfers);
	free(mem);
	queue_done(r->nlh);
}

void do_rebalance(const struct req *r)
{
	const struct nlattr *pa = r->a[HCUBE_A_REPORT_POLICY];
	u32 policy = pa ? get_u32(pa) : HCUBE_POLICY_MCWA;
	struct mb b = { 0 };

	if (r->nlh->nlmsg_flags & NLM_F_DUMP) {
		dump_transfers(r, policy);
		return;
	}
	reply_begin(&b, r, 0);
	if (!put_report(&b, policy, r->a[HCUBE_A_REPORT_DRY_RUN], HCUBE_REASON_ADMIN)) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);
		static char msg[128];

		free(b.d);
		if (ops->flags & HCUBE_POLICY_F_FAULT_FREE) {
			snprintf(msg, sizeof(msg), HCUBE_ERR_POLICY_FAULT_FREE_FMT, ops->name,
				 hcube_policy_lookup(ops->fallback)->name);
			fail(r, EINVAL, msg, pa, false, 0, 0);
		} else {
			fail(r, EIO, "the plan failed", NULL, false, 0, 0);
		}
		return;
	}
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

/* The settings cube.cfg[] keeps, in its order. */
static const uint16_t cfg_attr[ARRAY_SIZE(cube.cfg)] = {
	HCUBE_A_CONFIG_POLICY, HCUBE_A_CONFIG_AUTO, HCUBE_A_CONFIG_THRESHOLD,
	HCUBE_A_CONFIG_COOLDOWN_MS, HCUBE_A_CONFIG_MCE_CE_THRESHOLD, HCUBE_A_CONFIG_MCE_CE_WINDOW,
	HCUBE_A_CONFIG_MCE_UC,
};

/* The index in cube.cfg[] of the setting @type, or -1. */
static int cfg_index(uint16_t type)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(cfg_attr); k++)
		if (cfg_attr[k] == type)
			return (int)k;
	return -1;
}

void do_stats_get(const struct req *r)
{
	struct mb b = { 0 };
	size_t n;
	int i;

	reply_begin(&b, r, 0);
	n = nest_begin(&b, HCUBE_A_STATS | NLA_F_NESTED);
	for (i = HCUBE_A_STATS_PAD + 1; i <= HCUBE_A_STATS_MAX; i++)
		put_u64(&b, (uint16_t)i, 1000ULL * i + 7, HCUBE_A_STATS_PAD);
	nest_end(&b, n);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

void do_config_get(const struct req *r)
{
	struct mb b = { 0 };
	size_t n, k;

	reply_begin(&b, r, 0);
	n = nest_begin(&b, HCUBE_A_CONFIG | NLA_F_NESTED);
	for (k = 0; k < ARRAY_SIZE(cfg_attr); k++)
		put_u32(&b, cfg_attr[k], cube.cfg[k]);
	put_u32(&b, HCUBE_A_CONFIG_MAX_TASKS, 4096);
	nest_end(&b, n);
	msg_end_queue(&b);
	free(b.d);
	queue_ack(r->nlh);
}

void do_config_set(const struct req *r)
{
	const struct nlattr *nest = r->a[HCUBE_A_CONFIG];

	if (!nest) {
		fail_miss(r, HCUBE_ERR_CONFIG_REQUIRED, HCUBE_A_CONFIG);
		return;
	}
	/* the nested policy checked each key and its range */
	if (nest->nla_len <= NLA_HDRLEN) {
		fail(r, EINVAL, "HCUBE_A_CONFIG: nothing to change", nest, false, 0, 0);
		return;
	}
	if (getenv("HCUBE_FAKE_STATE")) {
		const struct nlattr *a;
		long rem;

		for_each_attr(a, (const uint8_t *)nest + NLA_HDRLEN, nest->nla_len - NLA_HDRLEN,
			      rem) {
			int k = cfg_index(a->nla_type & NLA_TYPE_MASK);

			if (k >= 0)
				cube.cfg[k] = get_u32(a);
		}
		state_save();
	}
	queue_ack(r->nlh);
}

