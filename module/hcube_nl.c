// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the "hcube" generic netlink family.
 *
 * Every op has its own strict policy (an op without attributes gets the
 * core's reject-all policy). Ranges live in the policies, so a violation
 * comes back as -ERANGE with the policy in the extended ack; the CPU id
 * range is set at init from nr_cpu_ids. The vertex id range depends on the
 * cube and is checked in the handlers, which also answer -ERANGE and attach
 * a policy describing the current range. Every command that changes state
 * needs CAP_NET_ADMIN.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/threads.h>
#include "hcube.h"

#define HCUBE_NL_REAP	0x01	/* reap exited tasks before the doit */

/* A required attribute: the missing type in the ack, and a message. */
#define HCUBE_REQUIRE(info, attr, msg) ({			\
	struct genl_info *__hc_info = (info);			\
	bool __missing = GENL_REQ_ATTR_CHECK(__hc_info, attr);	\
								\
	if (__missing)						\
		NL_SET_ERR_MSG(__hc_info->extack, msg);		\
	__missing;						\
})

static struct netlink_range_validation hcube_pid_range = {
	.min = 1,
	.max = PID_MAX_LIMIT,
};

static struct netlink_range_validation hcube_threshold_range = {
	.min = 0,
	.max = HCUBE_THRESHOLD_MAX,
};

static struct netlink_range_validation hcube_cooldown_range = {
	.min = HCUBE_COOLDOWN_MS_MIN,
	.max = HCUBE_COOLDOWN_MS_MAX,
};

/* Attached to errors: the valid vertex ids of a cube of each dimension. */
static const struct nla_policy hcube_vertex_range[HCUBE_MAX_DIM + 1] = {
	NLA_POLICY_MAX(NLA_U32, 0), NLA_POLICY_MAX(NLA_U32, 1),
	NLA_POLICY_MAX(NLA_U32, 3), NLA_POLICY_MAX(NLA_U32, 7),
	NLA_POLICY_MAX(NLA_U32, 15), NLA_POLICY_MAX(NLA_U32, 31),
	NLA_POLICY_MAX(NLA_U32, 63), NLA_POLICY_MAX(NLA_U32, 127),
	NLA_POLICY_MAX(NLA_U32, 255), NLA_POLICY_MAX(NLA_U32, 511),
	NLA_POLICY_MAX(NLA_U32, 1023),
};

/* CPU ids of this machine: 0 .. nr_cpu_ids - 1, set at init. */
static struct netlink_range_validation hcube_cpu_ids __ro_after_init;

static const struct nla_policy hcube_vertex_get_policy[HCUBE_A_VERTEX_ID + 1] = {
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, HCUBE_MAX_VERTICES - 1),
};

static const struct nla_policy hcube_topo_set_policy[HCUBE_A_GROUP + 1] = {
	[HCUBE_A_MODE] = NLA_POLICY_MAX(NLA_U32, HCUBE_MODE_MAX),
	[HCUBE_A_GROUP] = { .type = NLA_NUL_STRING, .len = HCUBE_CPULIST_MAX },
};

static const struct nla_policy hcube_fault_policy[HCUBE_A_VERTEX_ID + 1] = {
	[HCUBE_A_CPU] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_cpu_ids),
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, HCUBE_MAX_VERTICES - 1),
};

static const struct nla_policy hcube_task_add_policy[HCUBE_A_UNIT + 1] = {
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, HCUBE_MAX_VERTICES - 1),
	[HCUBE_A_PID] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_pid_range),
	[HCUBE_A_THREADS] = { .type = NLA_FLAG },
	[HCUBE_A_UNIT] = NLA_POLICY_MAX(NLA_U32, HCUBE_UNIT_MAX),
};

static const struct nla_policy hcube_task_del_policy[HCUBE_A_UNIT + 1] = {
	[HCUBE_A_PID] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_pid_range),
	[HCUBE_A_THREADS] = { .type = NLA_FLAG },
	[HCUBE_A_ALL] = { .type = NLA_FLAG },
	[HCUBE_A_UNIT] = NLA_POLICY_MAX(NLA_U32, HCUBE_UNIT_MAX),
};

/* REBALANCE uses the report attributes (enum hcube_report_attr). */
static const struct nla_policy hcube_rebalance_policy[HCUBE_R_A_DRY_RUN + 1] = {
	[HCUBE_R_A_POLICY] = NLA_POLICY_MAX(NLA_U32, HCUBE_POLICY_MAX),
	[HCUBE_R_A_DRY_RUN] = { .type = NLA_FLAG },
};

static const struct nla_policy hcube_config_policy[HCUBE_C_A_MAX + 1] = {
	[HCUBE_C_A_POLICY] = NLA_POLICY_MAX(NLA_U32, HCUBE_POLICY_MAX),
	[HCUBE_C_A_AUTO] = NLA_POLICY_MAX(NLA_U8, 1),
	[HCUBE_C_A_THRESHOLD] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_threshold_range),
	[HCUBE_C_A_COOLDOWN_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_cooldown_range),
	[HCUBE_C_A_MAX_TASKS] = {
		.type = NLA_REJECT,
		.reject_message = "HCUBE_C_A_MAX_TASKS: read-only (module parameter max_tasks)",
	},
};

static const struct nla_policy hcube_config_set_policy[HCUBE_A_CONFIG + 1] = {
	[HCUBE_A_CONFIG] = NLA_POLICY_NESTED(hcube_config_policy),
};

static const struct genl_multicast_group hcube_mcgrps[] = {
	{ .name = HCUBE_MCGRP_EVENTS },
};

/* Helpers to put attributes. */

