// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the "hcube" generic netlink family: its registration, the checks
 * and the lock around every doit, and the events (hcube.notify). The
 * other files of the family are listed in hcube_nl.h.
 *
 * Every op has its own strict policy (an op without attributes gets the
 * core's reject-all policy). Ranges live in the policies, so a violation
 * comes back as -ERANGE with the policy in the extended ack; the CPU id
 * range is set at init from nr_cpu_ids. The vertex id range depends on the
 * cube and is checked in the handlers, which also answer -ERANGE and attach
 * a policy describing the current range. Every command that changes state
 * needs CAP_NET_ADMIN (GENL_ADMIN_PERM); those that move registered tasks
 * (faults, topology, configuration: HCUBE_NL_F_MOVES; a rebalance that is
 * not a dry run, in its doit) need CAP_SYS_NICE as well, the capability
 * sched_setaffinity() asks of who changes another user's task. TASK_ADD
 * and TASK_DEL ask sched_setaffinity()'s question of each task instead.
 *
 * The family is the layer above the domain (cube, tasks, balancing,
 * events): it calls into it, and hears of events through hcube.notify.
 */
#include <linux/cpu.h>
#include "hcube_nl.h"

static const struct genl_multicast_group hcube_mcgrps[] = {
	{ .name = HCUBE_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
};

/* The events that hcube_nl_notify() sends. */
static const struct hcube_nl_msg_ops *const hcube_nl_events[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_FAULT_NTF] = &hcube_nl_fault_ntf_msg,
	[HCUBE_CMD_TOPO_NTF] = &hcube_nl_topo_ntf_msg,
	[HCUBE_CMD_TASK_NTF] = &hcube_nl_task_ntf_msg,
	[HCUBE_CMD_REBALANCE_NTF] = &hcube_nl_report_msg,
	[HCUBE_CMD_CONTROLLER_NTF] = &hcube_nl_controller_ntf_msg,
};

static bool hcube_listening(struct hcube *hc)
{
	return !READ_ONCE(hc->stopping) &&
	       genl_has_listeners(hcube_nl_family, &init_net, 0);
}

static int hcube_nl_multicast(struct hcube *hc, u8 cmd,
			      const struct hcube_nl_msg_ops *ops,
			      const struct hcube_nl_data *d)
{
	struct sk_buff *skb = genlmsg_new(hcube_nl_size(hc, ops, d), GFP_KERNEL);
	void *hdr;

	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, 0, 0, hcube_nl_family, 0, cmd);
	if (!hdr || ops->fill(skb, hc, d)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(hcube_nl_family, skb, 0, 0, GFP_KERNEL);
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

static int hcube_pre_doit(const struct hcube_genl_doit_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	struct hcube *hc = hcube_nl_hc;

	if ((ops->internal_flags & HCUBE_NL_F_MOVES) &&
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
	if (ops->internal_flags & HCUBE_NL_F_DRAIN) {
		cpus_read_lock();
		cpus_read_unlock();
	}
	hcube_lock(hc);
	if (ops->internal_flags & HCUBE_NL_F_DRAIN)
		hcube_nl_catch_up(hc);
	return 0;
}

/*
 * A command that changed loads, vertices or settings may make the trigger
 * due; a dry run changed nothing.
 */
static void hcube_post_doit(const struct hcube_genl_doit_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	bool dry_run = ops->cmd == HCUBE_CMD_REBALANCE &&
		       info->attrs[HCUBE_A_REPORT_DRY_RUN];

	if ((ops->flags & GENL_ADMIN_PERM) && !dry_run)
		hcube_auto_schedule(hcube_nl_hc);
	hcube_unlock(hcube_nl_hc);
}

static struct genl_family hcube_genl_family __ro_after_init = {
	.name = HCUBE_FAMILY_NAME,
	.version = HCUBE_FAMILY_VERSION,
	.module = THIS_MODULE,
	.ops = hcube_nl_ops,
	.n_ops = ARRAY_SIZE(hcube_nl_ops),
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
	hcube_nl_hc = hc;
	hcube_nl_family = &hcube_genl_family;
	err = genl_register_family(&hcube_genl_family);
	if (!err) {
		down_write(&hc->notify_sem);
		hc->notify = hcube_nl_notify;
		up_write(&hc->notify_sem);
	}
	return err;
}

/*
 * Events come from paths the unload stops only later (a birth refused in
 * its child's context, the worker): none is sent once notify_sem's writer
 * has cleared hc->notify, and those in flight end before it has it, so
 * the family goes with no event on its way.
 */
void hcube_nl_exit(struct hcube *hc)
{
	down_write(&hc->notify_sem);
	hc->notify = NULL;
	up_write(&hc->notify_sem);
	genl_unregister_family(&hcube_genl_family);
}
