/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube: the module's shared state.
 *
 * Locking, outermost first:
 *
 * - hcube.lock, a mutex, guards struct hcube but for what follows. The
 *   netlink ops (the family is parallel_ops), the module's worker and its
 *   pass take it. Inside it: a cpuset's files are read (the kernfs lock
 *   and the cpuset's callback_lock, taken by the cpuset's own code), and
 *   the CPU hotplug lock is taken (for reading) for a snapshot of the
 *   present CPUs' topology (TOPO_SET, and at load) and around a batch of
 *   at most HCUBE_BATCH mask changes (hcube_batch_set()), never around a
 *   cpuset read nor held when a command's work begins (hcube_drain() and
 *   hcube_set_within() drop it: hcube_moves_unlock_cpus()). No path
 *   takes hcube.lock while holding the hotplug lock.
 * - hcube.hp_lock, a spinlock, guards what the CPU hotplug callbacks
 *   record: hp_online, hp_pending and the offline counts. The callbacks
 *   take only it, record the change and queue the worker, which applies
 *   it under hcube.lock: nothing proportional to tasks or plans runs
 *   under the hotplug lock.
 * - hcube_mce.lock, a spinlock (hcube_mce.c), guards the machine-check
 *   records: the MCE decode chain's callback takes only it, records and
 *   queues the worker, which marks CPUs under hcube.lock; under hcube.lock
 *   it is taken to read or reset them.
 * - hcube.hash_lock, a spinlock, makes a look-up in hcube.by_task and the
 *   change it decides one step, inside hcube.lock or alone (a new task
 *   registering itself).
 * - the births' pool lock, a raw spinlock, taken alone by the fork probe.
 *
 * The tracepoint probes take no lock: they look records up under RCU.
 */
#ifndef HCUBE_MODULE_H
#define HCUBE_MODULE_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/refcount.h>
#include <linux/rhashtable.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include "hcube_compat.h"
#include <net/genetlink.h>
#include <linux/hcube.h>
#include "hcube_core.h"

#define HCUBE_NO_VERTEX		0xffff

struct hcube_vertex {
	cpumask_var_t cpus;	/* the group; empty if absent */
	cpumask_var_t usable;	/* cpus that are online and not faulty */
	u8 state;		/* enum hcube_vertex_state */
	bool marked;		/* the vertex itself is marked faulty */
	bool dirty;		/* usable changed: its tasks need new masks */
	u32 load;		/* tasks on the tasks list */
	struct list_head tasks;	/* active tasks placed here */
};

/*
 * Who registered a task: the sender of the TASK_ADD and the opener of its
 * socket. Kept, shared by the job's records, and asked again before each
 * move (hcube_perm.c).
 */
struct hcube_creds {
	refcount_t ref;
	const struct cred *sender;
	const struct cred *opener;	/* or NULL */
	bool any;		/* both may change any task's affinity */
};

/*
 * A registered task. It holds a reference on its task_struct: the identity
 * of a registered thread is its task, not its pid number, which a
 * non-leader thread's exec swaps with the leader's.
 *
 * Life: a record is created pending (a new thread or child: inserted in
 * the hash by its own task_work, before it runs user code) or linked
 * directly (a TASK_ADD); linked means on a vertex's task list (active) or
 * on hcube.changed, in hcube.tasks and counted. It is found by the
 * tracepoint probes in hcube.by_task under RCU, and freed after an RCU
 * grace period when its last reference goes.
 *
 * What a move reads and writes comes last, cache-line aligned, and the
 * mask hcube gave the task right after it: one cache line for a move on
 * a machine of up to 64 CPUs.
 */
