// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl -batch FILE: one command per line, as ip -batch. Each line runs
 * in a child process, so that a usage error (which exits) ends that line
 * only and the batch can say where it stopped; the child's error lines get
 * "FILE:LINE: " after "hcubectl: ".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "hcubectl.h"

bool hc_batch_stdin;

/* The batch file's descriptor: closed in the lines' processes (see run_line()). */
static int batch_fd = -1;

/* ---- stderr of a line's process: "hcubectl: " becomes "hcubectl: FILE:LINE: " ---- */

struct prefixer {
	const char *where;	/* "FILE:LINE" */
	struct hc_str line;	/* what came since the last newline */
};

static void put_fd(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void prefixer_flush(struct prefixer *p)
{
	static const char tag[] = "hcubectl: ";

	if (!p->line.len)
		return;
	if (!strncmp(p->line.s, tag, strlen(tag))) {
		put_fd(tag, strlen(tag));
		put_fd(p->where, strlen(p->where));
		put_fd(": ", 2);
		put_fd(p->line.s + strlen(tag), p->line.len - strlen(tag));
	} else {
		put_fd(p->line.s, p->line.len);
	}
	p->line.len = 0;
}

static ssize_t prefixer_write(void *cookie, const char *buf, size_t size)
{
	struct prefixer *p = cookie;
	size_t i;

	for (i = 0; i < size; i++) {
		hc_str_printf(&p->line, "%c", buf[i]);
		if (buf[i] == '\n')
			prefixer_flush(p);
	}
	return (ssize_t)size;
}

static int prefixer_close(void *cookie)
{
	struct prefixer *p = cookie;

	prefixer_flush(p);
	return 0;
}

/* ---- the words of a line ---- */

static void word_add(struct hc_words *w, char *s)
{
	if (w->n + 2 > w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->v = hc_realloc(w->v, (size_t)w->cap * sizeof(*w->v));
	}
	w->v[w->n++] = s;
	w->v[w->n] = NULL;
}

const char *hc_split_words(char *line, struct hc_words *w)
{
	char *r = line, *o = line;

	for (;;) {
		char q = 0;
		bool any = false;
		char *start;

		while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
			r++;
		if (!*r || *r == '#')
			return NULL;
		start = o;
		while (*r && (q || (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r'))) {
			if (!q && (*r == '\'' || *r == '"')) {
				q = *r++;
				any = true;
			} else if (q && *r == q) {
				q = 0;
				r++;
			} else if (*r == '\\' && q != '\'') {
				if (!r[1] || r[1] == '\n')
					return "a backslash at the end of the line";
				*o++ = r[1];
				r += 2;
			} else {
				*o++ = *r++;
			}
			any = true;
		}
		if (q)
			return q == '\'' ? "a ' without its closing '" : "a \" without its closing \"";
		if (*r)
			r++;
		*o++ = '\0';
		if (any)
			word_add(w, start);
	}
}

/* ---- running a line ---- */

static int run_line(const char *where, struct hc_words *w, int (*run)(int, char **))
{
	static const cookie_io_functions_t io = {
		.write = prefixer_write, .close = prefixer_close,
	};
	struct prefixer p = { .where = where };
	int status, fd;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		hc_fatal("%s: cannot fork: %s", where, strerror(errno));
	if (!pid) {
		FILE *f = fopencookie(&p, "w", io);

		/*
		 * The batch file is not the command's: its exit() must not move
		 * the offset the parent reads from (glibc syncs read streams).
		 */
		if (batch_fd != STDIN_FILENO)
			close(batch_fd);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != STDIN_FILENO) {
			dup2(fd, STDIN_FILENO);
			close(fd);
		}
		if (f) {
			setvbuf(f, NULL, _IOLBF, 0);
			stderr = f;
		}
		exit(run(w->n, w->v));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			hc_fatal("%s: waitpid: %s", where, strerror(errno));
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "hcubectl: %s: killed by signal %d (%s)\n", where,
			WTERMSIG(status), strsignal(WTERMSIG(status)));
		return HC_EXIT_ERROR;
	}
	return WEXITSTATUS(status);
}

int hc_batch(const char *file, int (*run)(int argc, char **argv))
{
	const char *name = strcmp(file, "-") ? file : "<stdin>";
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, where[4096 + 32];
	size_t cap = 0, lineno = 0;
	int ret = 0;

	if (!f)
		hc_fatal("batch: %s: %s", file, strerror(errno));
	hc_batch_stdin = f == stdin;
	batch_fd = fileno(f);
	while (!ret && getline(&line, &cap, f) >= 0) {
		struct hc_words w = { 0 };
		const char *why;

		lineno++;
		snprintf(where, sizeof(where), "%s:%zu", name, lineno);
		word_add(&w, (char *)"hcubectl");
		why = hc_split_words(line, &w);
		if (why) {
			fflush(stdout);
			fprintf(stderr, "hcubectl: %s: %s\n", where, why);
			ret = HC_EXIT_USAGE;
		} else if (w.n > 1) {
			ret = run_line(where, &w, run);
		}
		free(w.v);
	}
	if (!ret && ferror(f)) {
		fprintf(stderr, "hcubectl: batch: %s: read error\n", name);
		ret = HC_EXIT_ERROR;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}
