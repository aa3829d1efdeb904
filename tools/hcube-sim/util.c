// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim: the helpers every command uses (errors, number lists, labels,
 * the files it writes, the core's memory). They call nothing of the commands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include "sim.h"

void sim_die(const char *fmt, ...)
{
	va_list ap;

	fputs("hcube-sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(SIM_EXIT_USAGE);
}

void sim_mkdir(const char *dir)
{
	if (mkdir(dir, 0777) && errno != EEXIST)
		sim_die("%s: %s", dir, strerror(errno));
}

FILE *sim_create(const char *dir, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	size_t n;
	FILE *f;

	sim_mkdir(dir);
	n = (size_t)snprintf(path, sizeof(path), "%s/", dir);
	if (n < sizeof(path)) {
		va_start(ap, fmt);
		vsnprintf(path + n, sizeof(path) - n, fmt, ap);
		va_end(ap);
	}
	f = fopen(path, "w");
	if (!f)
		sim_die("%s: %s", path, strerror(errno));
	return f;
}

void sim_close(FILE *f)
{
	if (ferror(f) || fclose(f))
		sim_die("write error: %s", strerror(errno));
}

unsigned long long sim_parse_uint(const char *what, const char *s,
				  unsigned long long max)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s < '0' || *s > '9')
		sim_die("%s: '%s' is not a non-negative integer", what, s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		sim_die("%s: '%s' is not a non-negative integer", what, s);
	if (errno == ERANGE || v > max)
		sim_die("%s: %s is out of range (0..%llu)", what, s, max);
	return v;
}

int sim_getopt(int argc, char **argv, const struct option *opts, const char *cmd,
	       void (*usage)(FILE *f))
{
	int c;

	opterr = 0;
	c = getopt_long(argc, argv, "", opts, NULL);
	if (c == 'h') {
		usage(stdout);
		exit(0);
	}
	if (c == '?' || c == ':')
		sim_die("%s: unknown or incomplete option '%s' (try --help)", cmd,
			argv[optind - 1]);
	if (c == -1 && optind < argc)
		sim_die("%s: unexpected argument '%s'", cmd, argv[optind]);
	return c;
}

size_t sim_parse_list(const char *what, const char *s, unsigned long long max,
		      u32 *out, size_t cap)
{
	size_t n = 0;
	char *copy, *tok, *save = NULL;

	if (!*s)
		return 0;
	if (s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		sim_die("%s: empty item in '%s'", what, s);
	copy = strdup(s);
	if (!copy)
		sim_die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		u32 v = (u32)sim_parse_uint(what, tok, max);

		if (n < cap)
			out[n] = v;
		n++;
	}
	free(copy);
	return n;
}

const char *sim_label(char *buf, u32 dim, u32 v)
{
	u32 i;

	if (!dim)
		return strcpy(buf, "-");
	for (i = 0; i < dim; i++)
		buf[i] = (v >> (dim - 1 - i)) & 1 ? '1' : '0';
	buf[dim] = '\0';
	return buf;
}

void sim_core_init(struct sim_core *c, u32 dim)
{
	c->dim = dim;
	c->topo_mem = malloc(hcube_topo_memsize(dim));
	c->plan_mem = malloc(hcube_plan_memsize(dim));
	c->work = malloc(hcube_work_memsize(dim));
	if (!c->topo_mem || !c->plan_mem || !c->work)
		sim_die("out of memory");
	if (hcube_topo_init(&c->topo, dim, c->topo_mem) ||
	    hcube_plan_init(&c->plan, dim, c->plan_mem))
		sim_die("dimension %u out of range (0..%u)", dim, HCUBE_MAX_DIM);
}

void sim_core_free(struct sim_core *c)
{
	free(c->topo_mem);
	free(c->plan_mem);
	free(c->work);
}

const char *sim_core_policies(void)
{
	static char buf[256];
	u32 i;

	if (buf[0])
		return buf;
	for (i = 0; i < __HCUBE_POLICY_MAX; i++) {
		if (i)
			strcat(buf, ", ");
		strcat(buf, hcube_policy_name(i));
	}
	return buf;
}
