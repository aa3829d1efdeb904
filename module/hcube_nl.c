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
 * needs CAP_NET_ADMIN; those that move registered tasks (faults, topology,
 * configuration, a rebalance that is not a dry run) need CAP_SYS_NICE as
 * well, the capability sched_setaffinity() asks of who changes another
 * user's task. TASK_ADD and TASK_DEL ask sched_setaffinity()'s question of
 * each task instead.
 *
 * The family is the layer above the domain (cube, tasks, balancing,
 * events): it calls into it, and hears of events through hcube.notify.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/threads.h>
#include <net/sock.h>
#include "hcube.h"
#include "hcube_errors.h"
#include "hcube_nl_gen.h"

#define HCUBE_NL_DRAIN	0x01	/* link pending new tasks before the doit */
#define HCUBE_NL_MOVES	0x02	/* moves registered tasks: CAP_SYS_NICE too */

/* A required attribute: the missing type in the ack, and a message. */
#define HCUBE_REQUIRE(info, attr, msg) ({			\
	struct genl_info *__hc_info = (info);			\
	bool __missing = GENL_REQ_ATTR_CHECK(__hc_info, attr);	\
								\
	if (__missing)						\
		NL_SET_ERR_MSG(__hc_info->extack, msg);		\
	__missing;						\
})

/* Attached to errors: the valid vertex ids of a cube of each dimension. */
static const struct nla_policy hcube_vertex_range[HCUBE_MAX_DIM + 1] = {
	NLA_POLICY_MAX(NLA_U32, 0), NLA_POLICY_MAX(NLA_U32, 1),
	NLA_POLICY_MAX(NLA_U32, 3), NLA_POLICY_MAX(NLA_U32, 7),
	NLA_POLICY_MAX(NLA_U32, 15), NLA_POLICY_MAX(NLA_U32, 31),
	NLA_POLICY_MAX(NLA_U32, 63), NLA_POLICY_MAX(NLA_U32, 127),
	NLA_POLICY_MAX(NLA_U32, 255), NLA_POLICY_MAX(NLA_U32, 511),
	NLA_POLICY_MAX(NLA_U32, 1023),
};

/*
 * The refusal of a policy that plans only on a fault-free cube, such as
 * "HCUBE_R_A_POLICY: cwa needs a fault-free cube (every vertex healthy);
 * use mcwa": written at init from the core's table, since an extack
 * message is not copied.
 */
static char hcube_fault_free_msg[__HCUBE_POLICY_MAX][128] __ro_after_init;

static void __init hcube_fault_free_msgs(void)
{
	u32 i;

	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		const struct hcube_policy_ops *ops = hcube_policy_lookup(i);

		if (ops->flags & HCUBE_POLICY_F_FAULT_FREE)
			snprintf(hcube_fault_free_msg[i], sizeof(hcube_fault_free_msg[i]),
				 HCUBE_ERR_POLICY_FAULT_FREE_FMT,
				 ops->name, hcube_policy_lookup(ops->fallback)->name);
	}
}

