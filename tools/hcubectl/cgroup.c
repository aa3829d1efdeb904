// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the processes of a cgroup v2 directory (task add|del --cgroup):
 * its cgroup.procs, the directory given absolute or relative to the
 * cgroup2 mount that /proc/self/mountinfo lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include "hcubectl.h"

/* A mount point of mountinfo, its octal escapes (\040) undone, in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The first cgroup2 mount point of /proc/self/mountinfo, malloc'ed; NULL if none. */
static char *cgroup2_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL, *found = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	while (!found && getline(&line, &size, f) > 0) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE ... */
		char *sep = strstr(line, " - "), *fields[5], *save = NULL, *p = line;
		int i;

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		for (i = 0; i < 5 && (fields[i] = strtok_r(p, " ", &save)); i++)
			p = NULL;
		if (i == 5) {
			unescape(fields[4]);
			found = strdup(fields[4]);
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* Is @dir a directory of a cgroup v2 file system? 0, or the errno. */
static int is_cgroup2(const char *dir, bool *yes)
{
	struct statfs fs;
	struct stat st;

	if (statfs(dir, &fs) || stat(dir, &st))
		return errno;
	*yes = fs.f_type == CGROUP2_SUPER_MAGIC && S_ISDIR(st.st_mode);
	return 0;
}

/*
 * The directory @path names: absolute as it is, else under the cgroup2
 * mount; an absolute path that does not exist is tried under the mount too
 * (the way /proc/PID/cgroup writes it). Exits with one line when it is not
 * a cgroup v2 directory.
 */
static char *cgroup_dir(const struct hc_ctx *c, const char *path)
{
	char *mount = cgroup2_mount(), *dir;
	struct stat st;
	bool yes = false;
	int err;

	if (path[0] != '/' && !mount)
		hc_fatal("%s: --cgroup %s: no cgroup v2 file system is mounted (/proc/self/mountinfo)",
			 c->what, path);
	dir = hc_malloc(strlen(path) + (mount ? strlen(mount) : 0) + 2);
	if (path[0] != '/')
		sprintf(dir, "%s/%s", mount, path);
	else if (stat(path, &st) && mount &&
		 (sprintf(dir, "%s%s", mount, path), stat(dir, &st) == 0))
		;	/* a path as /proc/PID/cgroup writes it */
	else
		strcpy(dir, path);
	free(mount);
	err = is_cgroup2(dir, &yes);
	if (err)
		hc_fatal("%s: --cgroup %s: %s", c->what, dir, strerror(err));
	if (!yes)
		hc_fatal("%s: --cgroup %s: not a cgroup v2 directory", c->what, dir);
	return dir;
}

uint32_t *hc_cgroup_pids(const struct hc_ctx *c, const char *path, size_t *n)
{
	char *dir = cgroup_dir(c, path), *file, *line = NULL;
	size_t size = 0, cap = 0;
	uint32_t *pids = NULL;
	FILE *f;

	file = hc_malloc(strlen(dir) + sizeof("/cgroup.procs"));
	sprintf(file, "%s/cgroup.procs", dir);
	f = fopen(file, "r");
	if (!f && errno == ENOENT)
		hc_fatal("%s: --cgroup %s: no cgroup.procs in it", c->what, dir);
	if (!f)
		hc_fatal("%s: --cgroup %s: %s: %s", c->what, dir, file, strerror(errno));
	*n = 0;
	while (getline(&line, &size, f) > 0) {
		uint32_t pid;

		line[strcspn(line, "\n")] = '\0';
		if (!hc_parse_u32(line, &pid) || !pid)
			hc_fatal("%s: --cgroup %s: '%s' in cgroup.procs is not a pid", c->what,
				 dir, line);
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			pids = hc_realloc(pids, cap * sizeof(*pids));
		}
		pids[(*n)++] = pid;
	}
	if (ferror(f))
		hc_fatal("%s: --cgroup %s: reading cgroup.procs: %s", c->what, dir, strerror(errno));
	fclose(f);
	if (!*n)
		hc_fatal("%s: --cgroup %s: the cgroup is empty (no process in cgroup.procs)",
			 c->what, dir);
	free(line);
	free(file);
	free(dir);
	return pids;
}
