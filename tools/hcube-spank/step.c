// SPDX-License-Identifier: GPL-2.0
/*
 * hcube.so: registering a step's tasks with the module.
 *
 * slurmstepd calls hs_register() as root once Slurm has placed every task
 * of the step in its cgroup and bound it, and before any of them runs the
 * user's program. It forks a helper, which takes the tasks' credentials:
 * their uid, gid and groups, and of root's capabilities only CAP_NET_ADMIN,
 * which the module asks of every request that changes its state. The
 * module's permission test is then the one it makes for hcubectl run by
 * that user: the tasks must be the caller's own. The helper
 *
 * 1. reads each task's affinity (Slurm's binding) and what its cpuset
 *    allows (its cpuset.cpus.effective): a binding narrower than that is
 *    Slurm's choice. The module reads the cpuset itself and never gives
 *    a task a CPU outside it; the binding is what it saves, and gives
 *    back when it lets the task go;
 * 2. chooses each task's vertex from its binding (hs_choose_vertices());
 * 3. registers the tasks, one TASK_ADD per vertex, and if any is refused,
 *    unregisters those it registered, which gives them their binding
 *    back: the step then runs as without the plugin;
 * 4. sets the node's policy if the step asked for one and may: with
 *    CAP_SYS_NICE too, which the module asks of what moves others' tasks,
 *    raised for that request alone (the registrations do not have it).
 *
 * It writes a struct hs_result to a pipe and exits; slurmstepd logs it.
 * The helper never calls Slurm's functions: slurmstepd has threads, and a
 * lock one of them held at the fork would never be released in the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/hcube.h>
#include "hcube_spank.h"

void hs_choose_vertices(struct hs_task *t, size_t n, const struct hcl_vertex *v, size_t nv)
{
	unsigned int *load = calloc(nv ? nv : 1, sizeof(*load));
	size_t i, k;

	for (k = 0; k < nv && load; k++)
		load[k] = v[k].load;
	for (i = 0; i < n; i++) {
		int best = -1, most = 0;

		t[i].vertex = -1;
		if (!load || CPU_EQUAL(&t[i].bound, &t[i].allowed))
			continue;
		for (k = 0; k < nv; k++) {
			cpu_set_t both;
			int c;

			if (v[k].state != HCUBE_VERTEX_HEALTHY)
				continue;
			CPU_AND(&both, &t[i].bound, &v[k].usable);
			c = CPU_COUNT(&both);
			if (c > most || (c == most && c && load[k] < load[best])) {
				best = (int)k;
				most = c;
			}
		}
		if (best < 0)
			continue;
		t[i].vertex = (int)v[best].id;
		load[best]++;
	}
	free(load);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static void say(struct hs_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct hs_result *res, const char *fmt, ...)
{
	size_t len = strlen(res->text);
	va_list ap;

	if (len >= sizeof(res->text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(res->text + len, sizeof(res->text) - len, fmt, ap);
	va_end(ap);
}

/* The helper's capabilities: @permitted and @effective, as masks of CAP_*. */
static int caps_set(uint64_t permitted, uint64_t effective)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	caps[0].permitted = (uint32_t)permitted;
	caps[1].permitted = (uint32_t)(permitted >> 32);
	caps[0].effective = (uint32_t)effective;
	caps[1].effective = (uint32_t)(effective >> 32);
	return syscall(SYS_capset, &hdr, caps) ? -errno : 0;
}

#define CAPS_NET_ADMIN	(1ULL << CAP_NET_ADMIN)
#define CAPS_SYS_NICE	(1ULL << CAP_SYS_NICE)

/*
 * Take the tasks' credentials, with CAP_NET_ADMIN only (when this process
 * has it: else none, and the module will refuse what needs it).
 */
