/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcubectl: the names of the "hcube" family's enum values and attribute types,
 * and the policies its messages are parsed with.
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (names): change those, not this file.
 */
#ifndef HCUBECTL_NAMES_GEN_H
#define HCUBECTL_NAMES_GEN_H

#include <netlink/attr.h>
#include <linux/hcube.h>

/*
 * An attribute set: the C name of each type (for errors), the key of each in
 * hcubectl's JSON, and the libnl policy that nla_parse() checks it with.
 */
struct hc_attr_set {
	const char *name;			/* the spec's name of the set */
	int max;				/* its highest type */
	const char *const *names;		/* HCUBE_A_PID */
	const char *const *keys;		/* pid */
	const struct nla_policy *policy;
};

/* The name of each value, as hcubectl reads and prints it. */
extern const char *const hc_mode_names[HCUBE_MODE_MAX + 1];
extern const char *const hc_vertex_state_names[HCUBE_VERTEX_STATE_MAX + 1];
extern const char *const hc_policy_names[HCUBE_POLICY_MAX + 1];
extern const char *const hc_task_state_names[HCUBE_TASK_STATE_MAX + 1];
extern const char *const hc_fault_event_names[HCUBE_FAULT_EVENT_MAX + 1];
extern const char *const hc_reason_names[HCUBE_REASON_MAX + 1];
extern const char *const hc_unit_names[HCUBE_UNIT_MAX + 1];

/* The attribute sets. */
extern const struct hc_attr_set hc_set_hcube;
extern const struct hc_attr_set hc_set_vertex;
extern const struct hc_attr_set hc_set_cpu_info;
extern const struct hc_attr_set hc_set_task;
extern const struct hc_attr_set hc_set_report;
extern const struct hc_attr_set hc_set_transfer;
extern const struct hc_attr_set hc_set_stats;
extern const struct hc_attr_set hc_set_config;

/* The top-level attribute set of each command's messages. */
extern const struct hc_attr_set *const hc_cmd_set[HCUBE_CMD_MAX + 1];

#endif /* HCUBECTL_NAMES_GEN_H */
