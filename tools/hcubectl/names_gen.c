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

static const char *const vertex_attr_names[HCUBE_V_A_MAX + 1] = {
	[HCUBE_V_A_UNSPEC] = "HCUBE_V_A_UNSPEC",
	[HCUBE_V_A_ID] = "HCUBE_V_A_ID",
	[HCUBE_V_A_STATE] = "HCUBE_V_A_STATE",
	[HCUBE_V_A_CPUS] = "HCUBE_V_A_CPUS",
	[HCUBE_V_A_USABLE_CPUS] = "HCUBE_V_A_USABLE_CPUS",
	[HCUBE_V_A_FAULTY_CPUS] = "HCUBE_V_A_FAULTY_CPUS",
	[HCUBE_V_A_OFFLINE_CPUS] = "HCUBE_V_A_OFFLINE_CPUS",
	[HCUBE_V_A_LOAD] = "HCUBE_V_A_LOAD",
	[HCUBE_V_A_IN_CB] = "HCUBE_V_A_IN_CB",
	[HCUBE_V_A_PARENT] = "HCUBE_V_A_PARENT",
	[HCUBE_V_A_DIST] = "HCUBE_V_A_DIST",
	[HCUBE_V_A_OMEGA] = "HCUBE_V_A_OMEGA",
	[HCUBE_V_A_DETACHED] = "HCUBE_V_A_DETACHED",
	[HCUBE_V_A_MARKED] = "HCUBE_V_A_MARKED",
	[HCUBE_V_A_CONTROLLER] = "HCUBE_V_A_CONTROLLER",
	[HCUBE_V_A_ISOLATED_CPUS] = "HCUBE_V_A_ISOLATED_CPUS",
	[HCUBE_V_A_CPU_INFO] = "HCUBE_V_A_CPU_INFO",
};

static const char *const vertex_attr_keys[HCUBE_V_A_MAX + 1] = {
	[HCUBE_V_A_ID] = "id",
	[HCUBE_V_A_STATE] = "state",
	[HCUBE_V_A_CPUS] = "cpus",
	[HCUBE_V_A_USABLE_CPUS] = "usable_cpus",
	[HCUBE_V_A_FAULTY_CPUS] = "faulty_cpus",
	[HCUBE_V_A_OFFLINE_CPUS] = "offline_cpus",
	[HCUBE_V_A_LOAD] = "load",
	[HCUBE_V_A_IN_CB] = "in_cb",
	[HCUBE_V_A_PARENT] = "parent",
	[HCUBE_V_A_DIST] = "dist",
	[HCUBE_V_A_OMEGA] = "omega",
	[HCUBE_V_A_DETACHED] = "detached",
	[HCUBE_V_A_MARKED] = "marked",
	[HCUBE_V_A_CONTROLLER] = "controller",
	[HCUBE_V_A_ISOLATED_CPUS] = "isolated_cpus",
	[HCUBE_V_A_CPU_INFO] = "cpu_info",
};

static const struct nla_policy vertex_attr_policy[HCUBE_V_A_MAX + 1] = {
	[HCUBE_V_A_ID] = { .type = NLA_U32 },
	[HCUBE_V_A_STATE] = { .type = NLA_U32 },
	[HCUBE_V_A_CPUS] = { .type = NLA_STRING },
	[HCUBE_V_A_USABLE_CPUS] = { .type = NLA_STRING },
	[HCUBE_V_A_FAULTY_CPUS] = { .type = NLA_STRING },
	[HCUBE_V_A_OFFLINE_CPUS] = { .type = NLA_STRING },
	[HCUBE_V_A_LOAD] = { .type = NLA_U32 },
	[HCUBE_V_A_IN_CB] = { .type = NLA_FLAG },
	[HCUBE_V_A_PARENT] = { .type = NLA_S32 },
	[HCUBE_V_A_DIST] = { .type = NLA_U32 },
	[HCUBE_V_A_OMEGA] = { .type = NLA_U32 },
	[HCUBE_V_A_DETACHED] = { .type = NLA_FLAG },
	[HCUBE_V_A_MARKED] = { .type = NLA_FLAG },
	[HCUBE_V_A_CONTROLLER] = { .type = NLA_FLAG },
	[HCUBE_V_A_ISOLATED_CPUS] = { .type = NLA_STRING },
	[HCUBE_V_A_CPU_INFO] = { .type = NLA_NESTED },
};

