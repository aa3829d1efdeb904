// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: STATS_GET in the generic netlink family: the module's counters.
 */
#include "hcube_nl.h"

static int hcube_fill_stats(struct sk_buff *skb, struct hcube *hc,
			    const struct hcube_nl_data *d)
{
	const struct hcube_counters *c = &hc->cnt;
	struct nlattr *nest = nla_nest_start(skb, HCUBE_A_STATS);
	struct hcube_mce_stats m;

	if (!nest)
		return -EMSGSIZE;
	hcube_mce_stats(hc, &m);
	if (nla_put_u64_64bit(skb, HCUBE_A_STATS_REBALANCES, c->rebalances, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_AUTO_REBALANCES, c->auto_rebalances,
			      HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_DRY_RUNS, c->dry_runs, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MIGRATIONS, c->migrations, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MOVED, c->moved, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_FAILURES, c->failures, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_EVACUATIONS, c->evacuations, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_EXITED, c->exited, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_CHANGED, c->changed, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_REGISTERED, c->registered, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_UNREGISTERED, c->unregistered,
			      HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_TASKS, hc->ntasks, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_ADOPTED, c->adopted, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_REFUSED, atomic64_read(&hc->refused),
			      HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_RELEASED, atomic64_read(&hc->released),
			      HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_EVENTS_LOST,
			      atomic64_read(&hc->events_lost), HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_REVOKED, c->revoked, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_RECORDS, m.records, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_MARKS, m.marks, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_OUTSIDE, m.outside, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_OFFLINE, m.offline, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_IGNORED, m.ignored, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_REFUSED, m.refused, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_MEMORY, m.memory, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_BUS, m.bus, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_SHARED_CACHE, m.shared_cache,
			      HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_FIRMWARE, m.firmware, HCUBE_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, HCUBE_A_STATS_MCE_OTHER, m.other, HCUBE_A_STATS_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

const struct hcube_nl_msg_ops hcube_nl_stats_msg = {
	.fill = hcube_fill_stats,
};
