/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube: the messages of the module's extended acks, in one place. The
 * module sends them and hcubectl's fake kernel (selftests/hcubectl/
 * fakekernel.c) answers with the same words, so hcubectl's tests see what
 * users see. Plain C, for both.
 *
 * Each names the attribute it is about first, as hcubectl prints it.
 */
#ifndef HCUBE_ERRORS_H
#define HCUBE_ERRORS_H

/* vertices and CPUs */
#define HCUBE_ERR_VERTEX_REQUIRED	"HCUBE_A_VERTEX_ID is required"
#define HCUBE_ERR_VERTEX_RANGE		"HCUBE_A_VERTEX_ID: vertex id out of range for this cube"
#define HCUBE_ERR_VERTEX_UNHEALTHY	"HCUBE_A_VERTEX_ID: the vertex is not healthy"
#define HCUBE_ERR_VERTEX_ABSENT		"HCUBE_A_VERTEX_ID: the vertex is absent (no CPU group)"
#define HCUBE_ERR_VERTEX_MARKED		"HCUBE_A_VERTEX_ID: the vertex is already marked faulty"
#define HCUBE_ERR_VERTEX_UNMARKED	"HCUBE_A_VERTEX_ID: the vertex is not marked faulty"
#define HCUBE_ERR_VERTEX_LAST \
	"HCUBE_A_VERTEX_ID: marking the vertex faulty would leave no healthy vertex"
#define HCUBE_ERR_CPU_OR_VERTEX		"HCUBE_A_CPU or HCUBE_A_VERTEX_ID is required"
#define HCUBE_ERR_CPU_AND_VERTEX	"give HCUBE_A_CPU or HCUBE_A_VERTEX_ID, not both"
#define HCUBE_ERR_CPU_ABSENT \
	"HCUBE_A_CPU: the CPU is not present (see /sys/devices/system/cpu/present)"
#define HCUBE_ERR_CPU_OUTSIDE		"HCUBE_A_CPU: the CPU is in no vertex of the cube"
#define HCUBE_ERR_CPU_MARKED		"HCUBE_A_CPU: the CPU is already marked faulty"
#define HCUBE_ERR_CPU_UNMARKED		"HCUBE_A_CPU: the CPU is not marked faulty"
#define HCUBE_ERR_CPU_LAST \
	"HCUBE_A_CPU: marking the CPU faulty would leave no healthy vertex"

/* topology */
#define HCUBE_ERR_MODE_REQUIRED		"HCUBE_A_MODE is required (0 cpu .. 3 custom)"
#define HCUBE_ERR_MODE_TASKS		"HCUBE_A_MODE: tasks are registered; unregister them first"
#define HCUBE_ERR_MODE_TOO_MANY \
	"HCUBE_A_MODE: more than 1024 groups; use node or llc mode"
#define HCUBE_ERR_GROUP_REQUIRED \
	"HCUBE_A_GROUP is required with mode custom (one cpulist per vertex)"
#define HCUBE_ERR_GROUP_NOT_CUSTOM	"HCUBE_A_GROUP: only with mode custom"
#define HCUBE_ERR_GROUP_TOO_MANY	"HCUBE_A_GROUP: at most 1024 groups"
#define HCUBE_ERR_GROUP_CPULIST \
	"HCUBE_A_GROUP: not a cpulist (like 0-3,8) of CPUs below nr_cpu_ids"
#define HCUBE_ERR_GROUP_EMPTY		"HCUBE_A_GROUP: empty group"
#define HCUBE_ERR_GROUP_ABSENT		"HCUBE_A_GROUP: CPUs that are not present"
#define HCUBE_ERR_GROUP_OVERLAP		"HCUBE_A_GROUP: CPUs already in another group"

/* tasks */
#define HCUBE_ERR_PID_REQUIRED		"HCUBE_A_PID is required (1..4194304)"
#define HCUBE_ERR_PID_NONE \
	"HCUBE_A_PID: no such process in the caller's pid namespace"
