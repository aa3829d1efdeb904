// SPDX-License-Identifier: GPL-2.0
/*
 * libhcube and the SPANK plugin's registration against hcubectl's fake
 * kernel (selftests/hcubectl/fakekernel.c, LD_PRELOAD): requests validated
 * with the module's generated policies, the vertex dump parsed, errors with
 * their extended acks, the policy read and set; then hs_register() with
 * real processes of another user (as root): their bindings read and
 * the requests sent, or on a refusal everything undone.
 *
 * Run by selftests/spank/Makefile with LD_PRELOAD, HCUBE_FAKE_LOG and
 * HCUBE_FAKE_STATE set.
 */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include "kselftest_harness.h"
#include <linux/hcube.h>
#include "hcube_spank.h"

/* The last line of the fake's request log. */
static void last_request(char *buf, size_t size)
{
	FILE *f = fopen(getenv("HCUBE_FAKE_LOG"), "r");

	buf[0] = '\0';
	while (f && fgets(buf, (int)size, f))
		;
	if (f)
		fclose(f);
}

FIXTURE(fake) {
	struct hcl *c;
};

FIXTURE_SETUP(fake)
{
	if (!getenv("HCUBE_FAKE_LOG") || !getenv("LD_PRELOAD"))
		SKIP(return, "run with the fake kernel (selftests/spank/Makefile)");
	unsetenv("HCUBE_FAKE_GONE");
	unsetenv("HCUBE_FAKE_NOADMIN");
	ASSERT_EQ(0, hcl_open(&self->c, 2000));
}

FIXTURE_TEARDOWN(fake)
{
	hcl_close(self->c);
}