static int hcube_put_cpulist(struct sk_buff *skb, int type,
			     const struct cpumask *mask)
{
	int len = snprintf(NULL, 0, "%*pbl", cpumask_pr_args(mask));
	struct nlattr *a = nla_reserve(skb, type, len + 1);

	if (!a)
		return -EMSGSIZE;
	scnprintf(nla_data(a), len + 1, "%*pbl", cpumask_pr_args(mask));
	return 0;
}

static u32 hcube_nhealthy(struct hcube *hc)
{
	u32 i, n = 0;

	for (i = 0; i < hc->nv; i++)
		n += hc->v[i].state == HCUBE_VERTEX_HEALTHY;
	return n;
}

static int hcube_fill_cube(struct sk_buff *skb, struct hcube *hc)
{
	char pat[HCUBE_MAX_DIM + 1];

	if (nla_put_u32(skb, HCUBE_A_MODE, hc->mode) ||
	    nla_put_u32(skb, HCUBE_A_DIM, hc->dim) ||
	    nla_put_u32(skb, HCUBE_A_NVERTICES, hc->nv) ||
	    nla_put_u32(skb, HCUBE_A_NHEALTHY, hcube_nhealthy(hc)) ||
	    nla_put_u32(skb, HCUBE_A_NTASKS, hc->ntasks) ||
	    nla_put_u32(skb, HCUBE_A_GENERATION, hc->generation) ||
	    nla_put_u32(skb, HCUBE_A_CLUSTER_DIM, hc->cdim) ||
	    nla_put(skb, HCUBE_A_CONTROLLERS, hc->nclusters * sizeof(u16),
		    hc->m.ctrl))
		return -EMSGSIZE;
	if (!hc->topo_valid)
		return 0;
	if (nla_put_u32(skb, HCUBE_A_NATTACHED, hc->topo.nattached) ||
	    nla_put_u32(skb, HCUBE_A_CB_BASE, hc->topo.cb_base) ||
	    nla_put_u32(skb, HCUBE_A_CB_MASK, hc->topo.cb_mask) ||
	    nla_put_string(skb, HCUBE_A_CB_PATTERN,
			   hcube_pattern(pat, hc->dim, hc->topo.cb_base,
					 hc->topo.cb_mask)) ||
	    nla_put_u32(skb, HCUBE_A_TREE_DEPTH, hc->topo.depth))
		return -EMSGSIZE;
	return 0;
}