struct hcube_task {
	struct rhash_head hnode;	/* hcube.by_task, RCU */
	struct llist_node exit_node;	/* hcube.exits */
	struct llist_node adopt_node;	/* hcube.adopts */
	struct pid *creator;		/* referenced, or NULL (admin) */
	struct hcube_task *creator_rec;	/* pending only: its creator's, referenced */
	struct pid *exit_pid;		/* referenced: its pid when it exited */
	struct hcube_creds *creds;	/* the registrant's, referenced */
	u64 reg_ns;			/* ktime_get_ns() when it was hashed */
	/*
	 * ktime_get_ns() just before hcube began to give the given mask, and
	 * the previous one: which mask a task created at a given time
	 * inherited (hcube_mask_inherited_at()). 0: none yet.
	 */
	u64 given_ns, prev_ns;
	refcount_t ref;
	u32 id;				/* index in hcube.tasks, once linked */
	u32 job;			/* the TASK_ADD unit it belongs to */
	u8 origin;			/* HCUBE_REASON_ADMIN, _FORK or _THREAD */
	u8 unit;			/* HCUBE_UNIT_JOB or _THREAD */
	struct rcu_head rcu;
	struct {
		struct list_head vnode;	/* vertex tasks list, or hcube.changed */
		struct task_struct *task;	/* referenced; the hash key */
		unsigned long flags;	/* HCUBE_TF_* bits */
		u32 epoch;		/* its vertex's offline count when masked */
		u32 hp_gen;		/* hcube.hp_gen when masked */
		u64 cs_serial;		/* its cpuset's css serial_nr when masked */
		u16 vertex;
		u32 walk;		/* the last walk that looked at it */
		u8 state;		/* enum hcube_task_state */
		bool remask_pending;	/* our last mask change failed: retry */
	} ____cacheline_aligned;
	/*
	 * cpumask_size() bytes each: the mask hcube last gave it; its
	 * affinity at registration (for a new thread or child, its
	 * creator's); what its cpuset allowed when hcube gave the mask; and
	 * the mask hcube gave before that one (hcube_mask.c says what each
	 * decides).
	 */
	unsigned long masks[];
};

/* The masks of a record (struct hcube_task.masks) */
#define HCUBE_TASK_NMASKS	4

/* hcube_task.flags */
enum {
	HCUBE_TF_LINKED,	/* on a list, in hcube.tasks, counted */
	HCUBE_TF_EXIT_QUEUED,	/* on hcube.exits */
	HCUBE_TF_EXITED,	/* the exit probe saw it */
	HCUBE_TF_GONE,		/* unregistered: out of the hash or leaving it */
	HCUBE_TF_REMOVED,	/* unregistered by a command or the unload */
	HCUBE_TF_ROOT,		/* a thread of the process a TASK_ADD pid named */
	HCUBE_TF_MOVED,		/* given a mask since the last verification */
};

static inline struct cpumask *hcube_task_given(struct hcube_task *t)
{
	return to_cpumask(t->masks);
}

static inline struct cpumask *hcube_task_orig(struct hcube_task *t)
{
	return (struct cpumask *)((char *)t->masks + cpumask_size());
}

/* What its cpuset allowed when hcube gave it its mask (hcube_task_give()). */
static inline struct cpumask *hcube_task_cs(struct hcube_task *t)
{
	return (struct cpumask *)((char *)t->masks + 2 * cpumask_size());
}

/*
 * The mask hcube gave before the given one: a child created while hcube
 * changed its creator's mask carries it (hcube_mask_inherited()).
 */
static inline struct cpumask *hcube_task_prev(struct hcube_task *t)
{
	return (struct cpumask *)((char *)t->masks + 3 * cpumask_size());
}

struct hcube_config {
	u32 policy;
	bool autob;
	u32 threshold;
	u32 cooldown_ms;
	u32 mce_ce_threshold;		/* 0: off */
	u32 mce_ce_window;		/* seconds */
	bool mce_uc;
};

/* mce_ce_window when the module loads: a day, as rasdaemon's cycle */
#define HCUBE_MCE_CE_WINDOW_DEFAULT	86400

