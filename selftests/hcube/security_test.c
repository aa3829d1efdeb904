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
 * under its pid there, and commoncap's rule of sched_setaffinity()
 * (cap_safe_nice()): a task with a permitted capability the caller lacks,
 * its own or not, takes CAP_SYS_NICE. Runs in the VM with the module
 * loaded.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/xattr.h>
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

/* Give up every capability, permitted ones too. */
static int drop_all_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};

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
	int set_err;		/* sched_setaffinity()'s, for a control */
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

/*
 * The kernel's answer first (sched_setaffinity() of the mask it has:
 * permission checked, nothing changed), then TASK_ADD: the control that
 * the module's rule is the kernel's.
 */
static void set_then_add(struct hnl *h, pid_t pid, struct outcome *o)
{
	cpu_set_t m;

	o->set_err = sched_getaffinity(pid, sizeof(m), &m) ||
		     sched_setaffinity(pid, sizeof(m), &m) ? -errno : 0;
	task_req(h, HCUBE_CMD_TASK_ADD, pid, o);
}

/* sched_setaffinity() of the mask it has, alone. */
static void set_only(struct hnl *h, pid_t pid, struct outcome *o)
{
	cpu_set_t m;

	o->set_err = sched_getaffinity(pid, sizeof(m), &m) ||
		     sched_setaffinity(pid, sizeof(m), &m) ? -errno : 0;
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
	char capdir[64];	/* a tmpfs for a file-capability program */
};

FIXTURE_SETUP(sec)
{
	ASSERT_EQ(0, hnl_open(&self->h)) TH_LOG("is the hcube module loaded?");
	ASSERT_EQ(0, hc_reset(&self->h, HCUBE_MODE_CPU));
	self->nkids = 0;
	self->capdir[0] = 0;
}

FIXTURE_TEARDOWN(sec)
{
	hc_task_del_all(&self->h);
	hc_kill_all(self->kids, self->nkids);
	hc_reset(&self->h, HCUBE_MODE_CPU);
	hnl_close(&self->h);
	if (self->capdir[0]) {
		umount2(self->capdir, MNT_DETACH);
		rmdir(self->capdir);
	}
}

static uint32_t ntasks(struct hnl *h)
{
	uint64_t s[HCUBE_A_STATS_MAX + 1];

	return hc_stats(h, s) ? UINT32_MAX : (uint32_t)s[HCUBE_A_STATS_TASKS];
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

/* A FAULT_ADD of @cpu (as the child of as_nobody()), its ack in @o. */
static void fault_add(struct hnl *h, pid_t cpu, struct outcome *o)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;

	hreq_init(r, h, h->family, HCUBE_CMD_FAULT_ADD, 0);
	hreq_u32(r, HCUBE_A_CPU, cpu);
	o->err = hnl_do(h, r, &rp);
	snprintf(o->msg, sizeof(o->msg), "%s", rp.msg);
	hreply_free(&rp);
	free(r);
}

/* A REBALANCE, or with @dry a dry run, as the child of as_nobody(). */
static void rebalance(struct hnl *h, pid_t dry, struct outcome *o)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;

	hreq_init(r, h, h->family, HCUBE_CMD_REBALANCE, 0);
	if (dry)
		hreq_flag(r, HCUBE_A_REPORT_DRY_RUN);
	o->err = hnl_do(h, r, &rp);
	snprintf(o->msg, sizeof(o->msg), "%s", rp.msg);
	hreply_free(&rp);
	free(r);
}

/* The first CPU of vertex @v. */
static int first_cpu(const struct hc_cube *c, int v)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &c->v[v].usable))
			return cpu;
	return -1;
}

/*
 * What moves tasks of others (a fault, a rebalance) needs CAP_SYS_NICE
 * besides CAP_NET_ADMIN: with CAP_NET_ADMIN alone nobody is refused and
 * root's registered tasks stay where they are; a dry run, which moves
 * nothing, is allowed; with both, the fault moves them.
 */
