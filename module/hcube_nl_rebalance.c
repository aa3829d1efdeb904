// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: rebalances in the generic netlink family: REBALANCE (its reply,
 * a dry run's, and the dump of a plan's transfers) and REBALANCE_NTF.
 */
#include <linux/jhash.h>
#include <linux/pid_namespace.h>
#include "hcube_nl.h"

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
	if (nla_put_u32(skb, HCUBE_A_TASK_PID, ns ? pid_nr_ns(rt->spid, ns) : rt->pid) ||
	    nla_put_string(skb, HCUBE_A_TASK_COMM, rt->comm) ||
	    nla_put_u32(skb, HCUBE_A_TASK_VERTEX, rt->vertex) ||
	    (rt->error && nla_put_s32(skb, HCUBE_A_TASK_ERROR, rt->error))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The transfers a reply or an event carries. */
static u32 hcube_report_ntransfers(struct hcube *hc, const struct hcube_plan *p)
{
	return p ? min(p->ntransfers, hc->report_transfers) : 0;
}

/* A transfer: its nest and four u32. */
#define HCUBE_TRANSFER_SIZE	(nla_total_size(0) + 4 * nla_total_size(sizeof(u32)))

static size_t hcube_report_size(struct hcube *hc, const struct hcube_nl_data *d)
{
	const struct hcube_report *r = d->report;
	size_t n = NLMSG_GOODSIZE + 3 * nla_total_size(hc->nv * sizeof(u32));

	n += hcube_report_ntransfers(hc, r->plan) * HCUBE_TRANSFER_SIZE;
	return n + (r->nfailures + r->nchanged) * 128;
}

static int hcube_put_transfer(struct sk_buff *skb, const struct hcube_transfer *x)
{
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_REPORT_TRANSFER);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, HCUBE_A_TRANSFER_STEP, x->step) ||
	    nla_put_u32(skb, HCUBE_A_TRANSFER_FROM, x->from) ||
	    nla_put_u32(skb, HCUBE_A_TRANSFER_TO, x->to) ||
	    nla_put_u32(skb, HCUBE_A_TRANSFER_COUNT, x->count)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The plan's first transfers, one HCUBE_A_REPORT_TRANSFER nest each, in order:
 * report_transfers at most, and TRANSFERS_CUT when some are left out (a
 * dump has them all). A reply or an event stays bounded whatever the plan.
 */
static int hcube_put_transfers(struct sk_buff *skb, struct hcube *hc,
			       const struct hcube_plan *p)
{
	u32 i, n = hcube_report_ntransfers(hc, p);

	for (i = 0; i < n; i++)
		if (hcube_put_transfer(skb, &p->transfers[i]))
			return -EMSGSIZE;
	if (n < p->ntransfers && nla_put_flag(skb, HCUBE_A_REPORT_TRANSFERS_CUT))
		return -EMSGSIZE;
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

	if (nla_put_u32(skb, HCUBE_A_REPORT_POLICY, r->policy) ||
	    (r->dry_run && nla_put_flag(skb, HCUBE_A_REPORT_DRY_RUN)) ||
	    nla_put_u32(skb, HCUBE_A_REPORT_TRIGGER, r->trigger) ||
	    nla_put(skb, HCUBE_A_REPORT_LOADS_BEFORE, vbytes, r->before) ||
	    nla_put(skb, HCUBE_A_REPORT_LOADS_AFTER, vbytes, r->after) ||
	    nla_put_u32(skb, HCUBE_A_REPORT_MOVED, r->moved) ||
	    nla_put_u32(skb, HCUBE_A_REPORT_FAILED, r->failed) ||
	    nla_put_u32(skb, HCUBE_A_REPORT_EXITED, r->exited) ||
	    nla_put_u32(skb, HCUBE_A_REPORT_EVACUATED, r->evacuated) ||
	    nla_put_u64_64bit(skb, HCUBE_A_REPORT_DURATION_NS, r->duration_ns,
			      HCUBE_A_REPORT_PAD))
		return -EMSGSIZE;
	if (r->plan) {
		const struct hcube_plan *p = r->plan;
		u32 flags = hcube_policy_lookup(p->applied)->flags;

		if (nla_put(skb, HCUBE_A_REPORT_LOADS_PLAN, vbytes, r->planned) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_NTRANSFERS, p->ntransfers) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_STEPS, p->nsteps) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_COMM_STEPS, p->stats.comm_steps) ||
		    nla_put_u64_64bit(skb, HCUBE_A_REPORT_MIGRATIONS, p->stats.migrations,
				      HCUBE_A_REPORT_PAD) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_APPLIED, p->applied) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_MESSAGES, p->stats.messages) ||
		    nla_put_u32(skb, HCUBE_A_REPORT_IMBALANCE, p->stats.imbalance) ||
		    ((flags & HCUBE_POLICY_F_CONTENTION) &&
		     nla_put_u32(skb, HCUBE_A_REPORT_CONTENDED, p->stats.contended)) ||
		    (p->stopped_short && nla_put_flag(skb, HCUBE_A_REPORT_STOPPED_SHORT)) ||
		    hcube_put_transfers(skb, hc, p))
			return -EMSGSIZE;
		/* the balancing subcube and trees of the plans that use them */
		if ((flags & HCUBE_POLICY_F_TREES) && hc->topo_valid &&
		    (nla_put_string(skb, HCUBE_A_REPORT_CB_PATTERN,
				    hcube_pattern(pat, hc->dim, hc->topo.cb_base,
						  hc->topo.cb_mask)) ||
		     nla_put_u32(skb, HCUBE_A_REPORT_TREE_DEPTH, hc->topo.depth)))
			return -EMSGSIZE;
	}
	for (i = 0; i < r->nfailures; i++)
		if (hcube_fill_report_task(skb, HCUBE_A_REPORT_FAILURE, &r->failures[i], ns))
			return -EMSGSIZE;
	for (i = 0; i < r->nchanged; i++)
		if (hcube_fill_report_task(skb, HCUBE_A_REPORT_CHANGED, &r->changed[i], ns))
			return -EMSGSIZE;
	return 0;
}

