// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: tasks in a cgroup v2 cpuset. A task's mask is its vertex's usable
 * CPUs within what its cpuset allows; the cpuset's own rewrites (CPU
 * hotplug, cpuset.cpus) leave the task managed, never counted as changed;
 * a task whose cpuset leaves its vertex goes to the nearest vertex it
 * allows. Checked from userspace after offline/online cycles and a fault.
 * Runs in the VM with the module loaded.
 */
#include <pthread.h>
#include <semaphore.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <time.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define CG "/sys/fs/cgroup/hcube-cpuset-test"

static struct hc_cube cube;

FIXTURE(cs) {
	struct hnl h;
	pid_t kids[16];
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
		ASSERT_EQ(0, hc_task_add(&self->h, &self->kids[i], 1, i));
}

/*
 * Is every task active and with exactly its vertex's usable CPUs in
 * @allowed? Set up to 5 s to be: what the rebalance left is the pass's,
 * after it, on the module's workqueue.
 */
static int managed(FIXTURE_DATA(cs) *self, const cpu_set_t *allowed)
{
	struct hc_task t[8];
	int tries, n, i;

	for (tries = 0; tries < 500; tries++) {
		if (hc_get_cube(&self->h, &cube))
			return 0;
		n = hc_get_tasks(&self->h, t, 8);
		for (i = 0; n == self->nkids && i < n; i++) {
			cpu_set_t a, want;

			if (t[i].state != HCUBE_TASK_ACTIVE ||
			    sched_getaffinity(t[i].pid, sizeof(a), &a))
				break;
			CPU_AND(&want, &cube.v[t[i].vertex].usable, allowed);
			if (!CPU_EQUAL(&a, &want))
				break;
		}
		if (n == self->nkids && i == n)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Every task active and with exactly its vertex's usable CPUs in @allowed. */
static void expect_managed(struct __test_metadata *_metadata,
			   FIXTURE_DATA(cs) *self, const cpu_set_t *allowed)
{
	struct hc_task t[8];
	int n, i;

	managed(self, allowed);
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
	HC_SETUP_SKIPPED();
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s[HCUBE_A_STATS_MAX + 1];
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
	EXPECT_EQ(s0[HCUBE_A_STATS_CHANGED], s[HCUBE_A_STATS_CHANGED]);
}

/*
 * The cpuset shrinks away from a task's vertex: the task goes to the
 * nearest vertex its cpuset allows, and stays managed.
 */
TEST_F(cs, cpuset_shrinks_away_from_a_vertex)
{
	HC_SETUP_SKIPPED();
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s[HCUBE_A_STATS_MAX + 1];
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
	EXPECT_EQ(s0[HCUBE_A_STATS_CHANGED], s[HCUBE_A_STATS_CHANGED]);
	free(rep);
}

/*
 * A fault on the CPU of a task whose cpuset has one other CPU, two labels
 * away (not a neighbour the evacuation would choose): the task goes there,
 * the one CPU its cpuset allows, and stays managed.
 */
TEST_F(cs, evacuation_goes_where_the_cpuset_allows)
{
	HC_SETUP_SKIPPED();
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s[HCUBE_A_STATS_MAX + 1];
	int n = get_nprocs(), from = 2, to = n - 1, v = -1, i;
	char cpus[32], pid[32];
	cpu_set_t a;

	if (n < 8)
		SKIP(return, "needs 8 CPUs");
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (i = 0; i < (int)cube.nv; i++)
		if (CPU_ISSET(from, &cube.v[i].cpus))
			v = i;
	ASSERT_GE(v, 0);
	snprintf(cpus, sizeof(cpus), "%d,%d", from, to);
	ASSERT_EQ(0, hc_write_file(CG "/cpuset.cpus", cpus));
	self->kids[self->nkids] = hc_spawn(0);
	snprintf(pid, sizeof(pid), "%d", self->kids[self->nkids]);
	ASSERT_EQ(0, hc_write_file(CG "/cgroup.procs", pid));
	self->nkids++;
	usleep(100000);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 1, v));
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	ASSERT_EQ(0, hc_fault(&self->h, 1, from, -1, NULL));
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(s0[HCUBE_A_STATS_EVACUATIONS] + 1, s[HCUBE_A_STATS_EVACUATIONS]);
	ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(a), &a));
	EXPECT_TRUE(CPU_COUNT(&a) == 1 && CPU_ISSET(to, &a))
		TH_LOG("after the fault the task has %d CPUs, CPU %d %s", CPU_COUNT(&a), to,
		       CPU_ISSET(to, &a) ? "among them" : "not among them");
	{
		struct hc_task t[4];

		ASSERT_EQ(1, hc_get_tasks(&self->h, t, 4));
		EXPECT_EQ(HCUBE_TASK_ACTIVE, t[0].state);
	}
	hc_fault(&self->h, 0, from, -1, NULL);
}

