// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers of the hcube kselftests and hcube_bench (hcube_util.h): the
 * module's state through the netlink client of hcube_nl.c, children to
 * register, and what userspace itself sees of their affinity.
 */
#include "hcube_util.h"

int hc_parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				return -1;
		}
		for (; a <= b; a++)
			CPU_SET(a, set);
		s = end;
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -1;
		else if (*s)
			break;
	}
	return 0;
}

int hc_send(struct hnl *h, struct hreq *r, struct hreply *rp)
{
	struct hreply local;
	int err = hnl_do(h, r, rp ? rp : &local);

	if (!rp)
		hreply_free(&local);
	free(r);
	return err;
}

int hc_get_cube(struct hnl *h, struct hc_cube *c)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	struct nlattr *a;
	int err, i;

	memset(c, 0, sizeof(*c));
	hreq_init(r, h, h->family, HCUBE_CMD_CUBE_GET, 0);
	err = hnl_do(h, r, &rp);
	if (!err && rp.nmsgs) {
		struct nlmsghdr *m = rp.msgs[0];

		c->mode = hnl_u32(hnl_msg_attr(m, HCUBE_A_MODE));
		c->dim = hnl_u32(hnl_msg_attr(m, HCUBE_A_DIM));
		c->nv = hnl_u32(hnl_msg_attr(m, HCUBE_A_NVERTICES));
		c->nhealthy = hnl_u32(hnl_msg_attr(m, HCUBE_A_NHEALTHY));
		c->ntasks = hnl_u32(hnl_msg_attr(m, HCUBE_A_NTASKS));
		c->generation = hnl_u32(hnl_msg_attr(m, HCUBE_A_GENERATION));
		a = hnl_msg_attr(m, HCUBE_A_TREE_DEPTH);
		c->depth = a ? hnl_u32(a) : 0;
		a = hnl_msg_attr(m, HCUBE_A_CB_PATTERN);
		if (a)
			snprintf(c->pattern, sizeof(c->pattern), "%s",
				 (char *)hnl_data(a));
		c->cdim = hnl_u32(hnl_msg_attr(m, HCUBE_A_CLUSTER_DIM));
		a = hnl_msg_attr(m, HCUBE_A_CONTROLLERS);
		if (a) {
			c->nclusters = hnl_len(a) / 2;
			memcpy(c->ctrl, hnl_data(a), hnl_len(a) < (int)sizeof(c->ctrl) ?
			       hnl_len(a) : (int)sizeof(c->ctrl));
		}
	}
	hreply_free(&rp);
	if (err)
		goto out;

	hreq_init(r, h, h->family, HCUBE_CMD_VERTEX_GET, NLM_F_DUMP);
	err = hnl_do(h, r, &rp);
	for (i = 0; !err && i < rp.nmsgs; i++) {
		struct nlattr *v = hnl_msg_attr(rp.msgs[i], HCUBE_A_VERTEX);
		struct hc_vertex *x;
		uint32_t id;

		if (!v)
			continue;
		id = hnl_u32(hnl_nested(v, HCUBE_A_VERTEX_INFO_ID));
		if (id >= HC_MAXV)
			continue;
		x = &c->v[id];
		x->state = hnl_u32(hnl_nested(v, HCUBE_A_VERTEX_INFO_STATE));
		x->load = hnl_u32(hnl_nested(v, HCUBE_A_VERTEX_INFO_LOAD));
		a = hnl_nested(v, HCUBE_A_VERTEX_INFO_PARENT);
		x->parent = a ? (int)hnl_u32(a) : -1;
		x->in_cb = !!hnl_nested(v, HCUBE_A_VERTEX_INFO_IN_CB);
		x->detached = !!hnl_nested(v, HCUBE_A_VERTEX_INFO_DETACHED);
		x->marked = !!hnl_nested(v, HCUBE_A_VERTEX_INFO_MARKED);
		x->controller = !!hnl_nested(v, HCUBE_A_VERTEX_INFO_CONTROLLER);
		hc_parse_cpulist(hnl_data(hnl_nested(v, HCUBE_A_VERTEX_INFO_CPUS)), &x->cpus);
		hc_parse_cpulist(hnl_data(hnl_nested(v, HCUBE_A_VERTEX_INFO_USABLE_CPUS)),
				 &x->usable);
		hc_parse_cpulist(hnl_data(hnl_nested(v, HCUBE_A_VERTEX_INFO_FAULTY_CPUS)),
				 &x->faulty);
	}
	hreply_free(&rp);
