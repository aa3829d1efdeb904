// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl metrics: the cube's state and counters in the Prometheus text
 * exposition format, as a file for node_exporter's textfile collector
 * (DIR/hcube.prom). Written once at start and again after each batch of
 * the module's events (the "events" multicast group, as monitor reads
 * it): no polling. Each write goes to a temporary file in DIR, renamed
 * over hcube.prom, so that a reader sees the old file or the new one,
 * never a part. When the module goes away the file says hcube_up 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include "hcubectl.h"

#define METRICS_DIR	"/var/lib/prometheus/node-exporter"
#define METRICS_FILE	"hcube.prom"

/* The counters of `stats`: their metric, and a label when several share one. */
static const struct {
	int attr;
	const char *name, *label, *help;
} counters[] = {
	{ HCUBE_A_STATS_REBALANCES, "hcube_rebalances_total", NULL, "Rebalances applied." },
	{ HCUBE_A_STATS_AUTO_REBALANCES, "hcube_auto_rebalances_total", NULL,
	  "Rebalances applied by the automatic trigger (of hcube_rebalances_total)." },
	{ HCUBE_A_STATS_DRY_RUNS, "hcube_dry_runs_total", NULL, "Rebalances planned only." },
	{ HCUBE_A_STATS_MIGRATIONS, "hcube_migrations_total", NULL,
	  "Task-hops planned by applied rebalances." },
	{ HCUBE_A_STATS_MOVED, "hcube_moved_tasks_total", NULL, "Tasks moved by rebalances." },
	{ HCUBE_A_STATS_FAILURES, "hcube_move_failures_total", NULL,
	  "Moves of tasks that failed." },
	{ HCUBE_A_STATS_EVACUATIONS, "hcube_evacuated_tasks_total", NULL,
	  "Tasks moved off failing vertices." },
	{ HCUBE_A_STATS_EXITED, "hcube_exited_tasks_total", NULL, "Registered tasks that exited." },
	{ HCUBE_A_STATS_CHANGED, "hcube_changed_tasks_total", NULL,
	  "Affinity changes of registered tasks by others." },
	{ HCUBE_A_STATS_REGISTERED, "hcube_registered_tasks_total", NULL, "Tasks registered." },
	{ HCUBE_A_STATS_UNREGISTERED, "hcube_unregistered_tasks_total", NULL,
	  "Tasks unregistered by command." },
	{ HCUBE_A_STATS_ADOPTED, "hcube_adopted_tasks_total", NULL,
	  "New threads and children of registered tasks registered with them." },
	{ HCUBE_A_STATS_REFUSED, "hcube_refused_tasks_total", NULL,
	  "New threads and children not registered (max_tasks)." },
	{ HCUBE_A_STATS_RELEASED, "hcube_released_tasks_total", NULL,
	  "New threads and children of thread-unit tasks given their creator's affinity." },
	{ HCUBE_A_STATS_EVENTS_LOST, "hcube_events_lost_total", NULL,
	  "Task creations the event ring could not hold, found again by a scan." },
	{ HCUBE_A_STATS_REVOKED, "hcube_revoked_tasks_total", NULL,
	  "Registered tasks let go instead of moved." },
	{ HCUBE_A_STATS_MCE_RECORDS, "hcube_machine_check_records_total", NULL,
	  "Machine-check records the module saw." },
	{ HCUBE_A_STATS_MCE_MARKS, "hcube_machine_check_marks_total", NULL,
	  "CPUs marked faulty by machine checks." },
	{ HCUBE_A_STATS_MCE_OUTSIDE, "hcube_machine_check_ignored_records_total", "outside",
	  "Machine-check records ignored, by reason: not the logging core's own error "
	  "(memory, bus, shared_cache, firmware, other), or the core's own but of a CPU "
	  "in no vertex (outside), of an offline CPU (offline), of a CPU already faulty "
	  "or during unload (faulty)." },
	{ HCUBE_A_STATS_MCE_OFFLINE, "hcube_machine_check_ignored_records_total", "offline", NULL },
	{ HCUBE_A_STATS_MCE_IGNORED, "hcube_machine_check_ignored_records_total", "faulty", NULL },
	{ HCUBE_A_STATS_MCE_MEMORY, "hcube_machine_check_ignored_records_total", "memory", NULL },
	{ HCUBE_A_STATS_MCE_BUS, "hcube_machine_check_ignored_records_total", "bus", NULL },
	{ HCUBE_A_STATS_MCE_SHARED_CACHE, "hcube_machine_check_ignored_records_total",
	  "shared_cache", NULL },
	{ HCUBE_A_STATS_MCE_FIRMWARE, "hcube_machine_check_ignored_records_total", "firmware",
	  NULL },
	{ HCUBE_A_STATS_MCE_OTHER, "hcube_machine_check_ignored_records_total", "other", NULL },
	{ HCUBE_A_STATS_MCE_REFUSED, "hcube_machine_check_refused_marks_total", NULL,
	  "Marks by machine checks refused: the CPU's vertex was the last healthy one." },
};

