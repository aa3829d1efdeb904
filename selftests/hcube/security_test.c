// SPDX-License-Identifier: GPL-2.0
/*
 * hcube: no way around sched_setaffinity() or other users' privacy.
 *
 * Each case drops privileges in a child (uid nobody, with or without
 * CAP_NET_ADMIN and CAP_SYS_NICE) and asks the module what sched_setaffinity()
 * would refuse or what the caller may not see: another user's task
 * (EPERM, the extended ack naming the pid, nothing changed), its own task
 * (accepted), a SCHED_DEADLINE task (EBUSY), the task list and the events
 * group without CAP_NET_ADMIN, and a second user and pid namespace
 * (unshare -Urpf --mount-proc) where only the reader's own task shows,
 * under its pid there. Runs in the VM with the module loaded.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "kselftest_harness.h"
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define NOBODY 65534

/* Become nobody with only the capabilities @caps (a CAP_* bit mask). */
static int drop_to_nobody(uint64_t caps)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};

	if (prctl(PR_SET_KEEPCAPS, 1) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	d[0].effective = d[0].permitted = (uint32_t)caps;
	d[1].effective = d[1].permitted = (uint32_t)(caps >> 32);
	return syscall(SYS_capset, &hdr, d);
}

#define CAPS_NET_ADMIN	(1ULL << CAP_NET_ADMIN)
#define CAPS_SYS_NICE	(1ULL << CAP_SYS_NICE)

/* A sleeping child that runs as nobody. */
static pid_t spawn_nobody(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		for (;;)
			pause();
	}
	return pid;
}

struct outcome {
	int err;		/* the request's answer */
	int has_off;		/* the ack names an attribute */
	uint32_t off;
	char msg[512];
	int n;			/* tasks seen, for a dump */
	uint32_t pids[8];
};

/* A TASK_ADD or TASK_DEL of one pid (or --all) on @h. */
static void task_req(struct hnl *h, uint8_t cmd, pid_t pid, struct outcome *o)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;

	hreq_init(r, h, h->family, cmd, 0);
	if (pid > 0)
		hreq_u32(r, HCUBE_A_PID, pid);
	else
		hreq_flag(r, HCUBE_A_ALL);
	o->err = hnl_do(h, r, &rp);
	o->has_off = rp.has_off;
	o->off = rp.off;
	snprintf(o->msg, sizeof(o->msg), "%s", rp.msg);
	hreply_free(&rp);
	free(r);
}

/* The task list as @h's caller sees it. */
static void task_list(struct hnl *h, struct outcome *o)
{
	struct hc_task t[8];
	int i;

	o->n = hc_get_tasks(h, t, 8);
	for (i = 0; i < o->n && i < 8; i++)
		o->pids[i] = t[i].pid;
}

/* Run @fn as nobody with @caps in a child; its outcome comes back. */
static void as_nobody(uint64_t caps, void (*fn)(struct hnl *, pid_t, struct outcome *),
		      pid_t arg, struct outcome *o)
{
	struct outcome *shared = mmap(NULL, sizeof(*o), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	shared->err = -999;
	pid = fork();
	if (pid == 0) {
		struct hnl h;

		if (drop_to_nobody(caps) || hnl_open(&h))
			_exit(1);
		fn(&h, arg, shared);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	*o = *shared;
	munmap(shared, sizeof(*o));
}

static void add_one(struct hnl *h, pid_t pid, struct outcome *o)
{
	task_req(h, HCUBE_CMD_TASK_ADD, pid, o);
}

static void del_one(struct hnl *h, pid_t pid, struct outcome *o)
{
	task_req(h, HCUBE_CMD_TASK_DEL, pid, o);
}

static void list_all(struct hnl *h, pid_t unused, struct outcome *o)
{
	task_list(h, o);
}

/* Join the events group: 0, or -errno. */
static void join_events(struct hnl *h, pid_t unused, struct outcome *o)
{
	uint32_t grp = h->mcgrp;

	o->err = setsockopt(h->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
			    sizeof(grp)) ? -errno : 0;
}

FIXTURE(sec) {
	struct hnl h;
	pid_t kids[4];
	int nkids;
};

FIXTURE_SETUP(sec)
{
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	self->nkids = 0;
}

FIXTURE_TEARDOWN(sec)
{
	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
}

static uint32_t ntasks(struct hnl *h)
{
	uint64_t s[HCUBE_S_A_MAX + 1];

	return hc_stats(h, s) ? UINT32_MAX : (uint32_t)s[HCUBE_S_A_TASKS];
}

/*
 * nobody with CAP_NET_ADMIN only may not register root's task (what
 * sched_setaffinity() would refuse) nor unregister one root registered;
 * with CAP_SYS_NICE as well it may.
 */
TEST_F(sec, another_users_task_needs_cap_sys_nice)
{
	struct outcome o;
	cpu_set_t before, now;
	pid_t root = hc_spawn(0);

	self->kids[self->nkids++] = root;
	ASSERT_EQ(0, sched_getaffinity(root, sizeof(before), &before));
	as_nobody(CAPS_NET_ADMIN, add_one, root, &o);
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "HCUBE_A_PID: not permitted")) TH_LOG("'%s'", o.msg);
	/* the offset names the pid attribute, right after the genl header */
	EXPECT_TRUE(o.has_off);
	EXPECT_EQ(NLMSG_HDRLEN + GENL_HDRLEN, o.off);
	EXPECT_EQ(0, ntasks(&self->h));
	ASSERT_EQ(0, sched_getaffinity(root, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&before, &now));

	as_nobody(CAPS_NET_ADMIN | CAPS_SYS_NICE, add_one, root, &o);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));

	/* registered by someone allowed: nobody may not take it out */
	as_nobody(CAPS_NET_ADMIN, del_one, root, &o);
	EXPECT_EQ(-EPERM, o.err);
	as_nobody(CAPS_NET_ADMIN, del_one, 0, &o);
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "HCUBE_A_ALL")) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
	as_nobody(CAPS_NET_ADMIN | CAPS_SYS_NICE, del_one, root, &o);
	EXPECT_EQ(0, o.err);
	EXPECT_EQ(0, ntasks(&self->h));
	ASSERT_EQ(0, sched_getaffinity(root, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&before, &now));
}

