// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: the request policies of the "hcube" generic netlink family.
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (policies): change those, not this file.
 */
#include <linux/cache.h>
#include <linux/threads.h>
#include "hcube_nl_gen.h"

static struct netlink_range_validation hcube_a_config_threshold_range = {
	.min = 0,
	.max = 1000000,
};

static struct netlink_range_validation hcube_a_config_cooldown_ms_range = {
	.min = 10,
	.max = 3600000,
};

static struct netlink_range_validation hcube_a_config_mce_ce_window_range = {
	.min = 1,
	.max = 2592000,
};

struct netlink_range_validation hcube_cpu_ids __ro_after_init;

static struct netlink_range_validation hcube_a_pid_range = {
	.min = 1,
	.max = PID_MAX_LIMIT,
};

/* The attributes of enum hcube_config_attr, nested. */
const struct nla_policy hcube_config_policy[HCUBE_A_CONFIG_MAX + 1] = {
	[HCUBE_A_CONFIG_POLICY] = NLA_POLICY_MAX(NLA_U32, HCUBE_POLICY_MAX),
	[HCUBE_A_CONFIG_AUTO] = NLA_POLICY_MAX(NLA_U32, 1),
	[HCUBE_A_CONFIG_THRESHOLD] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &hcube_a_config_threshold_range),
	[HCUBE_A_CONFIG_COOLDOWN_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							     &hcube_a_config_cooldown_ms_range),
	[HCUBE_A_CONFIG_MAX_TASKS] = {
		.type = NLA_REJECT,
		.reject_message =
			"HCUBE_A_CONFIG_MAX_TASKS: read-only (module parameter max_tasks)",
	},
	[HCUBE_A_CONFIG_MCE_CE_THRESHOLD] = NLA_POLICY_RANGE(NLA_U32, 0, 1000),
	[HCUBE_A_CONFIG_MCE_CE_WINDOW] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &hcube_a_config_mce_ce_window_range),
	[HCUBE_A_CONFIG_MCE_UC] = NLA_POLICY_MAX(NLA_U32, 1),
};

/* HCUBE_CMD_VERTEX_GET (do, dump) */
const struct nla_policy hcube_vertex_get_policy[HCUBE_A_VERTEX_ID + 1] = {
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, 1023),
};

/* HCUBE_CMD_TOPO_SET (do) */
const struct nla_policy hcube_topo_set_policy[HCUBE_A_GROUP + 1] = {
	[HCUBE_A_MODE] = NLA_POLICY_MAX(NLA_U32, HCUBE_MODE_MAX),
	[HCUBE_A_GROUP] = { .type = NLA_STRING, .len = 4096 },
};

/* HCUBE_CMD_FAULT_ADD (do) */
const struct nla_policy hcube_fault_add_policy[HCUBE_A_VERTEX_ID + 1] = {
	[HCUBE_A_CPU] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_cpu_ids),
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, 1023),
};

/* HCUBE_CMD_FAULT_DEL (do) */
const struct nla_policy hcube_fault_del_policy[HCUBE_A_VERTEX_ID + 1] = {
	[HCUBE_A_CPU] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_cpu_ids),
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, 1023),
};

/* HCUBE_CMD_TASK_ADD (do) */
const struct nla_policy hcube_task_add_policy[HCUBE_A_UNIT + 1] = {
	[HCUBE_A_VERTEX_ID] = NLA_POLICY_MAX(NLA_U32, 1023),
	[HCUBE_A_PID] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_a_pid_range),
	[HCUBE_A_UNIT] = NLA_POLICY_MAX(NLA_U32, HCUBE_UNIT_MAX),
};

/* HCUBE_CMD_TASK_DEL (do) */
const struct nla_policy hcube_task_del_policy[HCUBE_A_UNIT + 1] = {
	[HCUBE_A_PID] = NLA_POLICY_FULL_RANGE(NLA_U32, &hcube_a_pid_range),
	[HCUBE_A_ALL] = { .type = NLA_FLAG },
	[HCUBE_A_UNIT] = NLA_POLICY_MAX(NLA_U32, HCUBE_UNIT_MAX),
};

/* HCUBE_CMD_REBALANCE (do, dump) */
const struct nla_policy hcube_rebalance_policy[HCUBE_A_REPORT_DRY_RUN + 1] = {
	[HCUBE_A_REPORT_POLICY] = NLA_POLICY_MAX(NLA_U32, HCUBE_POLICY_MAX),
	[HCUBE_A_REPORT_DRY_RUN] = { .type = NLA_FLAG },
};

/* HCUBE_CMD_CONFIG_SET (do) */
const struct nla_policy hcube_config_set_policy[HCUBE_A_CONFIG + 1] = {
	[HCUBE_A_CONFIG] = NLA_POLICY_NESTED(hcube_config_policy),
};