/*
 * A dry run reads and plans: with a task whose cpuset just left its
 * vertex, it changes no mask, no state and no counter but dry_runs.
 */
TEST_F(cs, dry_run_changes_nothing)
{
	HC_SETUP_SKIPPED();
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s[HCUBE_A_STATS_MAX + 1];
	struct hc_report *rep = malloc(sizeof(*rep));
	struct hc_task t0[8], t1[8];
	cpu_set_t before, after;
	char cpus[32];
	int n0, n1, i;

	ASSERT_NE(NULL, rep);
	spawn_in_cpuset(_metadata, self, 1);
	snprintf(cpus, sizeof(cpus), "3-%d", get_nprocs() - 1);
	ASSERT_EQ(0, hc_write_file(CG "/cpuset.cpus", cpus));
	/*
	 * A pass of the module's own (the passes that follow hotplug and
	 * failed remasks, up to 1.28 s apart) may give the task its cpuset's
	 * vertex meanwhile: the dry run is judged once nothing moves for 1.5 s.
	 */
	for (i = 0; i < 20; i++) {
		usleep(1500000);
		ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(before), &before));
		if (i && CPU_EQUAL(&before, &after))
			break;
		after = before;
	}
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	n0 = hc_get_tasks(&self->h, t0, 8);
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 1, rep));
	ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after)) TH_LOG("the dry run changed a mask");
	n1 = hc_get_tasks(&self->h, t1, 8);
	ASSERT_EQ(n0, n1);
	for (i = 0; i < n0 && i < n1; i++) {
		EXPECT_EQ(t0[i].state, t1[i].state);
		EXPECT_EQ(t0[i].vertex, t1[i].vertex);
	}
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(s0[HCUBE_A_STATS_DRY_RUNS] + 1, s[HCUBE_A_STATS_DRY_RUNS]);
	for (i = 0; i <= HCUBE_A_STATS_MAX; i++)
		if (i != HCUBE_A_STATS_DRY_RUNS)
			EXPECT_EQ(s0[i], s[i]) TH_LOG("counter %d changed", i);
	free(rep);
}

#define PART "/sys/fs/cgroup/hcube-partition-test"

/* Read a cgroup file's first line into @buf. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok ? 0 : -1;
}

/*
 * A partition root takes the last two CPUs from the root cgroup: the
 * registered tasks of the root cgroup (some registered before the
 * partition, some after) are never given a CPU of it, through a fault and
 * a DEM rebalance, and stay managed.
 */
