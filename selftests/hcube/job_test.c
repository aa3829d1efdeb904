// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: a job is the unit. A registered process's threads and children
 * created later are registered on its vertex, leave a faulty CPU with it,
 * and get the original affinity back at unregister and at unload; children
 * of a thread unit and children refused over max_tasks run with their
 * creator's original affinity; exits are seen without a command. Every
 * outcome is read from userspace (sched_getaffinity, /proc), and the
 * module's counters must balance.
 *
 * A "puppet" process does what the test tells it over a pipe: fork a
 * sleeping child, start a sleeping thread, fork short-lived children, grow
 * a tree, exec from a non-leader thread. io_uring's threads are not the
 * job's: they are left where io_uring put them. Runs in the VM with the
 * module loaded; tests that need other module parameters reload it
 * (HCUBE_KO).
 */
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <linux/io_uring.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define MAXP 512

static struct hc_cube cube;

struct puppet {
	pid_t pid;
	int cmd, rep;
};

static int puppet_rep;

static void *puppet_thread(void *arg)
{
	pid_t tid = syscall(SYS_gettid);

	(void)arg;
	if (write(puppet_rep, &tid, sizeof(tid)) != sizeof(tid))
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

static void *puppet_exec(void *arg)
{
	(void)arg;
	execl("/bin/sleep", "sleep", "1000", (char *)NULL);
	_exit(127);
}

static void puppet_fork_sleeper(int rep, int depth, int fan)
{
	pid_t k = fork();
	int i;

	if (k == 0) {
		/* a child: first its own children, then sleep */
		for (i = 0; depth > 0 && i < fan; i++)
			puppet_fork_sleeper(rep, depth - 1, fan);
		for (;;)
			pause();
	}
	if (write(rep, &k, sizeof(k)) != sizeof(k))
		_exit(1);
}

static void *puppet_short_thread(void *arg)
{
	(void)arg;
	usleep(2000);
	return NULL;
}

/* A thread that keeps creating threads that live a few ms each. */
static void *puppet_thread_churn(void *arg)
{
	pid_t tid = syscall(SYS_gettid);

	(void)arg;
	if (write(puppet_rep, &tid, sizeof(tid)) != sizeof(tid))
		_exit(1);
	for (;;) {
		pthread_t th;

		if (pthread_create(&th, NULL, puppet_short_thread, NULL))
			continue;
		pthread_join(th, NULL);
	}
	return NULL;
}

/* A child that keeps forking children that live @ms ms each. */
static void puppet_fork_churn(int rep, int ms)
{
	pid_t k = fork();

	if (k == 0) {
		for (;;) {
			pid_t g = fork();

			if (g == 0) {
				usleep(ms * 1000);
				_exit(0);
			}
			if (g > 0)
				waitpid(g, NULL, 0);
		}
	}
	if (write(rep, &k, sizeof(k)) != sizeof(k))
		_exit(1);
}

static void puppet_main(int cmd, int rep)
{
	pthread_t th;
	int n, i, depth;
	char c;

	puppet_rep = rep;
	while (read(cmd, &c, 1) == 1) {
		switch (c) {
		case 'f':	/* n sleeping children */
		case 'g':	/* a tree: n children, each n children, ... depth */
		case 'b':	/* n sleeping children, none running before the last */
			if (read(cmd, &n, sizeof(n)) != sizeof(n) ||
			    read(cmd, &depth, sizeof(depth)) != sizeof(depth))
				_exit(1);
			/*
			 * A burst: at SCHED_FIFO the puppet is not preempted by
			 * its children (SCHED_OTHER, reset on fork), however
			 * slow each fork is, as long as they share its CPU.
			 */
			if (c == 'b' &&
			    sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK,
					       &(struct sched_param){ .sched_priority = 1 }))
				_exit(1);
			for (i = 0; i < n; i++)
				puppet_fork_sleeper(rep, c == 'g' ? depth : 0, n);
			if (c == 'b' &&
			    sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 }))
				_exit(1);
			break;
		case 'p':	/* a sleeping child pinned to CPU n */
			if (read(cmd, &n, sizeof(n)) != sizeof(n) ||
			    read(cmd, &depth, sizeof(depth)) != sizeof(depth))
				_exit(1);
			{
				cpu_set_t one;
				pid_t k;

				CPU_ZERO(&one);
				CPU_SET(n, &one);
				k = fork();
				if (k == 0) {
					if (sched_setaffinity(0, sizeof(one), &one))
						_exit(1);
					for (;;)
						pause();
				}
				/* reported once it is pinned */
				while (k > 0) {
					cpu_set_t a;

					if (!sched_getaffinity(k, sizeof(a), &a) &&
					    CPU_EQUAL(&a, &one))
						break;
					usleep(1000);
				}
				if (write(rep, &k, sizeof(k)) != sizeof(k))
					_exit(1);
			}
			break;
		case 'c':	/* a child that forks children of n ms, for ever */
			if (read(cmd, &n, sizeof(n)) != sizeof(n) ||
			    read(cmd, &depth, sizeof(depth)) != sizeof(depth))
				_exit(1);
			puppet_fork_churn(rep, n);
			break;
		case 'T':	/* a thread that creates short-lived threads, for ever */
			if (pthread_create(&th, NULL, puppet_thread_churn, NULL))
				_exit(1);
			break;
		case 't':	/* a sleeping thread */
			if (pthread_create(&th, NULL, puppet_thread, NULL))
				_exit(1);
			break;
		case 's':	/* n children that exit at once, reaped */
			if (read(cmd, &n, sizeof(n)) != sizeof(n) ||
			    read(cmd, &depth, sizeof(depth)) != sizeof(depth))
				_exit(1);
			for (i = 0; i < n; i++) {
				pid_t k = fork();

				if (k == 0)
					_exit(0);
				if (k < 0)
					_exit(1);
				waitpid(k, NULL, 0);
			}
			if (write(rep, &n, sizeof(n)) != sizeof(n))
				_exit(1);
			break;
		case 'x':	/* exec from a non-leader thread */
			if (pthread_create(&th, NULL, puppet_exec, NULL))
				_exit(1);
			for (;;)
				pause();
		}
	}
	_exit(0);
}

