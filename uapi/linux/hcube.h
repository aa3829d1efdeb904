/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The hcube module: a machine's CPU groups as the vertices of a hypercube,
 * faulty and offline vertices, registered tasks, and their synchronous
 * rebalancing (MCWA, DEM, CWA, optimal, auto, RID, SID, SBN and its variants,
 * pebble-crunching). Every command that changes state needs CAP_NET_ADMIN;
 * those that move registered tasks (faults, topology, configuration, a
 * rebalance that is not a dry run) need CAP_SYS_NICE as well. Range violations
 * answer -ERANGE with the policy in the extended ack; vertex ids are also
 * checked against the current cube.
 *
 * Generated from Documentation/netlink/specs/hcube.yaml by
 * scripts/hcube-ynl-gen.py (the uAPI): change those, not this file.
 */
#ifndef _UAPI_LINUX_HCUBE_H
#define _UAPI_LINUX_HCUBE_H

#include <linux/types.h>

#define HCUBE_FAMILY_NAME	"hcube"
#define HCUBE_FAMILY_VERSION	1
#define HCUBE_MCGRP_EVENTS	"events"

#define HCUBE_MAX_DIM_UAPI	10	/* at most 1 << 10 vertices */
#define HCUBE_CPULIST_MAX	4096	/* longest cpulist string accepted */

/* How CPUs are grouped into vertices. */
enum hcube_mode {
	HCUBE_MODE_CPU,		/* each CPU a vertex */
	HCUBE_MODE_NODE,	/* each NUMA node */
	HCUBE_MODE_LLC,		/* each last-level-cache group */
	HCUBE_MODE_CUSTOM,	/* cpulists given in HCUBE_A_GROUP */
	__HCUBE_MODE_MAX,
	HCUBE_MODE_MAX = __HCUBE_MODE_MAX - 1,
};

enum hcube_vertex_state {
	HCUBE_VERTEX_HEALTHY,
	HCUBE_VERTEX_FAULTY,	/* marked faulty, or all its CPUs are */
	HCUBE_VERTEX_OFFLINE,	/* its usable CPUs are all offline */
	HCUBE_VERTEX_ABSENT,	/* the label has no CPU group */
	/*
	 * its CPUs that are not faulty are all isolated (isolcpus=, nohz_full=)
	 * and the module parameter isolated is 0
	 */
	HCUBE_VERTEX_ISOLATED,
	__HCUBE_VERTEX_STATE_MAX,
	HCUBE_VERTEX_STATE_MAX = __HCUBE_VERTEX_STATE_MAX - 1,
};

enum hcube_policy {
	HCUBE_POLICY_MCWA,	/* modified cube walking (faulty cubes) */
	HCUBE_POLICY_DEM,	/* dimension exchange */
	HCUBE_POLICY_CWA,	/* cube walking (fault-free cubes only) */
	HCUBE_POLICY_OPTIMAL,	/* exact fewest task-hops to a floor/ceil balance */
	/*
	 * among the plans of dem, mcwa and optimal (within its work bound) that
	 * reach the least imbalance, the one of fewest task-hops; the report's
	 * applied attribute names it
	 */
	HCUBE_POLICY_AUTO,
	HCUBE_POLICY_RID,	/* receiver-initiated diffusion, one round */
	HCUBE_POLICY_SID,	/* sender-initiated diffusion, one round */
	HCUBE_POLICY_SBN,	/* symmetric broadcast network, basic */
	HCUBE_POLICY_SBN_CUBE,	/* SBN, hypercube variant */
	HCUBE_POLICY_SBN_HEUR,	/* SBN, heuristic variant */
	HCUBE_POLICY_PEBBLE,	/* pebble-crunching, per-cluster controllers */
	__HCUBE_POLICY_MAX,
	HCUBE_POLICY_MAX = __HCUBE_POLICY_MAX - 1,
};

enum hcube_task_state {
	HCUBE_TASK_ACTIVE,	/* on its vertex, with the vertex's CPUs */
	HCUBE_TASK_CHANGED,	/* someone else changed its affinity */
	HCUBE_TASK_EXITED,	/* in events and reports only */
	HCUBE_TASK_REMOVED,	/* in events only: unregistered (a command, or let go) */
	__HCUBE_TASK_STATE_MAX,
	HCUBE_TASK_STATE_MAX = __HCUBE_TASK_STATE_MAX - 1,
};

