// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: names and reply policies of the "hcube" family.
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (names): change those, not this file.
 */
#include "names_gen.h"

const char *const hc_mode_names[HCUBE_MODE_MAX + 1] = {
	[HCUBE_MODE_CPU] = "cpu",
	[HCUBE_MODE_NODE] = "node",
	[HCUBE_MODE_LLC] = "llc",
	[HCUBE_MODE_CUSTOM] = "custom",
};

const char *const hc_vertex_state_names[HCUBE_VERTEX_STATE_MAX + 1] = {
	[HCUBE_VERTEX_HEALTHY] = "healthy",
	[HCUBE_VERTEX_FAULTY] = "faulty",
	[HCUBE_VERTEX_OFFLINE] = "offline",
	[HCUBE_VERTEX_ABSENT] = "absent",
	[HCUBE_VERTEX_ISOLATED] = "isolated",
};

const char *const hc_policy_names[HCUBE_POLICY_MAX + 1] = {
	[HCUBE_POLICY_MCWA] = "mcwa",
	[HCUBE_POLICY_DEM] = "dem",
	[HCUBE_POLICY_CWA] = "cwa",
	[HCUBE_POLICY_OPTIMAL] = "optimal",
	[HCUBE_POLICY_AUTO] = "auto",
	[HCUBE_POLICY_RID] = "rid",
	[HCUBE_POLICY_SID] = "sid",
	[HCUBE_POLICY_SBN] = "sbn",
	[HCUBE_POLICY_SBN_CUBE] = "sbn-cube",
	[HCUBE_POLICY_SBN_HEUR] = "sbn-heur",
	[HCUBE_POLICY_PEBBLE] = "pebble",
};

const char *const hc_task_state_names[HCUBE_TASK_STATE_MAX + 1] = {
	[HCUBE_TASK_ACTIVE] = "active",
	[HCUBE_TASK_CHANGED] = "changed",
	[HCUBE_TASK_EXITED] = "exited",
	[HCUBE_TASK_REMOVED] = "removed",
};

const char *const hc_fault_event_names[HCUBE_FAULT_EVENT_MAX + 1] = {
	[HCUBE_FAULT_ADDED] = "added",
	[HCUBE_FAULT_CLEARED] = "cleared",
	[HCUBE_CPU_OFFLINE] = "offline",
	[HCUBE_CPU_ONLINE] = "online",
};

const char *const hc_reason_names[HCUBE_REASON_MAX + 1] = {
	[HCUBE_REASON_ADMIN] = "admin",
	[HCUBE_REASON_HOTPLUG] = "hotplug",
	[HCUBE_REASON_AUTO] = "auto",
	[HCUBE_REASON_EXITED] = "exited",
	[HCUBE_REASON_CHANGED] = "changed",
	[HCUBE_REASON_ADDED] = "added",
	[HCUBE_REASON_REMOVED] = "removed",
	[HCUBE_REASON_FAULT] = "fault",
	[HCUBE_REASON_FORK] = "fork",
	[HCUBE_REASON_THREAD] = "thread",
	[HCUBE_REASON_REFUSED] = "refused",
	[HCUBE_REASON_REVOKED] = "revoked",
	[HCUBE_REASON_MCE] = "mce",
};

const char *const hc_unit_names[HCUBE_UNIT_MAX + 1] = {
	[HCUBE_UNIT_JOB] = "job",
	[HCUBE_UNIT_TREE] = "tree",
	[HCUBE_UNIT_THREAD] = "thread",
};

static const char *const attr_names[HCUBE_A_MAX + 1] = {
	[HCUBE_A_UNSPEC] = "HCUBE_A_UNSPEC",
	[HCUBE_A_PAD] = "HCUBE_A_PAD",
	[HCUBE_A_MODE] = "HCUBE_A_MODE",
	[HCUBE_A_DIM] = "HCUBE_A_DIM",
	[HCUBE_A_NVERTICES] = "HCUBE_A_NVERTICES",
	[HCUBE_A_NHEALTHY] = "HCUBE_A_NHEALTHY",
	[HCUBE_A_NATTACHED] = "HCUBE_A_NATTACHED",
	[HCUBE_A_NTASKS] = "HCUBE_A_NTASKS",
	[HCUBE_A_CB_BASE] = "HCUBE_A_CB_BASE",
	[HCUBE_A_CB_MASK] = "HCUBE_A_CB_MASK",
	[HCUBE_A_CB_PATTERN] = "HCUBE_A_CB_PATTERN",
	[HCUBE_A_TREE_DEPTH] = "HCUBE_A_TREE_DEPTH",
	[HCUBE_A_GENERATION] = "HCUBE_A_GENERATION",
	[HCUBE_A_GROUP] = "HCUBE_A_GROUP",
	[HCUBE_A_VERTEX] = "HCUBE_A_VERTEX",
	[HCUBE_A_CPU] = "HCUBE_A_CPU",
	[HCUBE_A_VERTEX_ID] = "HCUBE_A_VERTEX_ID",
	[HCUBE_A_PID] = "HCUBE_A_PID",
	[HCUBE_A_ALL] = "HCUBE_A_ALL",
	[HCUBE_A_TASK] = "HCUBE_A_TASK",
	[HCUBE_A_STATS] = "HCUBE_A_STATS",
	[HCUBE_A_CONFIG] = "HCUBE_A_CONFIG",
	[HCUBE_A_REASON] = "HCUBE_A_REASON",
	[HCUBE_A_STATE] = "HCUBE_A_STATE",
	[HCUBE_A_EVENT] = "HCUBE_A_EVENT",
	[HCUBE_A_CLUSTER_DIM] = "HCUBE_A_CLUSTER_DIM",
	[HCUBE_A_CONTROLLERS] = "HCUBE_A_CONTROLLERS",
	[HCUBE_A_CLUSTER] = "HCUBE_A_CLUSTER",
	[HCUBE_A_CONTROLLER_OLD] = "HCUBE_A_CONTROLLER_OLD",
	[HCUBE_A_CONTROLLER_NEW] = "HCUBE_A_CONTROLLER_NEW",
	[HCUBE_A_UNIT] = "HCUBE_A_UNIT",
	[HCUBE_A_NREGISTERED] = "HCUBE_A_NREGISTERED",
	[HCUBE_A_NEXITED] = "HCUBE_A_NEXITED",
	[HCUBE_A_NREFUSED] = "HCUBE_A_NREFUSED",
	[HCUBE_A_CPU_INFO] = "HCUBE_A_CPU_INFO",
};