static int puppet_start(struct puppet *p, const cpu_set_t *orig)
{
	int cmd[2], rep[2];

	if (pipe(cmd) || pipe(rep))
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		/* the puppet's children are in its process group, to kill */
		setpgid(0, 0);
		puppet_main(cmd[0], rep[1]);
	}
	setpgid(p->pid, p->pid);
	close(cmd[0]);
	close(rep[1]);
	p->cmd = cmd[1];
	p->rep = rep[0];
	return orig ? sched_setaffinity(p->pid, sizeof(*orig), orig) : 0;
}

static void puppet_stop(struct puppet *p)
{
	if (p->pid <= 0)
		return;
	kill(-p->pid, SIGKILL);
	kill(p->pid, SIGKILL);
	waitpid(p->pid, NULL, 0);
	close(p->cmd);
	close(p->rep);
	p->pid = 0;
}

static void puppet_send(struct puppet *p, char c, int n, int depth)
{
	if (write(p->cmd, &c, 1) != 1 ||
	    ((c == 'f' || c == 'g' || c == 'b' || c == 's' || c == 'p' || c == 'c') &&
	     (write(p->cmd, &n, sizeof(n)) != sizeof(n) ||
	      write(p->cmd, &depth, sizeof(depth)) != sizeof(depth))))
		abort();
}

/*
 * Read @n pids (or tids) the puppet reports; stops at a 240 s silence (1,000
 * forks under KASAN, on a host shared with another VM, took over 60 s).
 */
static int puppet_read(struct puppet *p, pid_t *out, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct pollfd pf = { .fd = p->rep, .events = POLLIN };

		if (poll(&pf, 1, 240000) <= 0 ||
		    read(p->rep, &out[i], sizeof(out[i])) != sizeof(out[i]))
			return i;
	}
	return n;
}

static struct hc_task *row_of(struct hc_task *t, int n, pid_t pid)
{
	int i;

	for (i = 0; i < n; i++)
		if (t[i].pid == (uint32_t)pid)
			return &t[i];
	return NULL;
}

static struct hc_task list[MAXP];

/*
 * Wait until the task list has exactly @want rows (-1: any) and every pid
 * of @pids is in it; returns the number of rows, or -1 after 10 s.
 */
static int wait_rows(struct hnl *h, const pid_t *pids, int npids, int want)
{
	int tries, n = -1, i;

	for (tries = 0; tries < 1000; tries++) {
		n = hc_get_tasks(h, list, MAXP);
		for (i = 0; n >= 0 && i < npids; i++)
			if (!row_of(list, n, pids[i]))
				break;
		if (n >= 0 && i == npids && (want < 0 || n == want))
			return n;
		usleep(10000);
	}
	return -1;
}

/* Wait until @pid's affinity equals @want; 0, or -1 after 10 s. */
static int wait_affinity(pid_t pid, const cpu_set_t *want)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		cpu_set_t now;

		if (sched_getaffinity(pid, sizeof(now), &now))
			return -1;
		if (CPU_EQUAL(&now, want))
			return 0;
		usleep(10000);
	}
	return -1;
}

static int task_req(struct hnl *h, uint8_t cmd, const pid_t *pids, int n,
		    int vertex, int unit, struct hreply *rp)
{
	struct hreq *r = malloc(sizeof(*r));
	int i;

	hreq_init(r, h, h->family, cmd, 0);
	for (i = 0; i < n; i++)
		hreq_u32(r, HCUBE_A_PID, pids[i]);
	if (vertex >= 0)
		hreq_u32(r, HCUBE_A_VERTEX_ID, vertex);
	if (unit >= 0)
		hreq_u32(r, HCUBE_A_UNIT, unit);
	return hc_send(h, r, rp);
}

/* Every registration ended, one way or another, or is still there. */
static int balanced(uint64_t *s)
{
	return s[HCUBE_A_STATS_REGISTERED] ==
	       s[HCUBE_A_STATS_UNREGISTERED] + s[HCUBE_A_STATS_EXITED] + s[HCUBE_A_STATS_REVOKED] +
	       s[HCUBE_A_STATS_TASKS];
}

/* Reload the module with @params (HCUBE_KO); "" for the defaults. */
static int reload(const char *params)
{
	if (system("rmmod hcube 2>/dev/null; true"))
		return -1;
	return hc_module_insmod(params);
}

/*
 * The cases that reload the module, fork by the hundred or churn threads
 * have timeouts well above what they take on the standard kernels (a few
 * seconds): on the debug kernel (KASAN, lockdep) under TCG on a loaded
 * 2-core host they took more than 30, 120 and 180 s. A timeout here
 * guards against a hang; it times nothing.
 */
FIXTURE(job) {
	struct hnl h;
	struct puppet p;
	cpu_set_t orig;		/* the puppet's affinity before registration */
	int v;			/* the vertex it is registered on */
	uint64_t s0[HCUBE_A_STATS_MAX + 1];
	int reloaded;
};