const struct hc_attr_set hc_set_vertex = {
	.name = "vertex",
	.max = HCUBE_V_A_MAX,
	.names = vertex_attr_names,
	.keys = vertex_attr_keys,
	.policy = vertex_attr_policy,
};

static const char *const cpu_info_attr_names[HCUBE_CI_A_MAX + 1] = {
	[HCUBE_CI_A_UNSPEC] = "HCUBE_CI_A_UNSPEC",
	[HCUBE_CI_A_PAD] = "HCUBE_CI_A_PAD",
	[HCUBE_CI_A_CPU] = "HCUBE_CI_A_CPU",
	[HCUBE_CI_A_MARKED_BY] = "HCUBE_CI_A_MARKED_BY",
	[HCUBE_CI_A_MCE_RECORDS] = "HCUBE_CI_A_MCE_RECORDS",
	[HCUBE_CI_A_MCE_COUNT] = "HCUBE_CI_A_MCE_COUNT",
	[HCUBE_CI_A_MCE_WINDOW] = "HCUBE_CI_A_MCE_WINDOW",
	[HCUBE_CI_A_MCE_BANK] = "HCUBE_CI_A_MCE_BANK",
	[HCUBE_CI_A_MCE_STATUS] = "HCUBE_CI_A_MCE_STATUS",
	[HCUBE_CI_A_MCE_UC] = "HCUBE_CI_A_MCE_UC",
};

static const char *const cpu_info_attr_keys[HCUBE_CI_A_MAX + 1] = {
	[HCUBE_CI_A_CPU] = "cpu",
	[HCUBE_CI_A_MARKED_BY] = "marked_by",
	[HCUBE_CI_A_MCE_RECORDS] = "mce_records",
	[HCUBE_CI_A_MCE_COUNT] = "mce_count",
	[HCUBE_CI_A_MCE_WINDOW] = "mce_window",
	[HCUBE_CI_A_MCE_BANK] = "mce_bank",
	[HCUBE_CI_A_MCE_STATUS] = "mce_status",
	[HCUBE_CI_A_MCE_UC] = "mce_uc",
};

static const struct nla_policy cpu_info_attr_policy[HCUBE_CI_A_MAX + 1] = {
	[HCUBE_CI_A_CPU] = { .type = NLA_U32 },
	[HCUBE_CI_A_MARKED_BY] = { .type = NLA_U32 },
	[HCUBE_CI_A_MCE_RECORDS] = { .type = NLA_U64 },
	[HCUBE_CI_A_MCE_COUNT] = { .type = NLA_U32 },
	[HCUBE_CI_A_MCE_WINDOW] = { .type = NLA_U32 },
	[HCUBE_CI_A_MCE_BANK] = { .type = NLA_U32 },
	[HCUBE_CI_A_MCE_STATUS] = { .type = NLA_U64 },
	[HCUBE_CI_A_MCE_UC] = { .type = NLA_FLAG },
};

const struct hc_attr_set hc_set_cpu_info = {
	.name = "cpu-info",
	.max = HCUBE_CI_A_MAX,
	.names = cpu_info_attr_names,
	.keys = cpu_info_attr_keys,
	.policy = cpu_info_attr_policy,
};

static const char *const task_attr_names[HCUBE_T_A_MAX + 1] = {
	[HCUBE_T_A_UNSPEC] = "HCUBE_T_A_UNSPEC",
	[HCUBE_T_A_PID] = "HCUBE_T_A_PID",
	[HCUBE_T_A_TGID] = "HCUBE_T_A_TGID",
	[HCUBE_T_A_COMM] = "HCUBE_T_A_COMM",
	[HCUBE_T_A_VERTEX] = "HCUBE_T_A_VERTEX",
	[HCUBE_T_A_STATE] = "HCUBE_T_A_STATE",
	[HCUBE_T_A_ORIG_CPUS] = "HCUBE_T_A_ORIG_CPUS",
	[HCUBE_T_A_CPUS] = "HCUBE_T_A_CPUS",
	[HCUBE_T_A_ERROR] = "HCUBE_T_A_ERROR",
	[HCUBE_T_A_REASON] = "HCUBE_T_A_REASON",
	[HCUBE_T_A_ORIGIN] = "HCUBE_T_A_ORIGIN",
	[HCUBE_T_A_UNIT] = "HCUBE_T_A_UNIT",
	[HCUBE_T_A_CREATOR] = "HCUBE_T_A_CREATOR",
};