#define HCUBE_ERR_PID_KTHREAD		"HCUBE_A_PID: a kernel thread cannot be registered"
#define HCUBE_ERR_PID_IO_THREAD \
	"HCUBE_A_PID: an io_uring thread (PF_IO_WORKER) cannot be registered: io_uring sets its affinity (IORING_SETUP_SQ_AFF, IORING_REGISTER_IOWQ_AFF)"
#define HCUBE_ERR_PID_EXITING		"HCUBE_A_PID: the process is exiting"
#define HCUBE_ERR_PID_NO_SETAFFINITY \
	"HCUBE_A_PID: the task does not allow affinity changes (PF_NO_SETAFFINITY)"
#define HCUBE_ERR_PID_CPUSET \
	"HCUBE_A_PID: the task's cpuset allows no usable CPU of the vertex (or of any healthy vertex)"
#define HCUBE_ERR_PID_REGISTERED	"HCUBE_A_PID: the task is already registered"
#define HCUBE_ERR_PID_TWICE		"HCUBE_A_PID: the task is given twice"
#define HCUBE_ERR_PID_MAX_TASKS \
	"HCUBE_A_PID: too many tasks (module parameter max_tasks)"
#define HCUBE_ERR_PID_PERM \
	"HCUBE_A_PID: not permitted: only the task's owner, or CAP_SYS_NICE in its user namespace, may change its affinity"
#define HCUBE_ERR_PID_CAPS \
	"HCUBE_A_PID: not permitted: the task has permitted capabilities the caller lacks; only CAP_SYS_NICE in its user namespace may change its affinity"
#define HCUBE_ERR_PID_DEADLINE \
	"HCUBE_A_PID: a SCHED_DEADLINE task (sched_setaffinity() refuses it too)"
#define HCUBE_ERR_PID_UNREGISTERED	"HCUBE_A_PID: the task is not registered"
#define HCUBE_ERR_ALL_WITH_PID \
	"HCUBE_A_ALL: not with HCUBE_A_PID or HCUBE_A_UNIT"
#define HCUBE_ERR_ALL_OTHERS \
	"HCUBE_A_ALL: tasks the caller may not change are registered (of others, or with capabilities it lacks): it takes CAP_SYS_NICE"

/* rebalancing and settings */
/* printf format: the policy's name, its fallback's name */
#define HCUBE_ERR_POLICY_FAULT_FREE_FMT \
	"HCUBE_A_REPORT_POLICY: %s needs a fault-free cube (every vertex healthy); use %s"
#define HCUBE_ERR_POLICY_PLAN_SIZE \
	"HCUBE_A_REPORT_POLICY: the policy's plan needs more transfers than a plan holds; try mcwa or optimal"
#define HCUBE_ERR_POLICY_BUDGET \
	"HCUBE_A_REPORT_POLICY: no candidate plan within its work bound; try mcwa or dem"
#define HCUBE_ERR_NO_HEALTHY		"no healthy vertex to balance on"
#define HCUBE_ERR_CONFIG_REQUIRED	"HCUBE_A_CONFIG is required"
#define HCUBE_ERR_MCE_THRESHOLD_NONE \
	"HCUBE_A_CONFIG_MCE_CE_THRESHOLD: this kernel has no machine-check records (x86 with CONFIG_X86_MCE only); only 0"
#define HCUBE_ERR_MCE_UC_NONE \
	"HCUBE_A_CONFIG_MCE_UC: this kernel has no machine-check records (x86 with CONFIG_X86_MCE only); only 0"
#define HCUBE_ERR_NO_PLAN \
	"no rebalance's plan to list: none since the last change of the cube; HCUBE_A_REPORT_DRY_RUN lists a plan made now"
#define HCUBE_ERR_SYS_NICE \
	"moving registered tasks needs CAP_SYS_NICE as well as CAP_NET_ADMIN"

#endif /* HCUBE_ERRORS_H */
