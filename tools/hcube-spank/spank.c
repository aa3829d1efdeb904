// SPDX-License-Identifier: GPL-2.0
/*
 * hcube.so: a Slurm SPANK plugin that registers each job step's tasks with
 * the hcube module as the step starts (Documentation/admin-guide/hcube.rst,
 * "With Slurm").
 *
 * Where it acts, in slurmstepd (the "remote" context):
 *   init, init_post_opt  its arguments, and --hcube[=POLICY|off]: is the
 *                        step to be registered, with which policy;
 *   task_post_fork       (root, in slurmstepd, once per task) notes the
 *                        task's pid; after the last one, every task is in
 *                        its cgroup and bound but none has run the user's
 *                        program yet: hs_register() registers them all,
 *                        with their own credentials (step.c);
 *   exit                 gives the node its policy back, if the step set
 *                        it and nobody changed it since.
 * The tasks are unregistered by the module as they exit: Slurm kills
 * whatever is left of a step when it ends (and on scancel), and hcube
 * sees every exit.
 *
 * It never fails a step: the module not loaded, or a refusal, is one line
 * (slurm_error: the job's stderr and slurmd's log), and the step runs as
 * if the plugin were absent. In srun and sbatch it only checks --hcube's
 * value.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <slurm/spank.h>
#include <slurm/slurm.h>
#include "hcube_spank.h"

SPANK_PLUGIN(hcube, 1);

/* How long the registration of a step may take before the step goes on. */
#define HS_TIMEOUT_MS	10000

static bool option_given;	/* --hcube, with */
static int option_value;	/* its value: HS_ON, HS_OFF or a policy */

static int on_option(int val, const char *arg, int remote);

static struct spank_option hcube_option = {
	.name = "hcube",
	.arginfo = "POLICY",
	.usage = "register the step's tasks with hcube, which moves them off faulty CPUs "
		 "(POLICY: the node's policy for the step, if its administrator allows; "
		 "'off': not registered)",
	.has_arg = 2,	/* an optional value */
	.val = 0,
	.cb = on_option,
};

/* The step, in slurmstepd. */
static struct {
	struct hs_conf conf;
	bool active;		/* its tasks are to be registered */
	int policy;		/* HS_ON, or the policy asked for */
	uint32_t job, step;
	pid_t *pids;		/* by local task id */
	uint32_t ntasks;
	int old_policy, new_policy;	/* the node's policy changed by the step */
} st = { .old_policy = -1, .new_policy = -1 };

static int on_option(int val, const char *arg, int remote)
{
	(void)val;
	option_given = true;
	option_value = hs_parse_option(arg);
	if (option_value != HS_BAD)
		return 0;
	if (remote) {
		/* srun checked it: another plugin version; the node's policy */
		slurm_error("hcube: --hcube=%s: not a policy of this node's hcube.so; "
			    "registering with the node's policy", arg);
		option_value = HS_ON;
		return 0;
	}
	slurm_error("hcube: --hcube=%s: one of off, %s", arg, hcl_policy_names(", "));
	return -1;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	char why[512];

	if (ctx == S_CTX_LOCAL || ctx == S_CTX_ALLOCATOR || ctx == S_CTX_REMOTE) {
		spank_err_t err = spank_option_register(sp, &hcube_option);

		if (err != ESPANK_SUCCESS)
			slurm_error("hcube: cannot register --hcube: %s", spank_strerror(err));
	}
	/* an unknown word: the administrator reads it in slurmd's log */
	if (hs_parse_args(ac, av, &st.conf, why, sizeof(why)) &&
	    (ctx == S_CTX_REMOTE || ctx == S_CTX_SLURMD))
		slurm_error("hcube: plugstack.conf: %s", why);
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	uint32_t n = 0;
	int want;

	(void)ac;
	(void)av;
	if (!spank_remote(sp))
		return 0;
	want = option_given ? option_value : st.conf.by_default;
	if (want == HS_OFF)
		return 0;
	if (spank_get_item(sp, S_JOB_ID, &st.job) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_STEPID, &st.step) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &n) != ESPANK_SUCCESS)
		return 0;
	/*
	 * Only the steps srun starts: the batch script's step would register
	 * the shell and the srun processes it runs, the extern step no task.
	 */
	if (st.step > SLURM_MAX_NORMAL_STEP_ID || !n)
		return 0;
	st.pids = calloc(n, sizeof(*st.pids));
	if (!st.pids) {
		slurm_error("hcube: step %u.%u: out of memory: not registered", st.job, st.step);
		return 0;
	}
	st.ntasks = n;
	st.policy = want;
	st.active = true;
	return 0;
}

/* Every task is placed and bound, none runs yet: register them. */
static void register_step(spank_t sp)
{
	struct hs_request rq = {
		.pids = st.pids, .n = st.ntasks, .policy = st.policy,
		.user_policy = st.conf.user_policy,
	};
	struct hs_result res;

	if (spank_get_item(sp, S_JOB_UID, &rq.uid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_GID, &rq.gid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_SUPPLEMENTARY_GIDS, &rq.gids, &rq.ngids) != ESPANK_SUCCESS) {
		slurm_error("hcube: step %u.%u: its user's credentials are unknown: not registered",
			    st.job, st.step);
		return;
	}
	hs_register(&rq, HS_TIMEOUT_MS, &res);
	st.old_policy = res.old_policy;
	st.new_policy = res.new_policy;
	if (res.err)
		slurm_error("hcube: step %u.%u runs without hcube: %s", st.job, st.step, res.text);
	else
		slurm_info("hcube: step %u.%u: %u tasks registered in %.1f ms: %s", st.job,
			   st.step, res.registered, res.ms, res.text);
	if (*res.warning)
		slurm_error("hcube: step %u.%u: %s", st.job, st.step, res.warning);
	if (res.uid != (uid_t)-1)
		slurm_verbose("hcube: step %u.%u: requests sent as uid %u gid %u, capabilities %#llx",
			      st.job, st.step, (unsigned int)res.uid, (unsigned int)res.gid,
			      (unsigned long long)res.caps);
}

int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
	pid_t pid;
	int id;

	(void)ac;
	(void)av;
	if (!st.active || spank_get_item(sp, S_TASK_ID, &id) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_TASK_PID, &pid) != ESPANK_SUCCESS ||
	    id < 0 || (uint32_t)id >= st.ntasks)
		return 0;
	st.pids[id] = pid;
	/* slurmstepd calls it for its tasks in order: this is the last */
	if ((uint32_t)id == st.ntasks - 1)
		register_step(sp);
	return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	char why[320] = "";

	(void)ac;
	(void)av;
	if (!spank_remote(sp) || !st.active)
		return 0;
	if (st.new_policy >= 0) {
		int err = hs_restore_policy(st.new_policy, st.old_policy, why, sizeof(why));

		if (!err)
			slurm_info("hcube: step %u.%u: the node's policy is %s again", st.job,
				   st.step, hcl_policy_name((uint32_t)st.old_policy));
		else if (err != -EBUSY)
			slurm_error("hcube: step %u.%u: cannot give the node its policy %s back: %s",
				    st.job, st.step, hcl_policy_name((uint32_t)st.old_policy), why);
	}
	free(st.pids);
	st.pids = NULL;
	st.active = false;
	return 0;
}