/* NL_SET_ERR_MSG_ATTR() for a message that is not a literal. */
static void hcube_set_err_msg(struct netlink_ext_ack *extack,
			      const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	do_trace_netlink_extack(msg);
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static const struct genl_multicast_group hcube_mcgrps[] = {
	{ .name = HCUBE_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
};

static struct genl_family hcube_genl_family;
static struct hcube *hcube_nl_hc __ro_after_init;

/*
 * Messages. Every message the family sends but TASK_ADD's reply is one
 * entry of a table of struct hcube_nl_msg_ops, in the manner of ethtool's
 * ethnl_request_ops: the generic doit, dumpit and notify below take what
 * they need (prepare), size the message, fill it and, for a dump or an
 * event of several messages, walk the objects (next). A new GET command
 * or event is a fill function and an entry in hcube_nl_requests[] or
 * hcube_nl_events[].
 */
struct hcube_nl_data {
	struct pid_namespace *ns;	/* the reader's; NULL (events): the initial one */
	bool admin;			/* the reader has CAP_NET_ADMIN */
	unsigned long pos;		/* the vertex, task id or cluster at hand */
	struct hcube_task *task;	/* TASK_GET: the task at pos */
	const struct hcube_report *report;	/* REBALANCE, REBALANCE_NTF */
	const struct hcube_ntf *ntf;	/* an event */
};

struct hcube_nl_msg_ops {
	/* Read the request (@info; NULL in a dump), under hcube.lock. Optional. */
	int (*prepare)(struct hcube *hc, struct hcube_nl_data *d,
		       struct genl_info *info);
	/* Room for the message; NLMSG_GOODSIZE when NULL. */
	size_t (*size)(struct hcube *hc, const struct hcube_nl_data *d);
	int (*fill)(struct sk_buff *skb, struct hcube *hc,
		    const struct hcube_nl_data *d);
	/*
	 * Dumps and events of several messages: move d->pos to the next
	 * object at or after it, false past the last.
	 */
	bool (*next)(struct hcube *hc, struct hcube_nl_data *d);
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

static int hcube_fill_cube(struct sk_buff *skb, struct hcube *hc,
			   const struct hcube_nl_data *d)
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

static int hcube_fill_vertex(struct sk_buff *skb, struct hcube *hc,
			     const struct hcube_nl_data *d)
{
	struct cpumask *tmp = hc->scratch;	/* under hcube.lock */
	u32 i = d->pos;
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
	cpumask_and(tmp, v->cpus, hc->isolated);
	if (hcube_put_cpulist(skb, HCUBE_V_A_ISOLATED_CPUS, tmp))
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

static u32 hcube_pid_in(struct pid *pid, struct pid_namespace *ns)
{
	return ns ? pid_nr_ns(pid, ns) : pid_nr(pid);
}

/*
 * A task nest. @ns: the reader's pid namespace, NULL for the initial one;
 * @state: what to show (a listing reads it now, hcube_task_state(); an
 * event the record's), but for the reasons that have their own.
 */
static int hcube_fill_task(struct sk_buff *skb, int type, struct hcube *hc,
			   struct hcube_task *t, struct pid_namespace *ns, u32 reason,
			   u32 state)
{
	bool exited = reason == HCUBE_REASON_EXITED;
	struct task_struct *p = t->task;
	struct nlattr *nest = nla_nest_start(skb, type);
	char comm[TASK_COMM_LEN];
	u32 pid;

	if (!nest)
		return -EMSGSIZE;
	if (exited)
		state = HCUBE_TASK_EXITED;
	else if (reason == HCUBE_REASON_REMOVED || reason == HCUBE_REASON_REVOKED)
		state = HCUBE_TASK_REMOVED;
	pid = exited && t->exit_pid ? hcube_pid_in(t->exit_pid, ns) :
	      ns ? task_pid_nr_ns(p, ns) : task_pid_nr(p);
	get_task_comm(comm, p);
	if (nla_put_u32(skb, HCUBE_T_A_PID, pid) ||
	    nla_put_u32(skb, HCUBE_T_A_VERTEX, t->vertex) ||
	    nla_put_u32(skb, HCUBE_T_A_STATE, state) ||
	    hcube_put_cpulist(skb, HCUBE_T_A_ORIG_CPUS, hcube_task_orig(t)) ||
	    (reason && nla_put_u32(skb, HCUBE_T_A_REASON, reason)) ||
	    nla_put_u32(skb, HCUBE_T_A_ORIGIN, t->origin) ||
	    nla_put_u32(skb, HCUBE_T_A_UNIT, t->unit) ||
	    (t->creator && hcube_pid_in(t->creator, ns) &&
	     nla_put_u32(skb, HCUBE_T_A_CREATOR, hcube_pid_in(t->creator, ns))) ||
	    nla_put_string(skb, HCUBE_T_A_COMM, comm))
		goto cancel;
	if (!exited && pid_alive(p) &&
	    (nla_put_u32(skb, HCUBE_T_A_TGID,
			 ns ? task_tgid_nr_ns(p, ns) : task_tgid_nr(p)) ||
	     hcube_put_cpulist(skb, HCUBE_T_A_CPUS, &p->cpus_mask)))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int hcube_fill_report_task(struct sk_buff *skb, int type,
				  const struct hcube_report_task *rt,
				  struct pid_namespace *ns)
{
	struct nlattr *nest;

	if (ns && !pid_nr_ns(rt->spid, ns))
		return 0;	/* no pid in the reader's namespace: left out */
	nest = nla_nest_start(skb, type);
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

static size_t hcube_report_size(struct hcube *hc, const struct hcube_nl_data *d)
{
	const struct hcube_report *r = d->report;
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
			     const struct hcube_nl_data *d)
{
	const struct hcube_report *r = d->report;
	struct pid_namespace *ns = d->ns;
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
		u32 flags = hcube_policy_lookup(p->applied)->flags;

		if (nla_put(skb, HCUBE_R_A_LOADS_PLAN, vbytes, r->planned) ||
		    nla_put_u32(skb, HCUBE_R_A_NTRANSFERS, p->ntransfers) ||
		    nla_put_u32(skb, HCUBE_R_A_STEPS, p->nsteps) ||
		    nla_put_u32(skb, HCUBE_R_A_COMM_STEPS, p->stats.comm_steps) ||
		    nla_put_u64_64bit(skb, HCUBE_R_A_MIGRATIONS, p->stats.migrations,
				      HCUBE_R_A_PAD) ||
		    nla_put_u32(skb, HCUBE_R_A_APPLIED, p->applied) ||
		    nla_put_u32(skb, HCUBE_R_A_MESSAGES, p->stats.messages) ||
		    nla_put_u32(skb, HCUBE_R_A_IMBALANCE, p->stats.imbalance) ||
		    ((flags & HCUBE_POLICY_F_CONTENTION) &&
		     nla_put_u32(skb, HCUBE_R_A_CONTENDED, p->stats.contended)) ||
		    hcube_put_transfers(skb, p))
			return -EMSGSIZE;
		/* the balancing subcube and trees of the plans that use them */
		if ((flags & HCUBE_POLICY_F_TREES) && hc->topo_valid &&
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

static int hcube_fill_stats(struct sk_buff *skb, struct hcube *hc,
			    const struct hcube_nl_data *d)
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
	    nla_put_u64_64bit(skb, HCUBE_S_A_TASKS, hc->ntasks, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_ADOPTED, c->adopted, HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_REFUSED, atomic64_read(&hc->refused),
			      HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_RELEASED, atomic64_read(&hc->released),
			      HCUBE_S_A_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_S_A_EVENTS_LOST,
			      atomic64_read(&hc->events_lost), HCUBE_S_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int hcube_fill_config(struct sk_buff *skb, struct hcube *hc,
			     const struct hcube_nl_data *d)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_CONFIG);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_C_A_POLICY, hc->cfg.policy) ||
	    nla_put_u8(skb, HCUBE_C_A_AUTO, hc->cfg.autob) ||
	    nla_put_u32(skb, HCUBE_C_A_THRESHOLD, hc->cfg.threshold) ||
	    nla_put_u32(skb, HCUBE_C_A_COOLDOWN_MS, hc->cfg.cooldown_ms) ||
	    nla_put_u32(skb, HCUBE_C_A_MAX_TASKS, hc->max_tasks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * A refused new task's nest (max_tasks): it runs with its creator's
 * original affinity.
 */
static int hcube_fill_refused(struct sk_buff *skb, struct task_struct *p,
			      struct task_struct *creator)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_TASK);
	char comm[TASK_COMM_LEN];

	if (!nest)
		return -EMSGSIZE;
	get_task_comm(comm, p);
	if (nla_put_u32(skb, HCUBE_T_A_PID, task_pid_nr(p)) ||
	    nla_put_u32(skb, HCUBE_T_A_TGID, task_tgid_nr(p)) ||
	    nla_put_string(skb, HCUBE_T_A_COMM, comm) ||
	    nla_put_u32(skb, HCUBE_T_A_REASON, HCUBE_REASON_REFUSED) ||
	    nla_put_u32(skb, HCUBE_T_A_ORIGIN, same_thread_group(p, creator ?: p) &&
			creator ? HCUBE_REASON_THREAD : HCUBE_REASON_FORK) ||
	    (creator && nla_put_u32(skb, HCUBE_T_A_CREATOR, task_pid_nr(creator))) ||
	    hcube_put_cpulist(skb, HCUBE_T_A_CPUS, &p->cpus_mask)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static const struct hcube_nl_msg_ops hcube_cube_msg = {
	.fill = hcube_fill_cube,
};

/* A vertex id: within the cube, else an error naming the current range. */
static int hcube_get_vertex(struct hcube *hc, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[HCUBE_A_VERTEX_ID];
	u32 v = nla_get_u32(a);

	if (v >= hc->nv) {
		NL_SET_ERR_MSG_ATTR_POL(info->extack, a, &hcube_vertex_range[hc->dim],
					HCUBE_ERR_VERTEX_RANGE);
		return -ERANGE;
	}
	return v;
}

static int hcube_vertex_prepare(struct hcube *hc, struct hcube_nl_data *d,
				struct genl_info *info)
{
	int v;

	if (!info)
		return 0;
	if (HCUBE_REQUIRE(info, HCUBE_A_VERTEX_ID, HCUBE_ERR_VERTEX_REQUIRED))
		return -EINVAL;
	v = hcube_get_vertex(hc, info);
	if (v < 0)
		return v;
	d->pos = v;
	return 0;
}

static bool hcube_vertex_next(struct hcube *hc, struct hcube_nl_data *d)
{
	return d->pos < hc->nv;
}

static const struct hcube_nl_msg_ops hcube_vertex_msg = {
	.prepare = hcube_vertex_prepare,
	.fill = hcube_fill_vertex,
	.next = hcube_vertex_next,
};

static const struct hcube_nl_msg_ops hcube_stats_msg = {
	.fill = hcube_fill_stats,
};

static const struct hcube_nl_msg_ops hcube_config_msg = {
	.fill = hcube_fill_config,
};

/* REBALANCE's reply and REBALANCE_NTF. */
static const struct hcube_nl_msg_ops hcube_report_msg = {
	.size = hcube_report_size,
	.fill = hcube_fill_report,
};

static int hcube_fault_ntf_fill(struct sk_buff *skb, struct hcube *hc,
				const struct hcube_nl_data *d)
{
	const struct hcube_ntf *n = d->ntf;

	if ((n->cpu >= 0 && nla_put_u32(skb, HCUBE_A_CPU, n->cpu)) ||
	    nla_put_u32(skb, HCUBE_A_VERTEX_ID, n->vertex) ||
	    nla_put_u32(skb, HCUBE_A_EVENT, n->event) ||
	    nla_put_u32(skb, HCUBE_A_STATE, hc->v[n->vertex].state) ||
	    nla_put_u32(skb, HCUBE_A_REASON, n->reason))
		return -EMSGSIZE;
	return hcube_fill_cube(skb, hc, d);
}

static const struct hcube_nl_msg_ops hcube_fault_ntf_msg = {
	.fill = hcube_fault_ntf_fill,
};

static int hcube_topo_ntf_fill(struct sk_buff *skb, struct hcube *hc,
			       const struct hcube_nl_data *d)
{
	if (hcube_fill_cube(skb, hc, d) ||
	    nla_put_u32(skb, HCUBE_A_REASON, d->ntf->reason))
		return -EMSGSIZE;
	return 0;
}

static const struct hcube_nl_msg_ops hcube_topo_ntf_msg = {
	.fill = hcube_topo_ntf_fill,
};

/* One CONTROLLER_NTF per cluster whose controller the last refresh changed. */
static bool hcube_controller_next(struct hcube *hc, struct hcube_nl_data *d)
{
	for (; d->pos < hc->nclusters; d->pos++)
		if (hc->m.ctrl_prev[d->pos] != hc->m.ctrl[d->pos])
			return true;
	return false;
}

static int hcube_controller_ntf_fill(struct sk_buff *skb, struct hcube *hc,
				     const struct hcube_nl_data *d)
{
	u16 old = hc->m.ctrl_prev[d->pos], now = hc->m.ctrl[d->pos];

	if (nla_put_u32(skb, HCUBE_A_CLUSTER, d->pos) ||
	    nla_put_u32(skb, HCUBE_A_CLUSTER_DIM, hc->cdim) ||
	    (old != HCUBE_VERTEX_NONE &&
	     nla_put_u32(skb, HCUBE_A_CONTROLLER_OLD, old)) ||
	    (now != HCUBE_VERTEX_NONE &&
	     nla_put_u32(skb, HCUBE_A_CONTROLLER_NEW, now)) ||
	    nla_put_u32(skb, HCUBE_A_REASON, d->ntf->reason) ||
	    nla_put_u32(skb, HCUBE_A_GENERATION, hc->generation))
		return -EMSGSIZE;
	return 0;
}

static const struct hcube_nl_msg_ops hcube_controller_ntf_msg = {
	.fill = hcube_controller_ntf_fill,
	.next = hcube_controller_next,
};

/* A task's event, or a new task's refusal (no record). */
static int hcube_task_ntf_fill(struct sk_buff *skb, struct hcube *hc,
			       const struct hcube_nl_data *d)
{
	const struct hcube_ntf *n = d->ntf;

	if (!n->task)
		return hcube_fill_refused(skb, n->p, n->creator);
	return hcube_fill_task(skb, HCUBE_A_TASK, hc, n->task, NULL, n->reason,
			       n->task->state);
}

static const struct hcube_nl_msg_ops hcube_task_ntf_msg = {
	.fill = hcube_task_ntf_fill,
};

/* The GET commands that hcube_nl_get_doit() and _dumpit() answer. */
static const struct hcube_nl_msg_ops *const hcube_nl_requests[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_CUBE_GET] = &hcube_cube_msg,
	[HCUBE_CMD_VERTEX_GET] = &hcube_vertex_msg,
	[HCUBE_CMD_STATS_GET] = &hcube_stats_msg,
	[HCUBE_CMD_CONFIG_GET] = &hcube_config_msg,
};

/* The events that hcube_nl_notify() sends. */
static const struct hcube_nl_msg_ops *const hcube_nl_events[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_FAULT_NTF] = &hcube_fault_ntf_msg,
	[HCUBE_CMD_TOPO_NTF] = &hcube_topo_ntf_msg,
	[HCUBE_CMD_TASK_NTF] = &hcube_task_ntf_msg,
	[HCUBE_CMD_REBALANCE_NTF] = &hcube_report_msg,
	[HCUBE_CMD_CONTROLLER_NTF] = &hcube_controller_ntf_msg,
};

static size_t hcube_nl_size(struct hcube *hc, const struct hcube_nl_msg_ops *ops,
			    const struct hcube_nl_data *d)
{
	return ops->size ? ops->size(hc, d) : NLMSG_GOODSIZE;
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

/* Answer @info with one message of @ops. */
static int hcube_nl_reply(struct hcube *hc, struct genl_info *info,
			  const struct hcube_nl_msg_ops *ops,
			  const struct hcube_nl_data *d)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = hcube_reply_new(info, hcube_nl_size(hc, ops, d), &hdr);
	if (!msg)
		return -ENOMEM;
	err = ops->fill(msg, hc, d);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return hcube_reply(msg, hdr, info);
}

/* The doit of every GET command; pre_doit took hcube.lock. */
static int hcube_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct hcube_nl_msg_ops *ops = hcube_nl_requests[info->genlhdr->cmd];
	struct hcube_nl_data d = {
		.ns = task_active_pid_ns(current),
		.admin = netlink_capable(skb, CAP_NET_ADMIN),
	};
	struct hcube *hc = hcube_nl_hc;
	int err;

	err = ops->prepare ? ops->prepare(hc, &d, info) : 0;
	if (err)
		return err;
	return hcube_nl_reply(hc, info, ops, &d);
}

/* The dumpit of every GET command: from cb->args[0] on, as far as fits. */
static int hcube_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	u8 cmd = genl_dumpit_info(cb)->op.cmd;
	const struct hcube_nl_msg_ops *ops = hcube_nl_requests[cmd];
	struct hcube_nl_data d = {
		.ns = task_active_pid_ns(current),
		.admin = netlink_capable(cb->skb, CAP_NET_ADMIN),
		.pos = cb->args[0],
	};
	struct hcube *hc = hcube_nl_hc;
	int err;

	hcube_lock(hc);
	err = ops->prepare ? ops->prepare(hc, &d, NULL) : 0;
	while (!err && ops->next(hc, &d)) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &hcube_genl_family,
					NLM_F_MULTI, cmd);

		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (ops->fill(skb, hc, &d)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		d.pos++;
	}
	hcube_unlock(hc);
	/* Resume at the object that did not fit, or past the last. */
	cb->args[0] = d.pos;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

/*
 * Is @t one the reader may see? All of them for CAP_NET_ADMIN, else those
 * running with the reader's effective uid; with pids of the reader's pid
 * namespace, and none a pid there does not name. Under RCU.
 */
static bool hcube_task_visible(struct hcube_task *t, struct pid_namespace *ns,
			       bool admin, const struct cred *cred)
{
	return task_pid_nr_ns(t->task, ns) &&
	       (admin || hcube_same_euid(cred, t->task));
}

/* The next record at or after *pos that the reader may see, referenced. */
static struct hcube_task *hcube_task_next(struct hcube *hc, unsigned long *pos,
					  struct pid_namespace *ns, bool admin)
{
	const struct cred *cred = current_cred();
	struct hcube_task *t;
	u32 looked = 0;

	for (;;) {
		rcu_read_lock();
		for (t = xa_find(&hc->tasks, pos, ULONG_MAX, XA_PRESENT);
		     t && looked < 256;
		     t = xa_find_after(&hc->tasks, pos, ULONG_MAX, XA_PRESENT), looked++)
			if (hcube_task_visible(t, ns, admin, cred) &&
			    refcount_inc_not_zero(&t->ref))
				break;
		rcu_read_unlock();
		if (!t || looked < 256)
			return t;
		/* a long stretch of others' tasks: let others run */
		looked = 0;
		cond_resched();
	}
}

/*
 * TASK_GET's dump takes no hcube.lock: the records are found under RCU and
 * each is held by a reference while its nest is filled, so a reader who
 * sees few of many tasks delays no rebalance.
 */
static int hcube_task_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	bool admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	struct hcube *hc = hcube_nl_hc;
	unsigned long pos = cb->args[0];
	size_t size = max_t(size_t, PAGE_SIZE, 6 * nr_cpu_ids + 2);
	struct hcube_task *t;
	char *buf;
	int err = 0;

	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while ((t = hcube_task_next(hc, &pos, ns, admin))) {
		void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, &hcube_genl_family,
					NLM_F_MULTI, HCUBE_CMD_TASK_GET);

		if (!hdr ||
		    hcube_fill_task(skb, HCUBE_A_TASK, hc, t, ns, 0,
				    hcube_task_state(hc, t, buf, size))) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			hcube_task_put(t);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		hcube_task_put(t);
		pos++;
	}
	kvfree(buf);
	/* Resume at the task that did not fit, or past the last. */
	cb->args[0] = pos;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

/* Events, on the "events" group. */

static bool hcube_listening(struct hcube *hc)
{
	return !READ_ONCE(hc->stopping) &&
	       genl_has_listeners(&hcube_genl_family, &init_net, 0);
}

static int hcube_nl_multicast(struct hcube *hc, u8 cmd,
			      const struct hcube_nl_msg_ops *ops,
			      const struct hcube_nl_data *d)
{
	struct sk_buff *skb = genlmsg_new(hcube_nl_size(hc, ops, d), GFP_KERNEL);
	void *hdr;

	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, 0, 0, &hcube_genl_family, 0, cmd);
	if (!hdr || ops->fill(skb, hc, d)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&hcube_genl_family, skb, 0, 0, GFP_KERNEL);
	return 0;
}

/* hcube.notify: an event of the domain code, as one message or several. */
static void hcube_nl_notify(struct hcube *hc, u8 cmd, const struct hcube_ntf *ntf)
{
	const struct hcube_nl_msg_ops *ops;
	struct hcube_nl_data d = { .ntf = ntf, .report = ntf->report };

	ops = cmd < ARRAY_SIZE(hcube_nl_events) ? hcube_nl_events[cmd] : NULL;
	if (WARN_ON_ONCE(!ops) || !hcube_listening(hc))
		return;
	if (!ops->next) {
		hcube_nl_multicast(hc, cmd, ops, &d);
		return;
	}
	for (; ops->next(hc, &d); d.pos++)
		if (hcube_nl_multicast(hc, cmd, ops, &d))
			return;
}

/* Ops. pre_doit takes hcube.lock for every doit. */

/*
 * Before a command that changes or moves things: a hotplug change the
 * worker has not applied yet, then the tasks that are pending. Locked.
 */
static void hcube_nl_catch_up(struct hcube *hc)
{
	if (READ_ONCE(hc->hp_pending) && !hc->stopping)
		hcube_hotplug_apply(hc);
	hcube_events_drain(hc);
}

static int hcube_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	struct hcube *hc = hcube_nl_hc;

	if ((ops->internal_flags & HCUBE_NL_MOVES) &&
	    !netlink_capable(skb, CAP_SYS_NICE)) {
		NL_SET_ERR_MSG(info->extack, HCUBE_ERR_SYS_NICE);
		return -EPERM;
	}
	/*
	 * A command that changes or moves things waits for a CPU hotplug
	 * operation in progress to end (it holds nothing meanwhile), so that
	 * it plans on the CPUs as they will be. One that starts later races
	 * with it: the moves it defeats are reported as failures.
	 */
	if (ops->internal_flags & HCUBE_NL_DRAIN) {
		cpus_read_lock();
		cpus_read_unlock();
	}
	hcube_lock(hc);
	if (ops->internal_flags & HCUBE_NL_DRAIN)
		hcube_nl_catch_up(hc);
	return 0;
}

/* A command that changed loads, vertices or settings may make the trigger due. */
static void hcube_post_doit(const struct genl_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	if (ops->flags & GENL_ADMIN_PERM)
		hcube_auto_schedule(hcube_nl_hc);
	hcube_unlock(hcube_nl_hc);
}

static int hcube_topo_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube *hc = hcube_nl_hc;
	cpumask_var_t *groups, all;
	const struct nlattr *a;
	u32 m, ng = 0;
	int rem, err;

	if (HCUBE_REQUIRE(info, HCUBE_A_MODE, HCUBE_ERR_MODE_REQUIRED))
		return -EINVAL;
	m = nla_get_u32(info->attrs[HCUBE_A_MODE]);
	if (m != HCUBE_MODE_CUSTOM && info->attrs[HCUBE_A_GROUP]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_GROUP],
				    HCUBE_ERR_GROUP_NOT_CUSTOM);
		return -EINVAL;
	}
	if (m == HCUBE_MODE_CUSTOM &&
	    HCUBE_REQUIRE(info, HCUBE_A_GROUP, HCUBE_ERR_GROUP_REQUIRED))
		return -EINVAL;
	if (hc->ntasks) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_MODE], HCUBE_ERR_MODE_TASKS);
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
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_TOO_MANY);
			err = -E2BIG;
			break;
		}
		if (cpulist_parse(nla_data(a), groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_CPULIST);
			err = -EINVAL;
			break;
		}
		if (cpumask_empty(groups[ng])) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_EMPTY);
			err = -EINVAL;
			break;
		}
		if (!cpumask_subset(groups[ng], cpu_present_mask)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_ABSENT);
			err = -EINVAL;
			break;
		}
		if (cpumask_intersects(groups[ng], all)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_GROUP_OVERLAP);
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
		hcube_notify(hc, HCUBE_CMD_TOPO_NTF, &(struct hcube_ntf){
			.reason = HCUBE_REASON_ADMIN });
	return err;
}