int hs_become_user(const struct hs_request *rq, struct hs_result *res)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = { { 0 } };
	/* CAP_SYS_NICE kept aside (permitted, not effective) for the policy */
	uint64_t keep = rq->policy >= 0 && rq->user_policy ? CAPS_SYS_NICE : 0;

	/* slurmd may run as the user itself (a personal test cluster) */
	bool same = getuid() == rq->uid && geteuid() == rq->uid;
	int err;

	if (!same && (setgroups((size_t)rq->ngids, rq->gids) ||
		      setresgid(rq->gid, rq->gid, rq->gid) ||
		      prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) ||
		      setresuid(rq->uid, rq->uid, rq->uid))) {
		err = -errno;
		say(res, "cannot take the credentials of uid %u: %s", (unsigned int)rq->uid,
		    strerror(-err));
		return err;
	}
	if (caps_set(CAPS_NET_ADMIN | keep, CAPS_NET_ADMIN)) {
		err = caps_set(0, 0);
		if (err) {
			say(res, "cannot drop root's capabilities: %s", strerror(-err));
			return err;
		}
	}
	prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
	/* what the module will see, as the kernel has it now */
	res->uid = geteuid();
	res->gid = getegid();
	if (!syscall(SYS_capget, &hdr, caps))
		res->caps = (uint64_t)caps[1].effective << 32 | caps[0].effective;
	return 0;
}

/*
 * Wait until every task runs with the step's uid: slurmstepd does not wait
 * for its children to take the user's credentials before it calls
 * task_post_fork, and a task still root is not the user's to register.
 */
static int wait_for_owner(const struct hs_task *t, size_t n, uid_t uid,
			  struct hs_result *res)
{
	struct timespec t0, nap = { .tv_nsec = 1000000 };
	size_t i = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (i < n) {
		unsigned int ruid = 0, euid = 0;
		char path[64], line[256];
		bool seen = false;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)t[i].pid);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "Uid: %u %u", &ruid, &euid) == 2) {
				seen = true;
				break;
			}
		if (f)
			fclose(f);
		if (seen && ruid == uid && euid == uid) {
			i++;
			continue;
		}
		if (!f || ms_since(&t0) > 3000) {
			say(res, "task pid %d %s", (int)t[i].pid, f ? "did not take the user's "
			    "credentials within 3 s" : "is gone");
			return f ? -ETIMEDOUT : -ESRCH;
		}
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* The first line of @path into @buf, without its newline: 0 or -1. */
static int first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok ? 0 : -1;
}

/*
 * What @pid's cpuset allows: cpuset.cpus.effective of its cgroup v2
 * directory, or of the nearest one above it that has the file; without
 * cgroup v2 at /sys/fs/cgroup, the online CPUs.
 */
static void cpuset_allows(pid_t pid, cpu_set_t *allowed)
{
	char path[4200], line[4096], *dir, *slash;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	if (!first_line(path, line, sizeof(line)) && !strncmp(line, "0::/", 4)) {
		dir = line + 3;
		for (;;) {
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus.effective",
				 strcmp(dir, "/") ? dir : "");
			if (!first_line(path, path, sizeof(path)) &&
			    !hcl_cpulist_parse(path, allowed))
				return;
			slash = strrchr(dir, '/');
			if (!slash || slash == dir)
				break;
			*slash = 0;
		}
		if (!first_line("/sys/fs/cgroup/cpuset.cpus.effective", line, sizeof(line)) &&
		    !hcl_cpulist_parse(line, allowed))
			return;
	}
	if (first_line("/sys/devices/system/cpu/online", line, sizeof(line)) ||
	    hcl_cpulist_parse(line, allowed))
		sched_getaffinity(1, sizeof(*allowed), allowed);
}

/* Every task's binding, and what its cpuset allows. */
static int read_bindings(struct hs_task *t, size_t n, struct hs_result *res)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		if (sched_getaffinity(t[i].pid, sizeof(t[i].bound), &t[i].bound)) {
			err = -errno;
			say(res, "task pid %d: its CPU affinity: %s", (int)t[i].pid,
			    strerror(-err));
			return err;
		}
		cpuset_allows(t[i].pid, &t[i].allowed);
	}
	return 0;
}

/* A kernel error: what failed, the errno, the module's message. */
static void refused(struct hcl *c, struct hs_result *res, int err, const char *what)
{
	const char *msg = hcl_message(c);

	say(res, "%s: %s%s%s", what, strerror(-err), *msg ? ": " : "", msg);
}