static const char *const attr_keys[HCUBE_A_MAX + 1] = {
	[HCUBE_A_MODE] = "mode",
	[HCUBE_A_DIM] = "dim",
	[HCUBE_A_NVERTICES] = "nvertices",
	[HCUBE_A_NHEALTHY] = "nhealthy",
	[HCUBE_A_NATTACHED] = "nattached",
	[HCUBE_A_NTASKS] = "ntasks",
	[HCUBE_A_CB_BASE] = "cb_base",
	[HCUBE_A_CB_MASK] = "cb_mask",
	[HCUBE_A_CB_PATTERN] = "cb_pattern",
	[HCUBE_A_TREE_DEPTH] = "tree_depth",
	[HCUBE_A_GENERATION] = "generation",
	[HCUBE_A_GROUP] = "group",
	[HCUBE_A_VERTEX] = "vertex",
	[HCUBE_A_CPU] = "cpu",
	[HCUBE_A_VERTEX_ID] = "vertex_id",
	[HCUBE_A_PID] = "pid",
	[HCUBE_A_ALL] = "all",
	[HCUBE_A_TASK] = "task",
	[HCUBE_A_STATS] = "stats",
	[HCUBE_A_CONFIG] = "config",
	[HCUBE_A_REASON] = "reason",
	[HCUBE_A_STATE] = "state",
	[HCUBE_A_EVENT] = "event",
	[HCUBE_A_CLUSTER_DIM] = "cluster_dim",
	[HCUBE_A_CONTROLLERS] = "controllers",
	[HCUBE_A_CLUSTER] = "cluster",
	[HCUBE_A_CONTROLLER_OLD] = "controller_old",
	[HCUBE_A_CONTROLLER_NEW] = "controller_new",
	[HCUBE_A_UNIT] = "unit",
	[HCUBE_A_NREGISTERED] = "nregistered",
	[HCUBE_A_NEXITED] = "nexited",
	[HCUBE_A_NREFUSED] = "nrefused",
	[HCUBE_A_CPU_INFO] = "cpu_info",
};

static const struct nla_policy attr_policy[HCUBE_A_MAX + 1] = {
	[HCUBE_A_MODE] = { .type = NLA_U32 },
	[HCUBE_A_DIM] = { .type = NLA_U32 },
	[HCUBE_A_NVERTICES] = { .type = NLA_U32 },
	[HCUBE_A_NHEALTHY] = { .type = NLA_U32 },
	[HCUBE_A_NATTACHED] = { .type = NLA_U32 },
	[HCUBE_A_NTASKS] = { .type = NLA_U32 },
	[HCUBE_A_CB_BASE] = { .type = NLA_U32 },
	[HCUBE_A_CB_MASK] = { .type = NLA_U32 },
	[HCUBE_A_CB_PATTERN] = { .type = NLA_STRING },
	[HCUBE_A_TREE_DEPTH] = { .type = NLA_U32 },
	[HCUBE_A_GENERATION] = { .type = NLA_U32 },
	[HCUBE_A_GROUP] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX] = { .type = NLA_NESTED },
	[HCUBE_A_CPU] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_ID] = { .type = NLA_U32 },
	[HCUBE_A_PID] = { .type = NLA_U32 },
	[HCUBE_A_ALL] = { .type = NLA_FLAG },
	[HCUBE_A_TASK] = { .type = NLA_NESTED },
	[HCUBE_A_STATS] = { .type = NLA_NESTED },
	[HCUBE_A_CONFIG] = { .type = NLA_NESTED },
	[HCUBE_A_REASON] = { .type = NLA_U32 },
	[HCUBE_A_STATE] = { .type = NLA_U32 },
	[HCUBE_A_EVENT] = { .type = NLA_U32 },
	[HCUBE_A_CLUSTER_DIM] = { .type = NLA_U32 },
	[HCUBE_A_CLUSTER] = { .type = NLA_U32 },
	[HCUBE_A_CONTROLLER_OLD] = { .type = NLA_U32 },
	[HCUBE_A_CONTROLLER_NEW] = { .type = NLA_U32 },
	[HCUBE_A_UNIT] = { .type = NLA_U32 },
	[HCUBE_A_NREGISTERED] = { .type = NLA_U32 },
	[HCUBE_A_NEXITED] = { .type = NLA_U32 },
	[HCUBE_A_NREFUSED] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO] = { .type = NLA_NESTED },
};

