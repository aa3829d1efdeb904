// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: a machine's CPU groups as the vertices of a hypercube, faults,
 * CPU hotplug and the balancing of registered tasks between the groups.
 * This file loads and unloads the module and holds its parameters; the
 * rest, from the bottom up: hcube_perm.c (who may change a task),
 * hcube_cpuset.c (what a task's cpuset allows), hcube_mask.c (whose a
 * task's mask is), hcube_record.c (the records of registered tasks and
 * their hash), hcube_task.c (registered tasks and their moves),
 * hcube_taskset.c and hcube_register.c (TASK_ADD and TASK_DEL),
 * hcube_balance.c (evacuation, rebalancing, the pass, the automatic
 * trigger), hcube_mce.c (machine-check records), hcube_cpu.c (vertices,
 * faults, hotplug, the marks machine checks ask for), hcube_events.c (new
 * threads and children, exits, the worker) and the generic netlink family:
 * hcube_nl.c (the family, events) with one file per kind of message
 * (hcube_nl_cube.c, hcube_nl_task.c, hcube_nl_rebalance.c,
 * hcube_nl_stats.c, hcube_nl_config.c, hcube_nl_get.c),
 * over the core in core/. Documentation/architecture.md draws the layers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/threads.h>
#include "hcube.h"

static struct hcube hcube;

static char *mode = "auto";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "initial grouping: cpu, node, llc or auto (node with 2+ NUMA nodes, else cpu)");

static bool isolated;
module_param(isolated, bool, 0444);
MODULE_PARM_DESC(isolated, "use isolated CPUs (isolcpus=, nohz_full=) too (default 0: they are in no vertex's usable CPUs)");

static unsigned int max_tasks = 65536;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "most tasks that can be registered (1..4194304, default 65536)");

static unsigned int births = 1024;
module_param(births, uint, 0444);
MODULE_PARM_DESC(births, "new threads and children of registered tasks being set up at once from a pool, before others are allocated (1..65536, default 1024)");

static unsigned int report_transfers = 512;
module_param(report_transfers, uint, 0444);
MODULE_PARM_DESC(report_transfers, "transfers a REBALANCE reply or event lists at most; a REBALANCE dump lists them all (1..65536, default 512)");

/*
 * For the tests of the lost-creation scan: a creation that finds the pool
 * of births empty is lost instead of given an allocated birth.
 */
static bool lose_births;
module_param(lose_births, bool, 0);
MODULE_PARM_DESC(lose_births, "tests only: a creation that finds no birth in the pool is lost (the scan finds it) instead of allocated");

/*
 * For the tests of the load's error paths: make its step N (1..6) fail
 * with -ENOMEM, as if out of memory there. 0, the default: none.
 */
static unsigned int init_fail_step;
module_param(init_fail_step, uint, 0);
MODULE_PARM_DESC(init_fail_step, "tests only: the step of the load to fail (1..6; 0: none)");

/* -ENOMEM when step @step of the load is the one to fail (init_fail_step). */
static int hcube_init_fails(unsigned int step)
{
	return init_fail_step == step ? -ENOMEM : 0;
}

static const char *const hcube_modes[] = {
	[HCUBE_MODE_CPU] = "cpu",
	[HCUBE_MODE_NODE] = "node",
	[HCUBE_MODE_LLC] = "llc",
	[HCUBE_MODE_CUSTOM] = "custom",
};

static const char *hcube_mode_name(u32 m)
{
	return m <= HCUBE_MODE_MAX ? hcube_modes[m] : "?";
}

static int hcube_initial_mode(void)
{
	int cpu, node = -1;

	if (!strcmp(mode, "cpu"))
		return HCUBE_MODE_CPU;
	if (!strcmp(mode, "node"))
		return HCUBE_MODE_NODE;
	if (!strcmp(mode, "llc"))
		return HCUBE_MODE_LLC;
	if (strcmp(mode, "auto"))
		return -EINVAL;
	for_each_present_cpu(cpu) {
		if (node >= 0 && cpu_to_node(cpu) != node)
			return HCUBE_MODE_NODE;
		node = cpu_to_node(cpu);
	}
	return HCUBE_MODE_CPU;
}

