// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim experiment: the grid of Figs. 6-9 of K. Nam, J. Seo, S. Lee and
 * J. Kim, "Synchronous Load Balancing in Hypercube Multicomputers with
 * Faulty Nodes", Journal of Parallel and Distributed Computing 58, 1999.
 * For each dimension n, each fault count 0 .. n + 3 and each of R runs
 * (300), one instance is drawn and every policy runs on it (model.c). The
 * runs are split over worker processes, each writing its results into
 * shared memory at the run's own index; the parent then writes everything
 * in a fixed order, so the files are byte-identical for a given seed
 * whatever the number of workers.
 *
 * Files in --out: runs.csv (one row per run and policy), summary.csv (mean
 * and 95% Student t interval of the speedup per grid point and policy, the
 * ideal speedup, migrations and task-hops per node, the ratio of task-hops
 * to the optimum), tables.md, and gnuplot data speedup_nN.dat and
 * migrations_nN.dat for tools/hcube-sim/plots.gp.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim.h"

#define MAX_DIMS 10

/* Policies in the order of the tables and plots. */
static const int shown[] = { SIM_MCWA, SIM_DEM, SIM_RID, SIM_MCWAOPT, SIM_CWA };
#define NSHOWN ((int)(sizeof(shown) / sizeof(*shown)))

struct grid {
	struct sim_params base;
	u32 dims[MAX_DIMS], ndims;
	u32 extra;		/* faults 0 .. n + extra, unless listed: */
	u32 faults[HCUBE_MAX_VERTICES], nfaults;
	u32 runs;
	u32 pols;
	u32 workers;
	const char *out;
	bool quiet;
	u32 njobs;
	struct sim_run_out *res;	/* shared between the workers */
};

struct job {
	u32 dim, faults, run;
};

/* Grid points (fault counts) of dimension index @di, and the @pi-th one. */
static u32 npoints(const struct grid *g, u32 di)
{
	return g->nfaults ? g->nfaults : g->dims[di] + g->extra + 1;
}

static u32 fault_at(const struct grid *g, u32 pi)
{
	return g->nfaults ? g->faults[pi] : pi;
}

static struct job job_of(const struct grid *g, u32 idx)
{
	struct job j = { 0, 0, 0 };
	u32 i;

	for (i = 0; i < g->ndims; i++) {
		u32 njobs = npoints(g, i) * g->runs;

		if (idx < njobs) {
			j.dim = g->dims[i];
			j.faults = fault_at(g, idx / g->runs);
			j.run = idx % g->runs;
			return j;
		}
		idx -= njobs;
	}
	return j;
}

/* Index of the first run of point @pi of dimension index @di. */
static u32 point_index(const struct grid *g, u32 di, u32 pi)
{
	u32 idx = 0, i;

	for (i = 0; i < di; i++)
		idx += npoints(g, i) * g->runs;
	return idx + pi * g->runs;
}

static void worker(struct grid *g, u32 w)
{
	struct sim_model *models[HCUBE_MAX_DIM + 1] = { NULL };
	u32 idx;

	for (idx = w; idx < g->njobs; idx += g->workers) {
		struct job j = job_of(g, idx);
		struct sim_params p = g->base;

		p.dim = j.dim;
		p.nfaults = j.faults;
		p.run = j.run;
		if (!models[j.dim])
			models[j.dim] = sim_model_new(j.dim, p.tasks_per_node);
		sim_model_run(models[j.dim], &p, NULL, g->pols, &g->res[idx]);
	}
	for (idx = 0; idx <= HCUBE_MAX_DIM; idx++)
		sim_model_free(models[idx]);
}

static void run_all(struct grid *g)
{
	pid_t pids[64];
	u32 w;

	if (g->workers == 1) {
		worker(g, 0);
		return;
	}
	fflush(NULL);
	for (w = 0; w < g->workers; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			sim_die("fork: %s", strerror(errno));
		if (!pids[w]) {
			worker(g, w);
			fflush(NULL);
			_exit(0);
		}
	}
	for (w = 0; w < g->workers; w++) {
		int st;

		if (waitpid(pids[w], &st, 0) < 0)
			sim_die("waitpid: %s", strerror(errno));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			sim_die("experiment: worker %u failed (status %d)", w, st);
	}
}

