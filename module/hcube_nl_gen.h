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
extern const struct nla_policy hcube_config_policy[HCUBE_C_A_MAX + 1];

/* The request policy of each operation that takes attributes. */
extern const struct nla_policy hcube_vertex_get_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_topo_set_policy[HCUBE_A_GROUP + 1];
extern const struct nla_policy hcube_fault_add_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_fault_del_policy[HCUBE_A_VERTEX_ID + 1];
extern const struct nla_policy hcube_task_add_policy[HCUBE_A_UNIT + 1];
extern const struct nla_policy hcube_task_del_policy[HCUBE_A_UNIT + 1];
extern const struct nla_policy hcube_rebalance_policy[HCUBE_R_A_DRY_RUN + 1];
extern const struct nla_policy hcube_config_set_policy[HCUBE_A_CONFIG + 1];

#endif /* HCUBE_NL_GEN_H */
