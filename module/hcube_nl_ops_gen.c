// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the ops table of the "hcube" generic netlink family (6.1: one struct
 * genl_ops per command, no split ops).
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (ops table): change those, not this file.
 */
#include "hcube_nl_gen.h"

const struct genl_ops hcube_nl_ops[12] = {
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
		.internal_flags = HCUBE_NL_F_DRAIN | HCUBE_NL_F_MOVES,
		.doit = hcube_nl_topo_set_doit,
		.policy = hcube_topo_set_policy,
		.maxattr = ARRAY_SIZE(hcube_topo_set_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_F_DRAIN | HCUBE_NL_F_MOVES,
		.doit = hcube_nl_fault_doit,
		.policy = hcube_fault_add_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_add_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_FAULT_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_F_DRAIN | HCUBE_NL_F_MOVES,
		.doit = hcube_nl_fault_doit,
		.policy = hcube_fault_del_policy,
		.maxattr = ARRAY_SIZE(hcube_fault_del_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_ADD,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_F_DRAIN,
		.doit = hcube_nl_task_add_doit,
		.policy = hcube_task_add_policy,
		.maxattr = ARRAY_SIZE(hcube_task_add_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_DEL,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = HCUBE_NL_F_DRAIN,
		.doit = hcube_nl_task_del_doit,
		.policy = hcube_task_del_policy,
		.maxattr = ARRAY_SIZE(hcube_task_del_policy) - 1,
	},
	{
		.cmd = HCUBE_CMD_TASK_GET,
		.dumpit = hcube_nl_task_get_dumpit,
	},
	{
		.cmd = HCUBE_CMD_REBALANCE,
		.flags = GENL_ADMIN_PERM,
		.doit = hcube_nl_rebalance_doit,
		.dumpit = hcube_nl_rebalance_dumpit,
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
		.internal_flags = HCUBE_NL_F_DRAIN | HCUBE_NL_F_MOVES,
		.doit = hcube_nl_config_set_doit,
		.policy = hcube_config_set_policy,
		.maxattr = ARRAY_SIZE(hcube_config_set_policy) - 1,
	},
};