/*
 * Set the node's policy if asked and allowed; a line for the user if not.
 * The request has CAP_SYS_NICE (kept permitted by hs_become_user()), on a
 * connection of its own opened with it, which is then dropped for good.
 */
static int set_policy(const struct hs_request *rq, struct hs_result *res)
{
	struct hcl *c = NULL;
	uint32_t now;
	int err;

	if (rq->policy < 0)
		return 0;
	if (rq->user_policy)
		caps_set(CAPS_NET_ADMIN | CAPS_SYS_NICE, CAPS_NET_ADMIN | CAPS_SYS_NICE);
	err = hcl_open(&c, 5000);
	if (!err)
		err = hcl_policy_get(c, &now);
	if (err) {
		refused(c, res, err, "reading the node's policy");
		goto out;
	}
	if (now == (uint32_t)rq->policy)
		goto out;
	if (!rq->user_policy) {
		snprintf(res->warning, sizeof(res->warning), "--hcube=%s not applied: this "
			 "node balances with %s, which its administrator sets",
			 hcl_policy_name((uint32_t)rq->policy),
			 hcl_policy_name(now) ? hcl_policy_name(now) : "?");
		goto out;
	}
	err = hcl_policy_set(c, (uint32_t)rq->policy);
	if (err) {
		refused(c, res, err, "setting the node's policy");
		goto out;
	}
	res->old_policy = (int)now;
	res->new_policy = rq->policy;
	{
		/* before what the registration said (cut at the end if need be) */
		char head[64], text[sizeof(res->text)];
		size_t hl;

		snprintf(head, sizeof(head), "policy %s (was %s); ",
			 hcl_policy_name((uint32_t)rq->policy),
			 hcl_policy_name(now) ? hcl_policy_name(now) : "?");
		hl = strlen(head);
		memcpy(text, head, hl);
		memcpy(text + hl, res->text, sizeof(text) - hl - 1);
		text[sizeof(text) - 1] = 0;
		memcpy(res->text, text, sizeof(text));
	}
out:
	hcl_close(c);
	caps_set(CAPS_NET_ADMIN, CAPS_NET_ADMIN);
	return err;
}

/*
 * One TASK_ADD per vertex, in order of first appearance; all or none: on a
 * refusal, those registered before are unregistered. @res says where they
 * went, or only what was refused.
 */
static int add_by_vertex(struct hcl *c, struct hs_task *t, size_t n, struct hs_result *res)
{
	pid_t *group = malloc(n * sizeof(*group)), *done = malloc(n * sizeof(*done));
	struct hs_result where = { .text = "" };
	size_t i, j, k, ndone = 0;
	int err = 0;

	if (!group || !done) {
		say(res, "out of memory");
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		for (j = 0; j < i && t[j].vertex != t[i].vertex; j++)
			;
		if (j < i)
			continue;	/* its vertex's request is sent */
		for (k = 0, j = i; j < n; j++)
			if (t[j].vertex == t[i].vertex)
				group[k++] = t[j].pid;
		err = hcl_task_add(c, group, k, t[i].vertex);
		if (err) {
			char what[64];
			long bad = hcl_bad_pid(c);

			if (bad >= 0)
				snprintf(what, sizeof(what), "registering task pid %d",
					 (int)group[bad]);
			else
				snprintf(what, sizeof(what), "registering %zu task%s", k,
					 k == 1 ? "" : "s");
			refused(c, res, err, what);
			break;
		}
		memcpy(done + ndone, group, k * sizeof(*group));
		ndone += k;
		if (t[i].vertex < 0)
			say(&where, "%s%zu placed by the module", ndone > k ? ", " : "", k);
		else
			say(&where, "%s%zu on vertex %d", ndone > k ? ", " : "", k, t[i].vertex);
	}
	if (err && ndone) {
		int del = hcl_task_del(c, done, ndone);

		say(res, " (%zu registered before %s)", ndone, del ? "could not be unregistered" :
		    "unregistered");
	}
	if (!err) {
		say(res, "%s", where.text);
		res->registered = (unsigned int)n;
	}
out:
	free(group);
	free(done);
	return err;
}

