// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim run: simulate the execution of the workload of Nam et al.
 * (1999, Section 6; Documentation/algorithms.md has the reference) on a
 * faulty n-cube under each balancing policy (model.c), and report per run
 * the makespan, the speedup over no balancing, the balancing rounds, the
 * task migrations and task-hops per node, the ratio of task-hops to the
 * optimum and the communication steps.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "json.h"

static void run_usage(FILE *f)
{
	fputs("usage: hcube-sim run --dim N [--faults F | --faulty V,V,...]\n"
	      "                     [--policy all|P,P,...] [--seed S] [--run I] [--runs R]\n"
	      "                     [--tasks T] [--threshold A] [--mig-cost C] [--msg-cost C]\n"
	      "                     [--round-cost nodes|global] [--mig-charge both|sender]\n"
	      "                     [--fixed-threshold K] [--instance-out DIR]\n"
	      "                     [--redistribute even|nearest] [--csv | --json]\n"
	      "\n"
	      "Simulates the workload of Nam et al. (1999) on an N-cube (N = 1..10)\n"
	      "with F faulty nodes drawn at random (or the given ones): T tasks per\n"
	      "node (100), each task's time uniform on (0, 2 tau(u)), tau(u) uniform on\n"
	      "(0, 2). One task over one hop costs its two nodes C (0.1) each\n"
	      "(--mig-charge sender: the sender only), one load-information message\n"
	      "step C (0.01). A node whose queue falls below floor(A * its length after\n"
	      "its last balancing), A = 0.25, starts balancing (--fixed-threshold K:\n"
	      "below K queued tasks, the paper's fixed threshold). In a synchronous\n"
	      "round every node stops for the messages and then pays its own migrations\n"
	      "(nodes), or stops until the last migration step ends (global). Policies:\n"
	      "none, mcwa, dem, rid, cwa (fault-free cubes only), mcwa-opt (MCWA's\n"
	      "final loads moved along the optimal flow), and the core's optimal, auto,\n"
	      "sid, sbn, sbn-cube, sbn-heur, pebble as synchronous rounds; optimal and\n"
	      "auto also pay one all-to-all exchange of the loads (the AAPC units of\n"
	      "Masuyama and Masuyama 2003, message steps); default all. Run I of seed S\n"
	      "is the same instance as in 'hcube-sim experiment'. --instance-out writes\n"
	      "each run's instance (faulty nodes, initial queues with task times) to\n"
	      "DIR/instance-N-F-RUN.txt, the input of hcube-mpi-exp.\n"
	      "\n"
	      "Exit status: 0; 1 if a property check failed; 2 on bad input.\n", f);
}

double sim_parse_double(const char *what, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v))
		sim_die("%s: '%s' is not a number", what, s);
	if (v < min || v > max)
		sim_die("%s: %s is out of range (%g..%g)", what, s, min, max);
	return v;
}

u32 sim_parse_names(const char *s, int (*parse)(const char *name), u32 n,
		    const char *valid)
{
	char *copy, *tok, *save = NULL;
	u32 mask = 0;

	if (!strcmp(s, "all"))
		return (1U << n) - 1;
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		sim_die("--policy: empty item in '%s'", s);
	copy = strdup(s);
	if (!copy)
		sim_die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = parse(tok);

		if (p < 0)
			sim_die("--policy: unknown policy '%s' (%s)", tok, valid);
		mask |= 1U << p;
	}
	free(copy);
	return mask;
}

u32 sim_parse_policies(const char *s)
{
	return sim_parse_names(s, sim_pol_parse, SIM_NPOL,
			       "none, mcwa, dem, rid, cwa, mcwa-opt, optimal, auto, "
			       "sid, sbn, sbn-cube, sbn-heur, pebble, all");
}

void sim_params_default(struct sim_params *p)
{
	*p = (struct sim_params){
		.tasks_per_node = SIM_DEFAULT_TASKS,
		.alpha = SIM_DEFAULT_ALPHA,
		.mig_cost = SIM_DEFAULT_MIG,
		.msg_cost = SIM_DEFAULT_MSG,
		.seed = SIM_DEFAULT_SEED,
		.redist = SIM_REDIST_EVEN,
	};
}

