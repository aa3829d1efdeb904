// SPDX-License-Identifier: GPL-2.0
/*
 * hcube concurrency stress (seeded, bounded in time): clients at once
 * register and unregister tasks, rebalance with every policy, mark and
 * clear faults, take CPUs offline and online through sysfs, and run
 * registered processes that fork and exit. Afterwards: every active task's
 * mask is its vertex's CPUs, no task is lost, the counters add up; then
 * the module is unloaded and every surviving task has its original
 * affinity back. Runs in the VM with the module loaded; leaves it loaded.
 *
 * Usage: stress [SECONDS [SEED]]
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include "hcube_util.h"
#include "hcube_module.h"

HC_MODULE(HC_MODULE_LOADED)

#define NWORKERS 24
#define NCLIENTS 6

struct shared {
	volatile int stop;
	long ops[NCLIENTS], refused[NCLIENTS], unexpected[NCLIENTS];
	long faults, offline, churned;
	char last_bad[NCLIENTS][128];
};

static struct shared *sh;
static pid_t workers[NWORKERS];
static cpu_set_t orig[NWORKERS];
static int ncpu;

static uint64_t rng;

static uint32_t below(uint32_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((((rng * 0x2545F4914F6CDD1DULL) >> 32) * n) >> 32);
}

/*
 * @now is @orig without one CPU or more that the hotplug client takes
 * offline (not CPU 0), and more than one vertex's worth: a restore made
 * while such a CPU came back, not a mask hcube gave.
 */
static int hotplug_short(const cpu_set_t *now, const cpu_set_t *orig)
{
	cpu_set_t both;

	CPU_AND(&both, now, orig);
	return CPU_EQUAL(&both, now) && CPU_COUNT(now) < CPU_COUNT(orig) &&
	       CPU_ISSET(0, now) && CPU_COUNT(now) >= CPU_COUNT(orig) - 2;
}

/*
 * errnos a racing client may see; anything else is a finding. EXDEV: a
 * vertex whose CPU just came online, before its cpuset has it again (what
 * sched_setaffinity() refuses then too).
 */
static int expected_err(int err)
{
	switch (-err) {
	case 0: case EEXIST: case ENOENT: case EBUSY: case ESRCH:
	case EINVAL: case ERANGE: case ENODEV: case EXDEV:
		return 1;
	}
	return 0;
}

static void note(int c, int err, const char *what)
{
	sh->ops[c]++;
	if (err)
		sh->refused[c]++;
	if (!expected_err(err)) {
		sh->unexpected[c]++;
		snprintf(sh->last_bad[c], sizeof(sh->last_bad[c]), "%s: %s", what,
			 strerror(-err));
	}
}