struct hcube_counters {
	u64 rebalances, auto_rebalances, dry_runs;
	u64 migrations, moved, failures, evacuations;
	u64 exited, changed, registered, unregistered;
	u64 adopted, revoked;
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

/*
 * What an event is about, for hcube_notify(): each *_NTF command of the
 * family reads its own fields.
 */
struct hcube_ntf {
	u32 reason;			/* HCUBE_REASON_*: what caused it */
	/* FAULT_NTF: a CPU (-1: the vertex itself) and its vertex */
	int cpu;
	u32 vertex;
	u32 event;			/* HCUBE_FAULT_* or HCUBE_CPU_* */
	/* TASK_NTF: a record, or (NULL) a new task @p of @creator refused */
	struct hcube_task *task;
	struct task_struct *p, *creator;
	const struct hcube_report *report;	/* REBALANCE_NTF */
};

/* The masks a batch of moves set, verified against the cpusets after. */
#define HCUBE_BATCH	64

struct hcube_batch {
	u32 n;
	u32 verifies;		/* so far: a walk whose next task one moved restarts */
	u32 walks;		/* the last walk's id (struct hcube_walk) */
	bool cpus_locked;	/* the CPU hotplug lock, held for the batch */
	bool verifying;		/* hcube_moves_flush() at work */
	struct hcube_task *t[HCUBE_BATCH];
};

/* What the cpusets of the tasks at hand allow, read once an operation. */
#define HCUBE_CS_ENTRIES	8

struct hcube_cs_cache {
	u32 n, next;
	u32 gen;		/* the verification round (hcube_cs_new_round()) */
	struct {
		u64 serial;	/* its css's serial_nr (none: 0) */
		bool ok;	/* read: else the entry is empty */
		cpumask_var_t allowed;
		u32 fresh;	/* read in verification round gen */
	} e[HCUBE_CS_ENTRIES];
	char *buf;		/* a cpuset file's text */
	size_t bufsize;
	/* the mask of the task at hand, as its last check saw it */
	cpumask_var_t seen;
};

struct hcube {
	struct mutex lock;		/* guards all of struct hcube */
	u32 mode;			/* enum hcube_mode */
	u32 dim, nv, ngroups;
	u32 cdim, nclusters;		/* pebble clusters: 2^cdim labels each */
	struct hcube_vertex *v;		/* nv entries */
	u16 *cpu_vertex;		/* nr_cpu_ids entries; read without the lock */
	u32 *voff;			/* HCUBE_MAX_VERTICES: times a CPU of each went offline */
	u32 hp_gen;			/* CPU hotplug operations seen, WRITE_ONCE */
	u32 *cpu_off_gen;		/* nr_cpu_ids: hp_gen at each CPU's last offline */
	u32 *cpu_on_gen;		/* nr_cpu_ids: hp_gen at each CPU's last online */
	cpumask_var_t faulty;		/* CPUs marked faulty */
	cpumask_var_t online;		/* CPUs online, as last applied by the worker */
	spinlock_t hp_lock;		/* the hotplug callbacks' record: */
	cpumask_var_t hp_online;	/* CPUs online, as the callbacks see them */
	bool hp_pending;		/* a change the worker has not applied */
	cpumask_var_t cube_cpus;	/* every CPU of a group */
	cpumask_var_t scratch;		/* a mask being built, under hcube.lock */
	cpumask_var_t scratch2, scratch3;	/* more */
	cpumask_var_t isolated;		/* isolated CPUs not to use, set at load */
	u32 generation;

	struct hcube_mem m;		/* core memory, sized for dim */
	struct hcube_topo topo;
	bool topo_valid;
	struct hcube_plan plan;

	/* tasks */
	struct rhashtable by_task;	/* every record not gone, RCU */
	spinlock_t hash_lock;		/* makes a look-up and its change one */
	struct xarray tasks;		/* linked records, by id */
	struct list_head changed;	/* tasks whose affinity others changed */
	u32 ntasks;			/* linked records */
	u32 next_job;			/* the job of the next TASK_ADD pid */
	atomic_t nrecords;		/* records, pending ones too (max_tasks) */
	atomic_t nhashed;		/* records in by_task, tombstones too */
	struct llist_head exits;	/* records the exit probe saw */
	struct llist_head adopts;	/* pending records to link */
	struct hcube_events *ev;	/* probes and births */
	struct hcube_mce *mce;		/* machine-check records (hcube_mce.c) */
	unsigned int max_tasks;		/* module parameter max_tasks */
	struct workqueue_struct *wq;	/* ordered: the worker, the trigger, the pass */
	struct work_struct work;	/* the worker (hcube_events_kick()) */
	struct hcube_batch batch;	/* moves not verified yet */
	struct hcube_cs_cache cs;	/* cpusets read by the operation at hand */

	/* the pass over every task, in slices (hcube_pass_start()) */
	struct work_struct pass_work;
	unsigned long pass_pos;		/* the next task id */
	bool pass_on;