static const char *const task_attr_keys[HCUBE_T_A_MAX + 1] = {
	[HCUBE_T_A_PID] = "pid",
	[HCUBE_T_A_TGID] = "tgid",
	[HCUBE_T_A_COMM] = "comm",
	[HCUBE_T_A_VERTEX] = "vertex",
	[HCUBE_T_A_STATE] = "state",
	[HCUBE_T_A_ORIG_CPUS] = "orig_cpus",
	[HCUBE_T_A_CPUS] = "cpus",
	[HCUBE_T_A_ERROR] = "error",
	[HCUBE_T_A_REASON] = "reason",
	[HCUBE_T_A_ORIGIN] = "origin",
	[HCUBE_T_A_UNIT] = "unit",
	[HCUBE_T_A_CREATOR] = "creator",
};

static const struct nla_policy task_attr_policy[HCUBE_T_A_MAX + 1] = {
	[HCUBE_T_A_PID] = { .type = NLA_U32 },
	[HCUBE_T_A_TGID] = { .type = NLA_U32 },
	[HCUBE_T_A_COMM] = { .type = NLA_STRING },
	[HCUBE_T_A_VERTEX] = { .type = NLA_U32 },
	[HCUBE_T_A_STATE] = { .type = NLA_U32 },
	[HCUBE_T_A_ORIG_CPUS] = { .type = NLA_STRING },
	[HCUBE_T_A_CPUS] = { .type = NLA_STRING },
	[HCUBE_T_A_ERROR] = { .type = NLA_S32 },
	[HCUBE_T_A_REASON] = { .type = NLA_U32 },
	[HCUBE_T_A_ORIGIN] = { .type = NLA_U32 },
	[HCUBE_T_A_UNIT] = { .type = NLA_U32 },
	[HCUBE_T_A_CREATOR] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_task = {
	.name = "task",
	.max = HCUBE_T_A_MAX,
	.names = task_attr_names,
	.keys = task_attr_keys,
	.policy = task_attr_policy,
};

static const char *const report_attr_names[HCUBE_R_A_MAX + 1] = {
	[HCUBE_R_A_UNSPEC] = "HCUBE_R_A_UNSPEC",
	[HCUBE_R_A_PAD] = "HCUBE_R_A_PAD",
	[HCUBE_R_A_POLICY] = "HCUBE_R_A_POLICY",
	[HCUBE_R_A_DRY_RUN] = "HCUBE_R_A_DRY_RUN",
	[HCUBE_R_A_TRIGGER] = "HCUBE_R_A_TRIGGER",
	[HCUBE_R_A_LOADS_BEFORE] = "HCUBE_R_A_LOADS_BEFORE",
	[HCUBE_R_A_LOADS_PLAN] = "HCUBE_R_A_LOADS_PLAN",
	[HCUBE_R_A_LOADS_AFTER] = "HCUBE_R_A_LOADS_AFTER",
	[HCUBE_R_A_TRANSFER] = "HCUBE_R_A_TRANSFER",
	[HCUBE_R_A_NTRANSFERS] = "HCUBE_R_A_NTRANSFERS",
	[HCUBE_R_A_STEPS] = "HCUBE_R_A_STEPS",
	[HCUBE_R_A_COMM_STEPS] = "HCUBE_R_A_COMM_STEPS",
	[HCUBE_R_A_MIGRATIONS] = "HCUBE_R_A_MIGRATIONS",
	[HCUBE_R_A_MOVED] = "HCUBE_R_A_MOVED",
	[HCUBE_R_A_FAILED] = "HCUBE_R_A_FAILED",
	[HCUBE_R_A_FAILURE] = "HCUBE_R_A_FAILURE",
	[HCUBE_R_A_CHANGED] = "HCUBE_R_A_CHANGED",
	[HCUBE_R_A_EXITED] = "HCUBE_R_A_EXITED",
	[HCUBE_R_A_EVACUATED] = "HCUBE_R_A_EVACUATED",
	[HCUBE_R_A_DURATION_NS] = "HCUBE_R_A_DURATION_NS",
	[HCUBE_R_A_CB_PATTERN] = "HCUBE_R_A_CB_PATTERN",
	[HCUBE_R_A_TREE_DEPTH] = "HCUBE_R_A_TREE_DEPTH",
	[HCUBE_R_A_APPLIED] = "HCUBE_R_A_APPLIED",
	[HCUBE_R_A_MESSAGES] = "HCUBE_R_A_MESSAGES",
	[HCUBE_R_A_IMBALANCE] = "HCUBE_R_A_IMBALANCE",
	[HCUBE_R_A_CONTENDED] = "HCUBE_R_A_CONTENDED",
	[HCUBE_R_A_TRANSFERS_CUT] = "HCUBE_R_A_TRANSFERS_CUT",
	[HCUBE_R_A_STOPPED_SHORT] = "HCUBE_R_A_STOPPED_SHORT",
};

static const char *const report_attr_keys[HCUBE_R_A_MAX + 1] = {
	[HCUBE_R_A_POLICY] = "policy",
	[HCUBE_R_A_DRY_RUN] = "dry_run",
	[HCUBE_R_A_TRIGGER] = "trigger",
	[HCUBE_R_A_LOADS_BEFORE] = "loads_before",
	[HCUBE_R_A_LOADS_PLAN] = "loads_plan",
	[HCUBE_R_A_LOADS_AFTER] = "loads_after",
	[HCUBE_R_A_TRANSFER] = "transfer",
	[HCUBE_R_A_NTRANSFERS] = "ntransfers",
	[HCUBE_R_A_STEPS] = "steps",
	[HCUBE_R_A_COMM_STEPS] = "comm_steps",
	[HCUBE_R_A_MIGRATIONS] = "migrations",
	[HCUBE_R_A_MOVED] = "moved",
	[HCUBE_R_A_FAILED] = "failed",
	[HCUBE_R_A_FAILURE] = "failure",
	[HCUBE_R_A_CHANGED] = "changed",
	[HCUBE_R_A_EXITED] = "exited",
	[HCUBE_R_A_EVACUATED] = "evacuated",
	[HCUBE_R_A_DURATION_NS] = "duration_ns",
	[HCUBE_R_A_CB_PATTERN] = "cb_pattern",
	[HCUBE_R_A_TREE_DEPTH] = "tree_depth",
	[HCUBE_R_A_APPLIED] = "applied",
	[HCUBE_R_A_MESSAGES] = "messages",
	[HCUBE_R_A_IMBALANCE] = "imbalance",
	[HCUBE_R_A_CONTENDED] = "contended",
	[HCUBE_R_A_TRANSFERS_CUT] = "transfers_cut",
	[HCUBE_R_A_STOPPED_SHORT] = "stopped_short",
};

static const struct nla_policy report_attr_policy[HCUBE_R_A_MAX + 1] = {
	[HCUBE_R_A_POLICY] = { .type = NLA_U32 },
	[HCUBE_R_A_DRY_RUN] = { .type = NLA_FLAG },
	[HCUBE_R_A_TRIGGER] = { .type = NLA_U32 },
	[HCUBE_R_A_TRANSFER] = { .type = NLA_NESTED },
	[HCUBE_R_A_NTRANSFERS] = { .type = NLA_U32 },
	[HCUBE_R_A_STEPS] = { .type = NLA_U32 },
	[HCUBE_R_A_COMM_STEPS] = { .type = NLA_U32 },
	[HCUBE_R_A_MIGRATIONS] = { .type = NLA_U64 },
	[HCUBE_R_A_MOVED] = { .type = NLA_U32 },
	[HCUBE_R_A_FAILED] = { .type = NLA_U32 },
	[HCUBE_R_A_FAILURE] = { .type = NLA_NESTED },
	[HCUBE_R_A_CHANGED] = { .type = NLA_NESTED },
	[HCUBE_R_A_EXITED] = { .type = NLA_U32 },
	[HCUBE_R_A_EVACUATED] = { .type = NLA_U32 },
	[HCUBE_R_A_DURATION_NS] = { .type = NLA_U64 },
	[HCUBE_R_A_CB_PATTERN] = { .type = NLA_STRING },
	[HCUBE_R_A_TREE_DEPTH] = { .type = NLA_U32 },
	[HCUBE_R_A_APPLIED] = { .type = NLA_U32 },
	[HCUBE_R_A_MESSAGES] = { .type = NLA_U32 },
	[HCUBE_R_A_IMBALANCE] = { .type = NLA_U32 },
	[HCUBE_R_A_CONTENDED] = { .type = NLA_U32 },
	[HCUBE_R_A_TRANSFERS_CUT] = { .type = NLA_FLAG },
	[HCUBE_R_A_STOPPED_SHORT] = { .type = NLA_FLAG },
};

const struct hc_attr_set hc_set_report = {
	.name = "report",
	.max = HCUBE_R_A_MAX,
	.names = report_attr_names,
	.keys = report_attr_keys,
	.policy = report_attr_policy,
};

static const char *const transfer_attr_names[HCUBE_X_A_MAX + 1] = {
	[HCUBE_X_A_UNSPEC] = "HCUBE_X_A_UNSPEC",
	[HCUBE_X_A_STEP] = "HCUBE_X_A_STEP",
	[HCUBE_X_A_FROM] = "HCUBE_X_A_FROM",
	[HCUBE_X_A_TO] = "HCUBE_X_A_TO",
	[HCUBE_X_A_COUNT] = "HCUBE_X_A_COUNT",
};

static const char *const transfer_attr_keys[HCUBE_X_A_MAX + 1] = {
	[HCUBE_X_A_STEP] = "step",
	[HCUBE_X_A_FROM] = "from",
	[HCUBE_X_A_TO] = "to",
	[HCUBE_X_A_COUNT] = "count",
};

static const struct nla_policy transfer_attr_policy[HCUBE_X_A_MAX + 1] = {
	[HCUBE_X_A_STEP] = { .type = NLA_U32 },
	[HCUBE_X_A_FROM] = { .type = NLA_U32 },
	[HCUBE_X_A_TO] = { .type = NLA_U32 },
	[HCUBE_X_A_COUNT] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_transfer = {
	.name = "transfer",
	.max = HCUBE_X_A_MAX,
	.names = transfer_attr_names,
	.keys = transfer_attr_keys,
	.policy = transfer_attr_policy,
};

static const char *const stats_attr_names[HCUBE_S_A_MAX + 1] = {
	[HCUBE_S_A_UNSPEC] = "HCUBE_S_A_UNSPEC",
	[HCUBE_S_A_PAD] = "HCUBE_S_A_PAD",
	[HCUBE_S_A_REBALANCES] = "HCUBE_S_A_REBALANCES",
	[HCUBE_S_A_AUTO_REBALANCES] = "HCUBE_S_A_AUTO_REBALANCES",
	[HCUBE_S_A_DRY_RUNS] = "HCUBE_S_A_DRY_RUNS",
	[HCUBE_S_A_MIGRATIONS] = "HCUBE_S_A_MIGRATIONS",
	[HCUBE_S_A_MOVED] = "HCUBE_S_A_MOVED",
	[HCUBE_S_A_FAILURES] = "HCUBE_S_A_FAILURES",
	[HCUBE_S_A_EVACUATIONS] = "HCUBE_S_A_EVACUATIONS",
	[HCUBE_S_A_EXITED] = "HCUBE_S_A_EXITED",
	[HCUBE_S_A_CHANGED] = "HCUBE_S_A_CHANGED",
	[HCUBE_S_A_REGISTERED] = "HCUBE_S_A_REGISTERED",
	[HCUBE_S_A_UNREGISTERED] = "HCUBE_S_A_UNREGISTERED",
	[HCUBE_S_A_TASKS] = "HCUBE_S_A_TASKS",
	[HCUBE_S_A_ADOPTED] = "HCUBE_S_A_ADOPTED",
	[HCUBE_S_A_REFUSED] = "HCUBE_S_A_REFUSED",
	[HCUBE_S_A_RELEASED] = "HCUBE_S_A_RELEASED",
	[HCUBE_S_A_EVENTS_LOST] = "HCUBE_S_A_EVENTS_LOST",
	[HCUBE_S_A_REVOKED] = "HCUBE_S_A_REVOKED",
	[HCUBE_S_A_MCE_RECORDS] = "HCUBE_S_A_MCE_RECORDS",
	[HCUBE_S_A_MCE_MARKS] = "HCUBE_S_A_MCE_MARKS",
	[HCUBE_S_A_MCE_OUTSIDE] = "HCUBE_S_A_MCE_OUTSIDE",
	[HCUBE_S_A_MCE_OFFLINE] = "HCUBE_S_A_MCE_OFFLINE",
	[HCUBE_S_A_MCE_IGNORED] = "HCUBE_S_A_MCE_IGNORED",
	[HCUBE_S_A_MCE_REFUSED] = "HCUBE_S_A_MCE_REFUSED",
	[HCUBE_S_A_MCE_MEMORY] = "HCUBE_S_A_MCE_MEMORY",
	[HCUBE_S_A_MCE_BUS] = "HCUBE_S_A_MCE_BUS",
	[HCUBE_S_A_MCE_SHARED_CACHE] = "HCUBE_S_A_MCE_SHARED_CACHE",
	[HCUBE_S_A_MCE_FIRMWARE] = "HCUBE_S_A_MCE_FIRMWARE",
	[HCUBE_S_A_MCE_OTHER] = "HCUBE_S_A_MCE_OTHER",
};

static const char *const stats_attr_keys[HCUBE_S_A_MAX + 1] = {
	[HCUBE_S_A_REBALANCES] = "rebalances",
	[HCUBE_S_A_AUTO_REBALANCES] = "auto_rebalances",
	[HCUBE_S_A_DRY_RUNS] = "dry_runs",
	[HCUBE_S_A_MIGRATIONS] = "migrations",
	[HCUBE_S_A_MOVED] = "moved",
	[HCUBE_S_A_FAILURES] = "failures",
	[HCUBE_S_A_EVACUATIONS] = "evacuations",
	[HCUBE_S_A_EXITED] = "exited",
	[HCUBE_S_A_CHANGED] = "changed",
	[HCUBE_S_A_REGISTERED] = "registered",
	[HCUBE_S_A_UNREGISTERED] = "unregistered",
	[HCUBE_S_A_TASKS] = "tasks",
	[HCUBE_S_A_ADOPTED] = "adopted",
	[HCUBE_S_A_REFUSED] = "refused",
	[HCUBE_S_A_RELEASED] = "released",
	[HCUBE_S_A_EVENTS_LOST] = "events_lost",
	[HCUBE_S_A_REVOKED] = "revoked",
	[HCUBE_S_A_MCE_RECORDS] = "mce_records",
	[HCUBE_S_A_MCE_MARKS] = "mce_marks",
	[HCUBE_S_A_MCE_OUTSIDE] = "mce_outside",
	[HCUBE_S_A_MCE_OFFLINE] = "mce_offline",
	[HCUBE_S_A_MCE_IGNORED] = "mce_ignored",
	[HCUBE_S_A_MCE_REFUSED] = "mce_refused",
	[HCUBE_S_A_MCE_MEMORY] = "mce_memory",
	[HCUBE_S_A_MCE_BUS] = "mce_bus",
	[HCUBE_S_A_MCE_SHARED_CACHE] = "mce_shared_cache",
	[HCUBE_S_A_MCE_FIRMWARE] = "mce_firmware",
	[HCUBE_S_A_MCE_OTHER] = "mce_other",
};

static const struct nla_policy stats_attr_policy[HCUBE_S_A_MAX + 1] = {
	[HCUBE_S_A_REBALANCES] = { .type = NLA_U64 },
	[HCUBE_S_A_AUTO_REBALANCES] = { .type = NLA_U64 },
	[HCUBE_S_A_DRY_RUNS] = { .type = NLA_U64 },
	[HCUBE_S_A_MIGRATIONS] = { .type = NLA_U64 },
	[HCUBE_S_A_MOVED] = { .type = NLA_U64 },
	[HCUBE_S_A_FAILURES] = { .type = NLA_U64 },
	[HCUBE_S_A_EVACUATIONS] = { .type = NLA_U64 },
	[HCUBE_S_A_EXITED] = { .type = NLA_U64 },
	[HCUBE_S_A_CHANGED] = { .type = NLA_U64 },
	[HCUBE_S_A_REGISTERED] = { .type = NLA_U64 },
	[HCUBE_S_A_UNREGISTERED] = { .type = NLA_U64 },
	[HCUBE_S_A_TASKS] = { .type = NLA_U64 },
	[HCUBE_S_A_ADOPTED] = { .type = NLA_U64 },
	[HCUBE_S_A_REFUSED] = { .type = NLA_U64 },
	[HCUBE_S_A_RELEASED] = { .type = NLA_U64 },
	[HCUBE_S_A_EVENTS_LOST] = { .type = NLA_U64 },
	[HCUBE_S_A_REVOKED] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_RECORDS] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_MARKS] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_OUTSIDE] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_OFFLINE] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_IGNORED] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_REFUSED] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_MEMORY] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_BUS] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_SHARED_CACHE] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_FIRMWARE] = { .type = NLA_U64 },
	[HCUBE_S_A_MCE_OTHER] = { .type = NLA_U64 },
};

