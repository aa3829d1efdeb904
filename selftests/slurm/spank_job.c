// SPDX-License-Identifier: GPL-2.0
/*
 * The job of the Slurm tests (slurm-in-vm.sh): a task that starts two
 * threads and a child process, which starts two threads of its own. Each
 * of the six threads computes a known sum, then they all wait until the
 * stop file exists (or the time runs out), and compute it again: the two
 * must agree with the formula, wherever hcube moved them meanwhile.
 *
 *   spank_job DIR [SECONDS]
 *
 * Once every thread runs, the task writes DIR/ready.RANK (RANK from
 * SLURM_PROCID); it stops at DIR/stop, or after SECONDS (default 120).
 * It prints "rank R: 6 threads ok" and exits 0, or says what was wrong and
 * exits 1.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define N	200000ULL	/* terms of the sum */

static const char *dir;
static double deadline;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* sum of k * k for k < N, the long way */
static unsigned long long work(void)
{
	volatile unsigned long long s = 0;
	unsigned long long k;

	for (k = 0; k < N; k++)
		s += k * k;
	return s;
}

static int stopped(void)
{
	char path[4096];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/stop", dir);
	return !stat(path, &sb) || now() > deadline;
}

static void *thread(void *arg)
{
	const unsigned long long want = (N - 1) * N * (2 * N - 1) / 6;
	long bad = 0;

	(void)arg;
	bad += work() != want;
	while (!stopped())
		usleep(20000);
	bad += work() != want;
	return (void *)bad;
}

/* The threads of process @pid (/proc/PID/status), 0 if unknown. */
static int nthreads(pid_t pid)
{
	char path[64], line[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/*
 * Two threads besides this one, then @ready (if any), then the work;
 * returns how many sums were wrong.
 */
static long threads(void (*ready)(pid_t child), pid_t child)
{
	pthread_t t[2];
	void *ret;
	long bad = 0;
	int i;

	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, thread, NULL))
			return 100;
	if (ready)
		ready(child);
	bad += (long)thread(NULL);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], &ret);
		bad += (long)ret;
	}
	return bad;
}

static const char *rank;

/* Both processes have their three threads: DIR/ready.RANK says so. */
static void task_ready(pid_t child)
{
	char path[4096];
	int i;
	FILE *f;

	for (i = 0; i < 1000 && (nthreads(getpid()) < 3 || nthreads(child) < 3); i++)
		usleep(10000);
	snprintf(path, sizeof(path), "%s/ready.%s", dir, rank);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%d %d\n", (int)getpid(), (int)child);
	fclose(f);
}

int main(int argc, char **argv)
{
	int status;
	pid_t child;
	long bad;

	if (argc < 2) {
		fprintf(stderr, "usage: spank_job DIR [SECONDS]\n");
		return 2;
	}
	dir = argv[1];
	deadline = now() + (argc > 2 ? atof(argv[2]) : 120);
	rank = getenv("SLURM_PROCID") ? getenv("SLURM_PROCID") : "0";
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0)
		_exit(threads(NULL, 0) ? 1 : 0);
	bad = threads(task_ready, child);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		bad++;
	if (bad) {
		printf("rank %s: %ld wrong\n", rank, bad);
		return 1;
	}
	printf("rank %s: 6 threads ok\n", rank);
	return 0;
}