static int __init hcube_init(void)
{
	struct hcube *hc = &hcube;
	int m, err;

	/* The core's and the uAPI's numbers are the same. */
	BUILD_BUG_ON((int)HCUBE_V_HEALTHY != (int)HCUBE_VERTEX_HEALTHY ||
		     (int)HCUBE_V_FAULTY != (int)HCUBE_VERTEX_FAULTY ||
		     (int)HCUBE_V_OFFLINE != (int)HCUBE_VERTEX_OFFLINE ||
		     (int)HCUBE_V_ABSENT != (int)HCUBE_VERTEX_ABSENT);
	BUILD_BUG_ON(HCUBE_MAX_DIM != HCUBE_MAX_DIM_UAPI);
	BUILD_BUG_ON(HCUBE_VERTEX_NONE != HCUBE_NO_CONTROLLER);

	m = hcube_initial_mode();
	if (m < 0) {
		pr_err("mode=%s: must be cpu, node, llc or auto\n", mode);
		return -EINVAL;
	}
	if (max_tasks < 1 || max_tasks > PID_MAX_LIMIT) {
		pr_err("max_tasks=%u: must be 1..%lu\n", max_tasks,
		       (unsigned long)PID_MAX_LIMIT);
		return -EINVAL;
	}
	if (births < 1 || births > 65536) {
		pr_err("births=%u: must be 1..65536\n", births);
		return -EINVAL;
	}
	if (report_transfers < 1 || report_transfers > 65536) {
		pr_err("report_transfers=%u: must be 1..65536\n", report_transfers);
		return -EINVAL;
	}

	mutex_init(&hc->lock);
	init_rwsem(&hc->notify_sem);
	spin_lock_init(&hc->hash_lock);
	xa_init_flags(&hc->tasks, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&hc->changed);
	init_llist_head(&hc->exits);
	init_llist_head(&hc->adopts);
	hcube_balance_init(hc);
	hc->max_tasks = max_tasks;
	hc->report_transfers = report_transfers;
	hc->cfg.policy = HCUBE_POLICY_MCWA;
	hc->cfg.threshold = 1;
	hc->cfg.cooldown_ms = 1000;

	/*
	 * The family goes last: no request can come before everything else
	 * is ready, so a failure on the way leaves no task registered.
	 */
	err = hcube_init_fails(1) ?: hcube_tasks_init(hc);
	if (err)
		return err;
	err = hcube_init_fails(2) ?: hcube_cs_init(hc);
	if (err)
		goto tasks_exit;
	err = hcube_init_fails(3) ?: hcube_cpu_init(hc, m, isolated);
	if (err)
		goto cs_exit;
	err = hcube_mce_init(hc);
	if (err)
		goto cpu_exit;
	err = hcube_init_fails(4) ?: hcube_events_init(hc, births, lose_births);
	if (err)
		goto mce_exit;
	err = hcube_init_fails(5) ?: hcube_hotplug_start(hc);
	if (err)
		goto stop_events;
	err = hcube_init_fails(6) ?: hcube_nl_init(hc);
	if (err)
		goto hotplug_stop;
	/* machine checks, last: they can ask for marks from now on */
	hcube_mce_start(hc);
	pr_info("%s mode, %u groups on a %u-cube\n", hcube_mode_name(hc->mode),
		hc->ngroups, hc->dim);
	return 0;

hotplug_stop:
	hcube_hotplug_stop(hc);
stop_events:
	hcube_lock(hc);
	hc->stopping = true;
	hcube_unlock(hc);
	hcube_balance_stop(hc);
	hcube_events_stop(hc);
	hcube_events_exit(hc);
mce_exit:
	hcube_mce_exit(hc);
cpu_exit:
	hcube_cpu_exit(hc);
cs_exit:
	hcube_cs_exit(hc);
tasks_exit:
	hcube_tasks_sweep(hc);
	hcube_tasks_exit(hc);
	return err;
}

static void __exit hcube_exit(void)
{
	struct hcube *hc = &hcube;

	/* The family goes first: no request after this. */
	hcube_nl_exit(hc);
	hcube_hotplug_stop(hc);
	hcube_lock(hc);
	hc->stopping = true;
	hcube_unlock(hc);
	/* a record from now on is counted and ignored; then none comes */
	hcube_mce_stop(hc);
	hcube_balance_stop(hc);

	/*
	 * Every task gets its affinity back while the probes still see its
	 * new threads and children; then the probes go, and the births in
	 * flight give those their creator's original affinity. A last pass
	 * finds what a lost birth, or a fork that reached the probe after it
	 * went, left with a vertex's mask.
	 */
	hcube_lock(hc);
	hcube_tasks_release_all(hc);
	hcube_report_release(&hc->report);
	hcube_unlock(hc);
	hcube_events_stop(hc);
	hcube_events_last_pass(hc);
	hcube_lock(hc);
	hcube_tasks_sweep(hc);
	hcube_unlock(hc);
	hcube_events_exit(hc);

	xa_destroy(&hc->tasks);
	hcube_mce_exit(hc);
	hcube_cpu_exit(hc);
	hcube_cs_exit(hc);
	hcube_tasks_exit(hc);
}

module_init(hcube_init);
module_exit(hcube_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fault-tolerant hypercube load balancing of registered tasks");
MODULE_ALIAS_GENL_FAMILY(HCUBE_FAMILY_NAME);