static int hcube_fill_vertex(struct sk_buff *skb, struct hcube *hc, u32 i,
			     struct cpumask *tmp)
{
	struct hcube_vertex *v = &hc->v[i];
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_VERTEX);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_V_A_ID, i) ||
	    nla_put_u32(skb, HCUBE_V_A_STATE, v->state) ||
	    nla_put_u32(skb, HCUBE_V_A_LOAD, v->load) ||
	    hcube_put_cpulist(skb, HCUBE_V_A_CPUS, v->cpus) ||
	    hcube_put_cpulist(skb, HCUBE_V_A_USABLE_CPUS, v->usable))
		goto cancel;
	cpumask_and(tmp, v->cpus, hc->faulty);
	if (hcube_put_cpulist(skb, HCUBE_V_A_FAULTY_CPUS, tmp))
		goto cancel;
	cpumask_andnot(tmp, v->cpus, hc->online);
	if (hcube_put_cpulist(skb, HCUBE_V_A_OFFLINE_CPUS, tmp))
		goto cancel;
	if (v->marked && nla_put_flag(skb, HCUBE_V_A_MARKED))
		goto cancel;
	if (hc->m.ctrl[i >> hc->cdim] == i &&
	    nla_put_flag(skb, HCUBE_V_A_CONTROLLER))
		goto cancel;
	if (hc->topo_valid) {
		bool attached = hc->topo.dist[i] != HCUBE_DIST_NONE;

		if (nla_put_s32(skb, HCUBE_V_A_PARENT, hc->topo.parent[i]) ||
		    (attached && hc->topo.dist[i] == 0 &&
		     nla_put_flag(skb, HCUBE_V_A_IN_CB)) ||
		    (attached && nla_put_u32(skb, HCUBE_V_A_DIST, hc->topo.dist[i])) ||
		    (attached && nla_put_u32(skb, HCUBE_V_A_OMEGA, hc->topo.omega[i])) ||
		    (!attached && v->state == HCUBE_VERTEX_HEALTHY &&
		     nla_put_flag(skb, HCUBE_V_A_DETACHED)))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* @ns: the reader's pid namespace, NULL for the initial one. */
static int hcube_fill_task(struct sk_buff *skb, int type, struct hcube_task *t,
			   struct pid_namespace *ns, u32 reason)
{
	struct task_struct *p = get_pid_task(t->pid, PIDTYPE_PID);
	struct nlattr *nest = nla_nest_start(skb, type);
	char comm[TASK_COMM_LEN];
	int err = -EMSGSIZE;

	if (!nest)
		goto out;
	if (nla_put_u32(skb, HCUBE_T_A_PID, ns ? pid_nr_ns(t->pid, ns) : pid_nr(t->pid)) ||
	    nla_put_u32(skb, HCUBE_T_A_VERTEX, t->vertex) ||
	    nla_put_u32(skb, HCUBE_T_A_STATE, reason == HCUBE_REASON_EXITED ?
			HCUBE_TASK_EXITED : t->state) ||
	    hcube_put_cpulist(skb, HCUBE_T_A_ORIG_CPUS, t->orig) ||
	    (reason && nla_put_u32(skb, HCUBE_T_A_REASON, reason)))
		goto cancel;
	if (p) {
		get_task_comm(comm, p);
		if (nla_put_u32(skb, HCUBE_T_A_TGID,
				ns ? task_tgid_nr_ns(p, ns) : task_tgid_nr(p)) ||
		    nla_put_string(skb, HCUBE_T_A_COMM, comm) ||
		    hcube_put_cpulist(skb, HCUBE_T_A_CPUS, &p->cpus_mask))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	err = 0;
	goto out;
cancel:
	nla_nest_cancel(skb, nest);
out:
	if (p)
		put_task_struct(p);
	return err;
}

static int hcube_fill_report_task(struct sk_buff *skb, int type,
				  const struct hcube_report_task *rt,
				  struct pid_namespace *ns)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_T_A_PID, ns ? pid_nr_ns(rt->spid, ns) : rt->pid) ||
	    nla_put_string(skb, HCUBE_T_A_COMM, rt->comm) ||
	    nla_put_u32(skb, HCUBE_T_A_VERTEX, rt->vertex) ||
	    (rt->error && nla_put_s32(skb, HCUBE_T_A_ERROR, rt->error))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static size_t hcube_report_size(struct hcube *hc, const struct hcube_report *r)
{
	size_t n = NLMSG_GOODSIZE + 3 * nla_total_size(hc->nv * sizeof(u32));

	if (r->plan)
		n += r->plan->ntransfers * sizeof(struct hcube_transfer_info) +
		     (r->plan->ntransfers / HCUBE_TRANSFERS_PER_ATTR + 1) * NLA_HDRLEN;
	return n + (r->nfailures + r->nchanged) * 128;
}

/* The plan's transfers, HCUBE_TRANSFERS_PER_ATTR to an attribute. */
static int hcube_put_transfers(struct sk_buff *skb, const struct hcube_plan *p)
{
	u32 i = 0;

	do {
		u32 n = min_t(u32, p->ntransfers - i, HCUBE_TRANSFERS_PER_ATTR), k;
		struct hcube_transfer_info *x;
		struct nlattr *a;

		a = nla_reserve(skb, HCUBE_R_A_TRANSFERS, n * sizeof(*x));
		if (!a)
			return -EMSGSIZE;
		x = nla_data(a);
		for (k = 0; k < n; k++, i++) {
			x[k].step = p->transfers[i].step;
			x[k].from = p->transfers[i].from;
			x[k].to = p->transfers[i].to;
			x[k].reserved = 0;
			x[k].count = p->transfers[i].count;
		}
	} while (i < p->ntransfers);
	return 0;
}

/* The report, as the top-level attributes of a message. */
static int hcube_fill_report(struct sk_buff *skb, struct hcube *hc,
			     const struct hcube_report *r, struct pid_namespace *ns)
{
	size_t vbytes = hc->nv * sizeof(u32);
	char pat[HCUBE_MAX_DIM + 1];
	u32 i;

	if (nla_put_u32(skb, HCUBE_R_A_POLICY, r->policy) ||
	    (r->dry_run && nla_put_flag(skb, HCUBE_R_A_DRY_RUN)) ||
	    nla_put_u32(skb, HCUBE_R_A_TRIGGER, r->trigger) ||
	    nla_put(skb, HCUBE_R_A_LOADS_BEFORE, vbytes, r->before) ||
	    nla_put(skb, HCUBE_R_A_LOADS_AFTER, vbytes, r->after) ||
	    nla_put_u32(skb, HCUBE_R_A_MOVED, r->moved) ||
	    nla_put_u32(skb, HCUBE_R_A_FAILED, r->failed) ||
	    nla_put_u32(skb, HCUBE_R_A_EXITED, r->exited) ||
	    nla_put_u32(skb, HCUBE_R_A_EVACUATED, r->evacuated) ||
	    nla_put_u64_64bit(skb, HCUBE_R_A_DURATION_NS, r->duration_ns,
			      HCUBE_R_A_PAD))
		return -EMSGSIZE;
	if (r->plan) {
		const struct hcube_plan *p = r->plan;

		if (nla_put(skb, HCUBE_R_A_LOADS_PLAN, vbytes, r->planned) ||
		    nla_put_u32(skb, HCUBE_R_A_NTRANSFERS, p->ntransfers) ||
		    nla_put_u32(skb, HCUBE_R_A_STEPS, p->nsteps) ||
		    nla_put_u32(skb, HCUBE_R_A_COMM_STEPS, p->stats.comm_steps) ||
		    nla_put_u64_64bit(skb, HCUBE_R_A_MIGRATIONS, p->stats.migrations,
				      HCUBE_R_A_PAD) ||
		    nla_put_u32(skb, HCUBE_R_A_APPLIED, p->applied) ||
		    nla_put_u32(skb, HCUBE_R_A_MESSAGES, p->stats.messages) ||
		    nla_put_u32(skb, HCUBE_R_A_IMBALANCE, p->stats.imbalance) ||
		    (p->applied == HCUBE_POLICY_PEBBLE &&
		     nla_put_u32(skb, HCUBE_R_A_CONTENDED, p->stats.contended)) ||
		    hcube_put_transfers(skb, p))
			return -EMSGSIZE;
		/* the balancing subcube and trees of the plans that use them */
		if ((p->applied == HCUBE_POLICY_MCWA ||
		     p->applied == HCUBE_POLICY_CWA) && hc->topo_valid &&
		    (nla_put_string(skb, HCUBE_R_A_CB_PATTERN,
				    hcube_pattern(pat, hc->dim, hc->topo.cb_base,
						  hc->topo.cb_mask)) ||
		     nla_put_u32(skb, HCUBE_R_A_TREE_DEPTH, hc->topo.depth)))
			return -EMSGSIZE;
	}
	for (i = 0; i < r->nfailures; i++)
		if (hcube_fill_report_task(skb, HCUBE_R_A_FAILURE, &r->failures[i], ns))
			return -EMSGSIZE;
	for (i = 0; i < r->nchanged; i++)
		if (hcube_fill_report_task(skb, HCUBE_R_A_CHANGED, &r->changed[i], ns))
			return -EMSGSIZE;
	return 0;
}

static int hcube_fill_stats(struct sk_buff *skb, struct hcube *hc)
{
	const struct hcube_counters *c = &hc->cnt;
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_STATS);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, HCUBE_S_A_REBALANCES, c->rebalances, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_AUTO_REBALANCES, c->auto_rebalances,
			      HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_DRY_RUNS, c->dry_runs, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_MIGRATIONS, c->migrations, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_MOVED, c->moved, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_FAILURES, c->failures, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_EVACUATIONS, c->evacuations, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_EXITED, c->exited, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_CHANGED, c->changed, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_REGISTERED, c->registered, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_UNREGISTERED, c->unregistered,
			      HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_TASKS, hc->ntasks, HCUBE_S_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int hcube_fill_config(struct sk_buff *skb, struct hcube *hc)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_CONFIG);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_C_A_POLICY, hc->cfg.policy) ||
	    nla_put_u8(skb, HCUBE_C_A_AUTO, hc->cfg.autob) ||
	    nla_put_u32(skb, HCUBE_C_A_THRESHOLD, hc->cfg.threshold) ||
	    nla_put_u32(skb, HCUBE_C_A_COOLDOWN_MS, hc->cfg.cooldown_ms) ||
	    nla_put_u32(skb, HCUBE_C_A_MAX_TASKS, hcube_max_tasks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Notifications on the "events" group. */

static bool hcube_listening(struct hcube *hc)
{
	return !READ_ONCE(hc->stopping) &&
	       genl_has_listeners(&hcube_genl_family, &init_net, 0);
}

static void hcube_ntf_send(struct sk_buff *skb, void *hdr)
{
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&hcube_genl_family, skb, 0, 0, GFP_KERNEL);
}

