/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube: the request policies of the "hcube" generic netlink family.
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (policies): change those, not this file.
 */
#ifndef HCUBE_NL_GEN_H
#define HCUBE_NL_GEN_H

#include <net/netlink.h>
#include <linux/hcube.h>

/*
 * The range of HCUBE_A_CPU: the module sets it at load, before it registers the
 * family.
 */
extern struct netlink_range_validation hcube_cpu_ids;

/* The policies of nested attribute sets. */
extern const struct nla_policy hcube_config_policy[HCUBE_A_CONFIG_MAX + 1];

/* The request policy of each operation that takes attributes. */
extern const struct nla_policy hcube_vertex_get_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_topo_set_policy[HCUBE_A_GROUP + 1];
extern const struct nla_policy hcube_fault_add_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_fault_del_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_task_add_policy[HCUBE_A_UNIT + 1];
extern const struct nla_policy hcube_task_del_policy[HCUBE_A_UNIT + 1];
extern const struct nla_policy hcube_rebalance_policy[HCUBE_A_REPORT_DRY_RUN + 1];
extern const struct nla_policy hcube_config_set_policy[HCUBE_A_CONFIG + 1];

#ifdef __KERNEL__
#include <net/genetlink.h>

/* The module's flags of an operation (genl_ops.internal_flags). */
/* a hotplug change not yet applied, then pending new tasks, before the doit */
#define HCUBE_NL_F_DRAIN	0x01
/* moves registered tasks, so CAP_SYS_NICE as well as CAP_NET_ADMIN */
#define HCUBE_NL_F_MOVES	0x02

/* The handlers the ops table names. */
int hcube_nl_get_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int hcube_nl_topo_set_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_fault_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_task_add_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_task_del_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_task_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int hcube_nl_rebalance_doit(struct sk_buff *skb, struct genl_info *info);
int hcube_nl_rebalance_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int hcube_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info);

/* One per command that has a do or a dump (hcube_nl_ops). */
extern const struct genl_ops hcube_nl_ops[12];
#endif /* __KERNEL__ */

#endif /* HCUBE_NL_GEN_H */