/* The fake's cube: 16 vertices of 2 CPUs; 5 faulty, 6 and 8 not, 10 absent. */
TEST_F(fake, vertices)
{
	struct hcl_vertex *v;
	cpu_set_t want;
	size_t n, i;

	ASSERT_EQ(0, hcl_vertices(self->c, &v, &n));
	ASSERT_EQ(16, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(i, v[i].id);
	hcl_cpulist_parse("6-7", &want);
	EXPECT_TRUE(CPU_EQUAL(&want, &v[3].cpus));
	EXPECT_TRUE(CPU_EQUAL(&want, &v[3].usable));
	EXPECT_EQ(HCUBE_VERTEX_HEALTHY, v[3].state);
	EXPECT_EQ(HCUBE_VERTEX_FAULTY, v[5].state);
	EXPECT_EQ(0, CPU_COUNT(&v[5].usable));
	EXPECT_EQ(HCUBE_VERTEX_ABSENT, v[10].state);
	EXPECT_EQ(0, CPU_COUNT(&v[10].cpus));
	free(v);
}

TEST_F(fake, task_add_and_del)
{
	pid_t pids[2] = { getpid(), getppid() };
	char line[512], want[128];

	ASSERT_EQ(0, hcl_task_add(self->c, pids, 2, 3));
	last_request(line, sizeof(line));
	snprintf(want, sizeof(want), "cmd %d ", HCUBE_CMD_TASK_ADD);
	EXPECT_EQ(0, strncmp(line, want, strlen(want))) TH_LOG("%s", line);
	snprintf(want, sizeof(want), " pids %d,%d unit none", pids[0], pids[1]);
	EXPECT_NE(NULL, strstr(line, want)) TH_LOG("%s", line);
	ASSERT_EQ(0, hcl_task_add(self->c, pids, 1, -1));
	ASSERT_EQ(0, hcl_task_del(self->c, pids, 2));
	last_request(line, sizeof(line));
	snprintf(want, sizeof(want), "cmd %d ", HCUBE_CMD_TASK_DEL);
	EXPECT_EQ(0, strncmp(line, want, strlen(want))) TH_LOG("%s", line);
}

/* A vertex past the cube: the module's own policy refuses it, with its range. */
TEST_F(fake, bad_vertex)
{
	pid_t me = getpid();

	EXPECT_EQ(-ERANGE, hcl_task_add(self->c, &me, 1, 1024));
	EXPECT_EQ(-1, hcl_bad_pid(self->c));
}

/* A process gone: ESRCH, and the ack names which of the pids it was. */
TEST_F(fake, refusal_names_the_pid)
{
	pid_t pids[3] = { 4001, 4002, 4003 };

	setenv("HCUBE_FAKE_GONE", "4002", 1);
	EXPECT_EQ(-ESRCH, hcl_task_add(self->c, pids, 3, -1));
	EXPECT_EQ(1, hcl_bad_pid(self->c));
	unsetenv("HCUBE_FAKE_GONE");
	EXPECT_EQ(0, hcl_task_add(self->c, pids, 3, -1));
	EXPECT_EQ(-1, hcl_bad_pid(self->c));
}

TEST_F(fake, no_cap_net_admin)
{
	pid_t me = getpid();
	uint32_t p;

	setenv("HCUBE_FAKE_NOADMIN", "1", 1);
	EXPECT_EQ(-EPERM, hcl_task_add(self->c, &me, 1, -1));
	EXPECT_EQ(-EPERM, hcl_policy_set(self->c, HCUBE_POLICY_DEM));
	EXPECT_EQ(0, hcl_policy_get(self->c, &p));	/* reading needs nothing */
}

TEST_F(fake, policy)
{
	uint32_t p;

	ASSERT_EQ(0, hcl_policy_set(self->c, HCUBE_POLICY_MCWA));
	ASSERT_EQ(0, hcl_policy_get(self->c, &p));
	EXPECT_EQ(HCUBE_POLICY_MCWA, p);
	ASSERT_EQ(0, hcl_policy_set(self->c, HCUBE_POLICY_DEM));
	ASSERT_EQ(0, hcl_policy_get(self->c, &p));
	EXPECT_EQ(HCUBE_POLICY_DEM, p);
	EXPECT_EQ(0, hs_restore_policy(HCUBE_POLICY_DEM, HCUBE_POLICY_MCWA, NULL, 0));
	ASSERT_EQ(0, hcl_policy_get(self->c, &p));
	EXPECT_EQ(HCUBE_POLICY_MCWA, p);
	/* not ours any more: left as it is */
	EXPECT_EQ(-EBUSY, hs_restore_policy(HCUBE_POLICY_DEM, HCUBE_POLICY_OPTIMAL, NULL, 0));
	ASSERT_EQ(0, hcl_policy_get(self->c, &p));
	EXPECT_EQ(HCUBE_POLICY_MCWA, p);
}

#define NTASKS 3
#define USER 65534

/* Tasks as slurmstepd leaves them: another user's, bound to CPU 0. */
FIXTURE(step) {
	pid_t pids[NTASKS + 1];		/* and one more for a test's own */
	cpu_set_t cpu0, all;
	struct hs_request rq;
};

FIXTURE_SETUP(step)
{
	int i;

	if (geteuid())
		SKIP(return, "needs root, as slurmstepd has it");
	if (!getenv("HCUBE_FAKE_LOG") || !getenv("LD_PRELOAD"))
		SKIP(return, "run with the fake kernel (selftests/spank/Makefile)");
	unsetenv("HCUBE_FAKE_GONE");
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(self->all), &self->all));
	if (CPU_COUNT(&self->all) < 2)
		SKIP(return, "one CPU: nothing to bind to");
	CPU_ZERO(&self->cpu0);
	CPU_SET(0, &self->cpu0);
	for (i = 0; i < NTASKS; i++) {
		int ready[2];
		char c = 0;

		ASSERT_EQ(0, pipe(ready));
		self->pids[i] = fork();
		ASSERT_LE(0, self->pids[i]);
		if (!self->pids[i]) {
			if (setgroups(0, NULL) || setresgid(USER, USER, USER) ||
			    setresuid(USER, USER, USER) ||
			    sched_setaffinity(0, sizeof(self->cpu0), &self->cpu0))
				_exit(1);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		close(ready[1]);
		ASSERT_EQ(1, read(ready[0], &c, 1));	/* bound, and the user's */
		close(ready[0]);
	}
	self->rq = (struct hs_request){
		.uid = USER, .gid = USER, .pids = self->pids, .n = NTASKS,
		.policy = HS_ON,
	};
}

FIXTURE_TEARDOWN(step)
{
	int i;

	for (i = 0; i <= NTASKS; i++)
		if (self->pids[i] > 0) {
			kill(self->pids[i], SIGKILL);
			waitpid(self->pids[i], NULL, 0);
		}
}

static bool affinity_is(pid_t pid, const cpu_set_t *want)
{
	cpu_set_t s;

	return !sched_getaffinity(pid, sizeof(s), &s) && CPU_EQUAL(&s, want);
}

TEST_F(step, registered)
{
	struct hs_result res;
	char line[512], want[128];
	int i;

	hs_register(&self->rq, 10000, &res);
	ASSERT_EQ(0, res.err) TH_LOG("%s", res.text);
	EXPECT_EQ(NTASKS, res.registered);
	EXPECT_STREQ("3 on vertex 0", res.text);	/* the fake's CPU 0 */
	EXPECT_EQ(USER, res.uid);
	EXPECT_EQ(1ULL << CAP_NET_ADMIN, res.caps);
	EXPECT_STREQ("", res.warning);
	EXPECT_EQ(-1, res.new_policy);
	last_request(line, sizeof(line));
	snprintf(want, sizeof(want), "cmd %d ", HCUBE_CMD_TASK_ADD);
	EXPECT_EQ(0, strncmp(line, want, strlen(want))) TH_LOG("%s", line);
	snprintf(want, sizeof(want), " pids %d,%d,%d ", self->pids[0], self->pids[1],
		 self->pids[2]);
	EXPECT_NE(NULL, strstr(line, want)) TH_LOG("%s", line);
	/* Slurm's binding stays until the module gives the vertex's (not the fake) */
	for (i = 0; i < NTASKS; i++)
		EXPECT_TRUE(affinity_is(self->pids[i], &self->cpu0));
}