static struct sk_buff *hcube_ntf_new(size_t size, u8 cmd, void **hdr)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &hcube_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

void hcube_ntf_fault(struct hcube *hc, int cpu, int vertex, u32 event,
		     u32 reason)
{
	struct sk_buff *skb;
	void *hdr;

	if (!hcube_listening(hc))
		return;
	skb = hcube_ntf_new(NLMSG_GOODSIZE, HCUBE_CMD_FAULT_NTF, &hdr);
	if (!skb)
		return;
	if ((cpu >= 0 && nla_put_u32(skb, HCUBE_A_CPU, cpu)) ||
	    nla_put_u32(skb, HCUBE_A_VERTEX_ID, vertex) ||
	    nla_put_u32(skb, HCUBE_A_EVENT, event) ||
	    nla_put_u32(skb, HCUBE_A_STATE, hc->v[vertex].state) ||
	    nla_put_u32(skb, HCUBE_A_REASON, reason) ||
	    hcube_fill_cube(skb, hc)) {
		nlmsg_free(skb);
		return;
	}
	hcube_ntf_send(skb, hdr);
}

void hcube_ntf_topo(struct hcube *hc, u32 reason)
{
	struct sk_buff *skb;
	void *hdr;

	if (!hcube_listening(hc))
		return;
	skb = hcube_ntf_new(NLMSG_GOODSIZE, HCUBE_CMD_TOPO_NTF, &hdr);
	if (!skb)
		return;
	if (hcube_fill_cube(skb, hc) || nla_put_u32(skb, HCUBE_A_REASON, reason)) {
		nlmsg_free(skb);
		return;
	}
	hcube_ntf_send(skb, hdr);
}

/* One CONTROLLER_NTF per cluster whose controller the last refresh changed. */
void hcube_ntf_controllers(struct hcube *hc, u32 reason)
{
	u32 c;

	for (c = 0; c < hc->nclusters; c++) {
		u16 old = hc->m.ctrl_prev[c], now = hc->m.ctrl[c];
		struct sk_buff *skb;
		void *hdr;

		if (old == now || !hcube_listening(hc))
			continue;
		skb = hcube_ntf_new(NLMSG_GOODSIZE, HCUBE_CMD_CONTROLLER_NTF, &hdr);
		if (!skb)
			return;
		if (nla_put_u32(skb, HCUBE_A_CLUSTER, c) ||
		    nla_put_u32(skb, HCUBE_A_CLUSTER_DIM, hc->cdim) ||
		    (old != HCUBE_VERTEX_NONE &&
		     nla_put_u32(skb, HCUBE_A_CONTROLLER_OLD, old)) ||
		    (now != HCUBE_VERTEX_NONE &&
		     nla_put_u32(skb, HCUBE_A_CONTROLLER_NEW, now)) ||
		    nla_put_u32(skb, HCUBE_A_REASON, reason) ||
		    nla_put_u32(skb, HCUBE_A_GENERATION, hc->generation)) {
			nlmsg_free(skb);
			return;
		}
		hcube_ntf_send(skb, hdr);
	}
}

void hcube_ntf_task(struct hcube *hc, struct hcube_task *t, u32 reason)
{
	struct sk_buff *skb;
	void *hdr;

	if (!hcube_listening(hc))
		return;
	skb = hcube_ntf_new(NLMSG_GOODSIZE, HCUBE_CMD_TASK_NTF, &hdr);
	if (!skb)
		return;
	if (hcube_fill_task(skb, HCUBE_A_TASK, t, NULL, reason)) {
		nlmsg_free(skb);
		return;
	}
	hcube_ntf_send(skb, hdr);
}

void hcube_ntf_rebalance(struct hcube *hc, const struct hcube_report *r)
{
	struct sk_buff *skb;
	void *hdr;

	if (!hcube_listening(hc))
		return;
	skb = hcube_ntf_new(hcube_report_size(hc, r), HCUBE_CMD_REBALANCE_NTF, &hdr);
	if (!skb)
		return;
	if (hcube_fill_report(skb, hc, r, NULL)) {
		nlmsg_free(skb);
		return;
	}
	hcube_ntf_send(skb, hdr);
}