const struct hc_attr_set hc_set_hcube = {
	.name = "hcube",
	.max = HCUBE_A_MAX,
	.names = attr_names,
	.keys = attr_keys,
	.policy = attr_policy,
};

static const char *const vertex_attr_names[HCUBE_A_VERTEX_INFO_MAX + 1] = {
	[HCUBE_A_VERTEX_INFO_UNSPEC] = "HCUBE_A_VERTEX_INFO_UNSPEC",
	[HCUBE_A_VERTEX_INFO_ID] = "HCUBE_A_VERTEX_INFO_ID",
	[HCUBE_A_VERTEX_INFO_STATE] = "HCUBE_A_VERTEX_INFO_STATE",
	[HCUBE_A_VERTEX_INFO_CPUS] = "HCUBE_A_VERTEX_INFO_CPUS",
	[HCUBE_A_VERTEX_INFO_USABLE_CPUS] = "HCUBE_A_VERTEX_INFO_USABLE_CPUS",
	[HCUBE_A_VERTEX_INFO_FAULTY_CPUS] = "HCUBE_A_VERTEX_INFO_FAULTY_CPUS",
	[HCUBE_A_VERTEX_INFO_OFFLINE_CPUS] = "HCUBE_A_VERTEX_INFO_OFFLINE_CPUS",
	[HCUBE_A_VERTEX_INFO_LOAD] = "HCUBE_A_VERTEX_INFO_LOAD",
	[HCUBE_A_VERTEX_INFO_IN_CB] = "HCUBE_A_VERTEX_INFO_IN_CB",
	[HCUBE_A_VERTEX_INFO_PARENT] = "HCUBE_A_VERTEX_INFO_PARENT",
	[HCUBE_A_VERTEX_INFO_DIST] = "HCUBE_A_VERTEX_INFO_DIST",
	[HCUBE_A_VERTEX_INFO_OMEGA] = "HCUBE_A_VERTEX_INFO_OMEGA",
	[HCUBE_A_VERTEX_INFO_DETACHED] = "HCUBE_A_VERTEX_INFO_DETACHED",
	[HCUBE_A_VERTEX_INFO_MARKED] = "HCUBE_A_VERTEX_INFO_MARKED",
	[HCUBE_A_VERTEX_INFO_CONTROLLER] = "HCUBE_A_VERTEX_INFO_CONTROLLER",
	[HCUBE_A_VERTEX_INFO_ISOLATED_CPUS] = "HCUBE_A_VERTEX_INFO_ISOLATED_CPUS",
	[HCUBE_A_VERTEX_INFO_CPU_INFO] = "HCUBE_A_VERTEX_INFO_CPU_INFO",
};

static const char *const vertex_attr_keys[HCUBE_A_VERTEX_INFO_MAX + 1] = {
	[HCUBE_A_VERTEX_INFO_ID] = "id",
	[HCUBE_A_VERTEX_INFO_STATE] = "state",
	[HCUBE_A_VERTEX_INFO_CPUS] = "cpus",
	[HCUBE_A_VERTEX_INFO_USABLE_CPUS] = "usable_cpus",
	[HCUBE_A_VERTEX_INFO_FAULTY_CPUS] = "faulty_cpus",
	[HCUBE_A_VERTEX_INFO_OFFLINE_CPUS] = "offline_cpus",
	[HCUBE_A_VERTEX_INFO_LOAD] = "load",
	[HCUBE_A_VERTEX_INFO_IN_CB] = "in_cb",
	[HCUBE_A_VERTEX_INFO_PARENT] = "parent",
	[HCUBE_A_VERTEX_INFO_DIST] = "dist",
	[HCUBE_A_VERTEX_INFO_OMEGA] = "omega",
	[HCUBE_A_VERTEX_INFO_DETACHED] = "detached",
	[HCUBE_A_VERTEX_INFO_MARKED] = "marked",
	[HCUBE_A_VERTEX_INFO_CONTROLLER] = "controller",
	[HCUBE_A_VERTEX_INFO_ISOLATED_CPUS] = "isolated_cpus",
	[HCUBE_A_VERTEX_INFO_CPU_INFO] = "cpu_info",
};

static const struct nla_policy vertex_attr_policy[HCUBE_A_VERTEX_INFO_MAX + 1] = {
	[HCUBE_A_VERTEX_INFO_ID] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_INFO_STATE] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_INFO_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX_INFO_USABLE_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX_INFO_FAULTY_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX_INFO_OFFLINE_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX_INFO_LOAD] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_INFO_IN_CB] = { .type = NLA_FLAG },
	[HCUBE_A_VERTEX_INFO_PARENT] = { .type = NLA_S32 },
	[HCUBE_A_VERTEX_INFO_DIST] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_INFO_OMEGA] = { .type = NLA_U32 },
	[HCUBE_A_VERTEX_INFO_DETACHED] = { .type = NLA_FLAG },
	[HCUBE_A_VERTEX_INFO_MARKED] = { .type = NLA_FLAG },
	[HCUBE_A_VERTEX_INFO_CONTROLLER] = { .type = NLA_FLAG },
	[HCUBE_A_VERTEX_INFO_ISOLATED_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_VERTEX_INFO_CPU_INFO] = { .type = NLA_NESTED },
};

