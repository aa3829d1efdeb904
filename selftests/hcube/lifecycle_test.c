// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: load and unload with tasks registered. After rmmod every task has
 * the affinity it had when it was registered. It loads and unloads the
 * module itself, from HCUBE_KO (hcube_module.h).
 */
#include <pthread.h>
#include <sys/sysinfo.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_ITSELF)

static int insmod(const char *params)
{
	char p[256];

	snprintf(p, sizeof(p), "%s 2>/dev/null", params);
	return hc_module_insmod(p);
}

static int rmmod(void)
{
	return system("rmmod hcube 2>/dev/null");
}

/*
 * The tests that load the module several times get more than the
 * harness's 30 s: under KASAN on an emulated, shared host one insmod can
 * take seconds.
 */
FIXTURE(lc) {};
FIXTURE_SETUP(lc) {}
FIXTURE_TEARDOWN(lc) {}

TEST_F_TIMEOUT(lc, insmod_rmmod_cycles_restore_affinity, 300)
{
	int ncpu = get_nprocs(), cycle, i;
	struct hc_report *rep = malloc(sizeof(*rep));
	struct hnl h;

	ASSERT_NE(NULL, rep);
	rmmod();
	for (cycle = 0; cycle < 3; cycle++) {
		pid_t kids[8];
		cpu_set_t orig[8], now;

		ASSERT_EQ(0, insmod(cycle == 1 ? "mode=cpu" : ""));
		ASSERT_EQ(0, hnl_open(&h));
		for (i = 0; i < 8; i++) {
			kids[i] = hc_spawn(i == 0);
			CPU_ZERO(&orig[i]);
			/* distinct originals: one CPU, two CPUs, or all */
			if (i % 3 == 0) {
				CPU_SET(i % ncpu, &orig[i]);
			} else if (i % 3 == 1) {
				CPU_SET(i % ncpu, &orig[i]);
				CPU_SET((i + 1) % ncpu, &orig[i]);
			} else {
				ASSERT_EQ(0, sched_getaffinity(0, sizeof(orig[i]), &orig[i]));
			}
			ASSERT_EQ(0, sched_setaffinity(kids[i], sizeof(orig[i]), &orig[i]));
		}
		ASSERT_EQ(0, hc_task_add(&h, kids, 8, 0));
		ASSERT_EQ(0, hc_rebalance(&h, -1, 0, rep));
		hnl_close(&h);
		ASSERT_EQ(0, rmmod());
		for (i = 0; i < 8; i++) {
			ASSERT_EQ(0, sched_getaffinity(kids[i], sizeof(now), &now));
			EXPECT_TRUE(CPU_EQUAL(&now, &orig[i]))
				TH_LOG("cycle %d child %d: affinity not restored", cycle, i);
		}
		hc_kill_all(kids, 8);
	}
	free(rep);
}

TEST(unregister_restores_affinity)
{
	struct hnl h;
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	cpu_set_t orig, now;
	pid_t kid;

	rmmod();
	ASSERT_EQ(0, insmod("mode=cpu"));
	ASSERT_EQ(0, hnl_open(&h));
	kid = hc_spawn(0);
	CPU_ZERO(&orig);
	CPU_SET(0, &orig);
	ASSERT_EQ(0, sched_setaffinity(kid, sizeof(orig), &orig));
	ASSERT_EQ(0, hc_task_add(&h, &kid, 1, 1));
	ASSERT_EQ(0, sched_getaffinity(kid, sizeof(now), &now));
	EXPECT_FALSE(CPU_EQUAL(&now, &orig));
	hreq_init(r, &h, h.family, HCUBE_CMD_TASK_DEL, 0);
	hreq_u32(r, HCUBE_A_PID, kid);
	ASSERT_EQ(0, hnl_do(&h, r, &rp));
	hreply_free(&rp);
	ASSERT_EQ(0, sched_getaffinity(kid, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&now, &orig));
	hc_kill_all(&kid, 1);
	hnl_close(&h);
	free(r);
	ASSERT_EQ(0, rmmod());
}

/* A job (the default unit) registers every thread of a process. */
static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

