// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl health: is this node fit for full-width work? Healthy CPUs and
 * vertices against two thresholds (the options, else hcube.conf's
 * min_healthy_cpus and min_healthy_vertices, else all of them), one line
 * naming the unusable CPUs and what made them so. Exit status 0 healthy,
 * 1 degraded, 2 bad usage, 3 could not tell (the module not loaded, an
 * error): what a Slurm HealthCheckProgram (hcube-slurm-health) needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"

#define HEALTH_UNKNOWN	3
#define HEALTH_CONF	"/etc/hcube/hcube.conf"

static const char *const health_keys[] = { "min_healthy_cpus", "min_healthy_vertices" };

int hc_health_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(health_keys); i++)
		if (!strcmp(key, health_keys[i]))
			return (int)i;
	return -1;
}

/*
 * The thresholds of @file into @min (each left alone when the file does
 * not name it). A missing file is no error when @missing_ok; a bad line is
 * a usage error naming FILE:LINE.
 */
static void read_conf(const struct hc_ctx *c, const char *file, bool missing_ok,
		      uint32_t *min, bool *has)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned int ln = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		if (missing_ok && errno == ENOENT)
			return;
		fprintf(stderr, "hcubectl: %s: %s: %s\n", c->what, file, strerror(errno));
		exit(HEALTH_UNKNOWN);
	}
	while (getline(&line, &cap, f) >= 0) {
		struct hc_words w = { 0 };
		const char *why;
		int k;

		ln++;
		why = hc_split_words(line, &w);
		k = !why && w.n ? hc_health_key(w.v[0]) : -1;
		if (!why && k >= 0 && (w.n != 2 || !hc_parse_u32(w.v[1], &min[k])))
			why = "wants one number (0 to 4294967295)";
		if (why)
			hc_usage(c, "%s:%u: %s%s%s", file, ln, k >= 0 ? health_keys[k] : "",
				 k >= 0 ? ": " : "", why);
		if (k >= 0)
			has[k] = true;
		free(w.v);
	}
	free(line);
	fclose(f);
}

static bool unusable_by(const struct hc_cpu *p, const char *what)
{
	const char *by = hc_census_by(p);

	return !p->healthy && by && !strcmp(by, what);
}

/* "2,5 (admin), 6 (mce)": the unusable CPUs, grouped by what made them so. */
static void unusable_line(const struct hc_census *cs, struct hc_str *b)
{
	static const char *const order[] = { "admin", "mce", "hotplug", "unknown" };
	const char *sep = "";
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(order); k++) {
		const char *csep = "";
		bool any = false;
		size_t j;

		for (i = 0; i < cs->ncpus; i = j) {
			j = i + 1;
			if (!unusable_by(&cs->cpu[i], order[k]))
				continue;
			/* a run of consecutive CPUs: "10-13" */
			while (j < cs->ncpus && cs->cpu[j].cpu == cs->cpu[j - 1].cpu + 1 &&
			       unusable_by(&cs->cpu[j], order[k]))
				j++;
			if (!any)
				hc_str_printf(b, "%s", sep);
			hc_str_printf(b, "%s%u", csep, cs->cpu[i].cpu);
			if (j - i > 1)
				hc_str_printf(b, "-%u", cs->cpu[j - 1].cpu);
			csep = ",";
			any = true;
		}
		if (any) {
			hc_str_printf(b, " (%s)", order[k]);
			sep = ", ";
		}
	}
}

