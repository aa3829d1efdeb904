/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libhcube: a small client of the hcube module's generic netlink family,
 * for programs that are not hcubectl (the Slurm SPANK plugin first).
 *
 * It registers and unregisters tasks, reads the vertices and the
 * configured policy, and sets the policy. Every call returns 0 or a
 * negative errno; a kernel error keeps the extended ack's message for
 * hcl_message(). Nothing here prints or exits: the caller says
 * what went wrong, where its users look.
 *
 * Only the requests' formats and the replies' error codes are relied on.
 * Replies to TASK_ADD and TASK_DEL are not read: their contents may change.
 */
#ifndef HCUBE_CLIENT_H
#define HCUBE_CLIENT_H

#ifndef _GNU_SOURCE
#error "hcube_client.h needs cpu_set_t: compile with -D_GNU_SOURCE"
#endif
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct hcl;

/*
 * Open a socket and resolve the "hcube" family. -ENOENT: the module is not
 * loaded. @timeout_ms bounds each reply (0: no bound); a reply that does
 * not come in time fails the call with -ETIMEDOUT.
 */
int hcl_open(struct hcl **c, unsigned int timeout_ms);
void hcl_close(struct hcl *c);

/* The message of the last kernel error's extended ack, or "". */
const char *hcl_message(const struct hcl *c);

/*
 * The index in the last request's pids of the pid the last kernel error
 * named (its extended ack's offset), or -1.
 */
long hcl_bad_pid(const struct hcl *c);

/* A vertex, as the module describes it. */
struct hcl_vertex {
	uint32_t id;
	uint32_t state;		/* enum hcube_vertex_state */
	uint32_t load;		/* registered tasks on it */
	cpu_set_t cpus;		/* its CPU group */
	cpu_set_t usable;	/* its CPUs that are neither faulty nor offline */
};

/*
 * Every vertex of the cube (VERTEX_GET dump), malloc'ed into *v, sorted by
 * id. CPUs numbered CPU_SETSIZE or higher are left out of the sets.
 */
int hcl_vertices(struct hcl *c, struct hcl_vertex **v, size_t *n);

/*
 * Register the processes @pids as jobs (each with its threads, and what
 * they create later) on @vertex, or where the module places them when
 * @vertex < 0. All of them or none.
 */
int hcl_task_add(struct hcl *c, const pid_t *pids, size_t n, int vertex);

/* Unregister the jobs @pids: their tasks get their original affinity back. */
int hcl_task_del(struct hcl *c, const pid_t *pids, size_t n);

/* The configured policy (enum hcube_policy), and a change of it. */
int hcl_policy_get(struct hcl *c, uint32_t *policy);
int hcl_policy_set(struct hcl *c, uint32_t policy);

/* ---- no netlink: names and CPU lists ---- */

/* A policy's name ("mcwa"), NULL when @policy is none of enum hcube_policy. */
const char *hcl_policy_name(uint32_t policy);
/* The policy named @name, or -1. */
int hcl_policy_parse(const char *name);
/* The names, separated by @sep, in static storage. */
const char *hcl_policy_names(const char *sep);

/*
 * A CPU list ("0-3,8,10-11") into @set: 0, or -EINVAL when @s is not one.
 * CPUs of CPU_SETSIZE or more are -ERANGE.
 */
int hcl_cpulist_parse(const char *s, cpu_set_t *set);
/* @set as a CPU list into @buf ("" for none); the length it needs. */
size_t hcl_cpulist_format(const cpu_set_t *set, char *buf, size_t size);

#endif