const struct hc_attr_set hc_set_vertex = {
	.name = "vertex",
	.max = HCUBE_A_VERTEX_INFO_MAX,
	.names = vertex_attr_names,
	.keys = vertex_attr_keys,
	.policy = vertex_attr_policy,
};

static const char *const cpu_info_attr_names[HCUBE_A_CPU_INFO_MAX + 1] = {
	[HCUBE_A_CPU_INFO_UNSPEC] = "HCUBE_A_CPU_INFO_UNSPEC",
	[HCUBE_A_CPU_INFO_PAD] = "HCUBE_A_CPU_INFO_PAD",
	[HCUBE_A_CPU_INFO_CPU] = "HCUBE_A_CPU_INFO_CPU",
	[HCUBE_A_CPU_INFO_MARKED_BY] = "HCUBE_A_CPU_INFO_MARKED_BY",
	[HCUBE_A_CPU_INFO_MCE_RECORDS] = "HCUBE_A_CPU_INFO_MCE_RECORDS",
	[HCUBE_A_CPU_INFO_MCE_COUNT] = "HCUBE_A_CPU_INFO_MCE_COUNT",
	[HCUBE_A_CPU_INFO_MCE_WINDOW] = "HCUBE_A_CPU_INFO_MCE_WINDOW",
	[HCUBE_A_CPU_INFO_MCE_BANK] = "HCUBE_A_CPU_INFO_MCE_BANK",
	[HCUBE_A_CPU_INFO_MCE_STATUS] = "HCUBE_A_CPU_INFO_MCE_STATUS",
	[HCUBE_A_CPU_INFO_MCE_UC] = "HCUBE_A_CPU_INFO_MCE_UC",
};

static const char *const cpu_info_attr_keys[HCUBE_A_CPU_INFO_MAX + 1] = {
	[HCUBE_A_CPU_INFO_CPU] = "cpu",
	[HCUBE_A_CPU_INFO_MARKED_BY] = "marked_by",
	[HCUBE_A_CPU_INFO_MCE_RECORDS] = "mce_records",
	[HCUBE_A_CPU_INFO_MCE_COUNT] = "mce_count",
	[HCUBE_A_CPU_INFO_MCE_WINDOW] = "mce_window",
	[HCUBE_A_CPU_INFO_MCE_BANK] = "mce_bank",
	[HCUBE_A_CPU_INFO_MCE_STATUS] = "mce_status",
	[HCUBE_A_CPU_INFO_MCE_UC] = "mce_uc",
};

static const struct nla_policy cpu_info_attr_policy[HCUBE_A_CPU_INFO_MAX + 1] = {
	[HCUBE_A_CPU_INFO_CPU] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO_MARKED_BY] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO_MCE_RECORDS] = { .type = NLA_U64 },
	[HCUBE_A_CPU_INFO_MCE_COUNT] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO_MCE_WINDOW] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO_MCE_BANK] = { .type = NLA_U32 },
	[HCUBE_A_CPU_INFO_MCE_STATUS] = { .type = NLA_U64 },
	[HCUBE_A_CPU_INFO_MCE_UC] = { .type = NLA_FLAG },
};

const struct hc_attr_set hc_set_cpu_info = {
	.name = "cpu-info",
	.max = HCUBE_A_CPU_INFO_MAX,
	.names = cpu_info_attr_names,
	.keys = cpu_info_attr_keys,
	.policy = cpu_info_attr_policy,
};

static const char *const task_attr_names[HCUBE_A_TASK_MAX + 1] = {
	[HCUBE_A_TASK_UNSPEC] = "HCUBE_A_TASK_UNSPEC",
	[HCUBE_A_TASK_PID] = "HCUBE_A_TASK_PID",
	[HCUBE_A_TASK_TGID] = "HCUBE_A_TASK_TGID",
	[HCUBE_A_TASK_COMM] = "HCUBE_A_TASK_COMM",
	[HCUBE_A_TASK_VERTEX] = "HCUBE_A_TASK_VERTEX",
	[HCUBE_A_TASK_STATE] = "HCUBE_A_TASK_STATE",
	[HCUBE_A_TASK_ORIG_CPUS] = "HCUBE_A_TASK_ORIG_CPUS",
	[HCUBE_A_TASK_CPUS] = "HCUBE_A_TASK_CPUS",
	[HCUBE_A_TASK_ERROR] = "HCUBE_A_TASK_ERROR",
	[HCUBE_A_TASK_REASON] = "HCUBE_A_TASK_REASON",
	[HCUBE_A_TASK_ORIGIN] = "HCUBE_A_TASK_ORIGIN",
	[HCUBE_A_TASK_UNIT] = "HCUBE_A_TASK_UNIT",
	[HCUBE_A_TASK_CREATOR] = "HCUBE_A_TASK_CREATOR",
};

static const char *const task_attr_keys[HCUBE_A_TASK_MAX + 1] = {
	[HCUBE_A_TASK_PID] = "pid",
	[HCUBE_A_TASK_TGID] = "tgid",
	[HCUBE_A_TASK_COMM] = "comm",
	[HCUBE_A_TASK_VERTEX] = "vertex",
	[HCUBE_A_TASK_STATE] = "state",
	[HCUBE_A_TASK_ORIG_CPUS] = "orig_cpus",
	[HCUBE_A_TASK_CPUS] = "cpus",
	[HCUBE_A_TASK_ERROR] = "error",
	[HCUBE_A_TASK_REASON] = "reason",
	[HCUBE_A_TASK_ORIGIN] = "origin",
	[HCUBE_A_TASK_UNIT] = "unit",
	[HCUBE_A_TASK_CREATOR] = "creator",
};