static void client(int c, uint64_t seed)
{
	static struct hc_report rep;
	static struct hc_cube cube;
	struct hnl h;
	pid_t churn[64];
	int nchurn = 0, i;

	rng = seed;
	if (hnl_open(&h))
		_exit(3);
	while (!sh->stop) {
		int err = 0;

		switch (c) {
		case 0: {	/* register / unregister workers */
			pid_t p[3];
			int n = 1 + below(3);

			for (i = 0; i < n; i++)
				p[i] = workers[below(NWORKERS)];
			if (below(2)) {
				err = hc_task_add(&h, p, n, below(3) ? -1 : (int)below(8));
				note(c, err, "task add");
			} else {
				struct hreq *r = malloc(sizeof(*r));
				struct hreply rp;

				hreq_init(r, &h, h.family, HCUBE_CMD_TASK_DEL, 0);
				for (i = 0; i < n; i++)
					hreq_u32(r, HCUBE_A_PID, p[i]);
				err = hnl_do(&h, r, &rp);
				hreply_free(&rp);
				free(r);
				note(c, err, "task del");
			}
			break;
		}
		case 1:		/* rebalance, every policy; now and then a new default */
			if (!below(8)) {
				err = hc_config(&h, below(HCUBE_POLICY_MAX + 1), -1, -1, -1);
				note(c, err, "config set policy");
				break;
			}
			err = hc_rebalance(&h, below(HCUBE_POLICY_MAX + 1), below(4) == 0, &rep);
			note(c, err, "rebalance");
			break;
		case 2:		/* faults */
			if (below(2))
				err = hc_fault(&h, below(2), 1 + below(ncpu - 1), -1, NULL);
			else
				err = hc_fault(&h, below(2), -1, below(8), NULL);
			note(c, err, "fault");
			if (!err)
				__atomic_add_fetch(&sh->faults, 1, __ATOMIC_RELAXED);
			break;
		case 3:		/* hotplug, never CPU 0 */
			err = hc_set_online(1 + below(ncpu - 1), below(2));
			/* EBUSY/EINVAL: already in that state or refused by the kernel */
			sh->ops[c]++;
			if (!err)
				__atomic_add_fetch(&sh->offline, 1, __ATOMIC_RELAXED);
			usleep(20000);
			break;
		case 4: {	/* registered processes that fork and exit */
			pid_t p = fork();

			if (!p) {
				usleep(1000 * (1 + below(50)));
				if (!fork())
					_exit(0);
				_exit(0);
			}
			err = hc_task_add(&h, &p, 1, -1);
			note(c, err, "churn add");
			churn[nchurn++] = p;
			__atomic_add_fetch(&sh->churned, 1, __ATOMIC_RELAXED);
			if (nchurn == 64) {
				for (i = 0; i < nchurn; i++)
					waitpid(churn[i], NULL, 0);
				nchurn = 0;
			}
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			break;
		}
		case 5:		/* reads and topology changes */
			err = hc_get_cube(&h, &cube);
			note(c, err, "cube get");
			if (!below(20)) {
				err = hc_topo(&h, below(3));
				note(c, err, "topology set");
			}
			break;
		}
	}
	for (i = 0; i < nchurn; i++)
		waitpid(churn[i], NULL, 0);
	hnl_close(&h);
	_exit(0);
}