TEST(register_all_threads)
{
	struct hnl h;
	struct hc_task t[16];
	int pipefd[2], n, i;
	pid_t kid;
	char c;

	rmmod();
	ASSERT_EQ(0, insmod("mode=cpu"));
	ASSERT_EQ(0, hnl_open(&h));
	ASSERT_EQ(0, pipe(pipefd));
	kid = fork();
	if (!kid) {
		pthread_t th;

		for (i = 0; i < 3; i++)
			pthread_create(&th, NULL, idle_thread, NULL);
		ASSERT_EQ(1, write(pipefd[1], "x", 1));
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	ASSERT_EQ(0, hc_task_add(&h, &kid, 1, -1));
	n = hc_get_tasks(&h, t, 16);
	EXPECT_EQ(4, n);
	/* every tid belongs to the child */
	for (i = 0; i < n; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/task/%u", kid, t[i].pid);
		EXPECT_EQ(0, access(path, F_OK));
	}
	/* registering a thread again is refused */
	EXPECT_EQ(-EEXIST, hc_task_add(&h, &kid, 1, -1));
	hc_kill_all(&kid, 1);
	hnl_close(&h);
	ASSERT_EQ(0, rmmod());
}

TEST(max_tasks_gives_enospc)
{
	struct hnl h;
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	struct hc_cube *c = malloc(sizeof(*c));
	pid_t kids[4];
	int i;

	rmmod();
	ASSERT_EQ(0, insmod("max_tasks=3"));
	ASSERT_EQ(0, hnl_open(&h));
	for (i = 0; i < 4; i++)
		kids[i] = hc_spawn(0);
	ASSERT_EQ(0, hc_task_add(&h, kids, 2, -1));
	hreq_init(r, &h, h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(r, HCUBE_A_PID, kids[2]);
	hreq_u32(r, HCUBE_A_PID, kids[3]);
	EXPECT_EQ(-ENOSPC, hnl_do(&h, r, &rp));
	EXPECT_NE(NULL, strstr(rp.msg, "too many tasks (module parameter max_tasks)"));
	hreply_free(&rp);
	ASSERT_EQ(0, hc_get_cube(&h, c));
	EXPECT_EQ(2, c->ntasks);
	EXPECT_EQ(0, hc_task_add(&h, kids + 2, 1, -1));
	EXPECT_EQ(-ENOSPC, hc_task_add(&h, kids + 3, 1, -1));
	hc_kill_all(kids, 4);
	hnl_close(&h);
	free(r);
	free(c);
	ASSERT_EQ(0, rmmod());
}

/*
 * A request that registers a whole large process is all or nothing: over
 * max_tasks it is refused and no thread is registered or re-pinned; then,
 * allowed, every thread is registered and the reply (sized before anything
 * is registered, well over 64 KiB) lists each of them.
 */
#define BIG_THREADS 1500

TEST_F_TIMEOUT(lc, large_task_add_is_all_or_nothing, 300)
{
	struct hc_cube *c = malloc(sizeof(*c));
	struct hreq *r = malloc(sizeof(*r));
	int pipefd[2], i, listed = 0;
	uint32_t registered = 0;
	cpu_set_t before, now;
	struct hreply rp;
	struct hnl h;
	pid_t kid;
	char ch;

	rmmod();
	ASSERT_EQ(0, insmod("mode=cpu max_tasks=1000"));
	ASSERT_EQ(0, hnl_open(&h));
	ASSERT_EQ(0, pipe(pipefd));
	kid = fork();
	if (!kid) {
		pthread_attr_t at;
		pthread_t th;

		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 64 << 10);
		for (i = 1; i < BIG_THREADS; i++)
			if (pthread_create(&th, &at, idle_thread, NULL))
				_exit(1);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(pipefd[0], &ch, 1));
	ASSERT_EQ(0, sched_getaffinity(kid, sizeof(before), &before));

	hreq_init(r, &h, h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(r, HCUBE_A_PID, kid);
	EXPECT_EQ(-ENOSPC, hnl_do(&h, r, &rp));
	hreply_free(&rp);
	ASSERT_EQ(0, hc_get_cube(&h, c));
	EXPECT_EQ(0, c->ntasks);
	ASSERT_EQ(0, sched_getaffinity(kid, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&before, &now));
	hnl_close(&h);
	ASSERT_EQ(0, rmmod());

	ASSERT_EQ(0, insmod("mode=cpu"));
	ASSERT_EQ(0, hnl_open(&h));
	hreq_init(r, &h, h.family, HCUBE_CMD_TASK_ADD, 0);
	hreq_u32(r, HCUBE_A_PID, kid);
	ASSERT_EQ(0, hnl_do(&h, r, &rp));
	/* the reply counts them and lists the one the pid names: it stays small */
	EXPECT_LT(rp.used, 4096);
	for (i = 0; i < rp.nmsgs; i++) {
		struct nlattr *a;
		void *head;
		int len, rem;

		head = hnl_attrs(rp.msgs[i], &len);
		hnl_for_each_attr(a, head, len, rem)
			listed += (a->nla_type & ~NLA_F_NESTED) == HCUBE_A_TASK;
		a = hnl_msg_attr(rp.msgs[i], HCUBE_A_NREGISTERED);
		if (a)
			registered = hnl_u32(a);
	}
	EXPECT_EQ(1, listed);
	EXPECT_EQ(BIG_THREADS, registered);
	hreply_free(&rp);
	ASSERT_EQ(0, hc_get_cube(&h, c));
	EXPECT_EQ(BIG_THREADS, c->ntasks);
	hc_kill_all(&kid, 1);
	hnl_close(&h);
	free(r);
	free(c);
	ASSERT_EQ(0, rmmod());
}

/*
 * Four loads refused by the module's parameter checks; under KASAN on the
 * PREEMPT_RT debug kernel each takes up to 10 s on a loaded host.
 */
TEST_F_TIMEOUT(lc, bad_module_parameters, 120)
{
	rmmod();
	EXPECT_NE(0, insmod("mode=ring"));
	EXPECT_NE(0, insmod("max_tasks=0"));
	EXPECT_NE(0, insmod("births=0"));
	EXPECT_NE(0, insmod("births=65537"));
	/* nothing stayed loaded */
	EXPECT_NE(0, rmmod());
}

/*
 * A load that fails at any of its steps (init_fail_step=N, as if out of
 * memory there) leaves nothing behind: the module is not loaded, no
 * task's affinity changed, forks go on (a tracepoint probe left behind
 * would run freed code); and the next load works. On the debug kernel, kmemleak_test
 * then looks for what such a load leaked.
 */
static void fork_some(int n)
{
	while (n-- > 0) {
		pid_t p = fork();

		if (!p)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

TEST_F_TIMEOUT(lc, failed_load_leaves_nothing, 300)
{
	pid_t kid = hc_spawn(0);
	cpu_set_t before, now;
	char params[64];
	struct hnl h;
	int step;

	ASSERT_EQ(0, sched_getaffinity(kid, sizeof(before), &before));
	for (step = 1; step <= 6; step++) {
		rmmod();
		snprintf(params, sizeof(params), "mode=cpu init_fail_step=%d", step);
		EXPECT_NE(0, insmod(params)) TH_LOG("step %d did not fail the load", step);
		EXPECT_FALSE(hc_module_loaded()) TH_LOG("step %d: the module stayed", step);
		ASSERT_EQ(0, sched_getaffinity(kid, sizeof(now), &now));
		EXPECT_TRUE(CPU_EQUAL(&before, &now));
		/* a probe left behind would run the module's freed code */
		fork_some(50);
	}
	ASSERT_EQ(0, insmod("mode=cpu"));
	ASSERT_EQ(0, hnl_open(&h));
	EXPECT_EQ(0, hc_task_add(&h, &kid, 1, 0));
	EXPECT_EQ(0, hc_task_del_all(&h));
	hnl_close(&h);
	hc_kill_all(&kid, 1);
	ASSERT_EQ(0, rmmod());
}

TEST_HARNESS_MAIN