/* Ops. pre_doit takes the hotplug read lock and hcube.lock for every doit. */

static int hcube_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	hcube_lock(&hcube);
	if (ops->internal_flags & HCUBE_NL_REAP)
		hcube_reap(&hcube, NULL);
	return 0;
}

static void hcube_post_doit(const struct genl_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	hcube_unlock(&hcube);
}

static struct sk_buff *hcube_reply_new(struct genl_info *info, size_t size,
				       void **hdr)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put_reply(skb, info, &hcube_genl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

static int hcube_reply(struct sk_buff *skb, void *hdr, struct genl_info *info)
{
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

static int hcube_cube_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = hcube_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (hcube_fill_cube(msg, &hcube)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return hcube_reply(msg, hdr, info);
}

/* A vertex id: within the cube, else an error naming the current range. */
static int hcube_get_vertex(struct hcube *hc, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[HCUBE_A_VERTEX_ID];
	u32 v = nla_get_u32(a);

	if (v >= hc->nv) {
		NL_SET_ERR_MSG_ATTR_POL(info->extack, a, &hcube_vertex_range[hc->dim],
					"HCUBE_A_VERTEX_ID: vertex id out of range for this cube");
		return -ERANGE;
	}
	return v;
}

static int hcube_vertex_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube *hc = &hcube;
	cpumask_var_t tmp;
	struct sk_buff *msg;
	void *hdr;
	int v, err;

	if (HCUBE_REQUIRE(info, HCUBE_A_VERTEX_ID, "HCUBE_A_VERTEX_ID is required"))
		return -EINVAL;
	v = hcube_get_vertex(hc, info);
	if (v < 0)
		return v;
	if (!alloc_cpumask_var(&tmp, GFP_KERNEL))
		return -ENOMEM;
	err = -ENOMEM;
	msg = hcube_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		goto out;
	err = hcube_fill_vertex(msg, hc, v, tmp);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = hcube_reply(msg, hdr, info);
out:
	free_cpumask_var(tmp);
	return err;
}

static int hcube_vertex_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hcube *hc = &hcube;
	cpumask_var_t tmp;
	u32 i;
	int err = 0;

	if (!alloc_cpumask_var(&tmp, GFP_KERNEL))
		return -ENOMEM;
	hcube_lock(hc);
	for (i = cb->args[0]; i < hc->nv; i++) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &hcube_genl_family,
					NLM_F_MULTI, HCUBE_CMD_VERTEX_GET);

		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (hcube_fill_vertex(skb, hc, i, tmp)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	hcube_unlock(hc);
	free_cpumask_var(tmp);
	cb->args[0] = i;
	/* Some vertices went out: the dump continues with the rest. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

static int hcube_topo_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube *hc = &hcube;
	cpumask_var_t *groups, all;
	const struct nlattr *a;
	u32 m, ng = 0;
	int rem, err;

	if (HCUBE_REQUIRE(info, HCUBE_A_MODE, "HCUBE_A_MODE is required (0 cpu .. 3 custom)"))
		return -EINVAL;
	m = nla_get_u32(info->attrs[HCUBE_A_MODE]);
	if (m != HCUBE_MODE_CUSTOM && info->attrs[HCUBE_A_GROUP]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_GROUP],
				    "HCUBE_A_GROUP: only with mode custom");
		return -EINVAL;
	}
	if (m == HCUBE_MODE_CUSTOM &&
	    HCUBE_REQUIRE(info, HCUBE_A_GROUP,
			  "HCUBE_A_GROUP is required with mode custom (one cpulist per vertex)"))
		return -EINVAL;
	if (hc->ntasks) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_MODE],
				    "HCUBE_A_MODE: tasks are registered; unregister them first");
		return -EBUSY;
	}
	if (m != HCUBE_MODE_CUSTOM) {
		err = hcube_topology_mode(hc, m, info->extack);
		goto done;
	}

	groups = hcube_alloc_groups();
	if (!groups)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&all, GFP_KERNEL)) {
		hcube_free_groups(groups);
		return -ENOMEM;
	}
	err = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HCUBE_A_GROUP)
			continue;
		if (ng == HCUBE_MAX_VERTICES) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "HCUBE_A_GROUP: at most 1024 groups");
			err = -E2BIG;
			break;
		}
		if (cpulist_parse(nla_data(a), groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "HCUBE_A_GROUP: not a cpulist (like 0-3,8) of CPUs below nr_cpu_ids");
			err = -EINVAL;
			break;
		}
		if (cpumask_empty(groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "HCUBE_A_GROUP: empty group");
			err = -EINVAL;
			break;
		}
		if (!cpumask_subset(groups[ng], cpu_present_mask)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "HCUBE_A_GROUP: CPUs that are not present");
			err = -EINVAL;
			break;
		}
		if (cpumask_intersects(groups[ng], all)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "HCUBE_A_GROUP: CPUs already in another group");
			err = -EINVAL;
			break;
		}
		cpumask_or(all, all, groups[ng]);
		ng++;
	}
	if (!err)
		err = hcube_topology_set(hc, m, groups, ng, info->extack);
	free_cpumask_var(all);
	hcube_free_groups(groups);
done:
	if (!err)
		hcube_ntf_topo(hc, HCUBE_REASON_ADMIN);
	return err;
}

static int hcube_fault_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *acpu = info->attrs[HCUBE_A_CPU];
	struct nlattr *avx = info->attrs[HCUBE_A_VERTEX_ID];
	bool add = info->genlhdr->cmd == HCUBE_CMD_FAULT_ADD;
	struct hcube *hc = &hcube;
	int cpu = -1, v = -1;

	if (!acpu && !avx) {
		NL_SET_ERR_MSG(info->extack,
			       "HCUBE_A_CPU or HCUBE_A_VERTEX_ID is required");
		return -EINVAL;
	}
	if (acpu && avx) {
		NL_SET_ERR_MSG_ATTR(info->extack, avx,
				    "give HCUBE_A_CPU or HCUBE_A_VERTEX_ID, not both");
		return -EINVAL;
	}
	if (acpu) {
		u32 c = nla_get_u32(acpu);

		if (!cpu_present(c)) {
			NL_SET_ERR_MSG_ATTR(info->extack, acpu,
					    "HCUBE_A_CPU: the CPU is not present (see /sys/devices/system/cpu/present)");
			return -ENODEV;
		}
		cpu = c;
	} else {
		v = hcube_get_vertex(hc, info);
		if (v < 0)
			return v;
	}
	return hcube_fault_change(hc, cpu, v, add, info->extack, acpu ? acpu : avx);
}

/* Candidates of a TASK_ADD or TASK_DEL: pid references and their attribute. */
struct hcube_cand {
	struct pid **pids;
	const struct nlattr **attr;
	u32 n, cap;
};

static int hcube_cand_push(struct hcube_cand *c, struct pid *pid,
			   const struct nlattr *a)
{
	if (c->n == c->cap) {
		u32 cap = c->cap ? 2 * c->cap : 64;
		struct pid **p = kvrealloc(c->pids, c->cap * sizeof(*p),
					   cap * sizeof(*p), GFP_KERNEL);
		const struct nlattr **q;

		if (!p)
			return -ENOMEM;
		c->pids = p;
		q = kvrealloc(c->attr, c->cap * sizeof(*q), cap * sizeof(*q),
			      GFP_KERNEL);
		if (!q)
			return -ENOMEM;
		c->attr = q;
		c->cap = cap;
	}
	c->pids[c->n] = pid;
	c->attr[c->n++] = a;
	return 0;
}

static void hcube_cand_free(struct hcube_cand *c, u32 from)
{
	u32 i;

	for (i = from; i < c->n; i++)
		put_pid(c->pids[i]);
	kvfree(c->pids);
	kvfree(c->attr);
}

/* Every thread of the process that @pid names (a thread or the leader). */
static int hcube_cand_threads(struct hcube_cand *c, struct pid *pid,
			      const struct nlattr *a)
{
	struct task_struct *p = get_pid_task(pid, PIDTYPE_PID), *t;
	struct pid **tmp;
	u32 n = 0, cap, i;
	int err = 0;

	if (!p)
		return -ESRCH;
	cap = get_nr_threads(p) + 16;
	tmp = kvcalloc(cap, sizeof(*tmp), GFP_KERNEL);
	if (!tmp) {
		put_task_struct(p);
		return -ENOMEM;
	}
	rcu_read_lock();
	for_each_thread(p, t) {
		if (n == cap)
			break;
		tmp[n++] = get_task_pid(t, PIDTYPE_PID);
	}
	rcu_read_unlock();
	put_task_struct(p);
	for (i = 0; i < n; i++) {
		if (!err)
			err = hcube_cand_push(c, tmp[i], a);
		if (err)
			put_pid(tmp[i]);
	}
	kvfree(tmp);
	return err;
}

/* Resolve every HCUBE_A_PID (in the caller's namespace) into candidates. */
static int hcube_cand_collect(struct hcube_cand *c, struct genl_info *info)
{
	bool threads = nla_get_flag(info->attrs[HCUBE_A_THREADS]);
	const struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		struct pid *pid;

		if (nla_type(a) != HCUBE_A_PID)
			continue;
		pid = find_get_pid(nla_get_u32(a));
		if (!pid || !pid_has_task(pid, PIDTYPE_PID)) {
			put_pid(pid);
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "HCUBE_A_PID: no such process in the caller's pid namespace");
			return -ESRCH;
		}
		if (threads) {
			err = hcube_cand_threads(c, pid, a);
			put_pid(pid);
			if (err == -ESRCH)
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "HCUBE_A_PID: no such process in the caller's pid namespace");
		} else {
			err = hcube_cand_push(c, pid, a);
			if (err)
				put_pid(pid);
		}
		if (err)
			return err;
	}
	return 0;
}