/* The helper's work: returns the errno that stopped it. */
static int helper(const struct hs_request *rq, struct hs_result *res)
{
	struct hs_task *t = calloc(rq->n ? rq->n : 1, sizeof(*t));
	struct hcl_vertex *v = NULL;
	size_t i, nv = 0;
	struct hcl *c = NULL;
	int err;

	if (!t) {
		say(res, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < rq->n; i++)
		t[i].pid = rq->pids[i];
	err = hs_become_user(rq, res);
	if (!err) {
		err = hcl_open(&c, 5000);
		if (err == -ENOENT)
			say(res, "the hcube module is not loaded");
		else if (err)
			say(res, "cannot reach the hcube module: %s", strerror(-err));
	}
	if (!err) {
		err = hcl_vertices(c, &v, &nv);
		if (err)
			refused(c, res, err, "reading the vertices");
	}
	if (!err)
		err = wait_for_owner(t, rq->n, rq->uid, res);
	if (!err)
		err = read_bindings(t, rq->n, res);
	if (!err) {
		hs_choose_vertices(t, rq->n, v, nv);
		err = add_by_vertex(c, t, rq->n, res);
	}
	/* registered with the node's policy; the step's, when it may */
	if (!err && set_policy(rq, res))
		err = 0;	/* the line says so; the tasks stay registered */
	hcl_close(c);
	free(v);
	free(t);
	return err;
}

/* A result that says only what went wrong. */
static void reset(struct hs_result *res, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reset(struct hs_result *res, int err, const char *fmt, ...)
{
	va_list ap;

	memset(res, 0, sizeof(*res));
	res->old_policy = res->new_policy = -1;
	res->uid = (uid_t)-1;
	res->err = err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(res->text, sizeof(res->text), fmt, ap);
		va_end(ap);
	}
}

void hs_register(const struct hs_request *rq, unsigned int timeout_ms, struct hs_result *res)
{
	struct pollfd pfd = { .events = POLLIN };
	struct timespec t0;
	int fd[2], status;
	ssize_t got = 0;
	pid_t pid;

	reset(res, 0, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pipe2(fd, O_CLOEXEC)) {
		reset(res, -errno, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		reset(res, -errno, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pid == 0) {
		close(fd[0]);
		res->err = helper(rq, res);
		_exit(write(fd[1], res, sizeof(*res)) == (ssize_t)sizeof(*res) ? 0 : 1);
	}
	close(fd[1]);
	pfd.fd = fd[0];
	while (got < (ssize_t)sizeof(*res)) {
		double left = timeout_ms - ms_since(&t0);
		int ready = left > 0 ? poll(&pfd, 1, (int)left + 1) : 0;
		ssize_t r = 0;

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready > 0)
			r = read(fd[0], (char *)res + got, sizeof(*res) - (size_t)got);
		if (r > 0) {
			got += r;
			continue;
		}
		kill(pid, SIGKILL);
		if (ready > 0)
			reset(res, -EPIPE, "the registration's helper died");
		else
			reset(res, -ETIMEDOUT, "no answer from the registration after %u ms",
			      timeout_ms);
		break;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	res->text[sizeof(res->text) - 1] = '\0';
	res->ms = ms_since(&t0);
}

int hs_restore_policy(int ours, int old, char *why, size_t size)
{
	struct hcl *c;
	uint32_t now;
	int err = hcl_open(&c, 5000);

	if (!err)
		err = hcl_policy_get(c, &now);
	if (!err && now == (uint32_t)ours)
		err = hcl_policy_set(c, (uint32_t)old);
	else if (!err)
		err = -EBUSY;	/* someone changed it since: theirs now */
	if (err && err != -EBUSY)
		snprintf(why, size, "%s%s%s", strerror(-err), c && *hcl_message(c) ? ": " : "",
			 c ? hcl_message(c) : "");
	hcl_close(c);
	return err;
}