/* What happened, in HCUBE_CMD_FAULT_NTF (HCUBE_A_EVENT). */
enum hcube_fault_event {
	HCUBE_FAULT_ADDED,	/* a CPU or vertex was marked faulty */
	HCUBE_FAULT_CLEARED,	/* the mark was removed */
	HCUBE_CPU_OFFLINE,	/* a CPU of the cube went offline */
	HCUBE_CPU_ONLINE,	/* and came back */
	__HCUBE_FAULT_EVENT_MAX,
	HCUBE_FAULT_EVENT_MAX = __HCUBE_FAULT_EVENT_MAX - 1,
};

/* Why a notification was sent (HCUBE_A_REASON). */
enum hcube_reason {
	HCUBE_REASON_ADMIN,	/* a netlink command */
	HCUBE_REASON_HOTPLUG,	/* a CPU went offline or came online */
	HCUBE_REASON_AUTO,	/* the automatic trigger */
	HCUBE_REASON_EXITED,	/* a registered task exited */
	HCUBE_REASON_CHANGED,	/* a task's affinity was changed by someone else */
	HCUBE_REASON_ADDED,	/* a task was registered */
	HCUBE_REASON_REMOVED,	/* a task was unregistered */
	HCUBE_REASON_FAULT,	/* evacuation and rebalance after a fault */
	HCUBE_REASON_FORK,	/* a child process of a registered task was registered */
	HCUBE_REASON_THREAD,	/* a new thread of a registered task was registered */
	/*
	 * a new thread or child of a registered task was not registered
	 * (max_tasks); it got its creator's original affinity
	 */
	HCUBE_REASON_REFUSED,
	/*
	 * a registered task was let go instead of moved: its registrant may no
	 * longer change its affinity, or it became SCHED_DEADLINE; it got its
	 * original affinity back
	 */
	HCUBE_REASON_REVOKED,
	/*
	 * a machine check: a CPU's corrected errors reached mce_ce_threshold
	 * within mce_ce_window seconds, or it had an uncorrected recoverable
	 * error (UC set, PCC clear) while mce_uc is on
	 */
	HCUBE_REASON_MCE,
	__HCUBE_REASON_MAX,
	HCUBE_REASON_MAX = __HCUBE_REASON_MAX - 1,
};

/*
 * What a TASK_ADD or TASK_DEL names with each HCUBE_A_PID (HCUBE_A_UNIT). A job
 * is a process: every thread it has, and on TASK_ADD every thread and child
 * process that it or any of its registered descendants creates later,
 * registered on its creator's vertex when it is created.
 */
enum hcube_unit {
	HCUBE_UNIT_JOB,		/* the process: all its threads (the default) */
	HCUBE_UNIT_TREE,	/* the process and its descendants that exist now */
	HCUBE_UNIT_THREAD,	/* that one thread; what it creates is not registered */
	__HCUBE_UNIT_MAX,
	HCUBE_UNIT_MAX = __HCUBE_UNIT_MAX - 1,
};

/*
 * Pebble-crunching clusters: the subcubes of the HCUBE_A_CLUSTER_DIM low
 * dimensions; cluster c holds the labels whose high bits are c. Each has a
 * controller, its lowest healthy label at first; a controller keeps the role
 * while it is healthy, and when it is not the cluster's lowest healthy label
 * takes over (a recovered vertex does not take it back). A cluster without a
 * controller has this value in HCUBE_A_CONTROLLERS.
 */
#define HCUBE_NO_CONTROLLER	65535

/* the highest HCUBE_A_CONFIG_THRESHOLD (HCUBE_CMD_CONFIG_SET) */
#define HCUBE_THRESHOLD_MAX	1000000

#define HCUBE_COOLDOWN_MS_MIN	10	/* the lowest HCUBE_A_CONFIG_COOLDOWN_MS */
#define HCUBE_COOLDOWN_MS_MAX	3600000	/* the highest HCUBE_A_CONFIG_COOLDOWN_MS */