static int hcube_fault_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *acpu = info->attrs[HCUBE_A_CPU];
	struct nlattr *avx = info->attrs[HCUBE_A_VERTEX_ID];
	bool add = info->genlhdr->cmd == HCUBE_CMD_FAULT_ADD;
	struct hcube *hc = hcube_nl_hc;
	int cpu = -1, v = -1;

	if (!acpu && !avx) {
		NL_SET_ERR_MSG(info->extack, HCUBE_ERR_CPU_OR_VERTEX);
		return -EINVAL;
	}
	if (acpu && avx) {
		NL_SET_ERR_MSG_ATTR(info->extack, avx, HCUBE_ERR_CPU_AND_VERTEX);
		return -EINVAL;
	}
	if (acpu) {
		u32 c = nla_get_u32(acpu);

		if (!cpu_present(c)) {
			NL_SET_ERR_MSG_ATTR(info->extack, acpu, HCUBE_ERR_CPU_ABSENT);
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

/*
 * The tasks a TASK_ADD or TASK_DEL names: every HCUBE_A_PID (in the
 * caller's pid namespace) with HCUBE_A_UNIT, into @s; @pa gets each pid's
 * attribute, by the index the set's entries carry.
 */
static int hcube_nl_taskset(struct hcube_taskset *s, struct genl_info *info,
			    const struct nlattr ***pa)
{
	struct nlattr *aunit = info->attrs[HCUBE_A_UNIT];
	const struct nlattr *a;
	u32 n = 0;
	int rem, err;

	s->unit = aunit ? nla_get_u32(aunit) : HCUBE_UNIT_JOB;
	if (s->unit == HCUBE_UNIT_THREAD && info->attrs[HCUBE_A_THREADS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_THREADS],
				    HCUBE_ERR_THREADS_UNIT);
		return -EINVAL;
	}
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		n += nla_type(a) == HCUBE_A_PID;
	*pa = kvcalloc(n, sizeof(**pa), GFP_KERNEL);
	if (!*pa)
		return -ENOMEM;
	n = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != HCUBE_A_PID)
			continue;
		(*pa)[n] = a;
		err = hcube_taskset_add_nr(s, nla_get_u32(a), n);
		if (err == -ESRCH)
			NL_SET_ERR_MSG_ATTR(info->extack, a, HCUBE_ERR_PID_NONE);
		if (err)
			return err;
		n++;
	}
	return hcube_taskset_expand(s);
}