static const struct nla_policy task_attr_policy[HCUBE_A_TASK_MAX + 1] = {
	[HCUBE_A_TASK_PID] = { .type = NLA_U32 },
	[HCUBE_A_TASK_TGID] = { .type = NLA_U32 },
	[HCUBE_A_TASK_COMM] = { .type = NLA_STRING },
	[HCUBE_A_TASK_VERTEX] = { .type = NLA_U32 },
	[HCUBE_A_TASK_STATE] = { .type = NLA_U32 },
	[HCUBE_A_TASK_ORIG_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_TASK_CPUS] = { .type = NLA_STRING },
	[HCUBE_A_TASK_ERROR] = { .type = NLA_S32 },
	[HCUBE_A_TASK_REASON] = { .type = NLA_U32 },
	[HCUBE_A_TASK_ORIGIN] = { .type = NLA_U32 },
	[HCUBE_A_TASK_UNIT] = { .type = NLA_U32 },
	[HCUBE_A_TASK_CREATOR] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_task = {
	.name = "task",
	.max = HCUBE_A_TASK_MAX,
	.names = task_attr_names,
	.keys = task_attr_keys,
	.policy = task_attr_policy,
};

static const char *const report_attr_names[HCUBE_A_REPORT_MAX + 1] = {
	[HCUBE_A_REPORT_UNSPEC] = "HCUBE_A_REPORT_UNSPEC",
	[HCUBE_A_REPORT_PAD] = "HCUBE_A_REPORT_PAD",
	[HCUBE_A_REPORT_POLICY] = "HCUBE_A_REPORT_POLICY",
	[HCUBE_A_REPORT_DRY_RUN] = "HCUBE_A_REPORT_DRY_RUN",
	[HCUBE_A_REPORT_TRIGGER] = "HCUBE_A_REPORT_TRIGGER",
	[HCUBE_A_REPORT_LOADS_BEFORE] = "HCUBE_A_REPORT_LOADS_BEFORE",
	[HCUBE_A_REPORT_LOADS_PLAN] = "HCUBE_A_REPORT_LOADS_PLAN",
	[HCUBE_A_REPORT_LOADS_AFTER] = "HCUBE_A_REPORT_LOADS_AFTER",
	[HCUBE_A_REPORT_TRANSFER] = "HCUBE_A_REPORT_TRANSFER",
	[HCUBE_A_REPORT_NTRANSFERS] = "HCUBE_A_REPORT_NTRANSFERS",
	[HCUBE_A_REPORT_STEPS] = "HCUBE_A_REPORT_STEPS",
	[HCUBE_A_REPORT_COMM_STEPS] = "HCUBE_A_REPORT_COMM_STEPS",
	[HCUBE_A_REPORT_MIGRATIONS] = "HCUBE_A_REPORT_MIGRATIONS",
	[HCUBE_A_REPORT_MOVED] = "HCUBE_A_REPORT_MOVED",
	[HCUBE_A_REPORT_FAILED] = "HCUBE_A_REPORT_FAILED",
	[HCUBE_A_REPORT_FAILURE] = "HCUBE_A_REPORT_FAILURE",
	[HCUBE_A_REPORT_CHANGED] = "HCUBE_A_REPORT_CHANGED",
	[HCUBE_A_REPORT_EXITED] = "HCUBE_A_REPORT_EXITED",
	[HCUBE_A_REPORT_EVACUATED] = "HCUBE_A_REPORT_EVACUATED",
	[HCUBE_A_REPORT_DURATION_NS] = "HCUBE_A_REPORT_DURATION_NS",
	[HCUBE_A_REPORT_CB_PATTERN] = "HCUBE_A_REPORT_CB_PATTERN",
	[HCUBE_A_REPORT_TREE_DEPTH] = "HCUBE_A_REPORT_TREE_DEPTH",
	[HCUBE_A_REPORT_APPLIED] = "HCUBE_A_REPORT_APPLIED",
	[HCUBE_A_REPORT_MESSAGES] = "HCUBE_A_REPORT_MESSAGES",
	[HCUBE_A_REPORT_IMBALANCE] = "HCUBE_A_REPORT_IMBALANCE",
	[HCUBE_A_REPORT_CONTENDED] = "HCUBE_A_REPORT_CONTENDED",
	[HCUBE_A_REPORT_TRANSFERS_CUT] = "HCUBE_A_REPORT_TRANSFERS_CUT",
	[HCUBE_A_REPORT_STOPPED_SHORT] = "HCUBE_A_REPORT_STOPPED_SHORT",
};

static const char *const report_attr_keys[HCUBE_A_REPORT_MAX + 1] = {
	[HCUBE_A_REPORT_POLICY] = "policy",
	[HCUBE_A_REPORT_DRY_RUN] = "dry_run",
	[HCUBE_A_REPORT_TRIGGER] = "trigger",
	[HCUBE_A_REPORT_LOADS_BEFORE] = "loads_before",
	[HCUBE_A_REPORT_LOADS_PLAN] = "loads_plan",
	[HCUBE_A_REPORT_LOADS_AFTER] = "loads_after",
	[HCUBE_A_REPORT_TRANSFER] = "transfer",
	[HCUBE_A_REPORT_NTRANSFERS] = "ntransfers",
	[HCUBE_A_REPORT_STEPS] = "steps",
	[HCUBE_A_REPORT_COMM_STEPS] = "comm_steps",
	[HCUBE_A_REPORT_MIGRATIONS] = "migrations",
	[HCUBE_A_REPORT_MOVED] = "moved",
	[HCUBE_A_REPORT_FAILED] = "failed",
	[HCUBE_A_REPORT_FAILURE] = "failure",
	[HCUBE_A_REPORT_CHANGED] = "changed",
	[HCUBE_A_REPORT_EXITED] = "exited",
	[HCUBE_A_REPORT_EVACUATED] = "evacuated",
	[HCUBE_A_REPORT_DURATION_NS] = "duration_ns",
	[HCUBE_A_REPORT_CB_PATTERN] = "cb_pattern",
	[HCUBE_A_REPORT_TREE_DEPTH] = "tree_depth",
	[HCUBE_A_REPORT_APPLIED] = "applied",
	[HCUBE_A_REPORT_MESSAGES] = "messages",
	[HCUBE_A_REPORT_IMBALANCE] = "imbalance",
	[HCUBE_A_REPORT_CONTENDED] = "contended",
	[HCUBE_A_REPORT_TRANSFERS_CUT] = "transfers_cut",
	[HCUBE_A_REPORT_STOPPED_SHORT] = "stopped_short",
};

static const struct nla_policy report_attr_policy[HCUBE_A_REPORT_MAX + 1] = {
	[HCUBE_A_REPORT_POLICY] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_DRY_RUN] = { .type = NLA_FLAG },
	[HCUBE_A_REPORT_TRIGGER] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_TRANSFER] = { .type = NLA_NESTED },
	[HCUBE_A_REPORT_NTRANSFERS] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_STEPS] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_COMM_STEPS] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_MIGRATIONS] = { .type = NLA_U64 },
	[HCUBE_A_REPORT_MOVED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_FAILED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_FAILURE] = { .type = NLA_NESTED },
	[HCUBE_A_REPORT_CHANGED] = { .type = NLA_NESTED },
	[HCUBE_A_REPORT_EXITED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_EVACUATED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_DURATION_NS] = { .type = NLA_U64 },
	[HCUBE_A_REPORT_CB_PATTERN] = { .type = NLA_STRING },
	[HCUBE_A_REPORT_TREE_DEPTH] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_APPLIED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_MESSAGES] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_IMBALANCE] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_CONTENDED] = { .type = NLA_U32 },
	[HCUBE_A_REPORT_TRANSFERS_CUT] = { .type = NLA_FLAG },
	[HCUBE_A_REPORT_STOPPED_SHORT] = { .type = NLA_FLAG },
};

