// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: tasks in a cgroup v2 cpuset. A task's mask is its vertex's usable
 * CPUs within what its cpuset allows; the cpuset's own rewrites (CPU
 * hotplug, cpuset.cpus) leave the task managed, never counted as changed;
 * a task whose cpuset leaves its vertex goes to the nearest vertex it
 * allows. Checked from userspace after offline/online cycles and a fault.
 * Runs in the VM with the module loaded.
 */
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define CG "/sys/fs/cgroup/hcube-cpuset-test"

static struct hc_cube cube;

FIXTURE(cs) {
	struct hnl h;
	pid_t kids[4];
	int nkids;
};

FIXTURE_SETUP(cs)
{
	char cpus[32];

	if (get_nprocs() < 4)
		SKIP(return, "needs 4 CPUs");
	if (hc_write_file("/sys/fs/cgroup/cgroup.subtree_control", "+cpuset"))
		SKIP(return, "no cgroup v2 cpuset controller");
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	mkdir(CG, 0755);
	snprintf(cpus, sizeof(cpus), "0-%d", get_nprocs() - 1);
	ASSERT_EQ(0, hc_write_file(CG "/cpuset.cpus", cpus));
	self->nkids = 0;
}

FIXTURE_TEARDOWN(cs)
{
	int cpu;

	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	for (cpu = 1; cpu < get_nprocs_conf(); cpu++)
		hc_set_online(cpu, 1);
	rmdir(CG);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

/* @n sleepers in the test cpuset, registered (root), one per vertex 0.. */
static void spawn_in_cpuset(struct __test_metadata *_metadata,
			    FIXTURE_DATA(cs) *self, int n)
{
	char pid[32];
	int i;

	for (i = 0; i < n; i++) {
		self->kids[self->nkids] = hc_spawn(0);
		snprintf(pid, sizeof(pid), "%d", self->kids[self->nkids]);
		ASSERT_EQ(0, hc_write_file(CG "/cgroup.procs", pid));
		self->nkids++;
	}
	usleep(100000);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, hc_task_add(&self->h, &self->kids[i], 1, i, 0));
}

/* Every task active and with exactly its vertex's usable CPUs in @allowed. */
static void expect_managed(struct __test_metadata *_metadata,
			   FIXTURE_DATA(cs) *self, const cpu_set_t *allowed)
{
	struct hc_task t[8];
	int n, i;

	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	n = hc_get_tasks(&self->h, t, 8);
	ASSERT_EQ(self->nkids, n);
	for (i = 0; i < n; i++) {
		cpu_set_t a, want;

		EXPECT_EQ(HCUBE_TASK_ACTIVE, t[i].state) TH_LOG("pid %u", t[i].pid);
		EXPECT_EQ(HCUBE_VERTEX_HEALTHY, cube.v[t[i].vertex].state);
		ASSERT_EQ(0, sched_getaffinity(t[i].pid, sizeof(a), &a));
		CPU_AND(&want, &cube.v[t[i].vertex].usable, allowed);
		EXPECT_TRUE(CPU_EQUAL(&a, &want))
			TH_LOG("pid %u: not its vertex %u's CPUs in its cpuset", t[i].pid,
			       t[i].vertex);
	}
}

/*
 * Offline/online cycles make the cpuset rewrite its tasks' masks; hcube
 * takes them back, counts nothing changed, and a fault afterwards moves
 * the tasks off the faulty CPU like any others.
 */
TEST_F(cs, hotplug_cycles_then_a_fault)
{
	uint64_t s0[HCUBE_S_A_MAX + 1], s[HCUBE_S_A_MAX + 1];
	int last = get_nprocs_conf() - 1, cycle, i;
	cpu_set_t all;

	spawn_in_cpuset(_metadata, self, 4);
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	for (cycle = 0; cycle < 3; cycle++) {
		ASSERT_EQ(0, hc_set_online(last, 0));
		usleep(300000);
		ASSERT_EQ(0, hc_set_online(last, 1));
		usleep(300000);
	}
	CPU_ZERO(&all);
	for (i = 0; i <= last; i++)
		CPU_SET(i, &all);
	/* a fault: the task on CPU 0 leaves it; all stay managed */
	ASSERT_EQ(0, hc_fault(&self->h, 1, 0, -1, NULL));
	expect_managed(_metadata, self, &all);
	for (i = 0; i < self->nkids; i++) {
		cpu_set_t a;

		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(a), &a));
		EXPECT_FALSE(CPU_ISSET(0, &a)) TH_LOG("pid %d on faulty CPU 0", self->kids[i]);
	}
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(s0[HCUBE_S_A_CHANGED], s[HCUBE_S_A_CHANGED]);
}

/*
 * The cpuset shrinks away from a task's vertex: the task goes to the
 * nearest vertex its cpuset allows, and stays managed.
 */
TEST_F(cs, cpuset_shrinks_away_from_a_vertex)
{
	uint64_t s0[HCUBE_S_A_MAX + 1], s[HCUBE_S_A_MAX + 1];
	struct hc_report *rep = malloc(sizeof(*rep));
	char cpus[32];
	cpu_set_t allowed;
	int i;

	ASSERT_NE(NULL, rep);
	spawn_in_cpuset(_metadata, self, 4);
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	/* CPUs 2.. only: the tasks of vertices 0 and 1 must leave */
	snprintf(cpus, sizeof(cpus), "2-%d", get_nprocs() - 1);
	ASSERT_EQ(0, hc_write_file(CG "/cpuset.cpus", cpus));
	usleep(200000);
	/* a rebalance looks at every task first */
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, rep));
	CPU_ZERO(&allowed);
	for (i = 2; i < get_nprocs(); i++)
		CPU_SET(i, &allowed);
	expect_managed(_metadata, self, &allowed);
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(s0[HCUBE_S_A_CHANGED], s[HCUBE_S_A_CHANGED]);
	free(rep);
}

TEST_HARNESS_MAIN