/* the highest HCUBE_A_CONFIG_MCE_CE_THRESHOLD (0 turns the count off) */
#define HCUBE_MCE_CE_THRESHOLD_MAX	1000

/* the longest HCUBE_A_CONFIG_MCE_CE_WINDOW, in seconds (30 days) */
#define HCUBE_MCE_CE_WINDOW_MAX	2592000

/*
 * Commands. All use the attributes of enum hcube_attr at the top level, except
 * HCUBE_CMD_REBALANCE (request and reply) and HCUBE_CMD_REBALANCE_NTF, whose
 * top-level attributes are those of enum hcube_report_attr.
 */
enum hcube_cmd {
	HCUBE_CMD_UNSPEC,
	HCUBE_CMD_CUBE_GET,	/* summary of the cube: MODE, DIM, NVERTICES, ... GENERATION */
	/*
	 * One vertex (HCUBE_A_VERTEX_ID); a dump gives one HCUBE_A_VERTEX per
	 * vertex, or only the one HCUBE_A_VERTEX_ID names.
	 */
	HCUBE_CMD_VERTEX_GET,
	/*
	 * Rebuild the vertices from HCUBE_A_MODE, only while no task is
	 * registered. Mode custom takes one HCUBE_A_GROUP cpulist per group
	 * (1..1024 groups of present CPUs, disjoint, non-empty), labelled in
	 * the order given; labels past the last group are absent vertices.
	 */
	HCUBE_CMD_TOPO_SET,
	/*
	 * Mark a CPU or a vertex faulty (exactly one of HCUBE_A_CPU,
	 * HCUBE_A_VERTEX_ID); tasks are evacuated and rebalanced.
	 */
	HCUBE_CMD_FAULT_ADD,
	HCUBE_CMD_FAULT_DEL,	/* Clear a CPU's or a vertex's fault mark. */
	/*
	 * Register tasks: HCUBE_A_PID..., [HCUBE_A_UNIT], [HCUBE_A_VERTEX_ID].
	 * The reply counts them (NREGISTERED; NEXITED: threads and descendants
	 * that exited meanwhile, left out; NREFUSED: those that could not be
	 * registered) and has an HCUBE_A_TASK for each task a pid names (at
	 * most 64: PID, VERTEX, ...) and for the first 64 refused (PID and
	 * ERROR); HCUBE_CMD_TASK_GET lists the rest.
	 */
	HCUBE_CMD_TASK_ADD,
	/*
	 * Unregister tasks (HCUBE_A_PID..., [HCUBE_A_UNIT], or HCUBE_A_ALL) and
	 * give them their original affinity back.
	 */
	HCUBE_CMD_TASK_DEL,
	/*
	 * Dump the registered tasks visible in the caller's pid namespace: one
	 * HCUBE_A_TASK each.
	 */
	HCUBE_CMD_TASK_GET,
	/*
	 * Plan with HCUBE_A_REPORT_POLICY and, unless HCUBE_A_REPORT_DRY_RUN,
	 * move the tasks; the reply is the report, its transfer list cut after
	 * the module parameter report_transfers (TRANSFERS_CUT). A dry run's
	 * report goes to the caller only: no event, and the last rebalance's
	 * report stays. The dump moves nothing: every transfer of the last
	 * rebalance's plan or, with HCUBE_A_REPORT_DRY_RUN, of a plan made with
	 * HCUBE_A_REPORT_POLICY from the loads of now, NTRANSFERS in the first
	 * message; NLM_F_DUMP_INTR when the plan changed during the dump.
	 */
	HCUBE_CMD_REBALANCE,
	HCUBE_CMD_STATS_GET,	/* the counters, in HCUBE_A_STATS */
	HCUBE_CMD_CONFIG_GET,	/* the configuration, in HCUBE_A_CONFIG */
	HCUBE_CMD_CONFIG_SET,	/* HCUBE_A_CONFIG with the keys to change */
	/*
	 * Notifications, multicast on "events". FAULT_NTF: a fault mark or a
	 * CPU's hotplug state changed: VERTEX_ID, CPU (when a CPU changed),
	 * EVENT, STATE (the vertex's state now), REASON, CPU_INFO (when a CPU
	 * changed: who marked it, its machine checks) and the cube summary.
	 */
	HCUBE_CMD_FAULT_NTF,
	HCUBE_CMD_TOPO_NTF,	/* the vertices were rebuilt: the cube summary and REASON */
	/*
	 * a task was registered, unregistered, exited or changed: one
	 * HCUBE_A_TASK with HCUBE_A_TASK_REASON
	 */
	HCUBE_CMD_TASK_NTF,
	/*
	 * a rebalance happened (a dry run sends none); the report, as in the
	 * REBALANCE reply, its transfer list cut in the same way
	 */
	HCUBE_CMD_REBALANCE_NTF,
	/*
	 * A pebble cluster's controller changed (it became faulty or offline,
	 * or the cluster had none): CLUSTER, CLUSTER_DIM, CONTROLLER_OLD and
	 * CONTROLLER_NEW (each absent for none), REASON, GENERATION. Not sent
	 * for the initial election of a topology (TOPO_NTF).
	 */
	HCUBE_CMD_CONTROLLER_NTF,
	__HCUBE_CMD_MAX,
	HCUBE_CMD_MAX = __HCUBE_CMD_MAX - 1,
};