const struct hc_attr_set hc_set_report = {
	.name = "report",
	.max = HCUBE_A_REPORT_MAX,
	.names = report_attr_names,
	.keys = report_attr_keys,
	.policy = report_attr_policy,
};

static const char *const transfer_attr_names[HCUBE_A_TRANSFER_MAX + 1] = {
	[HCUBE_A_TRANSFER_UNSPEC] = "HCUBE_A_TRANSFER_UNSPEC",
	[HCUBE_A_TRANSFER_STEP] = "HCUBE_A_TRANSFER_STEP",
	[HCUBE_A_TRANSFER_FROM] = "HCUBE_A_TRANSFER_FROM",
	[HCUBE_A_TRANSFER_TO] = "HCUBE_A_TRANSFER_TO",
	[HCUBE_A_TRANSFER_COUNT] = "HCUBE_A_TRANSFER_COUNT",
};

static const char *const transfer_attr_keys[HCUBE_A_TRANSFER_MAX + 1] = {
	[HCUBE_A_TRANSFER_STEP] = "step",
	[HCUBE_A_TRANSFER_FROM] = "from",
	[HCUBE_A_TRANSFER_TO] = "to",
	[HCUBE_A_TRANSFER_COUNT] = "count",
};

static const struct nla_policy transfer_attr_policy[HCUBE_A_TRANSFER_MAX + 1] = {
	[HCUBE_A_TRANSFER_STEP] = { .type = NLA_U32 },
	[HCUBE_A_TRANSFER_FROM] = { .type = NLA_U32 },
	[HCUBE_A_TRANSFER_TO] = { .type = NLA_U32 },
	[HCUBE_A_TRANSFER_COUNT] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_transfer = {
	.name = "transfer",
	.max = HCUBE_A_TRANSFER_MAX,
	.names = transfer_attr_names,
	.keys = transfer_attr_keys,
	.policy = transfer_attr_policy,
};

static const char *const stats_attr_names[HCUBE_A_STATS_MAX + 1] = {
	[HCUBE_A_STATS_UNSPEC] = "HCUBE_A_STATS_UNSPEC",
	[HCUBE_A_STATS_PAD] = "HCUBE_A_STATS_PAD",
	[HCUBE_A_STATS_REBALANCES] = "HCUBE_A_STATS_REBALANCES",
	[HCUBE_A_STATS_AUTO_REBALANCES] = "HCUBE_A_STATS_AUTO_REBALANCES",
	[HCUBE_A_STATS_DRY_RUNS] = "HCUBE_A_STATS_DRY_RUNS",
	[HCUBE_A_STATS_MIGRATIONS] = "HCUBE_A_STATS_MIGRATIONS",
	[HCUBE_A_STATS_MOVED] = "HCUBE_A_STATS_MOVED",
	[HCUBE_A_STATS_FAILURES] = "HCUBE_A_STATS_FAILURES",
	[HCUBE_A_STATS_EVACUATIONS] = "HCUBE_A_STATS_EVACUATIONS",
	[HCUBE_A_STATS_EXITED] = "HCUBE_A_STATS_EXITED",
	[HCUBE_A_STATS_CHANGED] = "HCUBE_A_STATS_CHANGED",
	[HCUBE_A_STATS_REGISTERED] = "HCUBE_A_STATS_REGISTERED",
	[HCUBE_A_STATS_UNREGISTERED] = "HCUBE_A_STATS_UNREGISTERED",
	[HCUBE_A_STATS_TASKS] = "HCUBE_A_STATS_TASKS",
	[HCUBE_A_STATS_ADOPTED] = "HCUBE_A_STATS_ADOPTED",
	[HCUBE_A_STATS_REFUSED] = "HCUBE_A_STATS_REFUSED",
	[HCUBE_A_STATS_RELEASED] = "HCUBE_A_STATS_RELEASED",
	[HCUBE_A_STATS_EVENTS_LOST] = "HCUBE_A_STATS_EVENTS_LOST",
	[HCUBE_A_STATS_REVOKED] = "HCUBE_A_STATS_REVOKED",
	[HCUBE_A_STATS_MCE_RECORDS] = "HCUBE_A_STATS_MCE_RECORDS",
	[HCUBE_A_STATS_MCE_MARKS] = "HCUBE_A_STATS_MCE_MARKS",
	[HCUBE_A_STATS_MCE_OUTSIDE] = "HCUBE_A_STATS_MCE_OUTSIDE",
	[HCUBE_A_STATS_MCE_OFFLINE] = "HCUBE_A_STATS_MCE_OFFLINE",
	[HCUBE_A_STATS_MCE_IGNORED] = "HCUBE_A_STATS_MCE_IGNORED",
	[HCUBE_A_STATS_MCE_REFUSED] = "HCUBE_A_STATS_MCE_REFUSED",
	[HCUBE_A_STATS_MCE_MEMORY] = "HCUBE_A_STATS_MCE_MEMORY",
	[HCUBE_A_STATS_MCE_BUS] = "HCUBE_A_STATS_MCE_BUS",
	[HCUBE_A_STATS_MCE_SHARED_CACHE] = "HCUBE_A_STATS_MCE_SHARED_CACHE",
	[HCUBE_A_STATS_MCE_FIRMWARE] = "HCUBE_A_STATS_MCE_FIRMWARE",
	[HCUBE_A_STATS_MCE_OTHER] = "HCUBE_A_STATS_MCE_OTHER",
};

static const char *const stats_attr_keys[HCUBE_A_STATS_MAX + 1] = {
	[HCUBE_A_STATS_REBALANCES] = "rebalances",
	[HCUBE_A_STATS_AUTO_REBALANCES] = "auto_rebalances",
	[HCUBE_A_STATS_DRY_RUNS] = "dry_runs",
	[HCUBE_A_STATS_MIGRATIONS] = "migrations",
	[HCUBE_A_STATS_MOVED] = "moved",
	[HCUBE_A_STATS_FAILURES] = "failures",
	[HCUBE_A_STATS_EVACUATIONS] = "evacuations",
	[HCUBE_A_STATS_EXITED] = "exited",
	[HCUBE_A_STATS_CHANGED] = "changed",
	[HCUBE_A_STATS_REGISTERED] = "registered",
	[HCUBE_A_STATS_UNREGISTERED] = "unregistered",
	[HCUBE_A_STATS_TASKS] = "tasks",
	[HCUBE_A_STATS_ADOPTED] = "adopted",
	[HCUBE_A_STATS_REFUSED] = "refused",
	[HCUBE_A_STATS_RELEASED] = "released",
	[HCUBE_A_STATS_EVENTS_LOST] = "events_lost",
	[HCUBE_A_STATS_REVOKED] = "revoked",
	[HCUBE_A_STATS_MCE_RECORDS] = "mce_records",
	[HCUBE_A_STATS_MCE_MARKS] = "mce_marks",
	[HCUBE_A_STATS_MCE_OUTSIDE] = "mce_outside",
	[HCUBE_A_STATS_MCE_OFFLINE] = "mce_offline",
	[HCUBE_A_STATS_MCE_IGNORED] = "mce_ignored",
	[HCUBE_A_STATS_MCE_REFUSED] = "mce_refused",
	[HCUBE_A_STATS_MCE_MEMORY] = "mce_memory",
	[HCUBE_A_STATS_MCE_BUS] = "mce_bus",
	[HCUBE_A_STATS_MCE_SHARED_CACHE] = "mce_shared_cache",
	[HCUBE_A_STATS_MCE_FIRMWARE] = "mce_firmware",
	[HCUBE_A_STATS_MCE_OTHER] = "mce_other",
};

static const struct nla_policy stats_attr_policy[HCUBE_A_STATS_MAX + 1] = {
	[HCUBE_A_STATS_REBALANCES] = { .type = NLA_U64 },
	[HCUBE_A_STATS_AUTO_REBALANCES] = { .type = NLA_U64 },
	[HCUBE_A_STATS_DRY_RUNS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MIGRATIONS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MOVED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_FAILURES] = { .type = NLA_U64 },
	[HCUBE_A_STATS_EVACUATIONS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_EXITED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_CHANGED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_REGISTERED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_UNREGISTERED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_TASKS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_ADOPTED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_REFUSED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_RELEASED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_EVENTS_LOST] = { .type = NLA_U64 },
	[HCUBE_A_STATS_REVOKED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_RECORDS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_MARKS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_OUTSIDE] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_OFFLINE] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_IGNORED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_REFUSED] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_MEMORY] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_BUS] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_SHARED_CACHE] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_FIRMWARE] = { .type = NLA_U64 },
	[HCUBE_A_STATS_MCE_OTHER] = { .type = NLA_U64 },
};