/* The module loaded again with @params, in mode cpu, for the rest of the test. */
static void reload_job(struct __test_metadata *_metadata, FIXTURE_DATA(job) *self,
		       const char *params)
{
	self->reloaded = 1;
	hnl_close(&self->h);
	ASSERT_EQ(0, reload(params));
	ASSERT_EQ(0, hnl_open(&self->h));
	ASSERT_EQ(0, hc_topo(&self->h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
}

FIXTURE_SETUP(job)
{
	int ncpu = get_nprocs(), cpu;

	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	/* an original affinity that no vertex has: every CPU but the first */
	CPU_ZERO(&self->orig);
	for (cpu = 1; cpu < ncpu; cpu++)
		CPU_SET(cpu, &self->orig);
	ASSERT_EQ(0, puppet_start(&self->p, &self->orig));
	self->v = 2;
	ASSERT_EQ(0, hc_stats(&self->h, self->s0));
	self->reloaded = 0;
}

FIXTURE_TEARDOWN(job)
{
	puppet_stop(&self->p);
	hnl_close(&self->h);
	if (self->reloaded)
		reload("");
	else if (!hnl_open(&self->h)) {
		hc_reset(&self->h, HCUBE_MODE_CPU);
		hnl_close(&self->h);
	}
}

/* After @pids are all registered: each on vertex @v, seen from userspace. */
static void expect_on_vertex(struct __test_metadata *_metadata, const pid_t *pids,
			     int n, int v)
{
	int i;

	for (i = 0; i < n; i++) {
		cpu_set_t a, b;

		ASSERT_EQ(0, sched_getaffinity(pids[i], sizeof(a), &a));
		ASSERT_EQ(0, hc_proc_cpus(pids[i], &b));
		EXPECT_TRUE(CPU_EQUAL(&a, &cube.v[v].usable))
			TH_LOG("pid %d is not on vertex %d", pids[i], v);
		EXPECT_TRUE(CPU_EQUAL(&a, &b));
	}
}

static void expect_orig(struct __test_metadata *_metadata, const pid_t *pids,
			int n, const cpu_set_t *orig)
{
	int i;

	for (i = 0; i < n; i++)
		EXPECT_EQ(0, wait_affinity(pids[i], orig))
			TH_LOG("pid %d did not get its original affinity", pids[i]);
}

/*
 * A child and threads created after registration: registered with their
 * creator (origin fork/thread, creator's pid), on its vertex; they leave
 * a CPU marked faulty with it; task del with the tree unit gives every one
 * the original affinity back.
 */
TEST_F(job, late_child_and_threads_follow_then_restored_by_del)
{
	pid_t all[4];
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	struct hc_task *r;
	int n, i, cpu;

	all[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, all, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'f', 1, 0);
	puppet_send(&self->p, 't', 0, 0);
	puppet_send(&self->p, 't', 0, 0);
	ASSERT_EQ(3, puppet_read(&self->p, all + 1, 3));
	n = wait_rows(&self->h, all, 4, 4);
	ASSERT_EQ(4, n);
	for (i = 1; i < 4; i++) {
		r = row_of(list, n, all[i]);
		EXPECT_EQ((uint32_t)self->v, r->vertex);
		EXPECT_EQ(HCUBE_TASK_ACTIVE, r->state);
		EXPECT_EQ(HCUBE_UNIT_JOB, r->unit);
		ASSERT_TRUE(r->has_creator);
		EXPECT_EQ((uint32_t)self->p.pid, r->creator);
		/* the child reports itself first, then the two threads */
		EXPECT_EQ(i == 1 ? HCUBE_REASON_FORK : HCUBE_REASON_THREAD, r->origin);
	}
	EXPECT_EQ(HCUBE_REASON_ADMIN, row_of(list, n, all[0])->origin);
	expect_on_vertex(_metadata, all, 4, self->v);

	/* the vertex's CPU fails: all four leave it, to one healthy vertex */
	cpu = -1;
	for (i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &cube.v[self->v].cpus))
			cpu = i;
	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (i = 0; i < 4; i++) {
		cpu_set_t a;

		ASSERT_EQ(0, sched_getaffinity(all[i], sizeof(a), &a));
		EXPECT_FALSE(CPU_ISSET(cpu, &a)) TH_LOG("pid %d stayed on faulty CPU %d",
							 all[i], cpu);
		EXPECT_GE(hc_vertex_of(&cube, all[i]), 0);
	}

	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, all, 1, -1,
			      HCUBE_UNIT_TREE, NULL));
	expect_orig(_metadata, all, 4, &self->orig);
	ASSERT_EQ(0, hc_get_tasks(&self->h, list, MAXP));
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(self->s0[HCUBE_A_STATS_ADOPTED] + 3, s[HCUBE_A_STATS_ADOPTED]);
	EXPECT_TRUE(balanced(s));
}

/* The same job at rmmod: every thread and child gets the original back. */
TEST_F(job, late_child_and_threads_restored_by_rmmod)
{
	pid_t all[8];

	all[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, all, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'f', 2, 0);
	puppet_send(&self->p, 't', 0, 0);
	puppet_send(&self->p, 't', 0, 0);
	puppet_send(&self->p, 't', 0, 0);
	ASSERT_EQ(5, puppet_read(&self->p, all + 1, 5));
	ASSERT_EQ(6, wait_rows(&self->h, all, 6, 6));
	expect_on_vertex(_metadata, all, 6, self->v);
	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the module could not be loaded again");
	self->reloaded = 1;
	ASSERT_EQ(0, system("rmmod hcube"));
	expect_orig(_metadata, all, 6, &self->orig);
}