enum hcube_attr {
	HCUBE_A_UNSPEC,
	HCUBE_A_PAD,
	HCUBE_A_MODE,		/* u32, enum hcube_mode */
	HCUBE_A_DIM,		/* u32 */
	HCUBE_A_NVERTICES,	/* u32: 1 << dim */
	HCUBE_A_NHEALTHY,	/* u32 */
	HCUBE_A_NATTACHED,	/* u32: healthy vertices joined to C_b */
	HCUBE_A_NTASKS,		/* u32: registered tasks */
	HCUBE_A_CB_BASE,	/* u32: fixed bits of the balancing subcube */
	HCUBE_A_CB_MASK,	/* u32: its free dimensions */
	HCUBE_A_CB_PATTERN,	/* string: e.g. "X0X1" */
	HCUBE_A_TREE_DEPTH,	/* u32 */
	HCUBE_A_GENERATION,	/* u32: bumped by every topology or state change */
	/*
	 * string; repeated: a cpulist ("0-3,8"), one per vertex, for TOPO_SET
	 * mode custom
	 */
	HCUBE_A_GROUP,
	HCUBE_A_VERTEX,		/* nest, enum hcube_vertex_attr */
	/*
	 * u32: a CPU id, 0 .. nr_cpu_ids - 1 (the module's policy has that
	 * range)
	 */
	HCUBE_A_CPU,
	HCUBE_A_VERTEX_ID,	/* u32 */
	/* u32; repeated: in the caller's pid namespace, 1 .. PID_MAX_LIMIT */
	HCUBE_A_PID,
	HCUBE_A_ALL,		/* flag: TASK_DEL of every registered task */
	HCUBE_A_TASK,		/* nest, enum hcube_task_attr; repeated */
	HCUBE_A_STATS,		/* nest, enum hcube_stats_attr */
	HCUBE_A_CONFIG,		/* nest, enum hcube_config_attr */
	HCUBE_A_REASON,		/* u32, enum hcube_reason: notifications */
	HCUBE_A_STATE,		/* u32, enum hcube_vertex_state: FAULT_NTF */
	HCUBE_A_EVENT,		/* u32, enum hcube_fault_event: FAULT_NTF */
	/*
	 * u32: pebble-crunching clusters are the subcubes of this many low
	 * dimensions (min(dim, 3)); cluster c holds the labels whose high bits
	 * are c
	 */
	HCUBE_A_CLUSTER_DIM,
	/*
	 * binary of __u16: one per cluster: its controller (the lowest healthy
	 * label at first; kept while healthy; on failure the lowest healthy
	 * label takes over, a recovered vertex does not take the role back), or
	 * HCUBE_NO_CONTROLLER
	 */
	HCUBE_A_CONTROLLERS,
	HCUBE_A_CLUSTER,	/* u32: a cluster (the labels' high bits), CONTROLLER_NTF */
	HCUBE_A_CONTROLLER_OLD,	/* u32: the cluster's controller before (absent: none) */
	HCUBE_A_CONTROLLER_NEW,	/* u32: and now (absent: none) */
	HCUBE_A_UNIT,		/* u32, enum hcube_unit: TASK_ADD, TASK_DEL */
	HCUBE_A_NREGISTERED,	/* u32: TASK_ADD's reply: tasks it registered */
	/*
	 * u32: TASK_ADD's reply: threads and descendants left out, gone before
	 * they could be registered
	 */
	HCUBE_A_NEXITED,
	/*
	 * u32: TASK_ADD's reply: threads and descendants not registered (the
	 * first come as HCUBE_A_TASK with HCUBE_A_TASK_ERROR)
	 */
	HCUBE_A_NREFUSED,
	/*
	 * nest, enum hcube_cpu_info_attr: FAULT_NTF of a CPU: who made it
	 * unusable, and its machine checks
	 */
	HCUBE_A_CPU_INFO,
	__HCUBE_A_MAX,
	HCUBE_A_MAX = __HCUBE_A_MAX - 1,
};