const struct hc_attr_set hc_set_stats = {
	.name = "stats",
	.max = HCUBE_A_STATS_MAX,
	.names = stats_attr_names,
	.keys = stats_attr_keys,
	.policy = stats_attr_policy,
};

static const char *const config_attr_names[HCUBE_A_CONFIG_MAX + 1] = {
	[HCUBE_A_CONFIG_UNSPEC] = "HCUBE_A_CONFIG_UNSPEC",
	[HCUBE_A_CONFIG_POLICY] = "HCUBE_A_CONFIG_POLICY",
	[HCUBE_A_CONFIG_AUTO] = "HCUBE_A_CONFIG_AUTO",
	[HCUBE_A_CONFIG_THRESHOLD] = "HCUBE_A_CONFIG_THRESHOLD",
	[HCUBE_A_CONFIG_COOLDOWN_MS] = "HCUBE_A_CONFIG_COOLDOWN_MS",
	[HCUBE_A_CONFIG_MAX_TASKS] = "HCUBE_A_CONFIG_MAX_TASKS",
	[HCUBE_A_CONFIG_MCE_CE_THRESHOLD] = "HCUBE_A_CONFIG_MCE_CE_THRESHOLD",
	[HCUBE_A_CONFIG_MCE_CE_WINDOW] = "HCUBE_A_CONFIG_MCE_CE_WINDOW",
	[HCUBE_A_CONFIG_MCE_UC] = "HCUBE_A_CONFIG_MCE_UC",
};