/*
 * A three-level tree started after registration: the puppet forks 3, each
 * forks 3, each of those forks 3 (1 + 3 + 9 + 27 tasks), all registered,
 * then one MCWA rebalance evens them out over the healthy vertices.
 */
TEST_F(job, tree_grown_later_is_registered_and_balanced)
{
	pid_t kids[64];
	uint32_t count[HC_MAXV] = { 0 }, i, max = 0, min = UINT32_MAX;
	struct hc_report *rep = malloc(sizeof(*rep));
	int n;

	ASSERT_NE(NULL, rep);
	kids[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, kids, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'g', 3, 2);
	ASSERT_EQ(39, puppet_read(&self->p, kids + 1, 39));
	ASSERT_EQ(40, wait_rows(&self->h, kids, 40, 40));
	expect_on_vertex(_metadata, kids, 40, self->v);
	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, rep));
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	for (n = 0; n < 40; n++) {
		int v = hc_vertex_of(&cube, kids[n]);

		ASSERT_GE(v, 0);
		count[v]++;
	}
	for (i = 0; i < cube.nv; i++) {
		if (cube.v[i].state != HCUBE_VERTEX_HEALTHY)
			continue;
		max = count[i] > max ? count[i] : max;
		min = count[i] < min ? count[i] : min;
	}
	EXPECT_LE(max - min, 1);
	free(rep);
}

/* --tree on a tree that exists: every descendant registered at once. */
TEST_F(job, tree_unit_registers_existing_descendants)
{
	pid_t kids[16];
	struct hreply rp;
	int n, i, tasks = 0;
	uint32_t registered = 0;

	puppet_send(&self->p, 'g', 3, 1);
	ASSERT_EQ(12, puppet_read(&self->p, kids + 1, 12));
	kids[0] = self->p.pid;
	/* before: nothing of the tree is known */
	ASSERT_EQ(0, hc_get_tasks(&self->h, list, MAXP));
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, kids, 1, -1,
			      HCUBE_UNIT_TREE, &rp));
	/* the reply counts all 13 and lists the one the pid names */
	for (i = 0; i < rp.nmsgs; i++) {
		struct nlattr *a;
		int rem, len;
		void *head = hnl_attrs(rp.msgs[i], &len);

		hnl_for_each_attr(a, head, len, rem)
			if ((a->nla_type & NLA_TYPE_MASK) == HCUBE_A_TASK &&
			    !hnl_nested(a, HCUBE_A_TASK_ERROR))
				tasks++;
		if (hnl_msg_attr(rp.msgs[i], HCUBE_A_NREGISTERED))
			registered = hnl_u32(hnl_msg_attr(rp.msgs[i], HCUBE_A_NREGISTERED));
	}
	hreply_free(&rp);
	EXPECT_EQ(1, tasks);
	EXPECT_EQ(13, registered);
	n = hc_get_tasks(&self->h, list, MAXP);
	ASSERT_EQ(13, n);
	for (i = 0; i < 13; i++) {
		struct hc_task *r = row_of(list, n, kids[i]);

		ASSERT_NE(NULL, r);
		EXPECT_EQ(HCUBE_REASON_ADMIN, r->origin);
		EXPECT_EQ(HCUBE_TASK_ACTIVE, r->state);
	}
	/* and the tree unit of task del takes them all out */
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, kids, 1, -1,
			      HCUBE_UNIT_TREE, NULL));
	EXPECT_EQ(0, hc_get_tasks(&self->h, list, MAXP));
	expect_orig(_metadata, kids, 1, &self->orig);
}

/*
 * A thread unit: only that thread. Its new child and thread are not
 * registered and run with the thread's original affinity, not its vertex's.
 */
TEST_F(job, thread_unit_children_get_original_affinity)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	pid_t all[3];

	all[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, all, 1, self->v,
			      HCUBE_UNIT_THREAD, NULL));
	expect_on_vertex(_metadata, all, 1, self->v);
	puppet_send(&self->p, 'f', 1, 0);
	puppet_send(&self->p, 't', 0, 0);
	ASSERT_EQ(2, puppet_read(&self->p, all + 1, 2));
	expect_orig(_metadata, all + 1, 2, &self->orig);
	ASSERT_EQ(1, hc_get_tasks(&self->h, list, MAXP));
	EXPECT_EQ(HCUBE_UNIT_THREAD, list[0].unit);
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(self->s0[HCUBE_A_STATS_RELEASED] + 2, s[HCUBE_A_STATS_RELEASED]);
	EXPECT_EQ(self->s0[HCUBE_A_STATS_ADOPTED], s[HCUBE_A_STATS_ADOPTED]);
}

/*
 * 1,000 children that exit at once: each registered as it starts, each
 * exit seen without any command; nothing stale, the counters balance.
 */