enum hcube_vertex_attr {
	HCUBE_A_VERTEX_INFO_UNSPEC,
	HCUBE_A_VERTEX_INFO_ID,	/* u32: label */
	HCUBE_A_VERTEX_INFO_STATE,	/* u32, enum hcube_vertex_state */
	HCUBE_A_VERTEX_INFO_CPUS,	/* string: the vertex's CPU group (a cpulist) */
	HCUBE_A_VERTEX_INFO_USABLE_CPUS,	/* string: group minus faulty and offline */
	HCUBE_A_VERTEX_INFO_FAULTY_CPUS,	/* string */
	HCUBE_A_VERTEX_INFO_OFFLINE_CPUS,	/* string */
	HCUBE_A_VERTEX_INFO_LOAD,	/* u32: active registered tasks */
	HCUBE_A_VERTEX_INFO_IN_CB,	/* flag: in the balancing subcube */
	HCUBE_A_VERTEX_INFO_PARENT,	/* s32: tree parent, -1 if none */
	HCUBE_A_VERTEX_INFO_DIST,	/* u32: hops to C_b (absent if detached) */
	HCUBE_A_VERTEX_INFO_OMEGA,	/* u32: vertex plus descendants */
	HCUBE_A_VERTEX_INFO_DETACHED,	/* flag: healthy, no healthy path to C_b */
	HCUBE_A_VERTEX_INFO_MARKED,	/* flag: the vertex itself is marked faulty */
	HCUBE_A_VERTEX_INFO_CONTROLLER,	/* flag: the controller of its pebble cluster */
	/*
	 * string: Its CPUs outside the scheduler's housekeeping (isolcpus=,
	 * nohz_full=): not usable unless the module parameter isolated is 1.
	 */
	HCUBE_A_VERTEX_INFO_ISOLATED_CPUS,
	/*
	 * nest, enum hcube_cpu_info_attr; repeated: one per CPU of the vertex
	 * that is faulty, offline or had a machine check of its own (an error
	 * of the core) since the module was loaded
	 */
	HCUBE_A_VERTEX_INFO_CPU_INFO,
	__HCUBE_A_VERTEX_INFO_MAX,
	HCUBE_A_VERTEX_INFO_MAX = __HCUBE_A_VERTEX_INFO_MAX - 1,
};