TEST_F(cs, partition_cpus_are_never_given_to_root_cgroup_tasks)
{
	HC_SETUP_SKIPPED();
	struct hc_report *rep = malloc(sizeof(*rep));
	int n = get_nprocs(), i, k, bad = 0;
	cpu_set_t eff, a;
	char buf[256];
	pid_t kids[12];
	struct hc_task t[16];

	ASSERT_NE(NULL, rep);
	if (n < 4)
		SKIP(return, "needs 4 CPUs");
	/* the test cpuset may not overlap the partition's CPUs */
	snprintf(buf, sizeof(buf), "0-%d", n - 3);
	ASSERT_EQ(0, hc_write_file(CG "/cpuset.cpus", buf));
	for (i = 0; i < 6; i++)
		kids[i] = hc_spawn(0);
	ASSERT_EQ(0, hc_task_add(&self->h, kids, 6, -1));
	mkdir(PART, 0755);
	snprintf(buf, sizeof(buf), "%d-%d", n - 2, n - 1);
	ASSERT_EQ(0, hc_write_file(PART "/cpuset.cpus", buf));
	ASSERT_EQ(0, hc_write_file(PART "/cpuset.cpus.partition", "root"));
	ASSERT_EQ(0, read_line(PART "/cpuset.cpus.partition", buf, sizeof(buf)));
	if (strcmp(buf, "root")) {
		rmdir(PART);
		hc_kill_all(kids, 6);
		SKIP(return, "the partition is '%s'", buf);
	}
	for (i = 6; i < 12; i++)
		kids[i] = hc_spawn(0);
	usleep(100000);
	ASSERT_EQ(0, hc_task_add(&self->h, kids + 6, 6, -1));
	ASSERT_EQ(0, read_line("/sys/fs/cgroup/cpuset.cpus.effective", buf, sizeof(buf)));
	ASSERT_EQ(0, hc_parse_cpulist(buf, &eff));
	ASSERT_EQ(0, hc_fault(&self->h, 1, 0, -1, NULL));
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_DEM, 0, rep));
	for (i = 0; i < 12; i++) {
		ASSERT_EQ(0, sched_getaffinity(kids[i], sizeof(a), &a));
		for (k = 0; k < CPU_SETSIZE; k++)
			if (CPU_ISSET(k, &a) && !CPU_ISSET(k, &eff)) {
				bad++;
				TH_LOG("pid %d has CPU %d of the partition", kids[i], k);
				break;
			}
	}
	EXPECT_EQ(0, bad);
	k = hc_get_tasks(&self->h, t, 16);
	EXPECT_EQ(12, k);
	for (i = 0; i < k; i++)
		EXPECT_EQ(HCUBE_TASK_ACTIVE, t[i].state) TH_LOG("pid %u", t[i].pid);
	hc_task_del_all(&self->h);
	hc_fault(&self->h, 0, 0, -1, NULL);
	hc_kill_all(kids, 12);
	hc_write_file(PART "/cpuset.cpus.partition", "member");
	rmdir(PART);
	free(rep);
}

/*
 * What the mover does while the test rewrites the cpuset: one operation a
 * step, started with the step's cpuset write: a rebalance (MCWA or DEM),
 * a fault mark or clear, and about once a second a CPU offline and online
 * again. The test checks when both are done.
 */
struct mover {
	sem_t go, done;
	volatile int stop;
	int ncpu;
	long ops, hotplugs;
};

static void *mover_main(void *arg)
{
	struct mover *m = arg;
	struct hc_report *rep = malloc(sizeof(*rep));
	unsigned int seed = 12345;
	time_t next_hotplug = 0;
	struct hnl h;

	if (!rep || hnl_open(&h))
		return NULL;
	for (;;) {
		int what = rand_r(&seed) % 16, cpu = 1 + rand_r(&seed) % (m->ncpu - 1);

		sem_wait(&m->go);
		if (m->stop)
			break;
		if (what == 15 && time(NULL) >= next_hotplug) {
			if (!hc_set_online(cpu, 0)) {
				hc_set_online(cpu, 1);
				m->hotplugs++;
			}
			next_hotplug = time(NULL) + 1;
		} else if (what < 11) {
			hc_rebalance(&h, what % 2 ? HCUBE_POLICY_DEM : HCUBE_POLICY_MCWA, 0, rep);
		} else {
			hc_fault(&h, what % 2, cpu, -1, NULL);
		}
		m->ops++;
		sem_post(&m->done);
	}
	hnl_close(&h);
	free(rep);
	return NULL;
}

/* The online CPUs, from sysfs. */
static void online_cpus(cpu_set_t *online)
{
	char buf[256];

	CPU_ZERO(online);
	if (read_line("/sys/devices/system/cpu/online", buf, sizeof(buf)) ||
	    hc_parse_cpulist(buf, online))
		CPU_ZERO(online);
}