/* more than the harness's 30 s under KASAN on a shared, emulated host */
TEST_F_TIMEOUT(job, thousand_short_lived_children_leave_nothing, 300)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	pid_t one = self->p.pid;
	int n = 0, tries;

	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v, -1, NULL));
	puppet_send(&self->p, 's', 1000, 0);
	ASSERT_EQ(1, puppet_read(&self->p, &n, 1));
	ASSERT_EQ(1000, n);
	/* the exits are queued by the probe; the worker takes them */
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, hc_stats(&self->h, s));
		if (s[HCUBE_A_STATS_EXITED] == self->s0[HCUBE_A_STATS_EXITED] + 1000)
			break;
		usleep(10000);
	}
	EXPECT_EQ(self->s0[HCUBE_A_STATS_ADOPTED] + 1000, s[HCUBE_A_STATS_ADOPTED]);
	EXPECT_EQ(self->s0[HCUBE_A_STATS_EXITED] + 1000, s[HCUBE_A_STATS_EXITED]);
	EXPECT_EQ(1, s[HCUBE_A_STATS_TASKS]);
	EXPECT_TRUE(balanced(s));
	ASSERT_EQ(1, hc_get_tasks(&self->h, list, MAXP));
	EXPECT_EQ((uint32_t)one, list[0].pid);
	ASSERT_EQ(0, hc_get_cube(&self->h, &cube));
	EXPECT_EQ(1, cube.ntasks);
	EXPECT_EQ(1, cube.v[self->v].load);
}

/*
 * A non-leader thread execs: the kernel gives it the leader's pid and the
 * old leader goes. The process stays registered once, on its vertex, and
 * the old leader's record is gone as an exit.
 */
TEST_F(job, exec_by_non_leader_thread)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	pid_t one = self->p.pid;
	char comm[32] = "";
	int tries, n;
	FILE *f;

	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'x', 0, 0);
	/* wait for the exec: the process's name becomes "sleep" */
	for (tries = 0; tries < 1000; tries++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/comm", one);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = 0;
			fclose(f);
		}
		if (!strncmp(comm, "sleep", 5))
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, strncmp(comm, "sleep", 5));
	/* two threads were registered (the leader and the new thread) */
	for (tries = 0; tries < 1000; tries++) {
		ASSERT_EQ(0, hc_stats(&self->h, s));
		if (s[HCUBE_A_STATS_EXITED] == self->s0[HCUBE_A_STATS_EXITED] + 1)
			break;
		usleep(10000);
	}
	EXPECT_EQ(self->s0[HCUBE_A_STATS_EXITED] + 1, s[HCUBE_A_STATS_EXITED]);
	n = hc_get_tasks(&self->h, list, MAXP);
	ASSERT_EQ(1, n);
	EXPECT_EQ((uint32_t)one, list[0].pid);
	EXPECT_EQ(HCUBE_TASK_ACTIVE, list[0].state);
	expect_on_vertex(_metadata, &one, 1, self->v);
	EXPECT_TRUE(balanced(s));
}

static int count_refused_events(int fd, uint16_t family)
{
	static char buf[1 << 18];
	int n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t len;

		if (poll(&p, 1, 300) <= 0)
			return n;
		len = recv(fd, buf, sizeof(buf), 0);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			struct nlattr *t, *r;

			if (nlh->nlmsg_type != family || g->cmd != HCUBE_CMD_TASK_NTF)
				continue;
			t = hnl_msg_attr(nlh, HCUBE_A_TASK);
			r = hnl_nested(t, HCUBE_A_TASK_REASON);
			n += r && hnl_u32(r) == HCUBE_REASON_REFUSED;
		}
	}
}

/*
 * A fork storm over max_tasks: the module stays consistent, each refused
 * child runs with the original affinity, and the counter and the events
 * say how many.
 */
TEST_F_TIMEOUT(job, fork_storm_over_max_tasks, 300)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	static pid_t kids[200];
	int fd, i, n, on_vertex = 0, orig = 0;
	uint32_t grp;
	pid_t one;

	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the test reloads the module");
	reload_job(_metadata, self, "max_tasks=40");
	grp = self->h.mcgrp;
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
				sizeof(grp)));
	one = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'f', 200, 0);
	ASSERT_EQ(200, puppet_read(&self->p, kids, 200));
	n = wait_rows(&self->h, NULL, 0, 40);
	ASSERT_EQ(40, n);
	/* each child is on the vertex (registered) or has the original */
	for (i = 0; i < 200; i++) {
		cpu_set_t a;
		int tries;

		for (tries = 0; tries < 1000; tries++) {
			ASSERT_EQ(0, sched_getaffinity(kids[i], sizeof(a), &a));
			if (CPU_EQUAL(&a, &self->orig) || row_of(list, n, kids[i]))
				break;
			usleep(10000);
		}
		if (row_of(list, n, kids[i])) {
			on_vertex++;
			EXPECT_TRUE(CPU_EQUAL(&a, &cube.v[self->v].usable));
		} else {
			orig++;
			EXPECT_TRUE(CPU_EQUAL(&a, &self->orig))
				TH_LOG("refused pid %d kept a mask hcube set", kids[i]);
		}
	}
	EXPECT_EQ(39, on_vertex);
	EXPECT_EQ(161, orig);
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_EQ(161, s[HCUBE_A_STATS_REFUSED]);
	EXPECT_EQ(40, s[HCUBE_A_STATS_TASKS]);
	EXPECT_TRUE(balanced(s));
	EXPECT_EQ(161, count_refused_events(fd, self->h.family));
	close(fd);
}

/*
 * A pool of one birth: most creations of a fork burst find no birth, are
 * counted lost, and the worker's scan registers them all the same. The
 * burst is one the children cannot interrupt (they share the puppet's one
 * CPU, cpu mode): with plain forks, a slow enough machine let each child
 * run, and give its birth back, before the next fork.
 */