/* The request's sender and its socket's opener. */
static void hcube_caller_of(struct hcube_caller *who, struct sk_buff *skb)
{
	struct sock *sk = NETLINK_CB(skb).sk;

	who->cred = current_cred();
	who->file = sk && sk->sk_socket ? sk->sk_socket->file : NULL;
}

/* The message of a refusal of the task set's entry that came from @a. */
static void hcube_check_msg(struct netlink_ext_ack *extack,
			    const struct nlattr *a, int err)
{
	switch (err) {
	case -EINVAL:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_KTHREAD);
		break;
	case -ESRCH:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_EXITING);
		break;
	case -EPERM:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_NO_SETAFFINITY);
		break;
	case -EXDEV:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_CPUSET);
		break;
	case -EEXIST:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_REGISTERED);
		break;
	case -ENOTUNIQ:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_TWICE);
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_MAX_TASKS);
		break;
	case -EACCES:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_PERM);
		break;
	case -EBUSY:
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_DEADLINE);
		break;
	case -ENOENT:
		/* for a job or a tree: nor any thread of its process */
		NL_SET_ERR_MSG_ATTR(extack, a, HCUBE_ERR_PID_UNREGISTERED);
		break;
	}
}

/* The errno a caller sees for an internal refusal code. */
static int hcube_check_errno(int err)
{
	if (err == -ENOTUNIQ)
		return -EEXIST;
	return err == -EACCES ? -EPERM : err;
}