/* Its own task, the owner registers and unregisters with CAP_NET_ADMIN. */
TEST_F(sec, owner_registers_its_own_task)
{
	struct outcome o;
	pid_t mine = spawn_nobody();

	self->kids[self->nkids++] = mine;
	usleep(50000);	/* let it become nobody */
	as_nobody(CAPS_NET_ADMIN, add_one, mine, &o);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
	as_nobody(CAPS_NET_ADMIN, del_one, 0, &o);	/* --all: all its own */
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(0, ntasks(&self->h));
	/* without CAP_NET_ADMIN, not even its own */
	as_nobody(0, add_one, mine, &o);
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_EQ(0, ntasks(&self->h));
}

struct hc_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

/* A SCHED_DEADLINE task: EBUSY, as sched_setaffinity() answers. */
TEST_F(sec, deadline_task_is_busy)
{
	struct hc_sched_attr a = {
		.size = sizeof(a), .sched_policy = 6 /* SCHED_DEADLINE */,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};
	struct outcome o;
	pid_t dl = hc_spawn(0);

	self->kids[self->nkids++] = dl;
	if (syscall(SYS_sched_setattr, dl, &a, 0))
		SKIP(return, "SCHED_DEADLINE: %s", strerror(errno));
	task_req(&self->h, HCUBE_CMD_TASK_ADD, dl, &o);
	EXPECT_EQ(-EBUSY, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "SCHED_DEADLINE")) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(0, ntasks(&self->h));
}