TEST_F(sec, moving_others_tasks_needs_cap_sys_nice)
{
	static struct hc_cube c;
	struct outcome o;
	cpu_set_t before, now;
	int i, cpu;

	ASSERT_EQ(0, hc_get_cube(&self->h, &c));
	cpu = first_cpu(&c, 1);
	ASSERT_GE(cpu, 0);
	for (i = 0; i < 3; i++)
		self->kids[self->nkids++] = hc_spawn(0);
	ASSERT_EQ(0, hc_task_add(&self->h, self->kids, 3, 1));
	ASSERT_EQ(0, sched_getaffinity(self->kids[0], sizeof(before), &before));

	as_nobody(CAPS_NET_ADMIN, fault_add, cpu, &o);
	EXPECT_EQ(-EPERM, o.err) TH_LOG("fault add as nobody with CAP_NET_ADMIN only");
	EXPECT_NE(NULL, strstr(o.msg, "CAP_SYS_NICE")) TH_LOG("'%s'", o.msg);
	as_nobody(CAPS_NET_ADMIN, rebalance, 0, &o);
	EXPECT_EQ(-EPERM, o.err) TH_LOG("rebalance as nobody with CAP_NET_ADMIN only");
	as_nobody(CAPS_NET_ADMIN, rebalance, 1, &o);
	EXPECT_EQ(0, o.err) TH_LOG("a dry run moves nothing: '%s'", o.msg);
	ASSERT_EQ(0, hc_get_cube(&self->h, &c));
	EXPECT_EQ(0, CPU_COUNT(&c.v[1].faulty));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(now), &now));
		EXPECT_TRUE(CPU_EQUAL(&before, &now)) TH_LOG("pid %d was moved", self->kids[i]);
	}

	as_nobody(CAPS_NET_ADMIN | CAPS_SYS_NICE, fault_add, cpu, &o);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, sched_getaffinity(self->kids[i], sizeof(now), &now));
		EXPECT_FALSE(CPU_ISSET(cpu, &now)) TH_LOG("pid %d stayed on faulty CPU %d",
							  self->kids[i], cpu);
	}
	hc_fault(&self->h, 0, cpu, -1, NULL);
}

/*
 * A task that its registrant may no longer change (it became root after
 * nobody registered it) is let go at its next move, never moved to another
 * vertex: a fault on its CPU gives it back the affinity it had before it
 * was registered, and it is no longer registered.
 */
TEST_F(sec, task_its_registrant_may_no_longer_set_is_released)
{
	static struct hc_cube c;
	struct outcome o;
	int go[2], i, v, cpu = -1;
	cpu_set_t orig, pinned, now;
	pid_t t;

	ASSERT_EQ(0, pipe(go));
	t = fork();
	ASSERT_GE(t, 0);
	if (t == 0) {
		char ch;

		/*
		 * nobody, keeping root as the saved uid to take back; and no
		 * capability: with root's permitted set (what a saved uid 0
		 * keeps) sched_setaffinity() would refuse nobody already
		 */
		if (setresgid(NOBODY, NOBODY, 0) || setresuid(NOBODY, NOBODY, 0) ||
		    drop_all_caps())
			_exit(1);
		if (read(go[0], &ch, 1) != 1 || setresuid(0, 0, 0))
			_exit(1);
		for (;;)
			pause();
	}
	self->kids[self->nkids++] = t;
	close(go[0]);
	usleep(50000);
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(orig), &orig));
	as_nobody(CAPS_NET_ADMIN, set_then_add, t, &o);
	ASSERT_EQ(0, o.set_err) TH_LOG("the kernel refuses nobody already");
	ASSERT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	ASSERT_EQ(1, ntasks(&self->h));
	/* it takes root back: nobody could no longer sched_setaffinity() it */
	ASSERT_EQ(1, write(go[1], "r", 1));
	close(go[1]);
	for (i = 0; i < 100; i++) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d", t);
		if (!stat(path, &st) && st.st_uid == 0)
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(pinned), &pinned));
	ASSERT_EQ(0, hc_get_cube(&self->h, &c));
	for (v = 0; v < (int)c.nv; v++)
		if (CPU_EQUAL(&pinned, &c.v[v].usable))
			cpu = first_cpu(&c, v);
	ASSERT_GE(cpu, 0) TH_LOG("the task is on no vertex");
	/* a move: its vertex's CPU becomes faulty */
	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	EXPECT_EQ(0, ntasks(&self->h)) TH_LOG("still registered");
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&now, &orig)) TH_LOG("not given its original affinity back");
	hc_fault(&self->h, 0, cpu, -1, NULL);
}