/* @arg, one of the words @a and @b: false for @a, true for @b; else dies. */
static bool either(const char *what, const char *arg, const char *a, const char *b)
{
	if (!strcmp(arg, a))
		return false;
	if (!strcmp(arg, b))
		return true;
	sim_die("%s: '%s' is not %s or %s", what, arg, a, b);
}

/* Common options of run and experiment; returns false if @c is not one. */
bool sim_model_option(struct sim_params *p, int c, const char *arg)
{
	switch (c) {
	case 'T':
		p->tasks_per_node = (u32)sim_parse_uint("--tasks", arg, 1000000);
		if (!p->tasks_per_node)
			sim_die("--tasks: at least 1 task per node");
		return true;
	case 'a':
		p->alpha = sim_parse_double("--threshold", arg, 0, 1);
		return true;
	case 'M':
		p->mig_cost = sim_parse_double("--mig-cost", arg, 0, 1e6);
		return true;
	case 'm':
		p->msg_cost = sim_parse_double("--msg-cost", arg, 0, 1e6);
		return true;
	case 's':
		p->seed = sim_parse_uint("--seed", arg, ~0ULL);
		return true;
	case 'R':
		p->redist = either("--redistribute", arg, "even", "nearest") ?
			    SIM_REDIST_NEAREST : SIM_REDIST_EVEN;
		return true;
	case 'G':
		p->mig_charge = either("--mig-charge", arg, "both", "sender") ?
				SIM_CHARGE_SENDER : SIM_CHARGE_BOTH;
		return true;
	case 'K':
		p->fixed_threshold = (u32)sim_parse_uint("--fixed-threshold", arg, 1000000);
		return true;
	case 'C':
		p->round_cost = either("--round-cost", arg, "nodes", "global") ?
				SIM_COST_GLOBAL : SIM_COST_NODES;
		return true;
	}
	return false;
}

const char *sim_bad_text(u32 bad)
{
	if (bad & SIM_BAD_TASKS)
		return "tasks not conserved";
	if (bad & SIM_BAD_IDEAL)
		return "makespan below work / healthy nodes (speedup above the ideal)";
	if (bad & SIM_BAD_BALANCE)
		return "a round left max - min > 1 over the attached nodes";
	if (bad & SIM_BAD_OPT)
		return "a plan took fewer task-hops than the optimum";
	if (bad & SIM_BAD_NOBAL)
		return "simulated no-balancing makespan differs from the sum of times";
	return "ok";
}

void sim_csv_header(FILE *f)
{
	fputs("seed,dim,faults,run,healthy,depth,cb_dim,components,diameter,policy,"
	      "makespan,t_nobal,speedup,ideal,rounds,moved_per_node,hops_per_node,"
	      "opt_hops_per_node,comm_steps,messages,aapc_units,lb_time,bad\n", f);
}

void sim_csv_row(FILE *f, const struct sim_params *p,
		 const struct sim_run_out *o, int pol)
{
	const struct sim_result *r = &o->res[pol];
	const struct sim_info *in = &o->info;
	double h = in->nhealthy;

	fprintf(f, "%llu,%u,%u,%u,%u,%u,%u,%u,%u,%s,%.6f,%.6f,%.6f,%.6f,%llu,"
		"%.4f,%.4f,%.4f,%llu,%llu,%llu,%.6f,%u\n",
		(unsigned long long)p->seed, p->dim, p->nfaults, p->run,
		in->nhealthy, in->depth, in->cb_dim, in->ncomp, in->diameter,
		sim_pol_name(pol), r->makespan, in->t_nobal,
		in->t_nobal / r->makespan, in->ideal,
		(unsigned long long)r->rounds, r->moved / h, r->hops / h,
		r->opt_hops / h, (unsigned long long)r->comm_steps,
		(unsigned long long)r->messages,
		(unsigned long long)r->aapc_units, r->lb_time, r->bad);
}

