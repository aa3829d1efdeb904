/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcube.so, the Slurm SPANK plugin: what its files share. spank.c holds
 * Slurm's callbacks; step.c registers a step's tasks, in a process of its
 * own that has the tasks' credentials; args.c reads the plugin's arguments
 * and the user's option. args.c and the choice of vertices in step.c use
 * nothing of Slurm, so that selftests/spank tests them on the host.
 */
#ifndef HCUBE_SPANK_H
#define HCUBE_SPANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "hcube_client.h"

/* ---- args.c ---- */

/* What --hcube[=ARG] asks for: a policy (>= 0), or one of these. */
#define HS_ON		(-1)	/* registered, with the node's policy */
#define HS_OFF		(-2)	/* not registered */
#define HS_BAD		(-3)	/* not a policy, "off" or nothing */

/* The words after the plugin's path in plugstack.conf. */
struct hs_conf {
	int by_default;		/* steps without --hcube: HS_OFF, HS_ON or a policy */
	bool user_policy;	/* --hcube=POLICY may set the node's policy */
};

/*
 * Parse the plugin's arguments into @conf (defaults first). A word it does
 * not know is skipped and described in @why (size @size): returns -1,
 * with @conf set from the other words. 0 when every word was understood.
 */
int hs_parse_args(int argc, char **argv, struct hs_conf *conf, char *why, size_t size);

/* The value of --hcube (NULL: given without a value). */
int hs_parse_option(const char *arg);

/* ---- step.c ---- */

/* A task of the step, as Slurm left it and as hcube is to have it. */
struct hs_task {
	pid_t pid;
	cpu_set_t bound;	/* its affinity after Slurm's binding */
	cpu_set_t allowed;	/* what its cpuset allows (cpuset.cpus.effective) */
	int vertex;		/* the vertex chosen, or -1: the module places it */
};

/*
 * Choose each task's vertex: none (-1) when Slurm left it everything its
 * cpuset allows (bound == allowed), or when no healthy vertex has a usable
 * CPU of its binding; else, of the healthy vertices that hold the most
 * CPUs of its binding, the least loaded (the module's load, plus the tasks
 * chosen before it here), the lowest id on a tie.
 */
void hs_choose_vertices(struct hs_task *t, size_t n, const struct hcl_vertex *v, size_t nv);

/* What a registration asks for. */
struct hs_request {
	uid_t uid;		/* the tasks' credentials */
	gid_t gid;
	const gid_t *gids;
	int ngids;
	const pid_t *pids;	/* the step's tasks on this node */
	size_t n;
	int policy;		/* HS_ON, or the policy asked for */
	bool user_policy;	/* it may set the node's policy */
};

/* What it did: the parent logs it. */
struct hs_result {
	int err;		/* 0, or the negative errno that stopped it */
	int old_policy;		/* the node's policy before this step set it, or -1 */
	int new_policy;		/* the one it set, or -1 */
	unsigned int registered;	/* tasks registered */
	char warning[200];	/* for the user: the policy asked for not applied */
	uid_t uid;		/* the credentials the requests were sent with */
	gid_t gid;
	uint64_t caps;		/* their effective capabilities */
	double ms;		/* from the fork to the helper's end */
	char text[480];		/* what it did, or what went wrong */
};

/*
 * Register the tasks of @rq as the tasks' own user would with hcubectl
 * (credentials, and of the capabilities only CAP_NET_ADMIN, which the
 * module asks of every change), in a child process, and wait for it.
 * Returns after at most about @timeout_ms.
 */
void hs_register(const struct hs_request *rq, unsigned int timeout_ms, struct hs_result *res);

/*
 * In the helper: take the credentials of @rq, and of the capabilities only
 * CAP_NET_ADMIN; what the kernel then has goes to @res (uid, gid, caps).
 */
int hs_become_user(const struct hs_request *rq, struct hs_result *res);

/* Give the node its policy @old back if it still has @ours (slurmstepd, root). */
int hs_restore_policy(int ours, int old, char *why, size_t size);

#endif