#define CAPS_NET_RAW	(1ULL << CAP_NET_RAW)

/*
 * A copy of sleep(1) with the file capability cap_net_raw+ep (what
 * `setcap cap_net_raw+ep` writes), on a tmpfs of its own in
 * self->capdir; its path in @path. 0, or -1 with errno.
 */
static int capped_sleep(FIXTURE_DATA(sec) *self, char *path, size_t n)
{
	struct vfs_cap_data cap = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	};
	char buf[65536];
	int in, out, err = 0;
	ssize_t r;

	snprintf(self->capdir, sizeof(self->capdir), "/tmp/hcube-caps.XXXXXX");
	if (!mkdtemp(self->capdir)) {
		self->capdir[0] = 0;
		return -1;
	}
	if (mount("tmpfs", self->capdir, "tmpfs", 0, "mode=0755"))
		return -1;
	snprintf(path, n, "%s/sleep", self->capdir);
	in = open("/bin/sleep", O_RDONLY);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	if (in < 0 || out < 0)
		err = -1;
	while (!err && (r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, r) != r)
			err = -1;
	cap.data[0].permitted = 1U << CAP_NET_RAW;
	if (!err && fsetxattr(out, "security.capability", &cap, sizeof(cap), 0))
		err = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err;
}

/*
 * A child that becomes nobody, with no capability, and runs @path (sleep
 * 1000) once a byte comes on @go (at once when @go < 0).
 */
static pid_t spawn_nobody_exec(const char *path, int go)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		if (setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
			_exit(1);
		if (go >= 0 && read(go, &c, 1) != 1)
			_exit(1);
		execl(path, "sleep", "1000", (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* @pid's permitted capabilities (/proc/PID/status), or ~0 when unread. */
static uint64_t cap_prm(pid_t pid)
{
	unsigned long long v = ~0ULL;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return v;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapPrm: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Wait until @pid runs as nobody with permitted capabilities @caps. */
static int wait_nobody_with(pid_t pid, uint64_t caps)
{
	char path[64];
	struct stat st;
	int i;

	snprintf(path, sizeof(path), "/proc/%d", pid);
	for (i = 0; i < 200; i++) {
		if (!stat(path, &st) && st.st_uid == NOBODY && cap_prm(pid) == caps)
			return 0;
		usleep(10000);
	}
	return -1;
}

/*
 * commoncap's rule (cap_task_setscheduler(), cap_safe_nice()): nobody's own
 * task that runs a file-capability program (cap_net_raw+ep) has a
 * permitted capability nobody with CAP_NET_ADMIN lacks. The kernel's
 * sched_setaffinity() refuses nobody, and so does TASK_ADD (EPERM, the
 * ack naming the pid and why); with CAP_NET_RAW itself, or with
 * CAP_SYS_NICE, both accept. TASK_DEL follows the same rule.
 */
TEST_F(sec, task_with_capabilities_the_caller_lacks_needs_cap_sys_nice)
{
	struct outcome o;
	char path[128];
	pid_t t;

	ASSERT_EQ(0, capped_sleep(self, path, sizeof(path)))
		TH_LOG("a file-capability copy of sleep: %s", strerror(errno));
	t = spawn_nobody_exec(path, -1);
	ASSERT_GT(t, 0);
	self->kids[self->nkids++] = t;
	ASSERT_EQ(0, wait_nobody_with(t, CAPS_NET_RAW))
		TH_LOG("pid %d did not run as nobody with CAP_NET_RAW permitted", t);

	as_nobody(CAPS_NET_ADMIN, set_then_add, t, &o);
	EXPECT_EQ(-EPERM, o.set_err) TH_LOG("the kernel let nobody set it");
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "capabilities the caller lacks")) TH_LOG("'%s'", o.msg);
	EXPECT_TRUE(o.has_off);
	EXPECT_EQ(NLMSG_HDRLEN + GENL_HDRLEN, o.off);
	EXPECT_EQ(0, ntasks(&self->h));

	as_nobody(CAPS_NET_ADMIN | CAPS_NET_RAW, set_then_add, t, &o);
	EXPECT_EQ(0, o.set_err);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
	as_nobody(CAPS_NET_ADMIN, del_one, t, &o);
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "capabilities the caller lacks")) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
	as_nobody(CAPS_NET_ADMIN | CAPS_NET_RAW, del_one, t, &o);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(0, ntasks(&self->h));

	as_nobody(CAPS_NET_ADMIN | CAPS_SYS_NICE, set_then_add, t, &o);
	EXPECT_EQ(0, o.set_err);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
}