out:
	free(r);
	return err;
}

int hc_get_tasks(struct hnl *h, struct hc_task *t, int max)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err, i, n = 0;

	hreq_init(r, h, h->family, HCUBE_CMD_TASK_GET, NLM_F_DUMP);
	err = hnl_do(h, r, &rp);
	for (i = 0; !err && i < rp.nmsgs && n < max; i++) {
		struct nlattr *a = hnl_msg_attr(rp.msgs[i], HCUBE_A_TASK), *c;

		if (!a)
			continue;
		t[n].pid = hnl_u32(hnl_nested(a, HCUBE_A_TASK_PID));
		t[n].vertex = hnl_u32(hnl_nested(a, HCUBE_A_TASK_VERTEX));
		t[n].state = hnl_u32(hnl_nested(a, HCUBE_A_TASK_STATE));
		t[n].origin = hnl_u32(hnl_nested(a, HCUBE_A_TASK_ORIGIN));
		t[n].unit = hnl_u32(hnl_nested(a, HCUBE_A_TASK_UNIT));
		c = hnl_nested(a, HCUBE_A_TASK_CREATOR);
		t[n].has_creator = !!c;
		t[n].creator = c ? hnl_u32(c) : 0;
		n++;
	}
	hreply_free(&rp);
	free(r);
	return err ? err : n;
}

int hc_task_pids(struct hnl *h, uint32_t **pids)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct hreq *r = malloc(sizeof(*r));
	size_t cap = 1024, n = 0;
	char *buf = malloc(1 << 16);
	int err = 0, done = 0;

	*pids = malloc(cap * sizeof(**pids));
	if (!r || !buf || !*pids) {
		free(r);
		free(buf);
		return -ENOMEM;
	}
	hreq_init(r, h, h->family, HCUBE_CMD_TASK_GET, NLM_F_DUMP);
	if (sendto(h->fd, r->buf, r->nlh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		err = -errno;
	while (!err && !done) {
		ssize_t len = recv(h->fd, buf, 1 << 16, 0);
		struct nlmsghdr *nlh;

		if (len < 0) {
			err = errno == EINTR ? 0 : -errno;
			continue;
		}
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			struct nlattr *a;

			if (nlh->nlmsg_seq != r->nlh->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				err = *(int *)NLMSG_DATA(nlh);
				done = 1;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				break;
			}
			a = hnl_msg_attr(nlh, HCUBE_A_TASK);
			if (!a)
				continue;
			if (n == cap) {
				cap *= 2;
				*pids = realloc(*pids, cap * sizeof(**pids));
				if (!*pids) {
					err = -ENOMEM;
					break;
				}
			}
			(*pids)[n++] = hnl_u32(hnl_nested(a, HCUBE_A_TASK_PID));
		}
	}
	free(buf);
	free(r);
	return err ? err : (int)n;
}

int hc_stats(struct hnl *h, uint64_t *s)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err, i;

	memset(s, 0, sizeof(uint64_t) * (HCUBE_A_STATS_MAX + 1));
	hreq_init(r, h, h->family, HCUBE_CMD_STATS_GET, 0);
	err = hnl_do(h, r, &rp);
	if (!err && rp.nmsgs) {
		struct nlattr *nest = hnl_msg_attr(rp.msgs[0], HCUBE_A_STATS);

		for (i = 2; i <= HCUBE_A_STATS_MAX; i++) {
			struct nlattr *a = hnl_nested(nest, i);

			s[i] = a ? hnl_u64(a) : 0;
		}
	}
	hreply_free(&rp);
	free(r);
	return err;
}