static void family(struct hc_str *b, const char *name, const char *type, const char *help)
{
	hc_str_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The vertex's label as show prints it, for the "vertex" label. */
static const char *vlabel(char *buf, int dim, uint32_t id)
{
	return hc_label(buf, dim, id);
}

static uint32_t vid(const struct hc_attrs *v)
{
	return nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_ID]);
}

static uint32_t vstate(const struct hc_attrs *v)
{
	return v->tb[HCUBE_A_VERTEX_INFO_STATE] ? nla_get_u32(v->tb[HCUBE_A_VERTEX_INFO_STATE]) :
	       HCUBE_VERTEX_HEALTHY;
}

static unsigned int cpulist_count(const struct nlattr *a)
{
	static uint8_t set[8192 / 8];
	const char *why;
	unsigned int n = 0, i;
	char *s;

	if (!a)
		return 0;
	s = hc_attr_str(a);
	if (hc_cpulist_bits(s, set, 8192, &why))
		for (i = 0; i < 8192; i++)
			n += (set[i / 8] >> (i % 8)) & 1;
	free(s);
	return n;
}

static void cube_metrics(struct hc_str *b, const struct hc_census *cs)
{
	struct nlattr *const *tb = cs->cube.tb;
	static const int reasons[] = { HCUBE_REASON_ADMIN, HCUBE_REASON_MCE, HCUBE_REASON_HOTPLUG };
	char lb[HC_LABEL_MAX], num[16];
	size_t i, k;
	uint32_t s;

	if (tb[HCUBE_A_MODE]) {
		family(b, "hcube_info", "gauge", "The cube's topology mode, as a label; always 1.");
		hc_str_printf(b, "hcube_info{mode=\"%s\"} 1\n",
			      HC_NAME(hc_mode_names, nla_get_u32(tb[HCUBE_A_MODE]), num));
	}
	if (cs->dim >= 0) {
		family(b, "hcube_dimension", "gauge", "The cube's dimension.");
		hc_str_printf(b, "hcube_dimension %d\n", cs->dim);
	}
	if (tb[HCUBE_A_GENERATION]) {
		family(b, "hcube_generation", "gauge",
		       "Bumped by every topology or state change of the cube.");
		hc_str_printf(b, "hcube_generation %u\n", nla_get_u32(tb[HCUBE_A_GENERATION]));
	}
	if (tb[HCUBE_A_NTASKS]) {
		family(b, "hcube_tasks", "gauge", "Registered tasks.");
		hc_str_printf(b, "hcube_tasks %u\n", nla_get_u32(tb[HCUBE_A_NTASKS]));
	}
	family(b, "hcube_cpus", "gauge", "CPUs of the cube's vertices.");
	hc_str_printf(b, "hcube_cpus %zu\n", cs->ncpus);
	family(b, "hcube_healthy_cpus", "gauge",
	       "CPUs of the cube that are usable: not faulty, not offline, their vertex not marked.");
	hc_str_printf(b, "hcube_healthy_cpus %zu\n", cs->nhealthy_cpus);
	family(b, "hcube_healthy_vertices", "gauge", "Vertices that are healthy or isolated.");
	hc_str_printf(b, "hcube_healthy_vertices %u\n", cs->nhealthy_vertices);

	family(b, "hcube_vertex_state", "gauge",
	       "The state of each vertex: 1 for its state, 0 for the others.");
	for (i = 0; i < cs->v.n; i++)
		for (s = 0; s < ARRAY_SIZE(hc_vertex_state_names); s++)
			if (hc_vertex_state_names[s])
				hc_str_printf(b, "hcube_vertex_state{vertex=\"%s\",state=\"%s\"} %d\n",
					      vlabel(lb, cs->dim, vid(&cs->v.v[i])),
					      hc_vertex_state_names[s], vstate(&cs->v.v[i]) == s);
	family(b, "hcube_vertex_marked", "gauge",
	       "1 when the vertex itself is marked faulty (fault add vertex).");
	for (i = 0; i < cs->v.n; i++)
		if (vstate(&cs->v.v[i]) != HCUBE_VERTEX_ABSENT)
			hc_str_printf(b, "hcube_vertex_marked{vertex=\"%s\"} %d\n",
				      vlabel(lb, cs->dim, vid(&cs->v.v[i])),
				      cs->v.v[i].tb[HCUBE_A_VERTEX_INFO_MARKED] != NULL);
	family(b, "hcube_vertex_tasks", "gauge",
	       "Registered tasks on each vertex (its load in hcubectl show).");
	for (i = 0; i < cs->v.n; i++)
		if (cs->v.v[i].tb[HCUBE_A_VERTEX_INFO_LOAD])
			hc_str_printf(b, "hcube_vertex_tasks{vertex=\"%s\"} %u\n",
				      vlabel(lb, cs->dim, vid(&cs->v.v[i])),
				      nla_get_u32(cs->v.v[i].tb[HCUBE_A_VERTEX_INFO_LOAD]));
	family(b, "hcube_vertex_cpus", "gauge", "CPUs of each vertex's group.");
	for (i = 0; i < cs->v.n; i++)
		if (vstate(&cs->v.v[i]) != HCUBE_VERTEX_ABSENT)
			hc_str_printf(b, "hcube_vertex_cpus{vertex=\"%s\"} %u\n",
				      vlabel(lb, cs->dim, vid(&cs->v.v[i])),
				      cpulist_count(cs->v.v[i].tb[HCUBE_A_VERTEX_INFO_CPUS]));
	family(b, "hcube_vertex_usable_cpus", "gauge",
	       "CPUs of each vertex's group that are neither faulty nor offline.");
	for (i = 0; i < cs->v.n; i++)
		if (vstate(&cs->v.v[i]) != HCUBE_VERTEX_ABSENT)
			hc_str_printf(b, "hcube_vertex_usable_cpus{vertex=\"%s\"} %u\n",
				      vlabel(lb, cs->dim, vid(&cs->v.v[i])),
				      cpulist_count(cs->v.v[i].tb[HCUBE_A_VERTEX_INFO_USABLE_CPUS]));

	family(b, "hcube_cpu_healthy", "gauge",
	       "1 when the CPU is usable: not faulty, not offline, its vertex not marked.");
	for (i = 0; i < cs->ncpus; i++)
		hc_str_printf(b, "hcube_cpu_healthy{cpu=\"%u\",vertex=\"%s\"} %d\n", cs->cpu[i].cpu,
			      vlabel(lb, cs->dim, cs->cpu[i].vertex), cs->cpu[i].healthy);
	family(b, "hcube_cpu_marked", "gauge",
	       "What made the CPU unusable: admin (fault add), mce (a machine check), "
	       "hotplug (offline); 1 for that one, 0 for the others.");
	for (i = 0; i < cs->ncpus; i++)
		for (k = 0; k < ARRAY_SIZE(reasons); k++)
			hc_str_printf(b, "hcube_cpu_marked{cpu=\"%u\",vertex=\"%s\",marked_by=\"%s\"} %d\n",
				      cs->cpu[i].cpu, vlabel(lb, cs->dim, cs->cpu[i].vertex),
				      hc_reason_names[reasons[k]], cs->cpu[i].by == reasons[k]);
	family(b, "hcube_cpu_isolated", "gauge",
	       "1 when the CPU is outside the scheduler's housekeeping (isolcpus=, nohz_full=).");
	for (i = 0; i < cs->ncpus; i++)
		hc_str_printf(b, "hcube_cpu_isolated{cpu=\"%u\",vertex=\"%s\"} %d\n", cs->cpu[i].cpu,
			      vlabel(lb, cs->dim, cs->cpu[i].vertex), cs->cpu[i].isolated);
	family(b, "hcube_cpu_machine_check_records_total", "counter",
	       "Machine-check records of the CPU since the module was loaded (CPUs that had one).");
	for (i = 0; i < cs->ncpus; i++)
		if (cs->cpu[i].has_mce)
			hc_str_printf(b, "hcube_cpu_machine_check_records_total{cpu=\"%u\",vertex=\"%s\"} %llu\n",
				      cs->cpu[i].cpu, vlabel(lb, cs->dim, cs->cpu[i].vertex),
				      (unsigned long long)cs->cpu[i].mce_records);
}

