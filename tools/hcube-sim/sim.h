/* SPDX-License-Identifier: GPL-2.0 */
/* hcube-sim: shared declarations of its commands. */
#ifndef HCUBE_SIM_H
#define HCUBE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "hcube_core_ext.h"

/* Exit status for bad usage or input, as documented. */
#define SIM_EXIT_USAGE 2

/* Print "hcube-sim: <message>" on stderr and exit with SIM_EXIT_USAGE. */
void sim_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Parse a comma-separated list of unsigned integers, each at most @max,
 * into @out (room for @cap). Returns the count; dies naming @what on error.
 */
size_t sim_parse_list(const char *what, const char *s, unsigned long long max,
		      u32 *out, size_t cap);
unsigned long long sim_parse_uint(const char *what, const char *s,
				  unsigned long long max);

/*
 * The files the commands write: sim_mkdir() makes @dir unless it exists;
 * sim_create() opens @dir/<@fmt, ...> for writing (making @dir first if need
 * be); sim_close() closes it. Each dies naming what failed.
 */
void sim_mkdir(const char *dir);
FILE *sim_create(const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sim_close(FILE *f);

struct option;

/*
 * getopt_long() over @opts for the command @cmd: returns the next option's
 * value, -1 at the end. --help (value 'h') prints @usage and exits 0; an
 * unknown or incomplete option, or an argument left after the options,
 * dies naming it.
 */
int sim_getopt(int argc, char **argv, const struct option *opts, const char *cmd,
	       void (*usage)(FILE *f));

/* The core's policy names, comma-separated. */
const char *sim_core_policies(void);

/* A vertex label written as dim binary digits, highest dimension first. */
const char *sim_label(char *buf, u32 dim, u32 v);

/* Memory for the core at one dimension. */
struct sim_core {
	u32 dim;
	struct hcube_topo topo;
	struct hcube_plan plan;
	void *topo_mem, *plan_mem, *work;
};

void sim_core_init(struct sim_core *c, u32 dim);
void sim_core_free(struct sim_core *c);

int cmd_plan(int argc, char **argv);
int cmd_aapc(int argc, char **argv);
int cmd_sbn(int argc, char **argv);
int cmd_demand(int argc, char **argv);

/* AAPC totals for a cube (aapc.c); returns the core's error. */
int sim_aapc_info(u32 dim, const u8 *state, struct hcube_aapc_info *info);
const char *sim_aapc_alg(u32 alg);

/* ---- the execution simulator (model.c, run.c, experiment.c, stats.c) ---- */

#include <stdint.h>
#include <stdio.h>

/* Policies of the simulator: the core's plans, RID, and no balancing. */
enum sim_pol {
	SIM_NONE,
	SIM_MCWA,
	SIM_DEM,
	SIM_RID,
	SIM_CWA,		/* fault-free cubes only */
	SIM_MCWAOPT,		/* beyond the paper: MCWA's loads, optimal paths */
	/* the core's further policies, each a synchronous round */
	SIM_OPTIMAL,		/* global information priced as one AAPC */
	SIM_AUTO,		/* likewise */
	SIM_SID,
	SIM_SBN,
	SIM_SBN_CUBE,
	SIM_SBN_HEUR,
	SIM_PEBBLE,
	SIM_NPOL,
};

const char *sim_pol_name(int pol);
int sim_pol_parse(const char *name);	/* -1 if unknown */

/* Redistribution of the faulty nodes' tasks at the start. */
enum sim_redist {
	SIM_REDIST_EVEN,	/* dealt in turn over all healthy nodes (paper) */
	SIM_REDIST_NEAREST,	/* hcube_evacuate(): the nearest healthy nodes */
};

/* What a synchronous round costs (see model.c). */
enum sim_round_cost {
	SIM_COST_NODES,		/* all stop for the messages; each node pays its migrations */
	SIM_COST_GLOBAL,	/* all stop until the last migration step ends */
};

/* Who pays a task's migration (see model.c). */
enum sim_mig_charge {
	SIM_CHARGE_BOTH,	/* the sender and the receiver, mig_cost each */
	SIM_CHARGE_SENDER,	/* the sender only (the paper's literal wording) */
};

/* Parameters of one simulated run; times are in units of E[tau]. */
struct sim_params {
	u32 dim;
	u32 nfaults;
	u32 tasks_per_node;	/* 100 */
	double alpha;		/* trigger: queue < alpha * queue after last balancing */
	double mig_cost;	/* one task over one hop: 0.1 */
	double msg_cost;	/* one load-information message step: 0.01 */
	int redist;
	int round_cost;		/* enum sim_round_cost */
	int mig_charge;		/* enum sim_mig_charge */
	u32 fixed_threshold;	/* > 0: trigger at queue < this, not alpha's */
	uint64_t seed;		/* of the experiment; per-run seeds derive from it */
	u32 run;		/* run index within its grid point */
};

#define SIM_DEFAULT_TASKS	100
#define SIM_DEFAULT_ALPHA	0.25
#define SIM_DEFAULT_MIG		0.1
#define SIM_DEFAULT_MSG		0.01
#define SIM_DEFAULT_SEED	20240501ULL

/* Property failures a run can report (bit mask). */
#define SIM_BAD_IDEAL		0x01	/* makespan below work / healthy nodes */
#define SIM_BAD_BALANCE		0x02	/* MCWA/CWA round left max - min > 1 */
#define SIM_BAD_TASKS		0x04	/* a task lost, duplicated or run twice */
#define SIM_BAD_OPT		0x08	/* a plan beat the optimal migration cost */
#define SIM_BAD_NOBAL		0x10	/* simulated no-balancing makespan differs */

/* What one policy did in one run. */
struct sim_result {
	double makespan;
	double lb_time;		/* time per healthy node spent balancing */
	uint64_t rounds;	/* synchronous rounds, or RID requests */
	uint64_t moved;		/* tasks that changed node */
	uint64_t hops;		/* task-hops */
	uint64_t opt_hops;	/* optimal task-hops for the same final loads */
	uint64_t comm_steps;	/* synchronous steps; RID: of all requests */
	uint64_t messages;	/* load-information messages, all nodes */
	uint64_t aapc_units;	/* optimal, auto: AAPC units of the gathering */
	u32 bad;		/* SIM_BAD_* */
	u32 ran;		/* 1 if the policy applies to this cube */
};

/* The instance shared by every policy of one run. */
struct sim_info {
	u32 nhealthy;
	u32 ntasks;
	u32 depth;		/* MCWA tree depth T */
	u32 cb_dim;		/* k */
	u32 ncomp;		/* components of healthy nodes */
	u32 diameter;		/* largest healthy distance within a component */
	double work;		/* sum of all execution times */
	double t_nobal;		/* makespan without balancing */
	double ideal;		/* t_nobal / (work / nhealthy) */
	u32 aapc_units;		/* one AAPC on the healthy nodes, 0 if none */
};

struct sim_run_out {
	struct sim_info info;
	struct sim_result res[SIM_NPOL];
};

struct sim_model;

/* Memory for runs on one dimension; reused from run to run. */
struct sim_model *sim_model_new(u32 dim, u32 tasks_per_node);
void sim_model_free(struct sim_model *m);

/*
 * Draw the instance of @p (faults, execution times, initial queues) and run
 * every policy whose bit is set in @pols on it. Faults are drawn unless
 * @faulty (p->nfaults labels) is given.
 */
void sim_model_run(struct sim_model *m, const struct sim_params *p,
		   const u32 *faulty, u32 pols, struct sim_run_out *out);
/* The faulty labels of the last run, in increasing order; returns the count. */
u32 sim_model_faulty(const struct sim_model *m, const u32 **faulty);
/* The last run's topology (for reports). */
const struct hcube_topo *sim_model_topo(const struct sim_model *m);
/*
 * The last run's instance as text: its faulty nodes, then per healthy node
 * its initial queue in order, task id and execution time (%.17g). The
 * input of libhcube-mpi's experiment driver (hcube-mpi-exp).
 */
void sim_model_dump(const struct sim_model *m, FILE *f);

/* The per-run seed of (experiment seed, dim, faults, run). */
uint64_t sim_run_seed(uint64_t seed, u32 dim, u32 nfaults, u32 run);

/* Statistics (stats.c). */
double sim_t_quantile(double p, double df);	/* Student t, P(T <= t) = p */
struct sim_mean {
	double mean, sd, ci95;	/* ci95: half-width, Student t */
	u32 n;
};

void sim_mean_of(struct sim_mean *m, const double *x, u32 n);

/* Shared by run and experiment (run.c). */
double sim_parse_double(const char *what, const char *s, double min, double max);
/* A comma-separated list (or "all") of names @parse knows, as a bit mask. */
u32 sim_parse_names(const char *s, int (*parse)(const char *name), u32 n,
		    const char *valid);
u32 sim_parse_policies(const char *s);		/* bit mask of enum sim_pol */
void sim_params_default(struct sim_params *p);
/*
 * The model's options, common to run and experiment: SIM_MODEL_OPTIONS in
 * their getopt_long() tables (with "seed", 's' of their own), and
 * sim_model_option() for each option letter: false if @c is none of them.
 */
#define SIM_MODEL_OPTIONS						\
	{ "tasks", required_argument, NULL, 'T' },			\
	{ "threshold", required_argument, NULL, 'a' },			\
	{ "mig-cost", required_argument, NULL, 'M' },			\
	{ "msg-cost", required_argument, NULL, 'm' },			\
	{ "redistribute", required_argument, NULL, 'R' },		\
	{ "round-cost", required_argument, NULL, 'C' },			\
	{ "mig-charge", required_argument, NULL, 'G' },			\
	{ "fixed-threshold", required_argument, NULL, 'K' }
bool sim_model_option(struct sim_params *p, int c, const char *arg);
const char *sim_bad_text(u32 bad);
void sim_csv_header(FILE *f);
void sim_csv_row(FILE *f, const struct sim_params *p,
		 const struct sim_run_out *o, int pol);

int cmd_run(int argc, char **argv);
int cmd_experiment(int argc, char **argv);

#endif
