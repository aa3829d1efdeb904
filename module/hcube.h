/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube: the module's shared state.
 *
 * Locking: one mutex, hcube.lock, guards everything below. Paths that take
 * it also hold the CPU hotplug read lock, taken first; the hotplug callbacks
 * run with that lock held for write and then take hcube.lock. So the order
 * is always cpu_hotplug_lock -> hcube.lock, and the online mask cannot
 * change while hcube.lock is held.
 */
#ifndef HCUBE_MODULE_H
#define HCUBE_MODULE_H

#include <linux/cpumask.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <linux/hcube.h>
#include "hcube_core.h"

#define HCUBE_NO_VERTEX		0xffff

struct hcube_vertex {
	cpumask_var_t cpus;	/* the group; empty if absent */
	cpumask_var_t usable;	/* cpus that are online and not faulty */
	u8 state;		/* enum hcube_vertex_state */
	bool marked;		/* the vertex itself is marked faulty */
	u32 load;		/* tasks on the tasks list */
	struct list_head tasks;	/* active tasks placed here */
};

struct hcube_task {
	struct hlist_node hnode;	/* hcube.by_pid */
	struct list_head vnode;		/* vertex tasks list, or hcube.changed */
	struct pid *pid;
	u32 id;				/* index in hcube.tasks */
	u16 vertex;
	u8 state;			/* enum hcube_task_state */
	bool remask_pending;		/* our last mask change failed: retry */
	cpumask_var_t orig;		/* affinity at registration */
};

struct hcube_config {
	u32 policy;
	bool autob;
	u32 threshold;
	u32 cooldown_ms;
};

struct hcube_counters {
	u64 rebalances, auto_rebalances, dry_runs;
	u64 migrations, moved, failures, evacuations;
	u64 exited, changed, registered, unregistered;
};

/* Per-task lines kept in a report. */
#define HCUBE_REPORT_TASKS	64

struct hcube_report_task {
	pid_t pid;		/* global pid; converted when sent */
	struct pid *spid;	/* referenced; for the reader's namespace */
	char comm[TASK_COMM_LEN];
	u16 vertex;
	int error;
};

struct hcube_report {
	u32 policy, trigger;
	bool dry_run;
	u32 *before, *planned, *after;	/* 1 << dim each */
	const struct hcube_plan *plan;	/* NULL when nothing was planned */
	u32 moved, failed, exited, evacuated, changed_count;
	u64 duration_ns;
	u32 nfailures, nchanged;
	struct hcube_report_task failures[HCUBE_REPORT_TASKS];
	struct hcube_report_task changed[HCUBE_REPORT_TASKS];
};

/* What the core needs for one cube size. */
struct hcube_mem {
	u8 *state;
	u32 *load, *before, *planned, *after, *scratch;
	struct hcube_route *routes;
	void *topo_mem, *plan_mem, *work;
	u16 *ctrl, *ctrl_prev;	/* pebble controllers per cluster, now and before */
};

struct hcube {
	struct mutex lock;		/* guards all of struct hcube */
	u32 mode;			/* enum hcube_mode */
	u32 dim, nv, ngroups;
	u32 cdim, nclusters;		/* pebble clusters: 2^cdim labels each */
	struct hcube_vertex *v;		/* nv entries */
	u16 *cpu_vertex;		/* nr_cpu_ids entries */
	cpumask_var_t faulty;		/* CPUs marked faulty */
	cpumask_var_t online;		/* CPUs online, as the hotplug callbacks see it */
	cpumask_var_t cube_cpus;	/* every CPU of a group */
	u32 generation;

	struct hcube_mem m;		/* core memory, sized for dim */
	struct hcube_topo topo;
	bool topo_valid;
	struct hcube_plan plan;

	/* tasks */
	DECLARE_HASHTABLE(by_pid, 10);
	struct xarray tasks;		/* by id */
	struct list_head changed;	/* tasks whose affinity others changed */
	u32 ntasks;

	struct hcube_config cfg;
	struct hcube_counters cnt;
	unsigned long last_auto;	/* jiffies of the last automatic rebalance */
	struct hcube_report report;	/* the last one built */
	struct delayed_work reap_work;
	bool stopping;
};

extern struct hcube hcube;
extern struct genl_family hcube_genl_family;
extern unsigned int hcube_max_tasks;

/* hcube_main.c */
int hcube_topology_set(struct hcube *hc, u32 mode, cpumask_var_t *groups,
		       u32 ngroups, struct netlink_ext_ack *extack);
int hcube_topology_mode(struct hcube *hc, u32 mode, struct netlink_ext_ack *extack);
cpumask_var_t *hcube_alloc_groups(void);
void hcube_free_groups(cpumask_var_t *groups);
void hcube_refresh(struct hcube *hc);
int hcube_fault_change(struct hcube *hc, int cpu, int vertex, bool add,
		       struct netlink_ext_ack *extack, const struct nlattr *attr);
void hcube_lock(struct hcube *hc);
void hcube_unlock(struct hcube *hc);
const char *hcube_mode_name(u32 mode);

/* hcube_task.c */
int hcube_tasks_init(void);
void hcube_tasks_exit(void);
struct hcube_task *hcube_task_find(struct hcube *hc, struct pid *pid);
int hcube_task_add(struct hcube *hc, struct pid **pids, u32 npids, int vertex,
		   struct hcube_task **added);
void hcube_task_del(struct hcube *hc, struct hcube_task *t, u32 reason);
int hcube_task_move(struct hcube *hc, struct hcube_task *t, u32 to);
int hcube_task_remask(struct hcube *hc, struct hcube_task *t);
u32 hcube_reap(struct hcube *hc, struct hcube_report *r);
void hcube_tasks_release_all(struct hcube *hc);
void hcube_report_task(struct hcube_report_task *rt, struct hcube_task *t,
		       int error);
int hcube_task_check(struct hcube *hc, struct task_struct *p);

/* hcube_balance.c */
int hcube_rebalance(struct hcube *hc, u32 policy, bool dry_run, u32 trigger,
		    struct netlink_ext_ack *extack);
u32 hcube_evacuate_all(struct hcube *hc, struct hcube_report *r);
void hcube_report_reset(struct hcube_report *r, struct hcube *hc);
void hcube_report_release(struct hcube_report *r);
void hcube_auto_check(struct hcube *hc);

/* hcube_nl.c */
int hcube_nl_init(void);
void hcube_nl_exit(void);
void hcube_ntf_fault(struct hcube *hc, int cpu, int vertex, u32 event,
		     u32 reason);
void hcube_ntf_topo(struct hcube *hc, u32 reason);
void hcube_ntf_task(struct hcube *hc, struct hcube_task *t, u32 reason);
void hcube_ntf_rebalance(struct hcube *hc, const struct hcube_report *r);
void hcube_ntf_controllers(struct hcube *hc, u32 reason);

#endif