int hc_fault(struct hnl *h, int add, int cpu, int vertex, struct hreply *rp)
{
	struct hreq *r = malloc(sizeof(*r));

	hreq_init(r, h, h->family, add ? HCUBE_CMD_FAULT_ADD : HCUBE_CMD_FAULT_DEL, 0);
	if (cpu >= 0)
		hreq_u32(r, HCUBE_A_CPU, cpu);
	if (vertex >= 0)
		hreq_u32(r, HCUBE_A_VERTEX_ID, vertex);
	return hc_send(h, r, rp);
}

int hc_topo(struct hnl *h, uint32_t mode)
{
	struct hreq *r = malloc(sizeof(*r));

	hreq_init(r, h, h->family, HCUBE_CMD_TOPO_SET, 0);
	hreq_u32(r, HCUBE_A_MODE, mode);
	return hc_send(h, r, NULL);
}

int hc_task_refusal(struct hreply *rp)
{
	int i, len, rem;

	for (i = 0; i < rp->nmsgs; i++) {
		void *head = hnl_attrs(rp->msgs[i], &len);
		struct nlattr *a, *e;

		hnl_for_each_attr(a, head, len, rem) {
			if ((a->nla_type & NLA_TYPE_MASK) != HCUBE_A_TASK)
				continue;
			e = hnl_nested(a, HCUBE_A_TASK_ERROR);
			if (e && hnl_len(e) == sizeof(int32_t) &&
			    *(int32_t *)hnl_data(e))
				return *(int32_t *)hnl_data(e);
		}
	}
	return 0;
}

int hc_task_add(struct hnl *h, const pid_t *pids, int n, int vertex)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err, i;

	hreq_init(r, h, h->family, HCUBE_CMD_TASK_ADD, 0);
	for (i = 0; i < n; i++)
		hreq_u32(r, HCUBE_A_PID, pids[i]);
	if (vertex >= 0)
		hreq_u32(r, HCUBE_A_VERTEX_ID, vertex);
	err = hc_send(h, r, &rp);
	if (!err)
		err = hc_task_refusal(&rp);
	hreply_free(&rp);
	return err;
}

int hc_task_del_all(struct hnl *h)
{
	struct hreq *r = malloc(sizeof(*r));

	hreq_init(r, h, h->family, HCUBE_CMD_TASK_DEL, 0);
	hreq_flag(r, HCUBE_A_ALL);
	return hc_send(h, r, NULL);
}

int hc_config(struct hnl *h, int policy, int autob, int threshold, int cooldown)
{
	struct hreq *r = malloc(sizeof(*r));

	hreq_init(r, h, h->family, HCUBE_CMD_CONFIG_SET, 0);
	hreq_nest_start(r, HCUBE_A_CONFIG);
	if (policy >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_POLICY, policy);
	if (autob >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_AUTO, autob);
	if (threshold >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_THRESHOLD, threshold);
	if (cooldown >= 0)
		hreq_u32(r, HCUBE_A_CONFIG_COOLDOWN_MS, cooldown);
	hreq_nest_end(r);
	return hc_send(h, r, NULL);
}

static void hc_copy_u32s(uint32_t *dst, struct nlattr *a, uint32_t max)
{
	if (a)
		memcpy(dst, hnl_data(a), hnl_len(a) < (int)(max * 4) ?
		       (size_t)hnl_len(a) : (size_t)max * 4);
}