struct hcube_cand_key {
	struct pid *pid;
	u32 i;
};

static int hcube_cand_key_cmp(const void *a, const void *b)
{
	const struct hcube_cand_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The first candidate that repeats an earlier one, or c->n when none does.
 * Sorted, not compared pairwise: a request may name tens of thousands of
 * tasks, and this runs under hcube.lock.
 */
static int hcube_cand_first_dup(const struct hcube_cand *c, u32 *first)
{
	struct hcube_cand_key *k;
	u32 i;

	*first = c->n;
	if (c->n < 2)
		return 0;
	k = kvmalloc_array(c->n, sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		k[i].pid = c->pids[i];
		k[i].i = i;
	}
	sort(k, c->n, sizeof(*k), hcube_cand_key_cmp, NULL);
	for (i = 1; i < c->n; i++)
		if (k[i].pid == k[i - 1].pid && k[i].i < *first)
			*first = k[i].i;
	kvfree(k);
	return 0;
}

/* The message of an hcube_task_check() refusal. */
static void hcube_check_msg(struct netlink_ext_ack *extack,
			    const struct nlattr *a, int err)
{
	switch (err) {
	case -EINVAL:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "HCUBE_A_PID: a kernel thread cannot be registered");
		break;
	case -ESRCH:
		NL_SET_ERR_MSG_ATTR(extack, a, "HCUBE_A_PID: the process is exiting");
		break;
	case -EPERM:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "HCUBE_A_PID: the task does not allow affinity changes (PF_NO_SETAFFINITY)");
		break;
	case -EXDEV:
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "HCUBE_A_PID: the task's cpuset may not span the cube's CPUs (its affinity does not cover them)");
		break;
	}
}