/* Aggregates of one grid point and policy. */
struct agg {
	u32 n;
	struct sim_mean speedup, ideal, eff;	/* eff: speedup / ideal */
	double makespan, nobal, wh, rounds, moved, hops, opt, comm, msgs, lb_time;
	double aapc;		/* AAPC units of the load gathering per run */
	double depth, cb_dim, diameter_max, comps;
	double ratio;		/* sum of task-hops over sum of optima */
	u32 bad_runs;
};

static void aggregate(const struct grid *g, u32 di, u32 pi, int pol,
		      struct agg *a, double *tmp, double *tmp2)
{
	u32 first = point_index(g, di, pi), i;
	double sum_hops = 0, sum_opt = 0;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < g->runs; i++) {
		const struct sim_run_out *o = &g->res[first + i];
		const struct sim_result *r = &o->res[pol];
		double h = o->info.nhealthy;

		if (!r->ran)
			continue;
		tmp[a->n] = o->info.t_nobal / r->makespan;
		tmp2[a->n] = o->info.ideal;
		a->n++;
		a->makespan += r->makespan;
		a->nobal += o->info.t_nobal;
		a->wh += o->info.t_nobal / o->info.ideal;	/* work / healthy */
		a->rounds += r->rounds;
		a->moved += r->moved / h;
		a->hops += r->hops / h;
		a->opt += r->opt_hops / h;
		a->comm += r->comm_steps;
		a->msgs += r->messages;
		a->aapc += r->aapc_units;
		a->lb_time += r->lb_time;
		a->depth += o->info.depth;
		a->cb_dim += o->info.cb_dim;
		a->comps += o->info.ncomp;
		if (o->info.diameter > a->diameter_max)
			a->diameter_max = o->info.diameter;
		a->bad_runs += r->bad != 0;
		sum_hops += r->hops;
		sum_opt += r->opt_hops;
	}
	sim_mean_of(&a->speedup, tmp, a->n);
	sim_mean_of(&a->ideal, tmp2, a->n);
	for (i = 0; i < a->n; i++)
		tmp[i] /= tmp2[i];
	sim_mean_of(&a->eff, tmp, a->n);
	if (a->n) {
		a->makespan /= a->n;
		a->nobal /= a->n;
		a->wh /= a->n;
		a->rounds /= a->n;
		a->moved /= a->n;
		a->hops /= a->n;
		a->opt /= a->n;
		a->comm /= a->n;
		a->msgs /= a->n;
		a->aapc /= a->n;
		a->lb_time /= a->n;
		a->depth /= a->n;
		a->cb_dim /= a->n;
		a->comps /= a->n;
	}
	/* a ratio of sums: over all rounds of all runs of the point */
	a->ratio = sum_opt > 0 ? sum_hops / sum_opt : 0;
}

/* Speedup of @pol minus that of @ref on the same instances: mean, CI. */
static void paired(const struct grid *g, u32 di, u32 pi, int pol, int ref,
		   struct sim_mean *m, double *tmp)
{
	u32 first = point_index(g, di, pi), i, n = 0;

	for (i = 0; i < g->runs; i++) {
		const struct sim_run_out *o = &g->res[first + i];

		if (!o->res[pol].ran || !o->res[ref].ran)
			continue;
		tmp[n++] = o->info.t_nobal / o->res[pol].makespan -
			   o->info.t_nobal / o->res[ref].makespan;
	}
	sim_mean_of(m, tmp, n);
}

/* A table's header after its "| faults |": a column per policy of @cols. */
static void md_policy_columns(FILE *md, const int *cols, u32 nc)
{
	u32 c;

	for (c = 0; c < nc; c++)
		fprintf(md, " %s |", sim_pol_name(cols[c]));
	fprintf(md, "\n| ---: |");
	for (c = 0; c < nc; c++)
		fprintf(md, " ---: |");
	fprintf(md, "\n");
}

/*
 * The core's further policies beside MCWA and DEM on the same instances:
 * speedup, task-hops per node and over the optimum, rounds, messages per
 * node and, for optimal and auto, the AAPC units of their load gathering
 * per round. Printed when at least one of them ran.
 */