static void print_text(const struct sim_params *p, const struct sim_model *m,
		       const struct sim_run_out *o)
{
	const struct sim_info *in = &o->info;
	const struct hcube_topo *t = sim_model_topo(m);
	char lb[HCUBE_MAX_DIM + 2], pat[HCUBE_MAX_DIM + 2];
	const u32 *faulty;
	u32 nf = sim_model_faulty(m, &faulty), i;
	int pol;

	printf("run %u of seed %llu: %u-cube, %u faulty (", p->run,
	       (unsigned long long)p->seed, p->dim, nf);
	for (i = 0; i < nf; i++)
		printf("%s%s", i ? " " : "", sim_label(lb, p->dim, faulty[i]));
	printf("%s), %u healthy, %u tasks\n", nf ? "" : "none", in->nhealthy,
	       in->ntasks);
	printf("  work %.2f (%.2f per healthy node); C_b %s, k %u, tree depth %u; "
	       "%u component%s, healthy diameter %u\n",
	       in->work, in->work / in->nhealthy,
	       t ? hcube_pattern(pat, p->dim, t->cb_base, t->cb_mask) : "-",
	       in->cb_dim, in->depth, in->ncomp, in->ncomp == 1 ? "" : "s",
	       in->diameter);
	printf("  no balancing: makespan %.2f; ideal speedup %.3f\n", in->t_nobal,
	       in->ideal);
	printf("  %-8s %9s %8s %7s %11s %10s %9s %11s %8s\n", "policy", "makespan",
	       "speedup", "rounds", "moved/node", "hops/node", "hops/opt",
	       "comm steps", "lb time");
	for (pol = 0; pol < SIM_NPOL; pol++) {
		const struct sim_result *r = &o->res[pol];

		if (!r->ran)
			continue;
		printf("  %-8s %9.2f %8.3f %7llu %11.3f %10.3f ", sim_pol_name(pol),
		       r->makespan, in->t_nobal / r->makespan,
		       (unsigned long long)r->rounds, (double)r->moved / in->nhealthy,
		       (double)r->hops / in->nhealthy);
		if (r->opt_hops)
			printf("%9.3f", (double)r->hops / r->opt_hops);
		else
			printf("%9s", "-");
		printf(" %11llu %8.3f%s%s\n", (unsigned long long)r->comm_steps,
		       r->lb_time, r->bad ? "  FAILED: " : "",
		       r->bad ? sim_bad_text(r->bad) : "");
	}
}

static void print_json(struct json *j, const struct sim_params *p,
		       const struct sim_model *m, const struct sim_run_out *o)
{
	const struct sim_info *in = &o->info;
	const u32 *faulty;
	u32 nf = sim_model_faulty(m, &faulty), i;
	int pol;

	json_obj_open(j, NULL);
	json_uint(j, "run", p->run);
	json_uint(j, "seed", p->seed);
	json_uint(j, "dim", p->dim);
	json_arr_open(j, "faulty");
	for (i = 0; i < nf; i++)
		json_uint(j, NULL, faulty[i]);
	json_arr_close(j);
	json_uint(j, "healthy", in->nhealthy);
	json_uint(j, "tasks", in->ntasks);
	json_double(j, "work", in->work);
	json_uint(j, "tree_depth", in->depth);
	json_uint(j, "cb_dim", in->cb_dim);
	json_uint(j, "components", in->ncomp);
	json_uint(j, "diameter", in->diameter);
	json_double(j, "t_nobal", in->t_nobal);
	json_double(j, "ideal_speedup", in->ideal);
	json_obj_open(j, "policies");
	for (pol = 0; pol < SIM_NPOL; pol++) {
		const struct sim_result *r = &o->res[pol];

		if (!r->ran)
			continue;
		json_obj_open(j, sim_pol_name(pol));
		json_double(j, "makespan", r->makespan);
		json_double(j, "speedup", in->t_nobal / r->makespan);
		json_uint(j, "rounds", r->rounds);
		json_uint(j, "moved", r->moved);
		json_uint(j, "hops", r->hops);
		json_uint(j, "opt_hops", r->opt_hops);
		json_double(j, "moved_per_node", (double)r->moved / in->nhealthy);
		json_double(j, "hops_per_node", (double)r->hops / in->nhealthy);
		json_uint(j, "comm_steps", r->comm_steps);
		json_uint(j, "messages", r->messages);
		json_uint(j, "aapc_units", r->aapc_units);
		json_double(j, "lb_time", r->lb_time);
		json_str(j, "check", sim_bad_text(r->bad));
		json_obj_close(j);
	}
	json_obj_close(j);
	json_obj_close(j);
}