const struct hc_attr_set hc_set_stats = {
	.name = "stats",
	.max = HCUBE_S_A_MAX,
	.names = stats_attr_names,
	.keys = stats_attr_keys,
	.policy = stats_attr_policy,
};

static const char *const config_attr_names[HCUBE_C_A_MAX + 1] = {
	[HCUBE_C_A_UNSPEC] = "HCUBE_C_A_UNSPEC",
	[HCUBE_C_A_POLICY] = "HCUBE_C_A_POLICY",
	[HCUBE_C_A_AUTO] = "HCUBE_C_A_AUTO",
	[HCUBE_C_A_THRESHOLD] = "HCUBE_C_A_THRESHOLD",
	[HCUBE_C_A_COOLDOWN_MS] = "HCUBE_C_A_COOLDOWN_MS",
	[HCUBE_C_A_MAX_TASKS] = "HCUBE_C_A_MAX_TASKS",
	[HCUBE_C_A_MCE_CE_THRESHOLD] = "HCUBE_C_A_MCE_CE_THRESHOLD",
	[HCUBE_C_A_MCE_CE_WINDOW] = "HCUBE_C_A_MCE_CE_WINDOW",
	[HCUBE_C_A_MCE_UC] = "HCUBE_C_A_MCE_UC",
};