struct opener {
	struct hnl h;
	int err;
};

/*
 * A thread that becomes nobody with CAP_NET_ADMIN only (credentials are
 * a thread's: the raw system calls change this one alone) and opens a
 * socket, which keeps its opener's credentials.
 */
static void *open_as_nobody(void *arg)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {};
	struct opener *o = arg;

	d[0].effective = d[0].permitted = 1U << CAP_NET_ADMIN;
	if (prctl(PR_SET_KEEPCAPS, 1) ||
	    syscall(SYS_setresgid, NOBODY, NOBODY, NOBODY) ||
	    syscall(SYS_setresuid, NOBODY, NOBODY, NOBODY) ||
	    syscall(SYS_capset, &hdr, d))
		o->err = -errno;
	else
		o->err = hnl_open(&o->h);
	return NULL;
}

/*
 * The opener of the socket passes the same tests as its sender: root
 * sending on a socket nobody (CAP_NET_ADMIN only) opened may not register
 * nobody's task that holds CAP_NET_RAW.
 */
TEST_F(sec, opener_lacking_the_task_capabilities_is_refused)
{
	struct opener op = { .err = -1 };
	struct outcome o;
	char path[128];
	pthread_t th;
	pid_t t;

	ASSERT_EQ(0, capped_sleep(self, path, sizeof(path)))
		TH_LOG("a file-capability copy of sleep: %s", strerror(errno));
	t = spawn_nobody_exec(path, -1);
	ASSERT_GT(t, 0);
	self->kids[self->nkids++] = t;
	ASSERT_EQ(0, wait_nobody_with(t, CAPS_NET_RAW));
	ASSERT_EQ(0, pthread_create(&th, NULL, open_as_nobody, &op));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, op.err) TH_LOG("nobody's socket: %s", strerror(-op.err));
	ASSERT_EQ(0, geteuid());
	task_req(&op.h, HCUBE_CMD_TASK_ADD, t, &o);
	hnl_close(&op.h);
	EXPECT_EQ(-EPERM, o.err);
	EXPECT_NE(NULL, strstr(o.msg, "capabilities the caller lacks")) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(0, ntasks(&self->h));
	/* root's own socket: accepted */
	task_req(&self->h, HCUBE_CMD_TASK_ADD, t, &o);
	EXPECT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	EXPECT_EQ(1, ntasks(&self->h));
}

/*
 * nobody registers its own task, which then runs a file-capability
 * program: from then on nobody may not sched_setaffinity() it (the
 * control), and hcube lets it go at its next move (a fault of its CPU)
 * instead of moving it: unregistered, counted revoked, its original
 * affinity back.
 */