static void counter_metrics(struct hc_str *b, const struct hc_census *cs)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		struct nlattr *a = counters[i].attr <= hc_set_stats.max ?
				   cs->stats.tb[counters[i].attr] : NULL;

		if (counters[i].help && (a || (i + 1 < ARRAY_SIZE(counters) &&
					       !counters[i + 1].help)))
			family(b, counters[i].name, "counter", counters[i].help);
		if (!a)
			continue;
		if (counters[i].label)
			hc_str_printf(b, "%s{reason=\"%s\"} %llu\n", counters[i].name,
				      counters[i].label, (unsigned long long)nla_get_u64(a));
		else
			hc_str_printf(b, "%s %llu\n", counters[i].name,
				      (unsigned long long)nla_get_u64(a));
	}
}

/* The file's text: hcube_up 0 alone when @cs is NULL (no module). */
static void metrics_text(struct hc_str *b, const struct hc_census *cs)
{
	family(b, "hcube_up", "gauge", "1 when the hcube module is loaded and was read.");
	hc_str_printf(b, "hcube_up %d\n", cs != NULL);
	if (!cs)
		return;
	cube_metrics(b, cs);
	counter_metrics(b, cs);
}

/* @text to DIR/hcube.prom, through a temporary file renamed over it. */
static int write_file(const struct hc_ctx *c, const char *dir, const struct hc_str *text)
{
	char tmp[4096], dst[4096];
	size_t off = 0;
	int fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, METRICS_FILE) >= sizeof(tmp) ||
	    (size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, METRICS_FILE) >= sizeof(dst)) {
		fprintf(stderr, "hcubectl: %s: %s: the name is too long\n", c->what, dir);
		return HC_EXIT_ERROR;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "hcubectl: %s: %s: %s\n", c->what, tmp, strerror(errno));
		return HC_EXIT_ERROR;
	}
	while (off < text->len) {
		ssize_t n = write(fd, text->s + off, text->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	/* node_exporter runs as its own user: the file is readable by all */
	if (off < text->len || fchmod(fd, 0644) || close(fd)) {
		fprintf(stderr, "hcubectl: %s: %s: %s\n", c->what, tmp, strerror(errno));
		unlink(tmp);
		return HC_EXIT_ERROR;
	}
	if (rename(tmp, dst)) {
		fprintf(stderr, "hcubectl: %s: %s: %s\n", c->what, dst, strerror(errno));
		unlink(tmp);
		return HC_EXIT_ERROR;
	}
	return 0;
}

/* Read the module and write the file; *gone when the module is not loaded. */
static int refresh(struct hc_ctx *c, const char *dir, bool *gone)
{
	struct hc_census cs;
	struct hc_str text = { 0 };
	int ret;

	*gone = !hc_sock_try(c);
	ret = *gone ? 1 : hc_census_fetch(c, &cs);
	if (ret && !*gone) {
		hc_census_free(&cs);
		return ret;
	}
	metrics_text(&text, *gone ? NULL : &cs);
	ret = write_file(c, dir, &text);
	hc_str_free(&text);
	if (!*gone)
		hc_census_free(&cs);
	return ret;
}

struct evsock {
	int family;
	unsigned long seen;
	bool unloaded;
};

static int on_event(struct nl_msg *msg, void *arg)
{
	struct evsock *ev = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		if (hc_family_deleted(msg, ev->family))
			ev->unloaded = true;
	} else if (nlh->nlmsg_type == ev->family) {
		ev->seen++;
	}
	return NL_OK;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/* A second socket, in the events group: the requests' replies stay apart. */
static struct nl_sock *event_socket(struct hc_ctx *c)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp, ctrl_grp, err;

	if (!sk)
		hc_fatal("out of memory");
	err = genl_connect(sk);
	if (err < 0)
		hc_fatal("%s: cannot open a generic netlink socket: %s", c->what, nl_geterror(err));
	grp = genl_ctrl_resolve_grp(sk, HCUBE_FAMILY_NAME, HCUBE_MCGRP_EVENTS);
	if (grp < 0)
		hc_fatal("%s: no multicast group \"%s\": %s", c->what, HCUBE_MCGRP_EVENTS,
			 nl_geterror(grp));
	ctrl_grp = genl_ctrl_resolve_grp(sk, "nlctrl", "notify");
	err = nl_socket_add_membership(sk, grp);
	if (err < 0)
		hc_fatal("%s: cannot join \"%s\": %s", c->what, HCUBE_MCGRP_EVENTS,
			 nl_geterror(err));
	if (ctrl_grp >= 0)
		nl_socket_add_membership(sk, ctrl_grp);
	nl_socket_enable_msg_peek(sk);	/* reports of big cubes exceed a page */
	nl_socket_set_buffer_size(sk, 4 << 20, 0);
	if (nl_socket_set_nonblocking(sk) < 0)
		hc_fatal("%s: cannot make the socket non-blocking", c->what);
	return sk;
}

