/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hcube

#if !defined(_HCUBE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _HCUBE_TRACE_H

#include <linux/tracepoint.h>

#ifndef HCUBE_TRACE_POLICY_NAME
#define HCUBE_TRACE_POLICY_NAME
/* 6.10: __assign_str() finds the source in __string() */
#ifdef HCUBE_HAVE_ASSIGN_STR_DST
#define hcube_assign_str(dst, src) __assign_str(dst)
#else
#define hcube_assign_str(dst, src) __assign_str(dst, src)
#endif
#include "hcube_core.h"

/* A policy's name from the core's table: a new policy needs no list here. */
static inline const char *hcube_trace_policy_name(u32 policy)
{
	const struct hcube_policy_ops *ops = hcube_policy_lookup(policy);

	return ops ? ops->name : "?";
}
#endif

/*
 * One rebalance: what was planned and what moved; applied is the policy
 * whose plan ran (auto's choice, else the policy itself).
 */
TRACE_EVENT(hcube_rebalance,
	    TP_PROTO(u32 policy, u32 applied, u32 trigger, bool dry_run,
		     u32 transfers, u64 migrations, u32 moved, u32 failed,
		     u64 duration_ns),
	    TP_ARGS(policy, applied, trigger, dry_run, transfers, migrations,
		    moved, failed, duration_ns),
	    TP_STRUCT__entry(__field(u32, policy)
			     __field(u32, applied)
			     __field(u32, trigger)
			     __field(bool, dry_run)
			     __field(u32, transfers)
			     __field(u64, migrations)
			     __field(u32, moved)
			     __field(u32, failed)
			     __field(u64, duration_ns)
			     __string(policy_name, hcube_trace_policy_name(policy))
			     __string(applied_name, hcube_trace_policy_name(applied))),
	    TP_fast_assign(__entry->policy = policy;
			   __entry->applied = applied;
			   hcube_assign_str(policy_name, hcube_trace_policy_name(policy));
			   hcube_assign_str(applied_name, hcube_trace_policy_name(applied));
			   __entry->trigger = trigger;
			   __entry->dry_run = dry_run;
			   __entry->transfers = transfers;
			   __entry->migrations = migrations;
			   __entry->moved = moved;
			   __entry->failed = failed;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("policy=%s applied=%s trigger=%u dry_run=%d transfers=%u migrations=%llu moved=%u failed=%u duration_ns=%llu",
		      __get_str(policy_name), __get_str(applied_name),
		      __entry->trigger, __entry->dry_run, __entry->transfers,
		      __entry->migrations, __entry->moved, __entry->failed,
		      __entry->duration_ns)
);

/* One task moved (or not, when err is set) between vertices. */
TRACE_EVENT(hcube_migrate,
	    TP_PROTO(pid_t pid, u32 from, u32 to, int err),
	    TP_ARGS(pid, from, to, err),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u32, from)
			     __field(u32, to)
			     __field(int, err)),
	    TP_fast_assign(__entry->pid = pid;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->err = err;),
	    TP_printk("pid=%d from=%u to=%u err=%d", __entry->pid,
		      __entry->from, __entry->to, __entry->err)
);

#endif /* _HCUBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hcube_trace
#include <trace/define_trace.h>
