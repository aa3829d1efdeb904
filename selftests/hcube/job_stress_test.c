// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: an outside workload as a job. Debian's stress-ng (fork, clone and
 * pthread stressors: thousands of short-lived children and threads) is
 * registered with the tree unit while faults, rebalances and CPU hotplug
 * run; then the kernel's own cpu-hotplug selftest (cpu-on-off-test.sh -a,
 * extracted from linux-source-6.1 at build time) runs while the job is
 * balanced. Afterwards nothing of the job may be left registered, no task
 * lost (the counters balance), and no stress-ng process ever seen with a
 * vertex's mask without being registered. Runs in the VM with the module
 * loaded; HCUBE_JOB_SECONDS sets each phase's length (default 10).
 */
#include <dirent.h>
#include <time.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

static struct hc_cube cube;

static int seconds(void)
{
	const char *s = getenv("HCUBE_JOB_SECONDS");

	return s && atoi(s) > 0 ? atoi(s) : 10;
}

static int alive(pid_t tid)
{
	char state = 0;

	return hc_ppid_of(tid, &state) >= 0 && state != 'Z' && state != 'X';
}

static int descends(pid_t pid, pid_t root)
{
	int depth;

	for (depth = 0; depth < 32 && pid > 1; depth++) {
		char state;

		if (pid == root)
			return 1;
		pid = hc_ppid_of(pid, &state);
	}
	return 0;
}

/* Is @pid registered? From the whole task list, however long it is. */
static int registered(pid_t pid)
{
	static struct hnl h;
	static int open;
	uint32_t *pids;
	int n, i, found = 0;

	if (!open && hnl_open(&h))
		return -1;
	open = 1;
	n = hc_task_pids(&h, &pids);
	for (i = 0; i < n; i++)
		found |= pids[i] == (uint32_t)pid;
	free(pids);
	return n < 0 ? -1 : found;
}

/* What the module says of @pid's process and of its parent. */
static void print_state(pid_t pid)
{
	static struct hc_task t[8192];
	char state;
	pid_t pp = hc_ppid_of(pid, &state);
	struct hnl h;
	int n, i;

	if (hnl_open(&h))
		return;
	n = hc_get_tasks(&h, t, 8192);
	for (i = 0; i < n; i++)
		if (t[i].pid == (uint32_t)pid || t[i].pid == (uint32_t)pp)
			fprintf(stderr, "#   registered: pid %u vertex %u state %u\n",
				t[i].pid, t[i].vertex, t[i].state);
	hnl_close(&h);
}

static int vertex_mask(const cpu_set_t *a)
{
	uint32_t i;

	for (i = 0; i < cube.nv; i++)
		if (cube.v[i].state == HCUBE_VERTEX_HEALTHY &&
		    CPU_EQUAL(a, &cube.v[i].usable))
			return 1;
	return 0;
}

/*
 * Every thread of the job that has lived 200 ms with a vertex's mask is
 * registered: a creation the module missed would stay pinned and unknown.
 * Returns how many were not.
 */
static int unknown_pinned(pid_t root)
{
	DIR *d = opendir("/proc"), *td;
	struct dirent *e, *te;
	int bad = 0, tries;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid = atoi(e->d_name);
		char path[64];

		if (pid <= 0 || !descends(pid, root))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		if (!td)
			continue;
		while ((te = readdir(td))) {
			pid_t tid = atoi(te->d_name);
			cpu_set_t a;

			if (tid <= 0 || sched_getaffinity(tid, sizeof(a), &a) ||
			    !vertex_mask(&a) || registered(tid) == 1)
				continue;
			/*
			 * A new one is linked when it first runs, an exiting one
			 * unregistered before it is a zombie: under TCG with the
			 * host's cores shared, either can take seconds. 10 s.
			 */
			for (tries = 0; tries < 100; tries++) {
				usleep(100000);
				if (sched_getaffinity(tid, sizeof(a), &a) ||
				    !vertex_mask(&a) || registered(tid) == 1 || !alive(tid))
					break;
			}
			if (tries == 100) {
				char cmd[256];

				fprintf(stderr, "# tid %d (process %d) of the job: a vertex's mask, not registered\n",
					tid, pid);
				snprintf(cmd, sizeof(cmd),
					 "grep -hE '^(Name|Tgid|PPid|Cpus_allowed_list)' /proc/%d/task/%d/status | sed 's/^/#   /' >&2",
					 pid, tid);
				if (system(cmd))
					fprintf(stderr, "#   (gone)\n");
				print_state(pid);
				bad++;
			}
		}
		closedir(td);
	}
	closedir(d);
	return bad;
}

static int task_add_tree(struct hnl *h, pid_t pid)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err;

	hreq_init(r, h, h->family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(r, HCUBE_A_PID, pid);
	hreq_u32(r, HCUBE_A_UNIT, HCUBE_UNIT_TREE);
	err = hnl_do(h, r, &rp);
	hreply_free(&rp);
	free(r);
	return err;
}

/* Faults, rebalances with every policy and, when @hotplug, CPU hotplug. */
static void storm(struct hnl *h, int secs, int hotplug, unsigned int *seed,
		  int *ops)
{
	int ncpu = get_nprocs_conf();
	time_t end = time(NULL) + secs;
	struct hc_report *rep = malloc(sizeof(*rep));

	while (time(NULL) < end) {
		int cpu = 1 + rand_r(seed) % (ncpu - 1);

		switch (rand_r(seed) % 4) {
		case 0:
			hc_fault(h, 1, cpu, -1, NULL);
			break;
		case 1:
			hc_fault(h, 0, cpu, -1, NULL);
			break;
		case 2:
			hc_rebalance(h, rand_r(seed) % (HCUBE_POLICY_MAX + 1), 0, rep);
			break;
		case 3:
			if (hotplug)
				hc_set_online(cpu, rand_r(seed) % 2);
			break;
		}
		(*ops)++;
		usleep(20000);
	}
	free(rep);
}