/* Task nests a TASK_ADD reply lists: named tasks, then refused ones. */
#define HCUBE_ADD_LISTED	64

/*
 * Room for a TASK_ADD reply: its counts and HCUBE_ADD_LISTED nests of each
 * kind, each with two cpulists of any mask. Bounded: what does not fit is
 * left out of the list (the counts stay), never an error.
 */
static size_t hcube_task_add_size(void)
{
	size_t nest = 256 + 2 * nla_total_size(3 * nr_cpu_ids + 16);

	return min_t(size_t, NLMSG_GOODSIZE + 2 * HCUBE_ADD_LISTED * nest, SZ_256K);
}

/* The reply's nests: each named task, then the first refused ones. */
static void hcube_task_add_fill(struct sk_buff *msg, struct hcube *hc,
				const struct hcube_taskset *s,
				const struct hcube_added *a,
				struct pid_namespace *ns)
{
	u32 i, named = 0, refused = 0;

	for (i = 0; i < s->n && named < HCUBE_ADD_LISTED; i++) {
		if (!s->named[i] || IS_ERR_OR_NULL(a->out[i]))
			continue;
		if (hcube_fill_task(msg, HCUBE_A_TASK, hc, a->out[i], ns, 0,
				    a->out[i]->state))
			return;
		named++;
	}
	for (i = 0; i < s->n && refused < HCUBE_ADD_LISTED; i++) {
		struct nlattr *nest;
		u32 pid;

		if (!IS_ERR(a->out[i]) || !s->task[i])
			continue;
		pid = task_pid_nr_ns(s->task[i], ns);
		if (!pid)
			continue;	/* gone meanwhile: nothing to name */
		nest = nla_nest_start(msg, HCUBE_A_TASK);
		if (!nest || nla_put_u32(msg, HCUBE_T_A_PID, pid) ||
		    nla_put_s32(msg, HCUBE_T_A_ERROR,
				hcube_check_errno(PTR_ERR(a->out[i])))) {
			if (nest)
				nla_nest_cancel(msg, nest);
			return;
		}
		nla_nest_end(msg, nest);
		refused++;
	}
}

