/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube kselftests and hcube_bench: queries of the module's state, children
 * to register, and what userspace itself sees of their affinity. The
 * functions are in hcube_util.c, which every test program and the bench
 * link (with hcube_nl.c).
 */
#ifndef HCUBE_SELFTEST_UTIL_H
#define HCUBE_SELFTEST_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hcube_nl.h"

#define HC_MAXV 1024

struct hc_vertex {
	uint32_t state, load;
	int parent, in_cb, detached, marked, controller;
	cpu_set_t cpus, usable, faulty;
};

struct hc_cube {
	uint32_t mode, dim, nv, nhealthy, ntasks, generation, depth;
	char pattern[16];
	uint32_t cdim, nclusters;
	uint16_t ctrl[HC_MAXV];		/* per pebble cluster */
	struct hc_vertex v[HC_MAXV];
};

/* A row of the task list; creator is 0 when has_creator is. */
struct hc_task {
	uint32_t pid, vertex, state, origin, unit, creator;
	int has_creator;
};

/*
 * One transfer of a report (HCUBE_A_REPORT_TRANSFER), or of hcube-sim's
 * plan.
 */
struct hc_transfer {
	uint32_t step, from, to, count;
};

struct hc_report {
	uint32_t nv, policy, moved, failed, exited, evacuated, ntransfers;
	uint32_t applied, messages, imbalance, contended, has_contended;
	uint32_t before[HC_MAXV], planned[HC_MAXV], after[HC_MAXV];
	struct hc_transfer x[16384];
	uint32_t nchanged, changed_pid[64];
	uint32_t nfail, fail_pid[64];
	char pattern[16];
	int has_plan;
	/*
	 * ntransfers counts the HCUBE_A_REPORT_TRANSFER nests; this, the
	 * plan's
	 */
	uint32_t plan_ntransfers;	/* HCUBE_A_REPORT_NTRANSFERS */
	uint64_t dur_ns, migrations;	/* HCUBE_A_REPORT_DURATION_NS, _MIGRATIONS */
};

/* "0-3,8" -> set; returns -1 on a malformed list. */
int hc_parse_cpulist(const char *s, cpu_set_t *set);

/*
 * Send @r (allocated by the caller, freed here) and return its errno; the
 * reply goes to @rp, or is dropped when @rp is NULL.
 */
int hc_send(struct hnl *h, struct hreq *r, struct hreply *rp);

int hc_get_cube(struct hnl *h, struct hc_cube *c);
/* Registered tasks, visible in our pid namespace. Returns the count. */
int hc_get_tasks(struct hnl *h, struct hc_task *t, int max);
/*
 * Every registered task's pid, however many there are (a dump streamed
 * through one buffer, not kept): *pids is malloc'd. Returns the count.
 */
int hc_task_pids(struct hnl *h, uint32_t **pids);
/* The counters: @s has HCUBE_A_STATS_MAX + 1 entries. */
int hc_stats(struct hnl *h, uint64_t *s);
/* A fault change; @cpu or @vertex is -1. Returns 0 or -errno. */
int hc_fault(struct hnl *h, int add, int cpu, int vertex, struct hreply *rp);
int hc_topo(struct hnl *h, uint32_t mode);
/*
 * The first task a TASK_ADD reply says was not registered: its
 * HCUBE_A_TASK_ERROR (a negative errno), or 0 when every one was.
 */
int hc_task_refusal(struct hreply *rp);
/*
 * Register @pids (on @vertex, or anywhere with -1): 0 when the request
 * succeeded and every task in it was registered. TASK_ADD succeeds as a
 * whole when a task it brings cannot be placed (no healthy vertex, say)
 * and tells it per task: that refusal comes back here too, so no caller
 * takes a task for registered that is not.
 */
int hc_task_add(struct hnl *h, const pid_t *pids, int n, int vertex);
int hc_task_del_all(struct hnl *h);
/* CONFIG_SET; a value of -1 is left out (unchanged). */
int hc_config(struct hnl *h, int policy, int autob, int threshold, int cooldown);
/* A rebalance report (REBALANCE's reply @m) into @out, zeroed by the caller. */
void hc_parse_report(struct nlmsghdr *m, struct hc_report *out);
/* Rebalance; @policy -1 for the default. */
int hc_rebalance(struct hnl *h, int policy, int dry_run, struct hc_report *out);

/* Children: sleepers (pause) or busy loops; killed by hc_kill_all. */
pid_t hc_spawn(int busy);
void hc_kill_all(pid_t *pids, int n);
/* The vertex whose usable CPUs equal @pid's affinity (as userspace sees it). */
int hc_vertex_of(const struct hc_cube *c, pid_t pid);
/* @set as a CPU list ("0-3,6") in @buf of @size: @buf. */
const char *hc_cpus_str(const cpu_set_t *set, char *buf, size_t size);
/* Cpus_allowed_list of /proc/PID/status as a set. */
int hc_proc_cpus(pid_t pid, cpu_set_t *set);
/*
 * Count @pids per vertex of the cube (read again into @c) by their affinity
 * into @count (HC_MAXV entries). NULL when each is on exactly one healthy
 * vertex and sched_getaffinity() agrees with /proc; else what is wrong.
 */
const char *hc_count_by_affinity(struct hnl *h, struct hc_cube *c,
				 const pid_t *pids, int n, uint32_t *count);
/* @pid's parent pid and state letter, from /proc/PID/stat; -1 when gone. */
pid_t hc_ppid_of(pid_t pid, char *state);
/*
 * A child of @parent (the lowest pid), found by the parent pids:
 * /proc/PID/task/TID/children needs CONFIG_PROC_CHILDREN, which the debug
 * kernel lacks. 0 when it has none.
 */
pid_t hc_child_of(pid_t parent);
/* Write @s to the file @path: 0 or -errno. */
int hc_write_file(const char *path, const char *s);
/* Empty the file @path, as `: >path` does (tracefs's trace): 0 or -errno. */
int hc_clear_file(const char *path);
/* CPU @cpu offline (@on 0) or online: 0 or -errno. */
int hc_set_online(int cpu, int on);
/* @name installed beside the test program (as kselftest installs them). */
const char *hc_beside(const char *name);
/* Put the module back in a known state: no task, no fault, defaults. */
int hc_reset(struct hnl *h, uint32_t mode);

/*
 * The 6.1 kselftest harness runs a test's body even after its fixture's
 * setup skipped: a fixture whose setup may skip starts each body with this.
 */
#define HC_SETUP_SKIPPED() do { if (_metadata->skip) return; } while (0)

#endif