static int health(struct hc_ctx *c, int argc, char **argv)
{
	static const int opt_of[] = { 'c', 'v' };
	const char *conf = hc_opt(c, 'f');
	struct hc_census cs;
	struct hc_str line = { 0 };
	uint32_t min[2] = { 0 };
	bool has[2] = { false }, ok;
	size_t i, k;
	int ret;

	(void)argc;
	(void)argv;
	read_conf(c, conf ? conf : HEALTH_CONF, !conf, min, has);
	for (k = 0; k < 2; k++) {
		const char *s = hc_opt(c, opt_of[k]);

		if (s && !hc_parse_u32(s, &min[k]))
			hc_usage(c, "--%s: '%s' is not a number (0 to 4294967295)",
				 k ? "min-healthy-vertices" : "min-healthy-cpus", s);
		has[k] = has[k] || s;
	}
	if (!hc_sock_try(c)) {
		fprintf(stderr, "hcubectl: %s: the hcube module is not loaded\n", c->what);
		return HEALTH_UNKNOWN;
	}
	ret = hc_census_fetch(c, &cs);
	if (ret) {
		hc_census_free(&cs);
		return HEALTH_UNKNOWN;
	}
	/* without a threshold: every CPU, every vertex */
	if (!has[0])
		min[0] = (uint32_t)cs.ncpus;
	if (!has[1])
		min[1] = cs.nvertices;
	ok = cs.nhealthy_cpus >= min[0] && cs.nhealthy_vertices >= min[1];

	print_begin(false);
	open_json_object(NULL);
	print_bool(PRINT_JSON, "healthy", NULL, ok);
	print_fp("%s: ", ok ? "healthy" : "degraded");
	print_uint(PRINT_ANY, "healthy_cpus", "%u", (unsigned int)cs.nhealthy_cpus);
	print_uint(PRINT_ANY, "cpus", " of %u cpus healthy", (unsigned int)cs.ncpus);
	print_uint(PRINT_ANY, "min_healthy_cpus", " (minimum %u), ", min[0]);
	print_uint(PRINT_ANY, "healthy_vertices", "%u", cs.nhealthy_vertices);
	print_uint(PRINT_ANY, "vertices", " of %u vertices healthy", cs.nvertices);
	print_uint(PRINT_ANY, "min_healthy_vertices", " (minimum %u)", min[1]);
	unusable_line(&cs, &line);
	if (line.s)
		print_fp("; unusable cpus %s", line.s);
	print_fp("\n");
	open_json_array("unusable");
	for (i = 0; i < cs.ncpus; i++) {
		const struct hc_cpu *p = &cs.cpu[i];

		if (p->healthy)
			continue;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "cpu", NULL, p->cpu);
		print_uint(PRINT_JSON, "vertex", NULL, p->vertex);
		print_label(cs.dim, p->vertex);
		print_string(PRINT_JSON, "marked_by", NULL, hc_census_by(p));
		print_bool(PRINT_JSON, "vertex_marked", NULL, p->in_marked);
		close_json_object();
	}
	close_json_array();
	close_json_object();
	print_end();
	hc_str_free(&line);
	hc_census_free(&cs);
	return ok ? 0 : 1;
}

static const struct hc_opt health_opts[] = {
	{ "min-healthy-cpus", 'c', "N",
	  "degraded below N healthy CPUs (default: min_healthy_cpus of the "
	  "configuration file, else every CPU of the cube)" },
	{ "min-healthy-vertices", 'v', "N",
	  "degraded below N healthy vertices (default: min_healthy_vertices, else "
	  "every vertex with CPUs)" },
	{ "config", 'f', "FILE", "the configuration file (default /etc/hcube/hcube.conf; "
	  "its absence is no error)" },
	{ 0 },
};

const struct hc_cmd hc_cmd_health = {
	.name = "health",
	.args = "[--min-healthy-cpus N] [--min-healthy-vertices N] [--config FILE]",
	.summary = "is the node healthy enough (exit 0) or degraded (exit 1)",
	.help =
	"Counts the healthy CPUs of the cube (not faulty, not offline, their\n"
	"vertex not marked faulty) and its healthy vertices (healthy or isolated,\n"
	"absent labels left out), compares them with the thresholds and prints\n"
	"one line: healthy or degraded, the counts and thresholds, and the\n"
	"unusable CPUs by what made them so (admin: fault add, or a vertex\n"
	"marked faulty; mce: a machine check; hotplug: offline), e.g.\n"
	"\"degraded: 5 of 8 cpus healthy (minimum 6), 6 of 8 vertices healthy\n"
	"(minimum 4); unusable cpus 2,5 (admin), 6 (mce)\". The thresholds come from the\n"
	"options, else from min_healthy_cpus and min_healthy_vertices in the\n"
	"configuration file, else they are every CPU and every vertex: any\n"
	"unusable CPU degrades the node. Exit status 0 healthy, 1 degraded,\n"
	"2 bad usage, 3 cannot tell (the module is not loaded, or an error).\n"
	"hcube-slurm's HealthCheckProgram drains the node on status 1. -j prints\n"
	"one object: healthy, healthy_cpus, cpus, min_healthy_cpus,\n"
	"healthy_vertices, vertices, min_healthy_vertices, and unusable (one\n"
	"object per CPU: cpu, vertex, label, marked_by, vertex_marked).\n",
	.opts = health_opts,
	.handler = health,
};