static int hcube_task_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct hcube_taskset s = {};
	const struct nlattr **pa = NULL;
	struct hcube_added a = {};
	struct hcube *hc = hcube_nl_hc;
	struct sk_buff *msg = NULL;
	struct hcube_caller who;
	int vertex = -1, err;
	void *hdr;
	u32 bad;

	hcube_caller_of(&who, skb);
	if (HCUBE_REQUIRE(info, HCUBE_A_PID, HCUBE_ERR_PID_REQUIRED))
		return -EINVAL;
	if (info->attrs[HCUBE_A_VERTEX_ID]) {
		vertex = hcube_get_vertex(hc, info);
		if (vertex < 0)
			return vertex;
		if (hc->v[vertex].state != HCUBE_VERTEX_HEALTHY) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_VERTEX_ID],
					    HCUBE_ERR_VERTEX_UNHEALTHY);
			return -EINVAL;
		}
	}
	err = hcube_nl_taskset(&s, info, &pa);
	if (err)
		goto out;
	/* The reply is made before anything changes: a refusal changes nothing. */
	err = -ENOMEM;
	a.cap = s.n;
	a.out = kvcalloc(s.n, sizeof(*a.out), GFP_KERNEL);
	if (!a.out)
		goto out;
	msg = hcube_reply_new(info, hcube_task_add_size(), &hdr);
	if (!msg)
		goto out;
	err = hcube_tasks_register(hc, &s, &who, vertex, &a, &bad);
	if (err) {
		hcube_check_msg(info->extack, pa[bad == U32_MAX ? 0 : s.src[bad]], err);
		err = hcube_check_errno(err);
		goto out;
	}
	/* the counts fit in any reply (sized above); the nests as far as they do */
	if (nla_put_u32(msg, HCUBE_A_NREGISTERED, a.registered) ||
	    nla_put_u32(msg, HCUBE_A_NEXITED, a.exited) ||
	    nla_put_u32(msg, HCUBE_A_NREFUSED, a.refused)) {
		err = -EMSGSIZE;
		goto out;
	}
	hcube_task_add_fill(msg, hc, &s, &a, ns);
	err = hcube_reply(msg, hdr, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	kvfree(a.out);
	kvfree(pa);
	hcube_taskset_free(&s);
	return err;
}