static int metrics(struct hc_ctx *c, int argc, char **argv)
{
	const char *dir = hc_opt(c, 'd') ? hc_opt(c, 'd') : METRICS_DIR;
	const char *count = hc_opt(c, 'c');
	struct evsock ev = { 0 };
	static const int sigs[] = { SIGINT, SIGTERM };
	sigset_t waitmask;
	struct nl_sock *sk;
	struct nl_cb *cb;
	struct stat st;
	unsigned long limit = 0;
	uint32_t n;
	bool gone;
	int ret;

	(void)argc;
	(void)argv;
	if (count && (!hc_parse_u32(count, &n) || !n))
		hc_usage(c, "--count: '%s' is not a positive integer", count);
	if (count && hc_opt(c, '1'))
		hc_usage(c, "--count and --once: one or the other");
	limit = count ? n : 0;
	if (!*dir)
		hc_usage(c, "--textfile: an empty directory name");
	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		const char *why = errno ? strerror(errno) : "not a directory";

		fprintf(stderr, "hcubectl: %s: %s: %s\n", c->what, dir, why);
		return HC_EXIT_ERROR;
	}

	hc_signals_catch(sigs, ARRAY_SIZE(sigs), &waitmask);

	/* Join the group before the first read: no event falls in between. */
	sk = hc_sock_try(c) ? event_socket(c) : NULL;
	ev.family = c->family;
	ret = refresh(c, dir, &gone);
	if (ret || gone || hc_opt(c, '1')) {
		if (gone)
			fprintf(stderr, "hcubectl: %s: the hcube module is not loaded: "
				"%s/%s says hcube_up 0\n", c->what, dir, METRICS_FILE);
		if (sk)
			nl_socket_free(sk);
		return ret;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		hc_fatal("out of memory");
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_event, &ev);

	while (!hc_stop_signal && (!limit || ev.seen < limit)) {
		struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
		unsigned long before = ev.seen;
		bool lost = false;
		int err;

		if (ppoll(&pfd, 1, NULL, &waitmask) < 0) {
			if (errno == EINTR)
				continue;
			hc_fatal("%s: poll: %s", c->what, strerror(errno));
		}
		/* every event queued now, then one write for them all */
		while ((err = nl_recvmsgs(sk, cb)) >= 0 || err == -NLE_NOMEM)
			lost |= err == -NLE_NOMEM;	/* ENOBUFS: read it all again */
		if (err != -NLE_AGAIN) {
			fprintf(stderr, "hcubectl: %s: %s\n", c->what, nl_geterror(err));
			ret = HC_EXIT_ERROR;
			break;
		}
		if (ev.unloaded) {
			struct hc_str text = { 0 };

			metrics_text(&text, NULL);
			ret = write_file(c, dir, &text);
			hc_str_free(&text);
			fprintf(stderr, "hcubectl: %s: the hcube module was unloaded: "
				"%s/%s says hcube_up 0\n", c->what, dir, METRICS_FILE);
			break;
		}
		if (ev.seen == before && !lost)
			continue;
		ret = refresh(c, dir, &gone);
		if (ret)
			break;
	}
	nl_cb_put(cb);
	nl_socket_free(sk);
	return ret;
}