/* REBALANCE's reply and REBALANCE_NTF. */
const struct hcube_nl_msg_ops hcube_nl_report_msg = {
	.size = hcube_report_size,
	.fill = hcube_fill_report,
};

/* A dry run: its report to the caller alone, then gone. */
static int hcube_nl_dry_run(struct hcube *hc, struct genl_info *info, u32 policy)
{
	struct hcube_nl_data d = { .ns = task_active_pid_ns(current) };
	struct hcube_dry_run *dr;
	int err;

	dr = hcube_dry_run(hc, policy, true, info->extack);
	if (IS_ERR(dr))
		return PTR_ERR(dr);
	d.report = &dr->report;
	err = hcube_nl_reply(hc, info, &hcube_nl_report_msg, &d);
	hcube_dry_run_free(dr);
	return err;
}

int hcube_nl_rebalance_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *apol = info->attrs[HCUBE_A_REPORT_POLICY];
	bool dry_run = nla_get_flag(info->attrs[HCUBE_A_REPORT_DRY_RUN]);
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
	if (dry_run) {
		err = hcube_nl_dry_run(hc, info, policy);
	} else {
		hcube_nl_catch_up(hc);
		hcube_report_reset(&hc->report, hc);
		err = hcube_rebalance(hc, policy, HCUBE_REASON_ADMIN, info->extack);
		if (!err)
			err = hcube_nl_reply(hc, info, &hcube_nl_report_msg, &d);
	}
	/* -EINVAL: the core refused the policy on this cube, before any change */
	if (err == -EINVAL)
		NL_SET_BAD_ATTR(info->extack, apol);
	return err;
}

/*
 * The plan a REBALANCE dump lists, and the sequence number that changes
 * with it: the last rebalance's (NULL: none since the cube changed), or a
 * dry run's made now, whose number sums up what it was made from.
 */
static const struct hcube_plan *hcube_dump_plan(struct hcube *hc,
						struct netlink_callback *cb,
						struct hcube_dry_run **dr)
{
	struct nlattr **attrs = hcube_dumpit_attrs(genl_dumpit_info(cb));
	struct nlattr *apol = attrs[HCUBE_A_REPORT_POLICY];
	u32 seq;

	*dr = NULL;
	if (!nla_get_flag(attrs[HCUBE_A_REPORT_DRY_RUN])) {
		cb->seq = hc->report_seq;
		return hc->report.plan;
	}
	*dr = hcube_dry_run(hc, apol ? nla_get_u32(apol) : hc->cfg.policy,
			    !cb->args[1], cb->extack);
	if (IS_ERR(*dr))
		return ERR_CAST(*dr);
	seq = jhash(hc->m.state, hc->nv, hc->generation);
	seq = jhash((*dr)->report.before, hc->nv * sizeof(u32), seq);
	cb->seq = seq ?: 1;
	return &(*dr)->plan;
}

/*
 * REBALANCE's dump: every transfer of a plan, as many a message as fit;
 * the first message also NTRANSFERS. cb->args[0]: the next transfer,
 * cb->args[1]: a message was sent. A plan that changes between messages
 * (another rebalance, loads that moved) flags the next one, or the end,
 * NLM_F_DUMP_INTR.
 */
int hcube_nl_rebalance_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct hcube *hc = hcube_nl_hc;
	const struct hcube_plan *p;
	struct hcube_dry_run *dr;
	u32 pos = cb->args[0];
	void *hdr;
	int ret;

	hcube_lock(hc);
	p = hcube_dump_plan(hc, cb, &dr);
	if (IS_ERR(p)) {
		ret = PTR_ERR(p);
		goto out;
	}
	if (!p && !cb->args[1]) {
		NL_SET_ERR_MSG(cb->extack, HCUBE_ERR_NO_PLAN);
		ret = -ENOENT;
		goto out;
	}
	ret = 0;
	if (!p || (cb->args[1] && pos >= p->ntransfers))
		goto out;	/* the end (flagged when the plan went meanwhile) */
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  hcube_nl_family, NLM_F_MULTI, HCUBE_CMD_REBALANCE);
	ret = -EMSGSIZE;
	if (!hdr)
		goto out;
	genl_dump_check_consistent(cb, hdr);
	if (!cb->args[1] && nla_put_u32(skb, HCUBE_A_REPORT_NTRANSFERS, p->ntransfers)) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	for (; pos < p->ntransfers; pos++)
		if (hcube_put_transfer(skb, &p->transfers[pos]))
			break;
	if (pos == cb->args[0] && cb->args[1]) {
		genlmsg_cancel(skb, hdr);	/* not even one fits a new message */
		goto out;
	}
	genlmsg_end(skb, hdr);
	cb->args[0] = pos;
	cb->args[1] = 1;
	ret = skb->len;
out:
	if (!IS_ERR_OR_NULL(dr))
		hcube_dry_run_free(dr);
	hcube_unlock(hc);
	return ret;
}