TEST_F(sec, task_that_gains_a_capability_is_revoked_not_moved)
{
	uint64_t s0[HCUBE_A_STATS_MAX + 1], s1[HCUBE_A_STATS_MAX + 1];
	static struct hc_cube c;
	cpu_set_t orig, pinned, now;
	int go[2], v, cpu = -1;
	struct outcome o;
	char path[128];
	pid_t t;

	ASSERT_EQ(0, capped_sleep(self, path, sizeof(path)))
		TH_LOG("a file-capability copy of sleep: %s", strerror(errno));
	ASSERT_EQ(0, pipe(go));
	t = spawn_nobody_exec(path, go[0]);
	ASSERT_GT(t, 0);
	self->kids[self->nkids++] = t;
	close(go[0]);
	ASSERT_EQ(0, wait_nobody_with(t, 0));
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(orig), &orig));
	as_nobody(CAPS_NET_ADMIN, add_one, t, &o);
	ASSERT_EQ(0, o.err) TH_LOG("'%s'", o.msg);
	ASSERT_EQ(1, ntasks(&self->h));
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(pinned), &pinned));

	ASSERT_EQ(1, write(go[1], "x", 1));
	close(go[1]);
	ASSERT_EQ(0, wait_nobody_with(t, CAPS_NET_RAW))
		TH_LOG("pid %d did not run the file-capability program", t);
	as_nobody(CAPS_NET_ADMIN, set_only, t, &o);
	EXPECT_EQ(-EPERM, o.set_err) TH_LOG("the kernel still lets nobody set it");

	ASSERT_EQ(0, hc_get_cube(&self->h, &c));
	for (v = 0; v < (int)c.nv; v++)
		if (CPU_EQUAL(&pinned, &c.v[v].usable))
			cpu = first_cpu(&c, v);
	ASSERT_GE(cpu, 0) TH_LOG("the task is on no vertex");
	ASSERT_EQ(0, hc_stats(&self->h, s0));
	ASSERT_EQ(0, hc_fault(&self->h, 1, cpu, -1, NULL));
	ASSERT_EQ(0, hc_stats(&self->h, s1));
	EXPECT_EQ(0, ntasks(&self->h)) TH_LOG("still registered");
	EXPECT_EQ(1, s1[HCUBE_A_STATS_REVOKED] - s0[HCUBE_A_STATS_REVOKED]);
	ASSERT_EQ(0, sched_getaffinity(t, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&now, &orig)) TH_LOG("not given its original affinity back");
	hc_fault(&self->h, 0, cpu, -1, NULL);
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
	EXPECT_EQ(-EBUSY, hc_task_add(&self->h, &job, 1, -1));
	EXPECT_EQ(1, ntasks(&self->h));
}

/*
 * A registered task that became SCHED_DEADLINE (possible when its vertex
 * spans every CPU: one custom group) is let go at its next move, never
 * narrowed: a fault on one of its CPUs leaves its mask whole and it is no
 * longer registered.
 */
TEST_F(sec, task_become_deadline_is_released_not_narrowed)
{
	struct hc_sched_attr a = {
		.size = sizeof(a), .sched_policy = 6 /* SCHED_DEADLINE */,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};
	struct hreq *r = malloc(sizeof(*r));
	cpu_set_t all, now;
	char group[32];
	pid_t dl;

	if (get_nprocs() < 2)
		SKIP(return, "needs 2 CPUs");
	snprintf(group, sizeof(group), "0-%d", get_nprocs() - 1);
	hreq_init(r, &self->h, self->h.family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(r, HCUBE_A_MODE, HCUBE_MODE_CUSTOM);
	hreq_str(r, HCUBE_A_GROUP, group);
	ASSERT_EQ(0, hc_send(&self->h, r, NULL));
	dl = hc_spawn(0);
	self->kids[self->nkids++] = dl;
	ASSERT_EQ(0, hc_task_add(&self->h, &dl, 1, 0));
	ASSERT_EQ(0, sched_getaffinity(dl, sizeof(all), &all));
	if (syscall(SYS_sched_setattr, dl, &a, 0))
		SKIP(return, "SCHED_DEADLINE: %s", strerror(errno));
	ASSERT_EQ(0, hc_fault(&self->h, 1, 1, -1, NULL));
	EXPECT_EQ(0, ntasks(&self->h)) TH_LOG("the deadline task is still registered");
	ASSERT_EQ(0, sched_getaffinity(dl, sizeof(now), &now));
	EXPECT_TRUE(CPU_EQUAL(&now, &all)) TH_LOG("the deadline task's mask was narrowed");
	hc_fault(&self->h, 0, 1, -1, NULL);
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
	ASSERT_EQ(0, hc_task_add(&self->h, &root, 1, -1));
	ASSERT_EQ(0, hc_task_add(&self->h, &mine, 1, -1));
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
	ASSERT_EQ(0, hc_task_add(&self->h, &sleeper, 1, -1));
	ASSERT_EQ(0, hc_task_add(&self->h, &root, 1, -1));
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