static const struct hc_opt metrics_opts[] = {
	{ "textfile", 'd', "DIR",
	  "write DIR/hcube.prom (default /var/lib/prometheus/node-exporter, the "
	  "directory of Debian's prometheus-node-exporter textfile collector)" },
	{ "once", '1', NULL, "write the file once and exit" },
	{ "count", 'c', "N", "exit (status 0) after N events" },
	{ 0 },
};

const struct hc_cmd hc_cmd_metrics = {
	.name = "metrics",
	.args = "[--textfile DIR] [--once | --count N]",
	.summary = "keep a Prometheus textfile of the cube up to date",
	.help =
	"Writes the cube's state and counters in the Prometheus text format to\n"
	"DIR/hcube.prom, for node_exporter's textfile collector: once at start,\n"
	"then after each batch of the module's events (faults, hotplug, tasks,\n"
	"rebalances; no polling). Each write goes to a temporary file in DIR\n"
	"renamed over hcube.prom: a reader never sees half a file. Runs until\n"
	"SIGINT or SIGTERM (exit status 0); when the module is not loaded or is\n"
	"unloaded, it writes hcube_up 0 and exits with status 0 (hcube-metrics.service\n"
	"starts it again when the module loads). The metrics: hcube_up,\n"
	"hcube_info{mode}, hcube_dimension, hcube_generation, hcube_tasks,\n"
	"hcube_cpus, hcube_healthy_cpus, hcube_healthy_vertices,\n"
	"hcube_vertex_state{vertex,state}, hcube_vertex_marked{vertex},\n"
	"hcube_vertex_tasks{vertex}, hcube_vertex_cpus{vertex},\n"
	"hcube_vertex_usable_cpus{vertex}, hcube_cpu_healthy{cpu,vertex},\n"
	"hcube_cpu_marked{cpu,vertex,marked_by}, hcube_cpu_isolated{cpu,vertex},\n"
	"hcube_cpu_machine_check_records_total{cpu,vertex}, and the counters of\n"
	"stats as hcube_..._total (hcubectl(8) lists them).\n",
	.opts = metrics_opts,
	.handler = metrics,
};