/* One CPU (HCUBE_A_VERTEX_INFO_CPU_INFO, HCUBE_A_CPU_INFO). */
enum hcube_cpu_info_attr {
	HCUBE_A_CPU_INFO_UNSPEC,
	HCUBE_A_CPU_INFO_PAD,
	HCUBE_A_CPU_INFO_CPU,	/* u32 */
	/*
	 * u32, enum hcube_reason: who made it unusable: admin (fault add), mce
	 * (a machine check) or hotplug (it is offline); absent while it is
	 * usable
	 */
	HCUBE_A_CPU_INFO_MARKED_BY,
	/*
	 * u64: its own machine-check records since the module was loaded:
	 * errors of the core itself (records of memory, buses, the shared cache
	 * or the firmware are counted in STATS, against no CPU)
	 */
	HCUBE_A_CPU_INFO_MCE_RECORDS,
	/*
	 * u32: its corrected errors within the window: when a machine check
	 * marked it, the count that did; else the count now
	 */
	HCUBE_A_CPU_INFO_MCE_COUNT,
	HCUBE_A_CPU_INFO_MCE_WINDOW,	/* u32: that window, in seconds */
	HCUBE_A_CPU_INFO_MCE_BANK,	/* u32: the bank of its last own record */
	HCUBE_A_CPU_INFO_MCE_STATUS,	/* u64: the MCi_STATUS of its last own record */
	/*
	 * flag: a machine check marked it for an uncorrected recoverable error
	 */
	HCUBE_A_CPU_INFO_MCE_UC,
	__HCUBE_A_CPU_INFO_MAX,
	HCUBE_A_CPU_INFO_MAX = __HCUBE_A_CPU_INFO_MAX - 1,
};

enum hcube_task_attr {
	HCUBE_A_TASK_UNSPEC,
	HCUBE_A_TASK_PID,	/* u32: in the reader's pid namespace */
	HCUBE_A_TASK_TGID,	/* u32 */
	HCUBE_A_TASK_COMM,	/* string */
	HCUBE_A_TASK_VERTEX,	/* u32 */
	HCUBE_A_TASK_STATE,	/* u32, enum hcube_task_state */
	HCUBE_A_TASK_ORIG_CPUS,	/* string: affinity at registration (a cpulist) */
	HCUBE_A_TASK_CPUS,	/* string: affinity now (a cpulist) */
	HCUBE_A_TASK_ERROR,	/* s32: -errno of a failed move */
	HCUBE_A_TASK_REASON,	/* u32, enum hcube_reason: TASK_NTF */
	/* u32, enum hcube_reason: how it was added: admin, fork or thread */
	HCUBE_A_TASK_ORIGIN,
	HCUBE_A_TASK_UNIT,	/* u32, enum hcube_unit: job (what it creates joins) or thread */
	/* u32: pid of the task that created it, in the reader's namespace */
	HCUBE_A_TASK_CREATOR,
	__HCUBE_A_TASK_MAX,
	HCUBE_A_TASK_MAX = __HCUBE_A_TASK_MAX - 1,
};

/* The top-level attributes of REBALANCE and REBALANCE_NTF messages. */
enum hcube_report_attr {
	HCUBE_A_REPORT_UNSPEC,
	HCUBE_A_REPORT_PAD,
	HCUBE_A_REPORT_POLICY,	/* u32, enum hcube_policy */
	HCUBE_A_REPORT_DRY_RUN,	/* flag */
	HCUBE_A_REPORT_TRIGGER,	/* u32, enum hcube_reason */
	HCUBE_A_REPORT_LOADS_BEFORE,	/* binary of __u32: one per vertex */
	HCUBE_A_REPORT_LOADS_PLAN,	/* binary of __u32: one per vertex, the plan's result */
	HCUBE_A_REPORT_LOADS_AFTER,	/* binary of __u32: one per vertex, after moving */
	/*
	 * nest, enum hcube_transfer_attr; repeated: one per transfer of the
	 * plan, in order (none when nothing moves)
	 */
	HCUBE_A_REPORT_TRANSFER,
	HCUBE_A_REPORT_NTRANSFERS,	/* u32 */
	HCUBE_A_REPORT_STEPS,	/* u32 */
	HCUBE_A_REPORT_COMM_STEPS,	/* u32 */
	HCUBE_A_REPORT_MIGRATIONS,	/* u64: task-hops of the plan */
	HCUBE_A_REPORT_MOVED,	/* u32: tasks moved (each once) */
	HCUBE_A_REPORT_FAILED,	/* u32: moves that failed */
	HCUBE_A_REPORT_FAILURE,	/* nest, enum hcube_task_attr; repeated */
	HCUBE_A_REPORT_CHANGED,	/* nest, enum hcube_task_attr; repeated */
	HCUBE_A_REPORT_EXITED,	/* u32: tasks found exiting, not moved */
	HCUBE_A_REPORT_EVACUATED,	/* u32: tasks moved off failing vertices */
	HCUBE_A_REPORT_DURATION_NS,	/* u64 */
	HCUBE_A_REPORT_CB_PATTERN,	/* string: CB_PATTERN and TREE_DEPTH only */
	HCUBE_A_REPORT_TREE_DEPTH,	/* u32: when the applied policy is MCWA or CWA */
	/*
	 * u32, enum hcube_policy: the policy whose plan ran (auto's choice;
	 * else the policy itself)
	 */
	HCUBE_A_REPORT_APPLIED,
	/*
	 * u32: messages of load information and control the policy sends, as
	 * its paper counts them (task transfers are not messages)
	 */
	HCUBE_A_REPORT_MESSAGES,
	/*
	 * u32: the planned loads' distance from balance: the sum over healthy
	 * vertices of how far each lies outside its component's floor/ceil
	 * average band (0 when balanced)
	 */
	HCUBE_A_REPORT_IMBALANCE,
	HCUBE_A_REPORT_CONTENDED,	/* u32: pebble only: receivers in more than one pebble */
	/*
	 * flag: the transfer list stops before NTRANSFERS: a reply or an event
	 * carries the plan's first transfers only (the module parameter
	 * report_transfers); a REBALANCE dump gives them all
	 */
	HCUBE_A_REPORT_TRANSFERS_CUT,
	/*
	 * flag: the policy's whole operation would have left a higher maximum
	 * load than the cube had before (Das et al.'s SBN operation often
	 * does): the plan is cut after the step that leaves the lowest maximum
	 * not above the one before, possibly before its first step
	 */
	HCUBE_A_REPORT_STOPPED_SHORT,
	__HCUBE_A_REPORT_MAX,
	HCUBE_A_REPORT_MAX = __HCUBE_A_REPORT_MAX - 1,
};