static int hcube_task_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube_cand c = {};
	struct hcube *hc = &hcube;
	struct hcube_task **added = NULL;
	struct sk_buff *msg;
	u32 *nrs = NULL;
	int vertex = -1, err;
	void *hdr;
	u32 i, dup;

	if (HCUBE_REQUIRE(info, HCUBE_A_PID, "HCUBE_A_PID is required (1..4194304)"))
		return -EINVAL;
	if (info->attrs[HCUBE_A_VERTEX_ID]) {
		vertex = hcube_get_vertex(hc, info);
		if (vertex < 0)
			return vertex;
		if (hc->v[vertex].state != HCUBE_VERTEX_HEALTHY) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_VERTEX_ID],
					    "HCUBE_A_VERTEX_ID: the vertex is not healthy");
			return -EINVAL;
		}
	}
	err = hcube_cand_collect(&c, info);
	if (!err)
		err = hcube_cand_first_dup(&c, &dup);
	if (err)
		goto out;

	for (i = 0; i < c.n; i++) {
		struct task_struct *p = get_pid_task(c.pids[i], PIDTYPE_PID);

		err = p ? hcube_task_check(hc, p) : -ESRCH;
		if (p)
			put_task_struct(p);
		if (err) {
			hcube_check_msg(info->extack, c.attr[i], err);
			goto out;
		}
		if (hcube_task_find(hc, c.pids[i])) {
			NL_SET_ERR_MSG_ATTR(info->extack, c.attr[i],
					    "HCUBE_A_PID: the task is already registered");
			err = -EEXIST;
			goto out;
		}
		if (i == dup) {
			NL_SET_ERR_MSG_ATTR(info->extack, c.attr[i],
					    "HCUBE_A_PID: the task is given twice");
			err = -EEXIST;
			goto out;
		}
	}
	if (hc->ntasks + c.n > hcube_max_tasks) {
		NL_SET_ERR_MSG_ATTR(info->extack, c.attr[0],
				    "HCUBE_A_PID: too many tasks (module parameter max_tasks)");
		err = -ENOSPC;
		goto out;
	}

	added = kvcalloc(c.n, sizeof(*added), GFP_KERNEL);
	nrs = kvcalloc(c.n, sizeof(*nrs), GFP_KERNEL);
	if (!added || !nrs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c.n; i++)
		nrs[i] = pid_nr_ns(c.pids[i], task_active_pid_ns(current));
	err = hcube_task_add(hc, c.pids, c.n, vertex, added);
	if (err)
		goto out;
	/* The pid references now belong to the tasks (or were dropped). */
	kvfree(c.pids);
	kvfree(c.attr);
	c.pids = NULL;
	c.attr = NULL;

	msg = hcube_reply_new(info, NLMSG_GOODSIZE + c.n * 64, &hdr);
	if (!msg) {
		err = -ENOMEM;
		goto free_added;
	}
	for (i = 0; i < c.n; i++) {
		struct nlattr *nest;

		if (!IS_ERR(added[i])) {
			if (hcube_fill_task(msg, HCUBE_A_TASK, added[i],
					    task_active_pid_ns(current), 0))
				break;
			continue;
		}
		nest = nla_nest_start(msg, HCUBE_A_TASK);
		if (!nest || nla_put_u32(msg, HCUBE_T_A_PID, nrs[i]) ||
		    nla_put_s32(msg, HCUBE_T_A_ERROR, PTR_ERR(added[i])))
			break;
		nla_nest_end(msg, nest);
	}
	if (i < c.n) {
		/* The registration stands; only the reply is cut short. */
		nlmsg_free(msg);
		err = 0;
		goto free_added;
	}
	err = hcube_reply(msg, hdr, info);
free_added:
	kvfree(added);
	kvfree(nrs);
	return err;
out:
	kvfree(added);
	kvfree(nrs);
	hcube_cand_free(&c, 0);
	return err;
}

static int hcube_task_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube_cand c = {};
	struct hcube *hc = &hcube;
	struct hcube_task *t;
	unsigned long id;
	int err;
	u32 i;

	if (info->attrs[HCUBE_A_ALL]) {
		if (info->attrs[HCUBE_A_PID] || info->attrs[HCUBE_A_THREADS]) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_ALL],
					    "HCUBE_A_ALL: not with HCUBE_A_PID or HCUBE_A_THREADS");
			return -EINVAL;
		}
		xa_for_each(&hc->tasks, id, t)
			hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
		return 0;
	}
	if (HCUBE_REQUIRE(info, HCUBE_A_PID, "HCUBE_A_PID is required (1..4194304)"))
		return -EINVAL;
	err = hcube_cand_collect(&c, info);
	if (err)
		goto out;
	/* Check all first: a request that fails changes nothing. */
	for (i = 0; i < c.n; i++) {
		if (!hcube_task_find(hc, c.pids[i])) {
			NL_SET_ERR_MSG_ATTR(info->extack, c.attr[i],
					    "HCUBE_A_PID: the task is not registered");
			err = -ENOENT;
			goto out;
		}
	}
	for (i = 0; i < c.n; i++) {
		t = hcube_task_find(hc, c.pids[i]);
		if (t)	/* given twice: gone already */
			hcube_task_del(hc, t, HCUBE_REASON_REMOVED);
	}
out:
	hcube_cand_free(&c, 0);
	return err;
}