void hc_parse_report(struct nlmsghdr *m, struct hc_report *out)
{
	int len, rem;
	void *head = hnl_attrs(m, &len);
	struct nlattr *a;

	/* the report's attributes are the message's own */
	hnl_for_each_attr(a, head, len, rem) {
		int type = a->nla_type & NLA_TYPE_MASK;
		struct nlattr *p = NULL;

		switch (type) {
		case HCUBE_A_REPORT_POLICY:
			out->policy = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_MOVED:
			out->moved = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_APPLIED:
			out->applied = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_MESSAGES:
			out->messages = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_IMBALANCE:
			out->imbalance = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_CONTENDED:
			out->has_contended = 1;
			out->contended = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_FAILED:
			out->failed = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_EXITED:
			out->exited = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_EVACUATED:
			out->evacuated = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_NTRANSFERS:
			out->plan_ntransfers = hnl_u32(a);
			break;
		case HCUBE_A_REPORT_DURATION_NS:
			out->dur_ns = hnl_u64(a);
			break;
		case HCUBE_A_REPORT_MIGRATIONS:
			out->migrations = hnl_u64(a);
			break;
		case HCUBE_A_REPORT_LOADS_BEFORE:
			out->nv = hnl_len(a) / 4;
			hc_copy_u32s(out->before, a, HC_MAXV);
			break;
		case HCUBE_A_REPORT_LOADS_AFTER:
			hc_copy_u32s(out->after, a, HC_MAXV);
			break;
		case HCUBE_A_REPORT_LOADS_PLAN:
			out->has_plan = 1;
			hc_copy_u32s(out->planned, a, HC_MAXV);
			break;
		case HCUBE_A_REPORT_TRANSFER:
			/* one nest per transfer, in order */
			if (out->ntransfers < 16384) {
				struct hc_transfer *x = &out->x[out->ntransfers++];

				x->step = hnl_u32(hnl_nested(a, HCUBE_A_TRANSFER_STEP));
				x->from = hnl_u32(hnl_nested(a, HCUBE_A_TRANSFER_FROM));
				x->to = hnl_u32(hnl_nested(a, HCUBE_A_TRANSFER_TO));
				x->count = hnl_u32(hnl_nested(a, HCUBE_A_TRANSFER_COUNT));
			}
			break;
		case HCUBE_A_REPORT_CB_PATTERN:
			snprintf(out->pattern, sizeof(out->pattern), "%s",
				 (char *)hnl_data(a));
			break;
		case HCUBE_A_REPORT_CHANGED:
		case HCUBE_A_REPORT_FAILURE:
			p = hnl_nested(a, HCUBE_A_TASK_PID);
			if (p && type == HCUBE_A_REPORT_CHANGED && out->nchanged < 64)
				out->changed_pid[out->nchanged++] = hnl_u32(p);
			if (p && type == HCUBE_A_REPORT_FAILURE && out->nfail < 64)
				out->fail_pid[out->nfail++] = hnl_u32(p);
			break;
		}
	}
}

int hc_rebalance(struct hnl *h, int policy, int dry_run, struct hc_report *out)
{
	struct hreq *r = malloc(sizeof(*r));
	struct hreply rp;
	int err;

	memset(out, 0, sizeof(*out));
	hreq_init(r, h, h->family, HCUBE_CMD_REBALANCE, 0);
	if (policy >= 0)
		hreq_u32(r, HCUBE_A_REPORT_POLICY, policy);
	if (dry_run)
		hreq_flag(r, HCUBE_A_REPORT_DRY_RUN);
	err = hnl_do(h, r, &rp);
	if (!err && rp.nmsgs)
		hc_parse_report(rp.msgs[0], out);
	hreply_free(&rp);
	free(r);
	return err;
}

pid_t hc_spawn(int busy)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (busy) {
			volatile unsigned long x = 0;

			for (;;)
				x++;
		}
		for (;;)
			pause();
	}
	return pid;
}