static void core_tables(const struct grid *g, FILE *md, u32 di, double *tmp,
			double *tmp2)
{
	static const int cols[] = { SIM_MCWA, SIM_DEM, SIM_OPTIMAL, SIM_AUTO, SIM_SID,
				    SIM_SBN, SIM_SBN_CUBE, SIM_SBN_HEUR, SIM_PEBBLE };
	const u32 nc = sizeof(cols) / sizeof(*cols);
	u32 n = g->dims[di], pi, c, any = 0;
	struct agg a;

	for (c = 2; c < nc; c++)
		any |= g->pols & (1U << cols[c]);
	if (!any)
		return;
	fprintf(md, "\nThe core's further policies beside MCWA and DEM (same instances): "
		"speedup, mean ± 95%% CI:\n\n| faults |");
	md_policy_columns(md, cols, nc);
	for (pi = 0; pi < npoints(g, di); pi++) {
		fprintf(md, "| %u |", fault_at(g, pi));
		for (c = 0; c < nc; c++) {
			aggregate(g, di, pi, cols[c], &a, tmp, tmp2);
			if (a.n)
				fprintf(md, " %.3f ± %.3f |", a.speedup.mean, a.speedup.ci95);
			else
				fprintf(md, " - |");
		}
		fprintf(md, "\n");
	}
	fprintf(md, "\nPer policy: task-hops per node / over the optimum for the same "
		"final loads / rounds / load-information messages per node; optimal "
		"and auto pay one AAPC per round (units per round in brackets, - "
		"when more than floor(n/2) faults leave no AAPC and the gathering "
		"is priced at twice the healthy diameter):\n\n| faults |");
	md_policy_columns(md, cols, nc);
	for (pi = 0; pi < npoints(g, di); pi++) {
		u32 f = fault_at(g, pi);

		fprintf(md, "| %u |", f);
		for (c = 0; c < nc; c++) {
			aggregate(g, di, pi, cols[c], &a, tmp, tmp2);
			if (!a.n) {
				fprintf(md, " - |");
				continue;
			}
			fprintf(md, " %.1f / %.2f / %.1f / %.0f", a.hops, a.ratio, a.rounds,
				a.msgs / ((1U << n) - f));
			if (cols[c] == SIM_OPTIMAL || cols[c] == SIM_AUTO) {
				if (a.aapc > 0)
					fprintf(md, " [%.0f]", a.aapc / a.rounds);
				else
					fprintf(md, " [-]");
			}
			fprintf(md, " |");
		}
		fprintf(md, "\n");
	}
}