static int hcube_task_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct hcube_taskset s = {};
	const struct nlattr **pa = NULL;
	struct hcube *hc = hcube_nl_hc;
	struct hcube_caller who;
	int err;
	u32 bad;

	hcube_caller_of(&who, skb);
	if (info->attrs[HCUBE_A_ALL]) {
		if (info->attrs[HCUBE_A_PID] || info->attrs[HCUBE_A_THREADS] ||
		    info->attrs[HCUBE_A_UNIT]) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_ALL],
					    HCUBE_ERR_ALL_WITH_PID);
			return -EINVAL;
		}
		err = hcube_tasks_unregister_all(hc, &who);
		if (err)
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[HCUBE_A_ALL],
					    HCUBE_ERR_ALL_OTHERS);
		return hcube_check_errno(err);
	}
	if (HCUBE_REQUIRE(info, HCUBE_A_PID, HCUBE_ERR_PID_REQUIRED))
		return -EINVAL;
	err = hcube_nl_taskset(&s, info, &pa);
	if (!err) {
		err = hcube_tasks_unregister(hc, &s, &who, &bad);
		if (err)
			hcube_check_msg(info->extack, pa[s.src[bad]], err);
		err = hcube_check_errno(err);
	}
	kvfree(pa);
	hcube_taskset_free(&s);
	return err;
}