void hc_kill_all(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

int hc_vertex_of(const struct hc_cube *c, pid_t pid)
{
	cpu_set_t set;
	uint32_t i;

	if (sched_getaffinity(pid, sizeof(set), &set))
		return -1;
	for (i = 0; i < c->nv; i++)
		if (c->v[i].state == HCUBE_VERTEX_HEALTHY &&
		    CPU_EQUAL(&set, &c->v[i].usable))
			return i;
	return -2;
}

const char *hc_cpus_str(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int cpu, end;

	buf[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE; cpu = end + 1) {
		if (!CPU_ISSET(cpu, set)) {
			end = cpu;
			continue;
		}
		for (end = cpu; end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set); end++)
			;
		if (len + 1 >= size)
			break;
		len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpu);
		if (end > cpu && len + 1 < size)
			len += snprintf(buf + len, size - len, "-%d", end);
	}
	if (!len)
		snprintf(buf, size, "(none)");
	return buf;
}

int hc_proc_cpus(pid_t pid, cpu_set_t *set)
{
	char path[64], line[4096];
	FILE *f;
	int err = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			char *s = line + 18;

			while (isspace((unsigned char)*s))
				s++;
			s[strcspn(s, "\n")] = 0;
			err = hc_parse_cpulist(s, set);
			break;
		}
	}
	fclose(f);
	return err;
}

const char *hc_count_by_affinity(struct hnl *h, struct hc_cube *c,
				 const pid_t *pids, int n, uint32_t *count)
{
	static char why[128];
	int i;

	if (hc_get_cube(h, c))
		return "the cube could not be read";
	memset(count, 0, sizeof(uint32_t) * HC_MAXV);
	for (i = 0; i < n; i++) {
		cpu_set_t a, b;
		int v = hc_vertex_of(c, pids[i]);

		if (v < 0) {
			snprintf(why, sizeof(why), "pid %d is on no healthy vertex", pids[i]);
			return why;
		}
		count[v]++;
		if (sched_getaffinity(pids[i], sizeof(a), &a) || hc_proc_cpus(pids[i], &b) ||
		    !CPU_EQUAL(&a, &b)) {
			snprintf(why, sizeof(why), "pid %d: its affinity and /proc differ", pids[i]);
			return why;
		}
	}
	return NULL;
}

pid_t hc_ppid_of(pid_t pid, char *state)
{
	char path[64], buf[512], *p;
	pid_t pp = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%c %d", state, &pp) != 2)
			pp = -1;
	}
	fclose(f);
	return pp;
}

pid_t hc_child_of(pid_t parent)
{
	struct dirent *d;
	pid_t best = 0;
	DIR *dir = opendir("/proc");
	char state;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid_t pid = atoi(d->d_name);

		if (pid > 0 && hc_ppid_of(pid, &state) == parent && (!best || pid < best))
			best = pid;
	}
	closedir(dir);
	return best;
}

int hc_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = -errno;
	close(fd);
	return err;
}

int hc_clear_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int hc_set_online(int cpu, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return hc_write_file(path, on ? "1" : "0");
}

const char *hc_beside(const char *name)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *end;

	path[n > 0 ? n : 0] = 0;
	end = strrchr(path, '/');
	end = end ? end + 1 : path;
	snprintf(end, path + sizeof(path) - end, "%s", name);
	return path;
}

int hc_reset(struct hnl *h, uint32_t mode)
{
	static struct hc_cube c;
	uint32_t i;
	int cpu, err;

	err = hc_task_del_all(h);
	if (err)
		return err;
	err = hc_get_cube(h, &c);
	if (err)
		return err;
	for (i = 0; i < c.nv; i++) {
		if (c.v[i].marked)
			hc_fault(h, 0, -1, i, NULL);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &c.v[i].faulty))
				hc_fault(h, 0, cpu, -1, NULL);
	}
	err = hc_config(h, HCUBE_POLICY_MCWA, 0, 1, 1000);
	if (err)
		return err;
	return hc_topo(h, mode);
}