FIXTURE(job) {
	int unused;
};

FIXTURE_SETUP(job)
{
}

FIXTURE_TEARDOWN(job)
{
}

TEST_F_TIMEOUT(job, stress_ng_through_faults_hotplug_and_cpu_on_off_test, 600)
{
	const char *cot = getenv("HCUBE_CPU_ON_OFF_TEST");
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s[HCUBE_A_STATS_MAX + 1];
	int secs = seconds(), ops = 0, status, tries, cpu, n, rc;
	unsigned int seed = 1;
	struct hnl h;
	char cmd[PATH_MAX + 64], dur[32];
	pid_t ng;

	if (!cot)
		cot = hc_beside("cpu-on-off-test.sh");
	if (access("/usr/bin/stress-ng", X_OK))
		SKIP(return, "no stress-ng (make deps installs it)");
	ASSERT_EQ(0, access(cot, R_OK)) TH_LOG("no %s: make installs it beside the test", cot);
	ASSERT_EQ(0, hnl_open(&h));
	ASSERT_EQ(0, hc_reset(&h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, hc_stats(&h, s0));

	snprintf(dur, sizeof(dur), "%ds", 2 * secs + 10);
	ng = fork();
	ASSERT_GE(ng, 0);
	if (ng == 0) {
		execl("/usr/bin/stress-ng", "stress-ng", "--fork", "2", "--clone", "2",
		      "--pthread", "2", "--timeout", dur, "--temp-path", "/tmp",
		      "--quiet", (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(0, task_add_tree(&h, ng));
	/* its stressors are registered as stress-ng starts them */
	for (tries = 0; tries < 6000; tries++) {
		ASSERT_EQ(0, hc_stats(&h, s));
		if (s[HCUBE_A_STATS_ADOPTED] > s0[HCUBE_A_STATS_ADOPTED])
			break;
		usleep(10000);
	}
	ASSERT_GT(s[HCUBE_A_STATS_ADOPTED], s0[HCUBE_A_STATS_ADOPTED])
		TH_LOG("no child of stress-ng registered in 60 s");

	/* phase 1: faults, rebalances and hotplug of our own */
	storm(&h, secs, 1, &seed, &ops);
	for (cpu = 1; cpu < get_nprocs_conf(); cpu++)
		hc_set_online(cpu, 1);
	ASSERT_EQ(0, hc_get_cube(&h, &cube));
	EXPECT_EQ(0, unknown_pinned(ng));

	/* phase 2: the kernel's cpu-hotplug selftest, faults and rebalances */
	snprintf(cmd, sizeof(cmd), "bash %s -a >/tmp/cpu-on-off.log 2>&1", cot);
	rc = -1;
	{
		pid_t k = fork();

		ASSERT_GE(k, 0);
		if (k == 0)
			_exit(system(cmd) == 0 ? 0 : 1);
		storm(&h, secs, 0, &seed, &ops);
		waitpid(k, &status, 0);
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	if (rc)
		system("sed 's/^/# cpu-on-off-test: /' /tmp/cpu-on-off.log | tail -20");
	EXPECT_EQ(0, rc) TH_LOG("cpu-on-off-test.sh -a failed");
	for (cpu = 1; cpu < get_nprocs_conf(); cpu++)
		hc_set_online(cpu, 1);
	ASSERT_EQ(0, hc_get_cube(&h, &cube));
	EXPECT_EQ(0, unknown_pinned(ng));

	/* stress-ng ends by itself; then nothing of it may stay registered */
	ASSERT_EQ(ng, waitpid(ng, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("stress-ng status %d", status);
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, hc_stats(&h, s));
		if (!s[HCUBE_A_STATS_TASKS])
			break;
		usleep(10000);
	}
	{
		struct hc_task left[1];

		n = hc_get_tasks(&h, left, 1);
	}
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, s[HCUBE_A_STATS_TASKS]);
	EXPECT_EQ(s[HCUBE_A_STATS_REGISTERED],
		  s[HCUBE_A_STATS_UNREGISTERED] + s[HCUBE_A_STATS_EXITED] + s[HCUBE_A_STATS_TASKS]);
	fprintf(stderr, "# %d storm operations; %llu tasks registered (%llu new threads and children), %llu exited, %llu refused, %llu creations lost and found\n",
	       ops,
	       (unsigned long long)(s[HCUBE_A_STATS_REGISTERED] - s0[HCUBE_A_STATS_REGISTERED]),
	       (unsigned long long)(s[HCUBE_A_STATS_ADOPTED] - s0[HCUBE_A_STATS_ADOPTED]),
	       (unsigned long long)(s[HCUBE_A_STATS_EXITED] - s0[HCUBE_A_STATS_EXITED]),
	       (unsigned long long)(s[HCUBE_A_STATS_REFUSED] - s0[HCUBE_A_STATS_REFUSED]),
	       (unsigned long long)(s[HCUBE_A_STATS_EVENTS_LOST] - s0[HCUBE_A_STATS_EVENTS_LOST]));
	hc_reset(&h, HCUBE_MODE_CPU);
	hnl_close(&h);
}

TEST_HARNESS_MAIN