static const char *const config_attr_keys[HCUBE_C_A_MAX + 1] = {
	[HCUBE_C_A_POLICY] = "policy",
	[HCUBE_C_A_AUTO] = "auto",
	[HCUBE_C_A_THRESHOLD] = "threshold",
	[HCUBE_C_A_COOLDOWN_MS] = "cooldown_ms",
	[HCUBE_C_A_MAX_TASKS] = "max_tasks",
	[HCUBE_C_A_MCE_CE_THRESHOLD] = "mce_ce_threshold",
	[HCUBE_C_A_MCE_CE_WINDOW] = "mce_ce_window",
	[HCUBE_C_A_MCE_UC] = "mce_uc",
};

static const struct nla_policy config_attr_policy[HCUBE_C_A_MAX + 1] = {
	[HCUBE_C_A_POLICY] = { .type = NLA_U32 },
	[HCUBE_C_A_AUTO] = { .type = NLA_U32 },
	[HCUBE_C_A_THRESHOLD] = { .type = NLA_U32 },
	[HCUBE_C_A_COOLDOWN_MS] = { .type = NLA_U32 },
	[HCUBE_C_A_MAX_TASKS] = { .type = NLA_U32 },
	[HCUBE_C_A_MCE_CE_THRESHOLD] = { .type = NLA_U32 },
	[HCUBE_C_A_MCE_CE_WINDOW] = { .type = NLA_U32 },
	[HCUBE_C_A_MCE_UC] = { .type = NLA_U32 },
};

const struct hc_attr_set hc_set_config = {
	.name = "config",
	.max = HCUBE_C_A_MAX,
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