	struct hcube_config cfg;
	struct hcube_counters cnt;
	unsigned long last_auto;	/* jiffies of the last automatic rebalance */
	struct hcube_report report;	/* the last one built */
	u32 report_seq;			/* changes with it: a dump's consistency */
	u32 report_transfers;		/* transfers a reply or event carries */
	struct delayed_work auto_work;	/* the automatic trigger, when due */
	struct delayed_work retry_work;	/* passes: remasks that failed, hotplug */
	u32 retries;			/* passes for failed remasks so far */
	u32 settle;			/* passes left after hotplug */
	atomic64_t refused, released, events_lost;	/* counted without the lock */
	bool stopping;
	/*
	 * The netlink layer's, while the family is registered; called under
	 * notify_sem read, so that the family goes only after the last event
	 * in flight (hcube_nl_exit()).
	 */
	struct rw_semaphore notify_sem;
	void (*notify)(struct hcube *hc, u8 cmd, const struct hcube_ntf *ntf);
};

/*
 * Tell the listeners of the "events" group: @cmd is one of the family's
 * *_NTF commands. Domain code calls this, never the netlink layer, which
 * sets hcube.notify when it registers the family (hcube_nl_init()).
 */
static inline void hcube_notify(struct hcube *hc, u8 cmd,
				const struct hcube_ntf *ntf)
{
	down_read(&hc->notify_sem);
	if (hc->notify)
		hc->notify(hc, cmd, ntf);
	up_read(&hc->notify_sem);
}

static inline void hcube_lock(struct hcube *hc)
{
	mutex_lock(&hc->lock);
}

void hcube_moves_flush(struct hcube *hc);
void hcube_moves_unlock_cpus(struct hcube *hc);
void hcube_moves_done(struct hcube *hc);

/*
 * Every mask set under the lock is verified against the cpusets before
 * the lock goes (hcube_moves_done()).
 */
static inline void hcube_unlock(struct hcube *hc)
{
	hcube_moves_done(hc);
	mutex_unlock(&hc->lock);
}

/*
 * Queue the worker (hcube_events.c), which applies hotplug changes, links
 * new tasks and unregisters exited ones. Any context.
 */
static inline void hcube_events_kick(struct hcube *hc)
{
	queue_work(hc->wq, &hc->work);
}

/* The one-word fast path of the mask comparisons a move makes. */
static inline bool hcube_mask_equal(const struct cpumask *a, const struct cpumask *b)
{
	if (nr_cpu_ids <= BITS_PER_LONG)
		return cpumask_bits(a)[0] == cpumask_bits(b)[0];
	return cpumask_equal(a, b);
}

/*
 * A task's mask is written by the scheduler under its pi_lock (and its
 * rq's lock): above BITS_PER_LONG CPUs a plain copy can tear, so it is
 * read under pi_lock; up to that it is one word, read once. Any context.
 */
static inline void hcube_mask_snap(struct task_struct *p, struct cpumask *dst)
{
	unsigned long flags;

	if (nr_cpu_ids <= BITS_PER_LONG) {
		cpumask_bits(dst)[0] = READ_ONCE(cpumask_bits(&p->cpus_mask)[0]);
		return;
	}
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(dst, &p->cpus_mask);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* Is @p's mask @m now? As hcube_mask_snap() reads it. Any context. */
static inline bool hcube_mask_is(struct task_struct *p, const struct cpumask *m)
{
	unsigned long flags;
	bool eq;

	if (nr_cpu_ids <= BITS_PER_LONG)
		return READ_ONCE(cpumask_bits(&p->cpus_mask)[0]) == cpumask_bits(m)[0];
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	eq = cpumask_equal(&p->cpus_mask, m);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	return eq;
}

/*
 * The module's files in the order they depend on each other: each calls
 * only the files listed before it (and the core), never one listed after
 * it; hcube_main.c, which loads and unloads the module, calls them all.
 */

/* hcube_perm.c */
struct hcube_caller {
	const struct cred *cred;	/* the sender's, current_cred() */
	struct file *file;		/* the socket's, for its opener */
};

/*
 * hcube_may_set()'s refusals: -EACCES, neither the task's owner nor
 * CAP_SYS_NICE in its user namespace; -HCUBE_ECAPS, the task has permitted
 * capabilities the caller lacks (and no CAP_SYS_NICE). Both are EPERM to
 * the caller.
 */
#define HCUBE_ECAPS	EKEYREJECTED
int hcube_may_set(const struct hcube_caller *who, struct task_struct *p);
bool hcube_same_euid(const struct cred *cred, struct task_struct *p);
struct hcube_creds *hcube_creds_get(const struct hcube_caller *who);
void hcube_creds_put(struct hcube_creds *c);
bool hcube_creds_may_set(const struct hcube_creds *c, struct task_struct *p);

/* hcube_cpuset.c */
int hcube_cs_init(struct hcube *hc);
void hcube_cs_exit(struct hcube *hc);
void hcube_cs_forget(struct hcube *hc);
u64 hcube_cs_serial(struct task_struct *p);
const struct cpumask *hcube_cs_lookup(struct hcube *hc, u64 serial);
const struct cpumask *hcube_cs_allowed(struct hcube *hc, struct task_struct *p,
				       u64 *serial);
void hcube_cs_new_round(struct hcube *hc);
int hcube_cs_refresh(struct hcube *hc, struct task_struct *p, struct cpumask *dst);
int hcube_cs_fallback_of(struct hcube *hc, struct task_struct *p, struct cpumask *dst);
/* What hcube_cs_read() read: its cpuset's serial_nr, and if it is the root's */
struct hcube_cs_id {
	u64 serial;
	bool root;
};

int hcube_cs_read(struct task_struct *p, bool fallback, struct cpumask *dst,
		  char *buf, size_t size, struct hcube_cs_id *id);
void hcube_cs_within(struct task_struct *p, const struct cpumask *want,
		     const struct cpumask *allowed, struct cpumask *dst,
		     char *buf, size_t size);
int hcube_set_within(struct task_struct *p, const struct cpumask *want,
		     const struct cpumask *expect, const struct hcube_creds *creds);

/* hcube_record.c */
int hcube_tasks_init(struct hcube *hc);
void hcube_tasks_exit(struct hcube *hc);
void hcube_tasks_sweep(struct hcube *hc);
struct hcube_task *hcube_task_lookup(struct hcube *hc, struct task_struct *p);
struct hcube_task *hcube_task_alloc(gfp_t gfp);
void hcube_task_put(struct hcube_task *t);
int hcube_task_hash_add(struct hcube *hc, struct hcube_task *t);
void hcube_task_hash_del(struct hcube *hc, struct hcube_task *t);

/* hcube_task.c */
void hcube_task_link(struct hcube *hc, struct hcube_task *t, u32 vertex);
void hcube_task_del(struct hcube *hc, struct hcube_task *t, u32 reason);
int hcube_task_give(struct hcube *hc, struct hcube_task *t, u32 v,
		    const struct cpumask *seen);
/*
 * A walk over a vertex's tasks that moves or remasks them: a move may
 * verify a full batch first, and the verification may move any task of
 * it, the walk's next one among them; the walk then starts again from
 * its list's head, passing over the tasks it has looked at.
 */
struct hcube_walk {
	u32 id, verifies;
};

static inline void hcube_walk_start(struct hcube *hc, struct hcube_walk *w)
{
	w->id = ++hc->batch.walks;
	w->verifies = hc->batch.verifies;
}

/* True when the walk looked at @t already; else it is looked at now. */
static inline bool hcube_walk_seen(struct hcube_walk *w, struct hcube_task *t)
{
	if (t->walk == w->id)
		return true;
	t->walk = w->id;
	return false;
}

/* True when a verification ran since the walk last asked: start again. */
static inline bool hcube_walk_again(struct hcube *hc, struct hcube_walk *w)
{
	if (hc->batch.verifies == w->verifies)
		return false;
	w->verifies = hc->batch.verifies;
	return true;
}

int hcube_task_move(struct hcube *hc, struct hcube_task *t, u32 to,
		    struct hcube_report *r);
int hcube_task_remask(struct hcube *hc, struct hcube_task *t,
		      struct hcube_report *r);
int hcube_task_evacuate(struct hcube *hc, struct hcube_task *t,
			struct hcube_report *r);
bool hcube_task_others(struct hcube *hc, struct hcube_task *t);
void hcube_task_notify(struct hcube *hc, struct hcube_task *t, u32 reason);
void hcube_task_set_changed(struct hcube *hc, struct hcube_task *t,
			    struct hcube_report *r);
int hcube_pick_vertex(struct hcube *hc, const struct cpumask *allowed);
void hcube_tasks_release_all(struct hcube *hc);
void hcube_report_task(struct hcube_report_task *rt, struct hcube_task *t,
		       int error);
int hcube_task_check(struct hcube *hc, struct task_struct *p);

/* hcube_taskset.c: a set of tasks named by a request, referenced */
struct hcube_proc_key;

struct hcube_taskset {
	struct task_struct **task;
	u32 *src;		/* the request's pid index that brought it */
	bool *named;		/* the task the pid names */
	u32 n, cap;
	u32 unit;		/* enum hcube_unit of the request */
	struct hcube_proc_key *keys;	/* the named processes, sorted */
	u32 nkeys;
};

int hcube_taskset_add_nr(struct hcube_taskset *s, pid_t nr, u32 src);
int hcube_taskset_expand(struct hcube_taskset *s);
int hcube_taskset_again(struct hcube_taskset *s);
void hcube_taskset_free(struct hcube_taskset *s);
int hcube_taskset_dedup(struct hcube_taskset *s, u32 *bad);
bool hcube_taskset_root(const struct hcube_taskset *s, u32 i);

/* hcube_register.c */

/* What a TASK_ADD did, for its reply. */
struct hcube_added {
	u32 registered, exited, refused;
	struct hcube_task **out;	/* per entry of the set: record, NULL or ERR_PTR */
	u32 cap;			/* entries of out */
};

int hcube_tasks_register(struct hcube *hc, struct hcube_taskset *s,
			 const struct hcube_caller *who, int vertex,
			 struct hcube_added *a, u32 *bad);
int hcube_tasks_unregister(struct hcube *hc, struct hcube_taskset *s,
			   const struct hcube_caller *who, u32 *bad);
int hcube_tasks_unregister_all(struct hcube *hc, const struct hcube_caller *who);

/* hcube_balance.c */
void hcube_balance_init(struct hcube *hc);
void hcube_balance_stop(struct hcube *hc);
u32 hcube_nhealthy(struct hcube *hc);
u32 hcube_policy_for(struct hcube *hc, u32 policy);
int hcube_rebalance(struct hcube *hc, u32 policy, u32 trigger,
		    struct netlink_ext_ack *extack);

/* A dry run's plan and report: the caller's alone (hcube_dry_run()). */
struct hcube_dry_run {
	struct hcube_report report;
	struct hcube_plan plan;
	void *plan_mem;
	u32 loads[];	/* the report's before, planned and after */
};

struct hcube_dry_run *hcube_dry_run(struct hcube *hc, u32 policy, bool count,
				    struct netlink_ext_ack *extack);
void hcube_dry_run_free(struct hcube_dry_run *dr);
u32 hcube_evacuate_all(struct hcube *hc, struct hcube_report *r);
void hcube_after_change(struct hcube *hc, u32 trigger);
void hcube_pass_start(struct hcube *hc);
void hcube_report_reset(struct hcube_report *r, struct hcube *hc);
void hcube_report_release(struct hcube_report *r);
bool hcube_auto_due(struct hcube *hc, unsigned long *delay);
void hcube_auto_schedule(struct hcube *hc);
void hcube_auto_run(struct hcube *hc);

/* hcube_mce.c: machine-check records */
struct hcube_mce_info {
	u64 records, status;	/* the CPU's records; its last one's status */
	u32 bank;		/* and bank */
	u32 count, window;	/* errors within the window (at the mark), seconds */
	bool marked, uc;	/* a machine check marked it; for a UC error */
};

struct hcube_mce_stats {
	u64 records, outside, offline, ignored, marks, refused;
	/* records of no core's error, by why (hcube_mca.h's classes) */
	u64 memory, bus, shared_cache, firmware, other;
};

bool hcube_mce_available(void);
int hcube_mce_init(struct hcube *hc);
void hcube_mce_start(struct hcube *hc);
void hcube_mce_stop(struct hcube *hc);
void hcube_mce_exit(struct hcube *hc);
int hcube_mce_config(struct hcube *hc, u32 threshold, u32 window, bool uc);
void hcube_mce_take(struct hcube *hc, struct cpumask *due, struct cpumask *uc);
void hcube_mce_mark(struct hcube *hc, unsigned int cpu, bool mark, bool uc);
void hcube_mce_refused(struct hcube *hc, unsigned int cpu);
bool hcube_mce_info(struct hcube *hc, unsigned int cpu, struct hcube_mce_info *i);
void hcube_mce_stats(struct hcube *hc, struct hcube_mce_stats *s);

/* hcube_cpu.c */
int hcube_cpu_init(struct hcube *hc, u32 mode, bool use_isolated);
void hcube_cpu_exit(struct hcube *hc);
int hcube_hotplug_start(struct hcube *hc);
void hcube_hotplug_stop(struct hcube *hc);
int hcube_topology_set(struct hcube *hc, u32 mode, cpumask_var_t *groups,
		       u32 ngroups, struct netlink_ext_ack *extack);
int hcube_topology_mode(struct hcube *hc, u32 mode, struct netlink_ext_ack *extack);
cpumask_var_t *hcube_alloc_groups(void);
void hcube_free_groups(cpumask_var_t *groups);
void hcube_refresh(struct hcube *hc);
void hcube_hotplug_apply(struct hcube *hc);
int hcube_fault_change(struct hcube *hc, int cpu, int vertex, bool add,
		       struct netlink_ext_ack *extack, const struct nlattr *attr);
void hcube_mce_apply(struct hcube *hc);

/* hcube_events.c */
int hcube_events_init(struct hcube *hc, u32 births, bool pool_only);
void hcube_events_stop(struct hcube *hc);
void hcube_events_exit(struct hcube *hc);
void hcube_events_drain(struct hcube *hc);
void hcube_events_last_pass(struct hcube *hc);

/* hcube_nl.c */
int hcube_nl_init(struct hcube *hc);
void hcube_nl_exit(struct hcube *hc);

/* hcube_mask.c: whose is a task's mask */
/* Whose mask an active task has (hcube_mask_whose()). */
enum { HCUBE_MASK_OURS, HCUBE_MASK_KERNEL, HCUBE_MASK_OTHER };

/* What hcube_mask_whose() looks at: a record's fields, read once. */
struct hcube_whose {
	struct task_struct *p;
	const struct cpumask *given, *now;
	const struct cpumask *cs;	/* what its cpuset allowed then */
	u64 cs_serial;
	u32 vertex, epoch, hp_gen;
	struct cpumask *tmp, *tmp2;	/* scratch */
	char *buf;			/* room for a cpuset file's text */
	size_t size;
};

int hcube_mask_vertex(struct hcube *hc, const struct cpumask *mask);
int hcube_mask_whose(struct hcube *hc, const struct hcube_whose *w);
bool hcube_mask_inherited(struct hcube_task *c, const struct cpumask *inherited,
			  const struct cpumask *creator_now);
bool hcube_mask_inherited_at(struct hcube_task *c, const struct cpumask *mask,
			     u64 start);
u32 hcube_task_state(struct hcube *hc, struct hcube_task *t, char *buf, size_t size);

/*
 * The phases of a rebalance, timed only in the module that `make bench`
 * builds with HCUBE_BENCH_PHASES=y (module/hcube_bench.c, which logs them):
 * how its time divides between evacuating, planning and moving, and how
 * much of the moving is set_cpus_allowed_ptr() itself. In every other
 * build these are empty.
 */
enum hcube_bench_phase {
	HCUBE_BENCH_EVACUATE,	/* hcube_evacuate_all() */
	HCUBE_BENCH_PLAN,	/* the loads and the policy's plan */
	HCUBE_BENCH_ROUTES,	/* the plan into routes */
	HCUBE_BENCH_MOVES,	/* the routes applied */
	HCUBE_BENCH_NPHASES
};

/* Parts of the moves, timed wherever they run (summed, with a count). */
enum hcube_bench_part {
	HCUBE_BENCH_VERIFY,	/* hcube_batch_verify(), fix-ups included */
	HCUBE_BENCH_CS_READ,	/* reading a cpuset's file */
	HCUBE_BENCH_PREPARE,	/* hcube_task_prepare(): may hcube move it */
	HCUBE_BENCH_NPARTS
};

#ifdef HCUBE_BENCH_PHASES
void hcube_bench_start(void);
void hcube_bench_mark(enum hcube_bench_phase ph);
void hcube_bench_report(struct hcube *hc, u32 moved);
u64 hcube_bench_now(void);
void hcube_bench_part(enum hcube_bench_part part, u64 since);
/* set_cpus_allowed_ptr(), timed */
int hcube_bench_set_cpus_allowed(struct task_struct *p, const struct cpumask *mask);
#define hcube_set_cpus_allowed	hcube_bench_set_cpus_allowed
#else
static inline void hcube_bench_start(void) { }
static inline void hcube_bench_mark(enum hcube_bench_phase ph) { }
static inline void hcube_bench_report(struct hcube *hc, u32 moved) { }
static inline u64 hcube_bench_now(void) { return 0; }
static inline void hcube_bench_part(enum hcube_bench_part part, u64 since) { }
#define hcube_set_cpus_allowed	set_cpus_allowed_ptr
#endif

#endif