/* One refused: none stays registered, every binding comes back. */
TEST_F(step, refused)
{
	struct hs_result res;
	char gone[32], line[512], want[64];
	int i;

	snprintf(gone, sizeof(gone), "%d", self->pids[1]);
	setenv("HCUBE_FAKE_GONE", gone, 1);
	hs_register(&self->rq, 10000, &res);
	unsetenv("HCUBE_FAKE_GONE");
	EXPECT_EQ(-ESRCH, res.err);
	EXPECT_EQ(0, res.registered);
	snprintf(want, sizeof(want), "registering task pid %d: ", self->pids[1]);
	EXPECT_EQ(0, strncmp(res.text, want, strlen(want))) TH_LOG("%s", res.text);
	for (i = 0; i < NTASKS; i++)
		EXPECT_TRUE(affinity_is(self->pids[i], &self->cpu0));
	last_request(line, sizeof(line));
	snprintf(want, sizeof(want), "cmd %d ", HCUBE_CMD_TASK_ADD);
	EXPECT_EQ(0, strncmp(line, want, strlen(want))) TH_LOG("%s", line);
}

/* Slurm bound nothing: the module places them. */
TEST_F(step, unbound)
{
	struct hs_result res;
	int i;

	for (i = 0; i < NTASKS; i++)
		ASSERT_EQ(0, sched_setaffinity(self->pids[i], sizeof(self->all), &self->all));
	hs_register(&self->rq, 10000, &res);
	ASSERT_EQ(0, res.err) TH_LOG("%s", res.text);
	EXPECT_STREQ("3 placed by the module", res.text);
}

/* A task that is still root (slurmstepd's child before it became the user). */
TEST_F(step, task_not_yet_the_users)
{
	struct hs_result res;
	pid_t root = fork();

	ASSERT_LE(0, root);
	if (!root) {
		pause();
		_exit(0);
	}
	self->pids[NTASKS] = root;	/* torn down with the others */
	self->rq.n = NTASKS + 1;
	hs_register(&self->rq, 10000, &res);
	EXPECT_EQ(-ETIMEDOUT, res.err);
	EXPECT_NE(NULL, strstr(res.text, "did not take the user's credentials"));
	EXPECT_EQ(0, res.registered);
}

/*
 * The policy the fake last saved (HCUBE_FAKE_STATE's "config P ..." line):
 * the helper's changes are not seen by this process's own fake.
 */
static int saved_policy(void)
{
	FILE *f = fopen(getenv("HCUBE_FAKE_STATE"), "r");
	char line[256];
	int p = -1;

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "config %d", &p);
	if (f)
		fclose(f);
	return p;
}

TEST_F(step, policy_asked_for)
{
	struct hs_result res;
	struct hcl *c;

	ASSERT_EQ(0, hcl_open(&c, 2000));
	ASSERT_EQ(0, hcl_policy_set(c, HCUBE_POLICY_MCWA));
	hcl_close(c);
	ASSERT_EQ(HCUBE_POLICY_MCWA, saved_policy());
	/* not allowed: a line for the user, the node's policy stays */
	self->rq.policy = HCUBE_POLICY_DEM;
	hs_register(&self->rq, 10000, &res);
	ASSERT_EQ(0, res.err) TH_LOG("%s", res.text);
	EXPECT_STREQ("--hcube=dem not applied: this node balances with mcwa, which its "
		     "administrator sets", res.warning);
	EXPECT_STREQ("3 on vertex 0", res.text);
	EXPECT_EQ(-1, res.new_policy);
	EXPECT_EQ(HCUBE_POLICY_MCWA, saved_policy());
	/* allowed: set, and what to give back at the end said */
	self->rq.user_policy = true;
	hs_register(&self->rq, 10000, &res);
	ASSERT_EQ(0, res.err) TH_LOG("%s", res.text);
	EXPECT_STREQ("", res.warning);
	/* still bound to CPU 0: the fake does not move them */
	EXPECT_STREQ("policy dem (was mcwa); 3 on vertex 0", res.text);
	EXPECT_EQ(HCUBE_POLICY_MCWA, res.old_policy);
	EXPECT_EQ(HCUBE_POLICY_DEM, res.new_policy);
	EXPECT_EQ(HCUBE_POLICY_DEM, saved_policy());
}

TEST_HARNESS_MAIN