/* One transfer of a plan (HCUBE_A_REPORT_TRANSFER). */
enum hcube_transfer_attr {
	HCUBE_A_TRANSFER_UNSPEC,
	HCUBE_A_TRANSFER_STEP,	/* u32: the plan's step, from 0 */
	HCUBE_A_TRANSFER_FROM,	/* u32: the vertex that sends */
	HCUBE_A_TRANSFER_TO,	/* u32: its neighbour that receives */
	HCUBE_A_TRANSFER_COUNT,	/* u32: tasks sent */
	__HCUBE_A_TRANSFER_MAX,
	HCUBE_A_TRANSFER_MAX = __HCUBE_A_TRANSFER_MAX - 1,
};

enum hcube_stats_attr {
	HCUBE_A_STATS_UNSPEC,
	HCUBE_A_STATS_PAD,
	HCUBE_A_STATS_REBALANCES,	/* u64: rebalances applied */
	HCUBE_A_STATS_AUTO_REBALANCES,	/* u64: of those, by the automatic trigger */
	HCUBE_A_STATS_DRY_RUNS,	/* u64 */
	HCUBE_A_STATS_MIGRATIONS,	/* u64: task-hops planned by applied rebalances */
	HCUBE_A_STATS_MOVED,	/* u64: tasks moved by rebalances */
	HCUBE_A_STATS_FAILURES,	/* u64: moves that failed */
	HCUBE_A_STATS_EVACUATIONS,	/* u64: tasks moved off failing vertices */
	HCUBE_A_STATS_EXITED,	/* u64: registered tasks that exited */
	HCUBE_A_STATS_CHANGED,	/* u64: affinity changes by others detected */
	HCUBE_A_STATS_REGISTERED,	/* u64: tasks ever registered */
	HCUBE_A_STATS_UNREGISTERED,	/* u64: tasks unregistered by command */
	HCUBE_A_STATS_TASKS,	/* u64: registered now */
	HCUBE_A_STATS_ADOPTED,	/* u64: of the registered, new threads and children */
	HCUBE_A_STATS_REFUSED,	/* u64: new threads and children not registered (max_tasks) */
	/*
	 * u64: new threads and children of thread-unit tasks, given their
	 * creator's original affinity
	 */
	HCUBE_A_STATS_RELEASED,
	/*
	 * u64: creations the event ring could not hold, found again by a scan
	 */
	HCUBE_A_STATS_EVENTS_LOST,
	/*
	 * u64: registered tasks let go instead of moved: their registrant may
	 * no longer change their affinity, or they became SCHED_DEADLINE
	 */
	HCUBE_A_STATS_REVOKED,
	/* u64: machine-check records the module saw, of every kind */
	HCUBE_A_STATS_MCE_RECORDS,
	HCUBE_A_STATS_MCE_MARKS,	/* u64: CPUs marked faulty by machine checks */
	/*
	 * u64: records of a core's own error of CPUs in no vertex of the cube,
	 * ignored
	 */
	HCUBE_A_STATS_MCE_OUTSIDE,
	/* u64: records of a core's own error of offline CPUs, ignored */
	HCUBE_A_STATS_MCE_OFFLINE,
	/*
	 * u64: records of a core's own error that found their CPU already
	 * faulty, or the module unloading, ignored
	 */
	HCUBE_A_STATS_MCE_IGNORED,
	/*
	 * u64: marks a machine check asked for and the module refused: the
	 * CPU's vertex was the last healthy one
	 */
	HCUBE_A_STATS_MCE_REFUSED,
	/*
	 * u64: records of memory errors (memory controller, generic cache
	 * hierarchy; AMD SMCA UMC banks): not the logging CPU's fault, counted
	 * against no CPU
	 */
	HCUBE_A_STATS_MCE_MEMORY,
	/*
	 * u64: records of bus, interconnect, I/O and external errors (AMD SMCA
	 * data fabric and I/O units): counted against no CPU
	 */
	HCUBE_A_STATS_MCE_BUS,
	/*
	 * u64: records of cache and TLB errors of the generic level, the shared
	 * last-level cache (AMD SMCA L3 banks): counted against no CPU
	 */
	HCUBE_A_STATS_MCE_SHARED_CACHE,
	/*
	 * u64: records the firmware reported (APEI firmware-first: bank 255, or
	 * neither graded nor time-stamped by the kernel): counted against no
	 * CPU
	 */
	HCUBE_A_STATS_MCE_FIRMWARE,
	/*
	 * u64: records of no core's error: unclassified (0x0001), SMM handler
	 * access violation, reserved or model-specific codes, AMD SMCA units of
	 * no core (PSP, SMU, ...): counted against no CPU
	 */
	HCUBE_A_STATS_MCE_OTHER,
	__HCUBE_A_STATS_MAX,
	HCUBE_A_STATS_MAX = __HCUBE_A_STATS_MAX - 1,
};