static void write_instance(const struct sim_model *m, const struct sim_params *p,
			   const char *dir)
{
	FILE *f = sim_create(dir, "instance-%u-%u-%u.txt", p->dim, p->nfaults,
			     p->run);

	sim_model_dump(m, f);
	sim_close(f);
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dim", required_argument, NULL, 'd' },
		{ "faults", required_argument, NULL, 'f' },
		{ "faulty", required_argument, NULL, 'F' },
		{ "policy", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "run", required_argument, NULL, 'i' },
		{ "runs", required_argument, NULL, 'r' },
		SIM_MODEL_OPTIONS,
		{ "instance-out", required_argument, NULL, 'I' },
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static u32 faulty[HCUBE_MAX_VERTICES];
	static struct sim_run_out out;
	struct sim_params p;
	const char *faulty_arg = NULL, *inst_out = NULL;
	bool have_dim = false, have_faults = false, csv = false, js = false;
	u32 pols = (1U << SIM_NPOL) - 1, runs = 1, first = 0, i, nf = 0;
	struct sim_model *m;
	struct json j;
	int c, pol, status = 0;

	sim_params_default(&p);
	while ((c = sim_getopt(argc, argv, opts, "run", run_usage)) != -1) {
		if (sim_model_option(&p, c, optarg))
			continue;
		switch (c) {
		case 'd':
			p.dim = (u32)sim_parse_uint("--dim", optarg, HCUBE_MAX_DIM);
			have_dim = true;
			break;
		case 'f':
			p.nfaults = (u32)sim_parse_uint("--faults", optarg,
							HCUBE_MAX_VERTICES);
			have_faults = true;
			break;
		case 'F':
			faulty_arg = optarg;
			break;
		case 'p':
			pols = sim_parse_policies(optarg);
			break;
		case 'i':
			first = (u32)sim_parse_uint("--run", optarg, 0x7fffffff);
			break;
		case 'r':
			runs = (u32)sim_parse_uint("--runs", optarg, 1000000);
			break;
		case 'I':
			inst_out = optarg;
			break;
		case 'c':
			csv = true;
			break;
		case 'j':
			js = true;
			break;
		}
	}
	if (!have_dim)
		sim_die("run: --dim is required");
	if (!p.dim)
		sim_die("--dim: the simulation needs at least a 1-cube");
	if (csv && js)
		sim_die("run: --csv and --json exclude each other");
	if (faulty_arg && have_faults)
		sim_die("run: --faults and --faulty exclude each other");
	if (faulty_arg) {
		u8 seen[HCUBE_MAX_VERTICES] = { 0 };
		size_t n = sim_parse_list("--faulty", faulty_arg, (1U << p.dim) - 1,
					  faulty, HCUBE_MAX_VERTICES);

		for (i = 0; i < n; i++) {
			if (seen[faulty[i]])
				sim_die("--faulty: vertex %u listed twice", faulty[i]);
			seen[faulty[i]] = 1;
		}
		nf = (u32)n;
		p.nfaults = nf;
	}
	if (p.nfaults >= (1U << p.dim))
		sim_die("--faults: %u faulty nodes leave no healthy node in a %u-cube",
			p.nfaults, p.dim);
	if (!runs)
		sim_die("--runs: at least 1");

	m = sim_model_new(p.dim, p.tasks_per_node);
	if (csv)
		sim_csv_header(stdout);
	if (js) {
		json_init(&j, stdout, false);
		json_arr_open(&j, NULL);
	}
	for (i = 0; i < runs; i++) {
		p.run = first + i;
		sim_model_run(m, &p, faulty_arg ? faulty : NULL, pols, &out);
		if (inst_out)
			write_instance(m, &p, inst_out);
		if (csv) {
			for (pol = 0; pol < SIM_NPOL; pol++)
				if (out.res[pol].ran)
					sim_csv_row(stdout, &p, &out, pol);
		} else if (js) {
			print_json(&j, &p, m, &out);
		} else {
			print_text(&p, m, &out);
		}
		for (pol = 0; pol < SIM_NPOL; pol++) {
			if (!out.res[pol].bad)
				continue;
			fprintf(stderr, "hcube-sim: run %u %s: %s\n", p.run,
				sim_pol_name(pol), sim_bad_text(out.res[pol].bad));
			status = 1;
		}
	}
	if (js) {
		json_arr_close(&j);
		json_end(&j);
	}
	sim_model_free(m);
	return status;
}