static void write_summary(struct grid *g)
{
	double *tmp = malloc(g->runs * sizeof(double));
	double *tmp2 = malloc(g->runs * sizeof(double));
	FILE *sum = sim_create(g->out, "summary.csv");
	FILE *md = sim_create(g->out, "tables.md");
	u32 di, pi;
	int k;

	if (!tmp || !tmp2)
		sim_die("out of memory");
	fputs("dim,faults,policy,runs,speedup_mean,speedup_ci95,ideal_mean,ideal_ci95,"
	      "makespan_mean,nobal_mean,rounds_mean,moved_per_node,hops_per_node,"
	      "opt_hops_per_node,hops_opt_ratio,comm_steps_mean,messages_mean,"
	      "lb_time_mean,depth_mean,cb_dim_mean,components_mean,diameter_max,"
	      "efficiency_mean,diff_vs_dem_mean,diff_vs_dem_ci95,aapc_units_mean,bad_runs\n", sum);
	for (di = 0; di < g->ndims; di++) {
		u32 n = g->dims[di];
		FILE *sp = sim_create(g->out, "speedup_n%u.dat", n);
		FILE *mg = sim_create(g->out, "migrations_n%u.dat", n);

		fprintf(sp, "# %u-cube, %u runs per point: faults, ideal mean ci95, then "
			"per policy (mcwa dem rid mcwa-opt cwa) speedup mean ci95; ? = not run\n",
			n, g->runs);
		fprintf(mg, "# %u-cube: faults, then per policy (mcwa dem rid mcwa-opt cwa) "
			"task-hops per node, optimal task-hops per node, moved per node, "
			"rounds; then the mean tree depth\n", n);

		fprintf(md, "\n### %u-cube (%u runs per point)\n\n", n, g->runs);
		fprintf(md, "Speedup over no balancing, mean ± 95%% CI (Student t):\n\n");
		fprintf(md, "| faults | ideal | MCWA | DEM | RID | MCWA-opt | CWA |\n");
		fprintf(md, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (pi = 0; pi < npoints(g, di); pi++) {
			u32 f = fault_at(g, pi);
			struct sim_mean pm;
			struct agg a;
			int pol;

			fprintf(sp, "%u", f);
			fprintf(mg, "%u", f);
			for (k = -1; k < NSHOWN; k++) {
				pol = k < 0 ? SIM_NONE : shown[k];
				aggregate(g, di, pi, pol, &a, tmp, tmp2);
				if (k < 0) {
					fprintf(md, "| %u | %.3f ± %.3f |", f, a.ideal.mean,
						a.ideal.ci95);
					fprintf(sp, " %.5f %.5f", a.ideal.mean, a.ideal.ci95);
					continue;
				}
				if (!a.n) {
					fprintf(md, " - |");
					fprintf(sp, " ? ?");
					fprintf(mg, " ? ? ? ?");
					continue;
				}
				fprintf(md, " %.3f ± %.3f |", a.speedup.mean, a.speedup.ci95);
				fprintf(sp, " %.5f %.5f", a.speedup.mean, a.speedup.ci95);
				fprintf(mg, " %.4f %.4f %.4f %.3f", a.hops, a.opt, a.moved,
					a.rounds);
			}
			aggregate(g, di, pi, SIM_NONE, &a, tmp, tmp2);
			fprintf(mg, " %.3f\n", a.depth);
			fprintf(sp, "\n");
			fprintf(md, "\n");
			for (pol = 0; pol < SIM_NPOL; pol++) {
				aggregate(g, di, pi, pol, &a, tmp, tmp2);
				if (!a.n)
					continue;
				paired(g, di, pi, pol, SIM_DEM, &pm, tmp);
				fprintf(sum, "%u,%u,%s,%u,%.5f,%.5f,%.5f,%.5f,%.4f,%.4f,"
					"%.3f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%.5f,%.3f,%.3f,"
					"%.3f,%.0f,%.5f,%.5f,%.5f,%.1f,%u\n", n, f, sim_pol_name(pol),
					a.n, a.speedup.mean, a.speedup.ci95, a.ideal.mean,
					a.ideal.ci95, a.makespan, a.nobal, a.rounds, a.moved,
					a.hops, a.opt, a.ratio, a.comm, a.msgs, a.lb_time,
					a.depth, a.cb_dim, a.comps, a.diameter_max,
					a.eff.mean, pm.mean, pm.ci95, a.aapc, a.bad_runs);
			}
		}

		fprintf(md, "\nMigrations per healthy node (task-hops; moved tasks for RID), "
			"task-hops over the optimum for the same final loads, rounds "
			"(RID: requests per node), mean MCWA tree depth T:\n\n");
		fprintf(md, "| faults | T | MCWA hops | MCWA/opt | DEM hops | DEM/opt | "
			"MCWA-opt hops | MCWA-opt/opt | RID moved | MCWA rounds | DEM rounds | "
			"RID req/node |\n");
		fprintf(md, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
			"---: | ---: | ---: | ---: |\n");
		for (pi = 0; pi < npoints(g, di); pi++) {
			static const int cols[] = { SIM_MCWA, SIM_DEM, SIM_MCWAOPT };
			u32 f = fault_at(g, pi);
			struct agg a;
			u32 c;

			aggregate(g, di, pi, SIM_NONE, &a, tmp, tmp2);
			fprintf(md, "| %u | %.2f |", f, a.depth);
			for (c = 0; c < 3; c++) {
				aggregate(g, di, pi, cols[c], &a, tmp, tmp2);
				if (a.n)
					fprintf(md, " %.2f | %.3f |", a.hops, a.ratio);
				else
					fprintf(md, " - | - |");
			}
			aggregate(g, di, pi, SIM_RID, &a, tmp, tmp2);
			if (a.n)
				fprintf(md, " %.2f |", a.moved);
			else
				fprintf(md, " - |");
			aggregate(g, di, pi, SIM_MCWA, &a, tmp, tmp2);
			fprintf(md, a.n ? " %.1f |" : " - |", a.rounds);
			aggregate(g, di, pi, SIM_DEM, &a, tmp, tmp2);
			fprintf(md, a.n ? " %.1f |" : " - |", a.rounds);
			aggregate(g, di, pi, SIM_RID, &a, tmp, tmp2);
			fprintf(md, a.n ? " %.1f |\n" : " - |\n",
				a.rounds / (n ? (1U << n) - f : 1));
		}
		fprintf(md, "\nPaired on the same instances: speedup minus DEM's "
			"(mean ± 95%% CI), and each policy's speedup as a share of "
			"the ideal (mean):\n\n");
		fprintf(md, "| faults | MCWA − DEM | RID − DEM | MCWA-opt − DEM | "
			"MCWA/ideal | DEM/ideal | RID/ideal | MCWA-opt/ideal |\n");
		fprintf(md, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (pi = 0; pi < npoints(g, di); pi++) {
			static const int cols[] = { SIM_MCWA, SIM_RID, SIM_MCWAOPT };
			static const int effs[] = { SIM_MCWA, SIM_DEM, SIM_RID, SIM_MCWAOPT };
			u32 f = fault_at(g, pi);
			struct sim_mean pm;
			struct agg a;
			u32 c;

			fprintf(md, "| %u |", f);
			for (c = 0; c < 3; c++) {
				paired(g, di, pi, cols[c], SIM_DEM, &pm, tmp);
				if (pm.n)
					fprintf(md, " %+.3f ± %.3f |", pm.mean, pm.ci95);
				else
					fprintf(md, " - |");
			}
			for (c = 0; c < 4; c++) {
				aggregate(g, di, pi, effs[c], &a, tmp, tmp2);
				fprintf(md, a.n ? " %.3f |" : " - |", a.eff.mean);
			}
			fprintf(md, "\n");
		}
		fprintf(md, "\nWhere the time goes (means): makespan = work per healthy node "
			"+ balancing overhead per node + idle time per node; communication "
			"steps per run; load-information messages per node:\n\n");
		fprintf(md, "| faults | policy | makespan | work/node | overhead | idle | "
			"comm steps | messages/node |\n");
		fprintf(md, "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (pi = 0; pi < npoints(g, di); pi++) {
			static const int pols[] = { SIM_MCWA, SIM_DEM, SIM_RID, SIM_MCWAOPT };
			u32 f = fault_at(g, pi), c;

			if (f && f != 1 && f != n && f != n + g->extra && g->nfaults == 0)
				continue;
			for (c = 0; c < 4; c++) {
				struct agg a;

				aggregate(g, di, pi, pols[c], &a, tmp, tmp2);
				if (!a.n)
					continue;
				if (c)
					fprintf(md, "| ");
				else
					fprintf(md, "| %u ", f);
				fprintf(md, "| %s | %.2f | %.2f | %.2f | %.2f | %.0f | %.1f |\n",
					sim_pol_name(pols[c]), a.makespan, a.wh, a.lb_time,
					a.makespan - a.wh - a.lb_time, a.comm,
					a.msgs / ((1U << n) - f));
			}
		}
		core_tables(g, md, di, tmp, tmp2);
		sim_close(sp);
		sim_close(mg);
	}
	sim_close(sum);
	sim_close(md);
	free(tmp);
	free(tmp2);
}

static u32 write_runs(const struct grid *g)
{
	FILE *f = sim_create(g->out, "runs.csv");
	u32 idx, bad = 0;
	int pol;

	sim_csv_header(f);
	for (idx = 0; idx < g->njobs; idx++) {
		struct job j = job_of(g, idx);
		struct sim_params p = g->base;

		p.dim = j.dim;
		p.nfaults = j.faults;
		p.run = j.run;
		for (pol = 0; pol < SIM_NPOL; pol++) {
			const struct sim_result *r = &g->res[idx].res[pol];

			if (!r->ran)
				continue;
			sim_csv_row(f, &p, &g->res[idx], pol);
			if (r->bad) {
				fprintf(stderr, "hcube-sim: %u-cube, %u faults, run %u, %s: %s\n",
					j.dim, j.faults, j.run, sim_pol_name(pol),
					sim_bad_text(r->bad));
				bad++;
			}
		}
	}
	sim_close(f);
	return bad;
}

static void exp_usage(FILE *f)
{
	fputs("usage: hcube-sim experiment [--dims 5,6,7] [--runs 300]\n"
	      "                            [--extra-faults 3 | --faults F,F,...]\n"
	      "                            [--policy all|P,P,...] [--seed S] [--jobs 2]\n"
	      "                            [--out build/experiment] [--tasks T]\n"
	      "                            [--threshold A] [--mig-cost C] [--msg-cost C]\n"
	      "                            [--round-cost nodes|global]\n"
	      "                            [--mig-charge both|sender] [--fixed-threshold K]\n"
	      "                            [--redistribute even|nearest] [--quiet]\n"
	      "\n"
	      "Runs the grid of Figs. 6-9 of Nam et al. (1999): for each dimension n,\n"
	      "faults 0 .. n + extra (or the listed counts), R runs each, every policy\n"
	      "on the same instances ('hcube-sim run --help' describes the model).\n"
	      "Writes runs.csv, summary.csv, tables.md and the gnuplot data in --out\n"
	      "(tables.md adds a table of the core's further policies when they ran);\n"
	      "the files depend only on the options, not on --jobs (worker processes).\n"
	      "\n"
	      "Exit status: 0; 1 if a property check failed in any run (listed on\n"
	      "stderr); 2 on bad input.\n", f);
}

int cmd_experiment(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dims", required_argument, NULL, 'D' },
		{ "runs", required_argument, NULL, 'r' },
		{ "extra-faults", required_argument, NULL, 'e' },
		{ "faults", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "seed", required_argument, NULL, 's' },
		SIM_MODEL_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct grid g;
	struct timespec t0, t1;
	size_t i, n;
	u32 bad;
	int c;

	sim_params_default(&g.base);
	g.dims[0] = 5;
	g.dims[1] = 6;
	g.dims[2] = 7;
	g.ndims = 3;
	g.extra = 3;
	g.runs = 300;
	g.pols = (1U << SIM_NPOL) - 1;
	g.workers = 2;
	g.out = "build/experiment";
	while ((c = sim_getopt(argc, argv, opts, "experiment", exp_usage)) != -1) {
		if (sim_model_option(&g.base, c, optarg))
			continue;
		switch (c) {
		case 'D':
			n = sim_parse_list("--dims", optarg, HCUBE_MAX_DIM, g.dims,
					   MAX_DIMS);
			if (!n || n > MAX_DIMS)
				sim_die("--dims: 1 to %u dimensions", MAX_DIMS);
			g.ndims = (u32)n;
			for (i = 0; i < n; i++)
				if (!g.dims[i])
					sim_die("--dims: the simulation needs at least a 1-cube");
			break;
		case 'r':
			g.runs = (u32)sim_parse_uint("--runs", optarg, 100000);
			if (g.runs < 2)
				sim_die("--runs: at least 2 (for a confidence interval)");
			break;
		case 'e':
			g.extra = (u32)sim_parse_uint("--extra-faults", optarg, 64);
			break;
		case 'f':
			n = sim_parse_list("--faults", optarg, HCUBE_MAX_VERTICES,
					   g.faults, HCUBE_MAX_VERTICES);
			if (!n || n > HCUBE_MAX_VERTICES)
				sim_die("--faults: too many fault counts");
			g.nfaults = (u32)n;
			break;
		case 'p':
			g.pols = sim_parse_policies(optarg) | 1U << SIM_NONE;
			break;
		case 'J':
			g.workers = (u32)sim_parse_uint("--jobs", optarg, 64);
			if (!g.workers)
				sim_die("--jobs: at least 1");
			break;
		case 'o':
			g.out = optarg;
			break;
		case 'q':
			g.quiet = true;
			break;
		}
	}
	g.njobs = 0;
	for (i = 0; i < g.ndims; i++) {
		u32 pi, most = 0;

		for (pi = 0; pi < npoints(&g, i); pi++)
			most = fault_at(&g, pi) > most ? fault_at(&g, pi) : most;
		if (most >= (1U << g.dims[i]))
			sim_die("experiment: a %u-cube cannot have %u faulty nodes",
				g.dims[i], most);
		g.njobs += npoints(&g, i) * g.runs;
	}
	sim_mkdir(g.out);

	g.res = mmap(NULL, g.njobs * sizeof(*g.res), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g.res == MAP_FAILED)
		sim_die("mmap: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run_all(&g);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	bad = write_runs(&g);
	write_summary(&g);
	if (!g.quiet)
		fprintf(stderr, "hcube-sim: %u runs in %.1f s with %u worker%s; files in %s\n",
			g.njobs, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
			g.workers, g.workers == 1 ? "" : "s", g.out);
	munmap(g.res, g.njobs * sizeof(*g.res));
	if (bad) {
		fprintf(stderr, "hcube-sim: %u property failures\n", bad);
		return 1;
	}
	return 0;
}