enum hcube_config_attr {
	HCUBE_A_CONFIG_UNSPEC,
	HCUBE_A_CONFIG_POLICY,	/* u32, enum hcube_policy: default policy */
	HCUBE_A_CONFIG_AUTO,	/* u32: automatic trigger on (1) or off (0) */
	HCUBE_A_CONFIG_THRESHOLD,	/* u32: a healthy vertex below this load triggers */
	HCUBE_A_CONFIG_COOLDOWN_MS,	/* u32: at most one automatic rebalance per this */
	/* u32: read-only (module parameter max_tasks); refused in CONFIG_SET */
	HCUBE_A_CONFIG_MAX_TASKS,
	/*
	 * u32: this many corrected machine-check errors of a CPU within
	 * mce-ce-window seconds mark it faulty; 0 (the default) turns it off.
	 * x86 kernels with CONFIG_X86_MCE only
	 */
	HCUBE_A_CONFIG_MCE_CE_THRESHOLD,
	/* u32: the window of mce-ce-threshold, in seconds (default 86400) */
	HCUBE_A_CONFIG_MCE_CE_WINDOW,
	/*
	 * u32: an uncorrected recoverable error (UC set, PCC clear) marks its
	 * CPU faulty at once (1) or is only counted (0, the default)
	 */
	HCUBE_A_CONFIG_MCE_UC,
	__HCUBE_A_CONFIG_MAX,
	HCUBE_A_CONFIG_MAX = __HCUBE_A_CONFIG_MAX - 1,
};

#endif /* _UAPI_LINUX_HCUBE_H */