/* How many of @kids have an online CPU outside @eff; *first is one. */
static int outside(const pid_t *kids, int n, const cpu_set_t *eff, pid_t *first)
{
	cpu_set_t online;
	int i, bad = 0;

	online_cpus(&online);
	for (i = 0; i < n; i++) {
		cpu_set_t a;
		int cpu;

		if (sched_getaffinity(kids[i], sizeof(a), &a))
			continue;
		CPU_AND(&a, &a, &online);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &a) && !CPU_ISSET(cpu, eff))
				break;
		if (cpu < CPU_SETSIZE) {
			if (!bad)
				*first = kids[i];
			bad++;
		}
	}
	return bad;
}

/*
 * A loop rewrites the job's cpuset.cpus (random non-empty sets of CPUs)
 * while rebalances, faults and CPU hotplug go on, each write at the same
 * time as one of them: after every step (both done), no registered
 * task has an online CPU outside its cpuset's effective CPUs. A task seen
 * outside is looked at again 200 ms later: a mask set from a read of the
 * cpuset just before the write is put right by the check that follows the
 * batch; one still outside then is a violation. HCUBE_CPUSET_STEPS steps
 * (10,000 by default).
 */
TEST_F_TIMEOUT(cs, cpuset_rewrites_during_rebalances_and_hotplug, 1800)
{
	HC_SETUP_SKIPPED();
	struct mover m = {};
	const char *env = getenv("HCUBE_CPUSET_STEPS");
	int steps = env ? atoi(env) : 10000, step, n = get_nprocs(), i;
	long violations = 0, transient = 0;
	unsigned int seed = 777;
	time_t t0 = time(NULL);
	pthread_t th;

	m.ncpu = n;
	ASSERT_EQ(0, sem_init(&m.go, 0, 0));
	ASSERT_EQ(0, sem_init(&m.done, 0, 0));
	spawn_in_cpuset(_metadata, self, 4);
	/* four more, anywhere */
	for (i = 0; i < 4; i++) {
		char pid[32];

		self->kids[self->nkids] = hc_spawn(0);
		snprintf(pid, sizeof(pid), "%d", self->kids[self->nkids]);
		ASSERT_EQ(0, hc_write_file(CG "/cgroup.procs", pid));
		self->nkids++;
	}
	usleep(100000);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids + 4, 4, -1));
	ASSERT_EQ(0, pthread_create(&th, NULL, mover_main, &m));
	for (step = 0; step < steps; step++) {
		char cpus[256] = "", buf[256], *p = cpus;
		cpu_set_t eff;
		pid_t who = 0;
		int cpu, any = 0;

		for (cpu = 0; cpu < n; cpu++)
			if (rand_r(&seed) % 2 || (cpu == n - 1 && !any)) {
				p += snprintf(p, cpus + sizeof(cpus) - p, "%s%d", any ? "," : "", cpu);
				any = 1;
			}
		/* the write, with the mover's operation in flight */
		sem_post(&m.go);
		hc_write_file(CG "/cpuset.cpus", cpus);
		sem_wait(&m.done);
		if (read_line(CG "/cpuset.cpus.effective", buf, sizeof(buf)) ||
		    hc_parse_cpulist(buf, &eff))
			continue;
		if (outside(self->kids, self->nkids, &eff, &who)) {
			usleep(200000);
			if (outside(self->kids, self->nkids, &eff, &who)) {
				violations++;
				TH_LOG("step %d: cpuset %s, pid %d has a CPU outside it", step, buf, who);
			} else {
				transient++;
			}
		}
	}
	m.stop = 1;
	sem_post(&m.go);
	pthread_join(th, NULL);
	printf("# %d steps in %.0f s: %ld violations, %ld put right within 200 ms; mover: %ld operations, %ld CPU offline/online cycles\n",
	       steps, difftime(time(NULL), t0), violations, transient, m.ops, m.hotplugs);
	fflush(stdout);
	EXPECT_EQ(0, violations);
	for (i = 1; i < get_nprocs_conf(); i++)
		hc_set_online(i, 1);
	for (i = 0; i < n; i++)
		hc_fault(&self->h, 0, i, -1, NULL);
}

TEST_HARNESS_MAIN