static int hcube_task_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct hcube *hc = &hcube;
	unsigned long id = cb->args[0];
	struct hcube_task *t;
	int err = 0;

	hcube_lock(hc);
	hcube_reap(hc, NULL);
	xa_for_each_start(&hc->tasks, id, t, id) {
		void *hdr;

		if (!pid_nr_ns(t->pid, ns))
			continue;	/* not visible to the reader */
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &hcube_genl_family,
				  NLM_F_MULTI, HCUBE_CMD_TASK_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (hcube_fill_task(skb, HCUBE_A_TASK, t, ns, 0)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	hcube_unlock(hc);
	/* Resume at the entry that did not fit, or past the end. */
	cb->args[0] = err ? id : ULONG_MAX;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

static int hcube_rebalance_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *apol = info->attrs[HCUBE_R_A_POLICY];
	bool dry_run = nla_get_flag(info->attrs[HCUBE_R_A_DRY_RUN]);
	struct hcube *hc = &hcube;
	u32 policy = apol ? nla_get_u32(apol) : hc->cfg.policy;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (policy == HCUBE_POLICY_CWA && hcube_nhealthy(hc) != hc->nv) {
		NL_SET_ERR_MSG_ATTR(info->extack, apol,
				    "HCUBE_R_A_POLICY: cwa needs a fault-free cube (every vertex healthy); use mcwa");
		return -EINVAL;
	}
	hcube_report_reset(&hc->report, hc);
	err = hcube_rebalance(hc, policy, dry_run, HCUBE_REASON_ADMIN, info->extack);
	if (err)
		return err;
	msg = hcube_reply_new(info, hcube_report_size(hc, &hc->report), &hdr);
	if (!msg)
		return -ENOMEM;
	err = hcube_fill_report(msg, hc, &hc->report, task_active_pid_ns(current));
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return hcube_reply(msg, hdr, info);
}

static int hcube_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = hcube_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (hcube_fill_stats(msg, &hcube)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return hcube_reply(msg, hdr, info);
}

static int hcube_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = hcube_reply_new(info, NLMSG_GOODSIZE, &hdr);
	if (!msg)
		return -ENOMEM;
	if (hcube_fill_config(msg, &hcube)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return hcube_reply(msg, hdr, info);
}

static int hcube_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[HCUBE_C_A_MAX + 1];
	struct hcube *hc = &hcube;
	int err;

	if (HCUBE_REQUIRE(info, HCUBE_A_CONFIG, "HCUBE_A_CONFIG is required"))
		return -EINVAL;
	err = nla_parse_nested(tb, HCUBE_C_A_MAX, info->attrs[HCUBE_A_CONFIG],
			       hcube_config_policy, info->extack);
	if (err)
		return err;
	if (tb[HCUBE_C_A_POLICY])
		hc->cfg.policy = nla_get_u32(tb[HCUBE_C_A_POLICY]);
	if (tb[HCUBE_C_A_AUTO])
		hc->cfg.autob = nla_get_u8(tb[HCUBE_C_A_AUTO]);
	if (tb[HCUBE_C_A_THRESHOLD])
		hc->cfg.threshold = nla_get_u32(tb[HCUBE_C_A_THRESHOLD]);
	if (tb[HCUBE_C_A_COOLDOWN_MS])
		hc->cfg.cooldown_ms = nla_get_u32(tb[HCUBE_C_A_COOLDOWN_MS]);
	return 0;
}

static const struct genl_ops hcube_ops[] = {
	{
		.cmd = HCUBE_CMD_CUBE_GET,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_cube_get_doit,
	},
	{
		.cmd = HCUBE_CMD_VERTEX_GET,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_vertex_get_doit,
		.dumpit = hcube_vertex_get_dumpit,
		.policy = hcube_vertex_get_policy,
		.maxattr = ARRAY_SIZE(hcube_vertex_get_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TOPO_SET,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_topo_set_doit,
		.policy = hcube_topo_set_policy,
		.maxattr = ARRAY_SIZE(hcube_topo_set_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_fault_doit,
		.policy = hcube_fault_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_fault_doit,
		.policy = hcube_fault_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_task_add_doit,
		.policy = hcube_task_add_policy,
		.maxattr = ARRAY_SIZE(hcube_task_add_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_task_del_doit,
		.policy = hcube_task_del_policy,
		.maxattr = ARRAY_SIZE(hcube_task_del_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_GET,
		.dumpit = hcube_task_get_dumpit,
	},
	{
		.cmd = HCUBE_CMD_REBALANCE,
		.flags = GENL_ADMIN_PERM,
		.doit = hcube_rebalance_doit,
		.policy = hcube_rebalance_policy,
		.maxattr = ARRAY_SIZE(hcube_rebalance_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_STATS_GET,
		.internal_flags = HCUBE_NL_REAP,
		.doit = hcube_stats_get_doit,
	},
	{
		.cmd = HCUBE_CMD_CONFIG_GET,
		.doit = hcube_config_get_doit,
	},
	{
		.cmd = HCUBE_CMD_CONFIG_SET,
		.flags = GENL_ADMIN_PERM,
		.doit = hcube_config_set_doit,
		.policy = hcube_config_set_policy,
		.maxattr = ARRAY_SIZE(hcube_config_set_policy) - 1,
	},
};

struct genl_family hcube_genl_family __ro_after_init = {
	.name = HCUBE_FAMILY_NAME,
	.version = HCUBE_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = hcube_ops,
	.n_ops = ARRAY_SIZE(hcube_ops),
	.resv_start_op = HCUBE_CMD_CUBE_GET,
	.mcgrps = hcube_mcgrps,
	.n_mcgrps = ARRAY_SIZE(hcube_mcgrps),
	.pre_doit = hcube_pre_doit,
	.post_doit = hcube_post_doit,
};

int hcube_nl_init(void)
{
	hcube_cpu_ids.max = nr_cpu_ids - 1;
	return genl_register_family(&hcube_genl_family);
}

void hcube_nl_exit(void)
{
	genl_unregister_family(&hcube_genl_family);
}