int main(int argc, char **argv)
{
	static const char *const names[NCLIENTS] = {
		"register/unregister", "rebalance", "faults", "hotplug",
		"fork+exit churn", "reads/topology",
	};
	double seconds = argc > 1 ? atof(argv[1]) : 20;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	uint64_t s[HCUBE_A_STATS_MAX + 1], s0[HCUBE_A_STATS_MAX + 1];
	static struct hc_task tasks[4096];
	static struct hc_cube cube;
	pid_t clients[NCLIENTS];
	int i, c, n, fails = 0, lost = 0, stale = 0, restored = 0, total = 0;
	int short_by_hotplug = 0;
	int bad_ctrl;
	struct hnl h;

	ncpu = get_nprocs_conf();
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	printf("TAP version 13\n1..6\n# seed %llu, %.0f s, %d CPUs, %d clients, %d workers\n",
	       (unsigned long long)seed, seconds, ncpu, NCLIENTS, NWORKERS);
	if (hnl_open(&h) || hc_reset(&h, HCUBE_MODE_CPU) || hc_stats(&h, s0)) {
		printf("not ok 1 module not loaded\n");
		return 1;
	}
	/* workers with distinct original affinities */
	for (i = 0; i < NWORKERS; i++) {
		workers[i] = hc_spawn(i % 6 == 0);
		CPU_ZERO(&orig[i]);
		if (i % 3 == 0)
			CPU_SET(0, &orig[i]);	/* CPU 0 never goes offline */
		else
			sched_getaffinity(0, sizeof(orig[i]), &orig[i]);
		sched_setaffinity(workers[i], sizeof(orig[i]), &orig[i]);
	}
	fflush(stdout);
	for (c = 0; c < NCLIENTS; c++) {
		clients[c] = fork();
		if (!clients[c])
			client(c, seed * 1000 + c + 1);
	}
	usleep(seconds * 1e6);
	sh->stop = 1;
	for (c = 0; c < NCLIENTS; c++)
		waitpid(clients[c], NULL, 0);
	for (i = 1; i < ncpu; i++)
		hc_set_online(i, 1);

	for (c = 0; c < NCLIENTS; c++) {
		printf("# %-20s %7ld ops, %6ld refused, %ld unexpected%s%s\n", names[c],
		       sh->ops[c], sh->refused[c], sh->unexpected[c],
		       sh->unexpected[c] ? ": last " : "", sh->last_bad[c]);
		fails += sh->unexpected[c] != 0;
	}
	printf("# faults marked or cleared %ld, CPU online/offline changes %ld, churn processes %ld\n",
	       sh->faults, sh->offline, sh->churned);
	printf("%s 1 no unexpected error from any client\n", fails ? "not ok" : "ok");

	/* every active task sits on its vertex's usable CPUs, none lost */
	n = hc_get_tasks(&h, tasks, 4096);
	if (n < 0 || hc_get_cube(&h, &cube) || hc_stats(&h, s)) {
		printf("not ok 2 queries failed\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		cpu_set_t now;

		if (tasks[i].state == HCUBE_TASK_CHANGED) {
			char path[64], line[256];
			FILE *f;
			int w, is_worker = 0;

			for (w = 0; w < NWORKERS; w++)
				is_worker |= workers[w] == (pid_t)tasks[i].pid;
			snprintf(path, sizeof(path), "/proc/%u/status", tasks[i].pid);
			f = fopen(path, "r");
			while (f && fgets(line, sizeof(line), f))
				if (!strncmp(line, "Cpus_allowed_list", 17) ||
				    !strncmp(line, "State", 5))
					printf("# changed pid %u (%s) vertex %u: %s", tasks[i].pid,
					       is_worker ? "worker" : "churn", tasks[i].vertex, line);
			if (f)
				fclose(f);
		}
		if (tasks[i].state != HCUBE_TASK_ACTIVE)
			continue;
		if (sched_getaffinity(tasks[i].pid, sizeof(now), &now))
			continue;	/* exited since the dump */
		if (cube.v[tasks[i].vertex].state == HCUBE_VERTEX_HEALTHY &&
		    !CPU_EQUAL(&now, &cube.v[tasks[i].vertex].usable)) {
			stale++;
			printf("# pid %u: mask differs from vertex %u's CPUs\n",
			       tasks[i].pid, tasks[i].vertex);
		}
	}
	printf("# since load: registered %llu = unregistered %llu + exited %llu + registered now %llu\n",
	       (unsigned long long)s[HCUBE_A_STATS_REGISTERED],
	       (unsigned long long)s[HCUBE_A_STATS_UNREGISTERED],
	       (unsigned long long)s[HCUBE_A_STATS_EXITED],
	       (unsigned long long)s[HCUBE_A_STATS_TASKS]);
#define D(x) (unsigned long long)(s[x] - s0[x])
	printf("# this run: registered %llu, rebalances %llu, moved %llu, failures %llu, evacuations %llu, exited %llu, changed %llu\n",
	       D(HCUBE_A_STATS_REGISTERED), D(HCUBE_A_STATS_REBALANCES), D(HCUBE_A_STATS_MOVED),
	       D(HCUBE_A_STATS_FAILURES), D(HCUBE_A_STATS_EVACUATIONS), D(HCUBE_A_STATS_EXITED),
	       D(HCUBE_A_STATS_CHANGED));
#undef D
	printf("%s 2 active tasks have their vertex's CPUs (%d stale)\n",
	       stale ? "not ok" : "ok", stale);
	printf("%s 3 counters add up\n",
	       s[HCUBE_A_STATS_REGISTERED] == s[HCUBE_A_STATS_UNREGISTERED] +
	       s[HCUBE_A_STATS_EXITED] + s[HCUBE_A_STATS_TASKS] ? "ok" : "not ok");
	fails += stale != 0;
	/*
	 * Nothing here changes a task's affinity behind the module's back:
	 * no task may be taken for changed (a remask that failed while a CPU
	 * came online once was).
	 */
	printf("%s 4 no task taken for changed by someone else (%llu)\n",
	       s[HCUBE_A_STATS_CHANGED] == s0[HCUBE_A_STATS_CHANGED] ? "ok" : "not ok",
	       (unsigned long long)(s[HCUBE_A_STATS_CHANGED] - s0[HCUBE_A_STATS_CHANGED]));
	fails += s[HCUBE_A_STATS_CHANGED] != s0[HCUBE_A_STATS_CHANGED];
	fails += s[HCUBE_A_STATS_REGISTERED] != s[HCUBE_A_STATS_UNREGISTERED] +
		 s[HCUBE_A_STATS_EXITED] + s[HCUBE_A_STATS_TASKS];
	/*
	 * After faults and hotplug from every side: each pebble cluster's
	 * controller is one of its healthy vertices (none only when it has
	 * none), and the vertices' flags say the same.
	 */
	bad_ctrl = cube.nclusters != cube.nv >> cube.cdim;
	for (c = 0; !bad_ctrl && c < (int)cube.nclusters; c++) {
		uint32_t v, lo = (uint32_t)c << cube.cdim, any = 0;

		for (v = lo; v < lo + (1U << cube.cdim); v++) {
			any |= cube.v[v].state == HCUBE_VERTEX_HEALTHY;
			bad_ctrl |= cube.v[v].controller != (cube.ctrl[c] == v);
		}
		if (cube.ctrl[c] == HCUBE_NO_CONTROLLER)
			bad_ctrl |= any;
		else
			bad_ctrl |= cube.ctrl[c] < lo || cube.ctrl[c] >= lo + (1U << cube.cdim) ||
				    cube.v[cube.ctrl[c]].state != HCUBE_VERTEX_HEALTHY;
		if (bad_ctrl)
			printf("# cluster %d: controller %u\n", c, cube.ctrl[c]);
	}
	printf("%s 5 every pebble cluster's controller is one of its healthy vertices\n",
	       bad_ctrl ? "not ok" : "ok");
	fails += bad_ctrl;
	hnl_close(&h);

	/* unload with tasks registered: everything back to the original */
	if (!hc_module_ko()) {
		printf("ok 6 # SKIP HCUBE_KO is not set: the module could not be loaded again\n");
		hc_kill_all(workers, NWORKERS);
		return fails ? 1 : 0;
	}
	if (system("rmmod hcube")) {
		printf("not ok 6 rmmod failed\n");
		return 1;
	}
	for (i = 0; i < NWORKERS; i++) {
		cpu_set_t now;

		total++;
		if (sched_getaffinity(workers[i], sizeof(now), &now)) {
			lost++;
			continue;
		}
		if (CPU_EQUAL(&now, &orig[i])) {
			restored++;
		} else if (hotplug_short(&now, &orig[i])) {
			/*
			 * Given back while a CPU was coming online, before its
			 * cpuset had it again: what sched_setaffinity() gives
			 * then too (the cpuset's effective CPUs).
			 */
			restored++;
			short_by_hotplug++;
		} else {
			char a[256], b[256];

			printf("# worker %d (pid %d): affinity %s, not its original %s\n",
			       i, workers[i], hc_cpus_str(&now, a, sizeof(a)),
			       hc_cpus_str(&orig[i], b, sizeof(b)));
		}
	}
	printf("# %d of them given back a CPU short, while that CPU came online\n",
	       short_by_hotplug);
	printf("%s 6 after rmmod %d of %d workers have their original affinity (%d gone)\n",
	       restored == total ? "ok" : "not ok", restored, total, lost);
	fails += restored != total;
	hc_kill_all(workers, NWORKERS);
	if (hc_module_insmod("")) {
		printf("# insmod %s failed\n", hc_module_ko());
		fails++;
	}
	return fails ? 1 : 0;
}