TEST_F_TIMEOUT(job, lost_creations_are_found_by_the_scan, 300)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];
	static pid_t kids[101];
	int n;

	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the test reloads the module");
	reload_job(_metadata, self, "births=1 lose_births=1");
	kids[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, kids, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'b', 100, 0);
	ASSERT_EQ(100, puppet_read(&self->p, kids + 1, 100));
	n = wait_rows(&self->h, kids, 101, 101);
	ASSERT_EQ(101, n);
	expect_on_vertex(_metadata, kids, 101, self->v);
	ASSERT_EQ(0, hc_stats(&self->h, s));
	EXPECT_GT(s[HCUBE_A_STATS_EVENTS_LOST], 0);
	EXPECT_EQ(100, s[HCUBE_A_STATS_ADOPTED]);
	EXPECT_TRUE(balanced(s));
}

/* The tasks of the puppet's process group (its descendants), from /proc. */
static int group_tasks(pid_t pgid, pid_t *out, int max)
{
	DIR *d = opendir("/proc"), *td;
	struct dirent *e, *te;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		char path[300], buf[512], *p;
		pid_t pid = atoi(e->d_name), pg = 0;
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p + 2, "%*c %*d %d", &pg) != 1 || pg != pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		while (td && (te = readdir(td)) && n < max)
			if (atoi(te->d_name) > 0)
				out[n++] = atoi(te->d_name);
		if (td)
			closedir(td);
	}
	closedir(d);
	return n;
}

/* The tasks of @pids (alive) whose affinity is not @orig: 0, or the first. */
static pid_t not_orig(const pid_t *pids, int n, const cpu_set_t *orig)
{
	int i;

	for (i = 0; i < n; i++) {
		cpu_set_t a;

		if (!sched_getaffinity(pids[i], sizeof(a), &a) && !CPU_EQUAL(&a, orig))
			return pids[i];
	}
	return 0;
}

/* The first CPU of vertex @v. */
static int vertex_cpu(int v)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &cube.v[v].cpus))
			return cpu;
	return -1;
}

/*
 * A child the puppet pinned to one CPU before the puppet was registered
 * (a job, no tree) is not the job's: a fork burst with one birth, whose
 * lost creations the scan finds, leaves it out, and a fault on its CPU
 * does not move it.
 */
TEST_F_TIMEOUT(job, child_pinned_before_registration_is_not_adopted, 300)
{
	static pid_t kids[202];
	int cpu, n, w = self->v ^ 1;
	cpu_set_t a;
	pid_t pinned;

	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the test reloads the module");
	reload_job(_metadata, self, "births=1 lose_births=1");
	cpu = vertex_cpu(w);
	ASSERT_GE(cpu, 0);
	puppet_send(&self->p, 'p', cpu, 0);
	ASSERT_EQ(1, puppet_read(&self->p, &pinned, 1));
	kids[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, kids, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'b', 200, 0);
	ASSERT_EQ(200, puppet_read(&self->p, kids + 1, 200));
	n = wait_rows(&self->h, kids, 201, -1);
	ASSERT_GE(n, 201);
	usleep(300000);
	n = hc_get_tasks(&self->h, list, MAXP);
	EXPECT_EQ(NULL, row_of(list, n, pinned)) TH_LOG("the pinned child %d was adopted", pinned);
	EXPECT_EQ(201, n);
	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	ASSERT_EQ(0, sched_getaffinity(pinned, sizeof(a), &a));
	EXPECT_TRUE(CPU_COUNT(&a) == 1 && CPU_ISSET(cpu, &a)) TH_LOG("the pinned child was moved");
	hc_fault(&self->h, 0, cpu, -1, NULL);
}

/* The state in the first TASK_NTF of @reason for @pid on @fd, or -1. */
static int event_state(int fd, uint16_t family, pid_t pid, uint32_t reason)
{
	static char buf[1 << 18];

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t len;

		if (poll(&p, 1, 1000) <= 0)
			return -1;
		len = recv(fd, buf, sizeof(buf), 0);
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			struct nlattr *t, *r, *id, *st;

			if (nlh->nlmsg_type != family || g->cmd != HCUBE_CMD_TASK_NTF)
				continue;
			t = hnl_msg_attr(nlh, HCUBE_A_TASK);
			r = hnl_nested(t, HCUBE_A_TASK_REASON);
			id = hnl_nested(t, HCUBE_A_TASK_PID);
			st = hnl_nested(t, HCUBE_A_TASK_STATE);
			if (r && id && st && hnl_u32(r) == reason && hnl_u32(id) == (uint32_t)pid)
				return hnl_u32(st);
		}
	}
}

static int join_events(struct hnl *h)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t grp = h->mcgrp;
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return -1;
	return fd;
}

/*
 * task del of a job's root (the job unit) unregisters the job as task add
 * registered it: the root, and the children and threads that joined it;
 * each gets its original affinity back, and the root's event does not
 * call it changed.
 */
TEST_F(job, del_of_the_root_unregisters_its_job)
{
	pid_t all[4];
	int fd, st;

	all[0] = self->p.pid;
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, all, 1, self->v, -1, NULL));
	puppet_send(&self->p, 'f', 2, 0);
	puppet_send(&self->p, 't', 0, 0);
	ASSERT_EQ(3, puppet_read(&self->p, all + 1, 3));
	ASSERT_EQ(4, wait_rows(&self->h, all, 4, 4));
	fd = join_events(&self->h);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, all, 1, -1, -1, NULL));
	EXPECT_EQ(0, wait_rows(&self->h, NULL, 0, 0)) TH_LOG("the job's children stayed registered");
	expect_orig(_metadata, all, 4, &self->orig);
	st = event_state(fd, self->h.family, all[0], HCUBE_REASON_REMOVED);
	EXPECT_GE(st, 0) TH_LOG("no event for the root's unregistration");
	EXPECT_NE(HCUBE_TASK_CHANGED, st) TH_LOG("the unregistered root is said to be changed");
	close(fd);
}