static void *dl_thread(void *arg)
{
	int *ready = arg;
	struct hc_sched_attr a = {
		.size = sizeof(a), .sched_policy = 6 /* SCHED_DEADLINE */,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};
	char c = syscall(SYS_sched_setattr, 0, &a, 0) ? 'n' : 'y';

	if (write(ready[1], &c, 1) != 1)
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

/*
 * A job one of whose threads is SCHED_DEADLINE: the request succeeds, the
 * reply refuses that thread (EBUSY) and registers the rest, and
 * hc_task_add(), which every test registers with, returns the refusal.
 */
TEST_F(sec, deadline_thread_is_refused_in_the_reply)
{
	int ready[2];
	pthread_t th;
	pid_t job;
	char c = 0;

	ASSERT_EQ(0, pipe(ready));
	job = fork();
	ASSERT_LE(0, job);
	if (!job) {
		if (pthread_create(&th, NULL, dl_thread, ready))
			_exit(1);
		for (;;)
			pause();
	}
	self->kids[self->nkids++] = job;
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	close(ready[1]);
	if (c != 'y')
		SKIP(return, "SCHED_DEADLINE could not be set");
	EXPECT_EQ(-EBUSY, hc_task_add(&self->h, &job, 1, -1, 0));
	EXPECT_EQ(1, ntasks(&self->h));
}

/*
 * Without CAP_NET_ADMIN the task list shows the caller's own tasks only,
 * and the events group is closed; with it, all and open.
 */
TEST_F(sec, unprivileged_reader_sees_its_own_tasks_and_no_events)
{
	struct outcome o;
	pid_t root = hc_spawn(0), mine = spawn_nobody();

	self->kids[self->nkids++] = root;
	self->kids[self->nkids++] = mine;
	usleep(50000);
	ASSERT_EQ(0, hc_task_add(&self->h, &root, 1, -1, 0));
	ASSERT_EQ(0, hc_task_add(&self->h, &mine, 1, -1, 0));
	as_nobody(0, list_all, 0, &o);
	ASSERT_EQ(1, o.n);
	EXPECT_EQ((uint32_t)mine, o.pids[0]);
	as_nobody(CAPS_NET_ADMIN, list_all, 0, &o);
	EXPECT_EQ(2, o.n);
	as_nobody(0, join_events, 0, &o);
	EXPECT_EQ(-EPERM, o.err);
	as_nobody(CAPS_NET_ADMIN, join_events, 0, &o);
	EXPECT_EQ(0, o.err);
}

/*
 * A second user and pid namespace (unshare -Urpf --mount-proc, run as
 * nobody): inside, the task list shows nobody's task under its pid there,
 * and not root's task, which has no pid there.
 */
TEST_F(sec, pid_namespace_translates_and_hides)
{
	int go[2], back[2], n = -1, i, exe;
	char self_exe[32], arg_go[16], arg_back[16];
	pid_t outer, inner = 0, sleeper = 0, root = hc_spawn(0);
	uint32_t seen[8];
	FILE *f;

	self->kids[self->nkids++] = root;
	if (access("/usr/bin/unshare", X_OK))
		SKIP(return, "no unshare");
	/* the debug kernel of check-debug was first built without them */
	if (access("/proc/self/ns/user", F_OK))
		SKIP(return, "this kernel has no user namespaces (CONFIG_USER_NS)");
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(back));
	/*
	 * The binary, for nobody to run: neither root's /proc/PID/exe (nobody
	 * may not read it) nor its path (below /root, say, nobody may not
	 * search it), but a descriptor opened here, which unshare inherits
	 * and executes as /proc/self/fd/N.
	 */
	exe = open("/proc/self/exe", O_RDONLY);
	ASSERT_GE(exe, 0);
	snprintf(self_exe, sizeof(self_exe), "/proc/self/fd/%d", exe);
	outer = fork();
	ASSERT_GE(outer, 0);
	if (outer == 0) {
		close(go[1]);
		close(back[0]);
		snprintf(arg_go, sizeof(arg_go), "%d", go[0]);
		snprintf(arg_back, sizeof(arg_back), "%d", back[1]);
		if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		execl("/usr/bin/unshare", "unshare", "-Urpf", "--mount-proc", self_exe,
		      "--ns-inner", arg_go, arg_back, (char *)NULL);
		_exit(127);
	}
	self->kids[self->nkids++] = outer;
	close(exe);
	close(go[0]);
	close(back[1]);
	/* the inner init's pid here, then its sleeping child's */
	for (i = 0; i < 500 && (!inner || !sleeper); i++) {
		usleep(20000);
		inner = hc_child_of(outer);
		if (inner)
			sleeper = hc_child_of(inner);
	}
	ASSERT_GT(sleeper, 0) TH_LOG("the namespace's sleeper did not start");
	ASSERT_EQ(0, hc_task_add(&self->h, &sleeper, 1, -1, 0));
	ASSERT_EQ(0, hc_task_add(&self->h, &root, 1, -1, 0));
	ASSERT_EQ(1, write(go[1], "g", 1));
	f = fdopen(back[0], "r");
	ASSERT_NE(NULL, f);
	if (fscanf(f, "%d", &n) == 1)
		for (i = 0; i < n && i < 8; i++)
			if (fscanf(f, "%u", &seen[i]) != 1)
				n = -2;
	fclose(f);
	close(go[1]);
	/* one task: the sleeper, pid 2 inside (after the inner init) */
	ASSERT_EQ(1, n);
	EXPECT_EQ(2, seen[0]);
}

/* Inside the namespaces: a sleeper, then the task list once told to. */
static int ns_inner(int go, int back)
{
	struct hc_task t[8];
	struct hnl h;
	char c;
	pid_t s = fork();
	int n, i;
	FILE *f = fdopen(back, "w");

	if (s == 0) {
		for (;;)
			pause();
	}
	if (read(go, &c, 1) != 1 || hnl_open(&h))
		return 1;
	n = hc_get_tasks(&h, t, 8);
	fprintf(f, "%d", n);
	for (i = 0; i < n; i++)
		fprintf(f, " %u", t[i].pid);
	fprintf(f, "\n");
	fclose(f);
	kill(s, SIGKILL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--ns-inner"))
		return ns_inner(atoi(argv[2]), atoi(argv[3]));
	return test_harness_run(argc, argv);
}