static const char *const config_attr_keys[HCUBE_A_CONFIG_MAX + 1] = {
	[HCUBE_A_CONFIG_POLICY] = "policy",
	[HCUBE_A_CONFIG_AUTO] = "auto",
	[HCUBE_A_CONFIG_THRESHOLD] = "threshold",
	[HCUBE_A_CONFIG_COOLDOWN_MS] = "cooldown_ms",
	[HCUBE_A_CONFIG_MAX_TASKS] = "max_tasks",
	[HCUBE_A_CONFIG_MCE_CE_THRESHOLD] = "mce_ce_threshold",
	[HCUBE_A_CONFIG_MCE_CE_WINDOW] = "mce_ce_window",
	[HCUBE_A_CONFIG_MCE_UC] = "mce_uc",
};

static const struct nla_policy config_attr_policy[HCUBE_A_CONFIG_MAX + 1] = {
	[HCUBE_A_CONFIG_POLICY] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_AUTO] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_THRESHOLD] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_COOLDOWN_MS] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_MAX_TASKS] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_MCE_CE_THRESHOLD] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_MCE_CE_WINDOW] = { .type = NLA_U32 },
	[HCUBE_A_CONFIG_MCE_UC] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_config = {
	.name = "config",
	.max = HCUBE_A_CONFIG_MAX,
	.names = config_attr_names,
	.keys = config_attr_keys,
	.policy = config_attr_policy,
};

const struct hc_attr_set *const hc_cmd_set[HCUBE_CMD_MAX + 1] = {
	[HCUBE_CMD_CUBE_GET] = &hc_set_hcube,
	[HCUBE_CMD_VERTEX_GET] = &hc_set_hcube,
	[HCUBE_CMD_TOPO_SET] = &hc_set_hcube,
	[HCUBE_CMD_FAULT_ADD] = &hc_set_hcube,
	[HCUBE_CMD_FAULT_DEL] = &hc_set_hcube,
	[HCUBE_CMD_TASK_ADD] = &hc_set_hcube,
	[HCUBE_CMD_TASK_DEL] = &hc_set_hcube,
	[HCUBE_CMD_TASK_GET] = &hc_set_hcube,
	[HCUBE_CMD_REBALANCE] = &hc_set_report,
	[HCUBE_CMD_STATS_GET] = &hc_set_hcube,
	[HCUBE_CMD_CONFIG_GET] = &hc_set_hcube,
	[HCUBE_CMD_CONFIG_SET] = &hc_set_hcube,
	[HCUBE_CMD_FAULT_NTF] = &hc_set_hcube,
	[HCUBE_CMD_TOPO_NTF] = &hc_set_hcube,
	[HCUBE_CMD_TASK_NTF] = &hc_set_hcube,
	[HCUBE_CMD_REBALANCE_NTF] = &hc_set_report,
	[HCUBE_CMD_CONTROLLER_NTF] = &hc_set_hcube,
};