/*
 * task add --tree of a job whose children keep forking short-lived ones:
 * a descendant that exits meanwhile is left out, never refused as pid 0,
 * and the request succeeds.
 */
TEST_F_TIMEOUT(job, tree_add_of_a_forking_job_skips_exits, 120)
{
	int round, i, bad = 0;
	pid_t kids[2];

	puppet_send(&self->p, 'c', 1, 0);
	puppet_send(&self->p, 'c', 1, 0);
	ASSERT_EQ(2, puppet_read(&self->p, kids, 2));
	for (round = 0; round < 30; round++) {
		struct hreply rp;
		pid_t one = self->p.pid;

		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, -1,
				      HCUBE_UNIT_TREE, &rp));
		for (i = 0; i < rp.nmsgs; i++) {
			struct nlattr *a;
			int rem, len;
			void *head = hnl_attrs(rp.msgs[i], &len);

			hnl_for_each_attr(a, head, len, rem) {
				struct nlattr *pid, *err;

				if ((a->nla_type & NLA_TYPE_MASK) != HCUBE_A_TASK)
					continue;
				pid = hnl_nested(a, HCUBE_A_TASK_PID);
				err = hnl_nested(a, HCUBE_A_TASK_ERROR);
				if ((pid && !hnl_u32(pid)) || err) {
					bad++;
					TH_LOG("round %d: pid %u, error %d", round,
					       pid ? hnl_u32(pid) : 0, err ? (int)hnl_u32(err) : 0);
				}
			}
		}
		hreply_free(&rp);
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, &one, 1, -1,
				      HCUBE_UNIT_TREE, NULL));
	}
	EXPECT_EQ(0, bad) TH_LOG("%d tasks refused (or named pid 0) in 30 rounds", bad);
}

/*
 * A thread that keeps creating threads: after task del of the job, no
 * thread of it stays registered (one born while the job was being
 * unregistered included), and the threads have the original affinity.
 */
TEST_F_TIMEOUT(job, thread_born_while_the_job_is_unregistered_is_let_go, 300)
{
	static pid_t tids[MAXP];
	int round, n, left = 0;
	pid_t churn, one = self->p.pid, other;

	puppet_send(&self->p, 'T', 0, 0);
	puppet_send(&self->p, 'T', 0, 0);
	ASSERT_EQ(1, puppet_read(&self->p, &churn, 1));
	ASSERT_EQ(1, puppet_read(&self->p, &churn, 1));
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v, -1, NULL));
		usleep(20000 + 5000 * round);
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, &one, 1, -1, -1, NULL));
		usleep(200000);
		n = hc_get_tasks(&self->h, list, MAXP);
		if (n > 0) {
			left++;
			hc_task_del_all(&self->h);
		}
		n = group_tasks(self->p.pid, tids, MAXP);
		other = not_orig(tids, n, &self->orig);
		EXPECT_EQ(0, other) TH_LOG("round %d: thread %d kept hcube's mask", round, other);
	}
	EXPECT_EQ(0, left) TH_LOG("%d of 20 rounds left threads registered", left);
}

/*
 * Threads created while the job is being registered: whoever registers
 * them, their saved affinity is their own, so after task del every thread
 * of the job has the original affinity, never the vertex's.
 */
TEST_F_TIMEOUT(job, threads_created_during_registration_keep_their_original, 180)
{
	static pid_t tids[MAXP];
	pid_t one = self->p.pid, sleepers[64], other;
	int round, n, i;

	for (i = 0; i < 64; i++)
		puppet_send(&self->p, 't', 0, 0);
	ASSERT_EQ(64, puppet_read(&self->p, sleepers, 64));
	for (i = 0; i < 3; i++) {
		puppet_send(&self->p, 'T', 0, 0);
		ASSERT_EQ(1, puppet_read(&self->p, &other, 1));
	}
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v, -1, NULL));
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_DEL, &one, 1, -1, -1, NULL));
		usleep(100000);
		n = group_tasks(self->p.pid, tids, MAXP);
		other = not_orig(tids, n, &self->orig);
		EXPECT_EQ(0, other) TH_LOG("round %d: thread %d kept the vertex's mask", round, other);
		if (other)
			break;
	}
}

/*
 * rmmod while registered children keep forking: afterwards no task of the
 * job keeps a mask hcube gave; every one has the original affinity.
 */
TEST_F_TIMEOUT(job, rmmod_during_a_fork_storm_restores_every_task, 400)
{
	static pid_t tids[MAXP];
	pid_t one = self->p.pid, kids[3], other = 0;
	int round, n, i;

	if (!hc_module_ko())
		SKIP(return, "HCUBE_KO is not set: the test reloads the module");
	self->reloaded = 1;
	for (i = 0; i < 3; i++)
		puppet_send(&self->p, 'c', 20, 0);
	ASSERT_EQ(3, puppet_read(&self->p, kids, 3));
	for (round = 0; round < 10 && !other; round++) {
		ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &one, 1, self->v,
				      HCUBE_UNIT_TREE, NULL));
		usleep(50000);
		hnl_close(&self->h);
		ASSERT_EQ(0, system("rmmod hcube"));
		usleep(100000);
		n = group_tasks(self->p.pid, tids, MAXP);
		other = not_orig(tids, n, &self->orig);
		EXPECT_EQ(0, other) TH_LOG("round %d: task %d kept a mask hcube gave", round, other);
		ASSERT_EQ(0, reload(""));
		ASSERT_EQ(0, hnl_open(&self->h));
		ASSERT_EQ(0, hc_topo(&self->h, HCUBE_MODE_CPU));
	}
}