static int hcube_rebalance_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *apol = info->attrs[HCUBE_R_A_POLICY];
	bool dry_run = nla_get_flag(info->attrs[HCUBE_R_A_DRY_RUN]);
	struct hcube *hc = hcube_nl_hc;
	u32 policy = apol ? nla_get_u32(apol) : hc->cfg.policy;
	struct hcube_nl_data d = {
		.ns = task_active_pid_ns(current),
		.report = &hc->report,
	};
	int err;

	/* a dry run moves nothing, and changes nothing to plan */
	if (!dry_run && !netlink_capable(skb, CAP_SYS_NICE)) {
		NL_SET_ERR_MSG(info->extack, HCUBE_ERR_SYS_NICE);
		return -EPERM;
	}
	if (!dry_run)
		hcube_nl_catch_up(hc);
	if (hcube_policy_for(hc, policy) != policy) {
		hcube_set_err_msg(info->extack, apol, hcube_fault_free_msg[policy]);
		return -EINVAL;
	}
	hcube_report_reset(&hc->report, hc);
	err = hcube_rebalance(hc, policy, dry_run, HCUBE_REASON_ADMIN, info->extack);
	if (err)
		return err;
	return hcube_nl_reply(hc, info, &hcube_report_msg, &d);
}

static int hcube_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[HCUBE_C_A_MAX + 1];
	struct hcube *hc = hcube_nl_hc;
	int err;

	if (HCUBE_REQUIRE(info, HCUBE_A_CONFIG, HCUBE_ERR_CONFIG_REQUIRED))
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
		.doit = hcube_nl_get_doit,
	},
	{
		.cmd = HCUBE_CMD_VERTEX_GET,
		.doit = hcube_nl_get_doit,
		.dumpit = hcube_nl_get_dumpit,
		.policy = hcube_vertex_get_policy,
		.maxattr = ARRAY_SIZE(hcube_vertex_get_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TOPO_SET,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN | HCUBE_NL_MOVES,
		.doit = hcube_topo_set_doit,
		.policy = hcube_topo_set_policy,
		.maxattr = ARRAY_SIZE(hcube_topo_set_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN | HCUBE_NL_MOVES,
		.doit = hcube_fault_doit,
		.policy = hcube_fault_add_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_add_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN | HCUBE_NL_MOVES,
		.doit = hcube_fault_doit,
		.policy = hcube_fault_del_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_del_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN,
		.doit = hcube_task_add_doit,
		.policy = hcube_task_add_policy,
		.maxattr = ARRAY_SIZE(hcube_task_add_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN,
		.doit = hcube_task_del_doit,
		.policy = hcube_task_del_policy,
		.maxattr = ARRAY_SIZE(hcube_task_del_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_GET,
		.dumpit = hcube_task_dumpit,
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
		.doit = hcube_nl_get_doit,
	},
	{
		.cmd = HCUBE_CMD_CONFIG_GET,
		.doit = hcube_nl_get_doit,
	},
	{
		.cmd = HCUBE_CMD_CONFIG_SET,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_DRAIN | HCUBE_NL_MOVES,
		.doit = hcube_config_set_doit,
		.policy = hcube_config_set_policy,
		.maxattr = ARRAY_SIZE(hcube_config_set_policy) - 1,
	},
};

static struct genl_family hcube_genl_family __ro_after_init = {
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
	.parallel_ops = true,	/* hcube.lock, not the genetlink mutex */
};

int __init hcube_nl_init(struct hcube *hc)
{
	int err;

	hcube_cpu_ids.max = nr_cpu_ids - 1;
	hcube_fault_free_msgs();
	hcube_nl_hc = hc;
	err = genl_register_family(&hcube_genl_family);
	if (!err)
		WRITE_ONCE(hc->notify, hcube_nl_notify);
	return err;
}

void hcube_nl_exit(struct hcube *hc)
{
	WRITE_ONCE(hc->notify, NULL);
	genl_unregister_family(&hcube_genl_family);
}