/*
 * A child that sets up an io_uring with an SQPOLL thread pinned to @cpu
 * (IORING_SETUP_SQ_AFF) and sleeps; 0 or -errno of io_uring_setup() comes
 * on *@rep.
 */
static pid_t ring_start(int cpu, int *rep)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct io_uring_params p = {
			.flags = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF,
			.sq_thread_cpu = cpu,
			.sq_thread_idle = 1000,
		};
		int fd = syscall(SYS_io_uring_setup, 4, &p), err = fd < 0 ? -errno : 0;

		if (write(fds[1], &err, sizeof(err)) != sizeof(err) || fd < 0)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], rep, sizeof(*rep)) != sizeof(*rep))
		*rep = -EIO;
	close(fds[0]);
	return pid;
}

/* The tid of @pid's SQPOLL thread (comm iou-sqp-PID), or 0. */
static pid_t sq_thread_of(pid_t pid)
{
	char path[320], want[32], comm[64];
	struct dirent *e;
	pid_t tid = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	snprintf(want, sizeof(want), "iou-sqp-%d\n", pid);
	d = opendir(path);
	while (d && !tid && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", pid, e->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			tid = atoi(e->d_name);
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return tid;
}

/*
 * io_uring's threads are the process's (PF_IO_WORKER) and 6.1 lets
 * sched_setaffinity() change them, but io_uring pins them itself: a
 * process with an SQPOLL thread pinned by IORING_SETUP_SQ_AFF is
 * registered without it, a TASK_ADD naming the thread is refused (EINVAL,
 * the ack naming the pid and why), and the thread keeps its CPU across a
 * rebalance, a fault of its CPU's vertex and rmmod.
 */
TEST_F_TIMEOUT(job, io_uring_threads_are_left_alone, 300)
{
	struct hc_report *rep = malloc(sizeof(*rep));
	int cpu = get_nprocs() - 1, err = 0, units[2] = { HCUBE_UNIT_THREAD, -1 };
	pid_t ring, sq = 0;
	cpu_set_t pin, a;
	struct hreply rp;
	int i, n;

	ASSERT_NE(NULL, rep);
	CPU_ZERO(&pin);
	CPU_SET(cpu, &pin);
	ring = ring_start(cpu, &err);
	ASSERT_GT(ring, 0);
	if (err) {
		kill(ring, SIGKILL);
		waitpid(ring, NULL, 0);
		free(rep);
		SKIP(return, "io_uring_setup(SQPOLL | SQ_AFF): %s", strerror(-err));
	}
	for (i = 0; i < 500 && !sq; i++) {
		sq = sq_thread_of(ring);
		if (!sq)
			usleep(10000);
	}
	ASSERT_GT(sq, 0) TH_LOG("no SQPOLL thread in process %d", ring);
	ASSERT_EQ(0, wait_affinity(sq, &pin)) TH_LOG("the SQPOLL thread is not on CPU %d", cpu);

	for (i = 0; i < 2; i++) {
		memset(&rp, 0, sizeof(rp));
		EXPECT_EQ(-EINVAL, task_req(&self->h, HCUBE_CMD_TASK_ADD, &sq, 1, -1,
					    units[i], &rp)) TH_LOG("unit %d", units[i]);
		EXPECT_NE(NULL, strstr(rp.msg, "io_uring thread")) TH_LOG("'%s'", rp.msg);
		EXPECT_TRUE(rp.has_off);
		hreply_free(&rp);
	}

	ASSERT_EQ(0, task_req(&self->h, HCUBE_CMD_TASK_ADD, &ring, 1, -1, -1, NULL));
	n = hc_get_tasks(&self->h, list, MAXP);
	EXPECT_NE(NULL, row_of(list, n, ring));
	EXPECT_EQ(NULL, row_of(list, n, sq)) TH_LOG("the SQPOLL thread was registered");
	ASSERT_EQ(0, sched_getaffinity(sq, sizeof(a), &a));
	EXPECT_TRUE(CPU_EQUAL(&a, &pin)) TH_LOG("registration moved the SQPOLL thread");

	ASSERT_EQ(0, hc_rebalance(&self->h, HCUBE_POLICY_MCWA, 0, rep));
	ASSERT_EQ(0, sched_getaffinity(sq, sizeof(a), &a));
	EXPECT_TRUE(CPU_EQUAL(&a, &pin)) TH_LOG("a rebalance moved the SQPOLL thread");

	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	ASSERT_EQ(0, sched_getaffinity(sq, sizeof(a), &a));
	EXPECT_TRUE(CPU_EQUAL(&a, &pin)) TH_LOG("a fault of CPU %d moved the SQPOLL thread", cpu);
	ASSERT_EQ(0, sched_getaffinity(ring, sizeof(a), &a));
	EXPECT_FALSE(CPU_ISSET(cpu, &a)) TH_LOG("the registered process stayed on CPU %d", cpu);

	if (hc_module_ko()) {
		self->reloaded = 1;	/* the teardown loads it again */
		ASSERT_EQ(0, system("rmmod hcube"));
		ASSERT_EQ(0, sched_getaffinity(sq, sizeof(a), &a));
		EXPECT_TRUE(CPU_EQUAL(&a, &pin)) TH_LOG("rmmod moved the SQPOLL thread");
	} else {
		hc_fault(&self->h, 0, cpu, -1, NULL);
	}
	kill(ring, SIGKILL);
	waitpid(ring, NULL, 0);
	free(rep);
}

TEST_HARNESS_MAIN
