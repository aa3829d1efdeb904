/* SPDX-License-Identifier: GPL-2.0 */
/* hcubectl: shared declarations. */
#ifndef HCUBECTL_H
#define HCUBECTL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netlink/attr.h>
#include <linux/hcube.h>
#include "extack.h"
#include "json.h"
#include "names_gen.h"
#include "print.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Exit status: 0 success, 1 a kernel (or system) error, 2 bad usage. */
#define HC_EXIT_ERROR	1
#define HC_EXIT_USAGE	2

/* Global options, given before or after the command. */
struct hc_opts {
	bool json;
	bool pretty;
};
extern struct hc_opts hc_opts;

/* ---- the commands (main.c runs them) ---- */

struct hc_ctx;

/* An option of a command: its long name, its letter, its argument. */
struct hc_opt {
	const char *name;
	int val;		/* its letter, or HC_LONG(n): no letter */
	const char *arg;	/* the argument's name in the help; NULL: a flag */
	const char *help;	/* NULL: accepted, not listed (an old name) */
};

/*
 * A command, as iw's COMMAND() and bpftool's cmd tables have it: its name,
 * its arguments and help, the netlink command it sends, and the handler.
 * The runner parses the options (and -j, -p, -h), prints the usage, reports
 * bad usage, owns the socket (opened when a handler first talks to the
 * kernel) and prints "{}" for HC_ACK commands under -j.
 */
struct hc_cmd {
	const char *name;
	const char *alias;	/* also accepted: delete, ls, topo */
	const char *args;	/* the synopsis after the name; lines split by '\n' */
	const char *summary;	/* one line in the parent's list */
	const char *help;	/* the description of --help (NULL: the parent's) */
	const struct hc_opt *opts;	/* ended by a NULL name */
	uint8_t nlcmd;		/* the request the handler sends */
	unsigned int flags;
	/* @argv: the positional arguments (none without HC_ARGS) */
	int (*handler)(struct hc_ctx *c, int argc, char **argv);
	const struct hc_cmd *subs;	/* subcommands, ended by a NULL name */
};

#define HC_ARGS		0x1	/* takes positional arguments */
#define HC_DUMP		0x2	/* nlcmd is a dump */
#define HC_ACK		0x4	/* the kernel only acks: -j prints {} */

#define HC_MAX_OPTS	8
#define HC_LONG(n)	(0x100 + (n))

/* What a handler works with. */
struct hc_ctx {
	const struct hc_cmd *cmd;
	const char *what;	/* "task add": the prefix of its messages */
	const char *opt[HC_MAX_OPTS];	/* by index in cmd->opts: the argument, "" */
	struct nl_sock *sk;	/* NULL until the first request */
	int family;
	int dim;		/* the cube's dimension, -2 until asked */
};

/* The value of option @val (its letter), NULL when not given. */
const char *hc_opt(const struct hc_ctx *c, int val);
/* "usage error" of the command: exit 2. */
void hc_usage(const struct hc_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

extern const struct hc_cmd hc_cmd_show, hc_cmd_fault, hc_cmd_task, hc_cmd_rebalance,
	hc_cmd_stats, hc_cmd_config, hc_cmd_topology, hc_cmd_monitor, hc_cmd_top;
extern const struct hc_cmd hc_cmd_apply, hc_cmd_health, hc_cmd_metrics;

/* ---- batch.c: hcubectl -batch FILE ---- */

/*
 * Run the commands of @file ("-": stdin), one per line, each by @run (its
 * words, argv[0] "hcubectl") in a child process whose error lines say
 * "hcubectl: FILE:LINE: ...". Stops at the first that fails: its exit
 * status; 0 when all succeeded.
 */
int hc_batch(const char *file, int (*run)(int argc, char **argv));
/*
 * Split @line in place into words, appended to @w (v[n] stays NULL):
 * blanks separate them, '...' and "..." quote, a backslash escapes the next
 * character (outside '...'), a word that starts with '#' starts a comment.
 * NULL, or what is wrong with the line.
 */
struct hc_words {
	char **v;
	int n, cap;
};
const char *hc_split_words(char *line, struct hc_words *w);
/* In a batch line's process: the batch reads stdin when it is "-". */
extern bool hc_batch_stdin;

/* ---- nl.c: requests through the command's socket ---- */

struct nl_msg;

/* A request under construction: the message and what each attribute means. */
struct hc_req {
	struct nl_msg *msg;
	struct hc_attrmap map;
	const char *what;	/* for error messages: "task add" */
	uint8_t cmd;
};

/* A message from the kernel, its attributes parsed with their set's policy. */
#define HC_TB_SIZE	64
struct hc_msg {
	uint8_t cmd;
	struct nlattr *attrs;	/* the attribute stream */
	int len;
	struct nlattr **tb;	/* by type, the last of each */
};

/*
 * A received message of @family into @m (its attributes parsed into @tb,
 * HC_TB_SIZE entries): 0, 1 when it is another family's, -1 if malformed.
 */
int hc_msg_from(struct nl_msg *msg, int family, struct hc_msg *m, struct nlattr **tb);

/* Handler of one reply or event. Returns 0, or -1 if it is malformed. */
typedef int (*hc_reply_fn)(const struct hc_msg *m, void *arg);

/* The socket of @c, opened and the family resolved on first use. */
struct nl_sock *hc_sock(struct hc_ctx *c);
/* The same, NULL when the module is not loaded (the family not found). */
struct nl_sock *hc_sock_try(struct hc_ctx *c);
void hc_close(struct hc_ctx *c);

/* A request: @nlcmd, a dump or not; @what NULL: the command's name. */
void hc_req_init(struct hc_req *r, uint8_t nlcmd, bool dump, size_t size, const char *what);
void hc_req_free(struct hc_req *r);
/* Each put records the attribute's offset under a printf-style label. */
void hc_req_u32(struct hc_req *r, int type, uint32_t v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void hc_req_flag(struct hc_req *r, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hc_req_str(struct hc_req *r, int type, const char *v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct nlattr *hc_req_nest(struct hc_req *r, int type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void hc_req_nest_end(struct hc_req *r, struct nlattr *nest);
/* Where the next attribute goes: its offset in an extended ack. */
uint32_t hc_req_next_offs(const struct hc_req *r);

/*
 * Send @r (NLM_F_ACK) and pass every reply to @fn until the ack, the end of
 * the dump or an error. Returns 0, or HC_EXIT_ERROR after printing the
 * error line ("hcubectl: <what>: ..."). With @ext, a kernel error is not
 * printed but returned there (HC_EXIT_ERROR), for the caller to retry.
 */
int hc_req_send(struct hc_ctx *c, struct hc_req *r, hc_reply_fn fn, void *arg,
		struct hc_extack *ext);
/* Send @r, which the kernel only acks, and free it. */
int hc_req_ack(struct hc_ctx *c, struct hc_req *r);
/* The error line of a kernel error, as hc_req_send() prints it. */
void hc_req_error(const struct hc_req *r, const struct hc_extack *ext);
/* The command's own request (its nlcmd, HC_DUMP), without attributes. */
int hc_run(struct hc_ctx *c, hc_reply_fn fn, void *arg);
/* A request without attributes. */
int hc_get(struct hc_ctx *c, uint8_t nlcmd, bool dump, const char *what,
	   hc_reply_fn fn, void *arg);
/* The cube's dimension (CUBE_GET, once): *dim is -1 if the kernel does not say. */
int hc_cube_dim(struct hc_ctx *c, int *dim);

/*
 * nlctrl's notification that @family went away (CTRL_CMD_DELFAMILY with its
 * id): the module was unloaded.
 */
bool hc_family_deleted(struct nl_msg *msg, int family);

/* Parse a message's or a nest's attributes with a set's policy: 0 or -1. */
int hc_parse(struct nlattr **tb, const struct hc_attr_set *set, struct nlattr *head, int len);
int hc_parse_nested(struct nlattr **tb, const struct hc_attr_set *set,
		    const struct nlattr *nest);

/* A copy of attributes that outlives the message, parsed. */
struct hc_attrs {
	void *buf;
	int len;		/* of buf: the attributes, multi-attrs among them */
	struct nlattr *tb[HC_TB_SIZE];
};
int hc_attrs_copy(struct hc_attrs *a, const struct hc_attr_set *set,
		  const struct nlattr *head, int len);
void hc_attrs_free(struct hc_attrs *a);

/* A list of copies: tasks of a reply, vertices of a dump. */
struct hc_attrs_list {
	struct hc_attrs *v;
	size_t n, cap;
};
/* Copy the nest @a (of @set) to the end of @l: 0, or -1 if malformed. */
int hc_attrs_add(struct hc_attrs_list *l, const struct hc_attr_set *set,
		 const struct nlattr *a);
void hc_attrs_list_free(struct hc_attrs_list *l);
/* The dimension a cube summary's attributes give, or -1. */
int hc_tb_dim(struct nlattr **tb);

/*
 * cmd_show.c: the cube summary (CUBE_GET) and the vertices (VERTEX_GET dump,
 * appended to @v, sorted by id), fetched again while the generation moves.
 * Errors are "<c->what>: cube: ..." or "<c->what>: vertices: ...".
 */
int hc_fetch_cube(struct hc_ctx *c, struct hc_attrs *cube, struct hc_attrs_list *v);

/* ---- census.c: the CPUs of the cube and what made them unusable ---- */

struct hc_cpu {
	uint32_t cpu, vertex;
	int by;			/* HCUBE_REASON_*: admin, mce, hotplug; -1: none */
	bool in_marked;		/* its vertex is marked faulty */
	bool healthy;		/* usable: not faulty, not offline, vertex not marked */
	bool isolated;
	bool has_mce;		/* the module sent its machine-check records */
	uint64_t mce_records;
};

struct hc_census {
	struct hc_attrs cube;	/* the summary */
	struct hc_attrs_list v;	/* the vertices, sorted by id */
	struct hc_attrs stats;	/* the counters (hc_set_stats) */
	int dim;
	struct hc_cpu *cpu;	/* by vertex, then CPU number */
	size_t ncpus, nhealthy_cpus;
	uint32_t nvertices;	/* with a CPU group (not absent) */
	uint32_t nhealthy_vertices;	/* of those, healthy or isolated */
};

/* The cube, its vertices, the counters, one consistent read: 0 or HC_EXIT_ERROR. */
int hc_census_fetch(struct hc_ctx *c, struct hc_census *cs);
void hc_census_free(struct hc_census *cs);
/* What made CPU @p unusable: "admin", "mce", "hotplug"; NULL: nothing. */
const char *hc_census_by(const struct hc_cpu *p);

/* cmd_health.c: 0 or 1 when @key is a threshold of health in hcube.conf, else -1. */
int hc_health_key(const char *key);

/*
 * dot.c: show --dot: the cube of hc_fetch_cube() as a Graphviz digraph on
 * stdout; @plan: with the transfers of a dry-run rebalance.
 */
int hc_show_dot(struct hc_ctx *c, struct hc_attrs *cube, const struct hc_attrs_list *v,
		int dim, bool plan);

/* ---- render.c: what several commands print ---- */

/* The cube summary: show's first line and keys, fault and topology events. */
void print_cube(struct nlattr **tb);

/*
 * A CPU's HCUBE_A_CPU_INFO nest (show, fault events): the JSON keys cpu,
 * marked_by, mce_records, mce_count, mce_window, mce_bank, mce_status,
 * mce_uc in the object open, and as text "marked by mce: 3 corrected
 * errors in 60 s, last bank 1 status 0x9c00000000000151, 3 records".
 * -1 when the nest is malformed.
 */
int print_cpu_info(const struct nlattr *nest);

/* A task (HCUBE_A_TASK, report failures, events): its keys as sent. */
#define HC_TASK_UNITS	0x1	/* origin, unit, creator always (null) */
void print_task(struct nlattr **tb, int dim, unsigned int flags);

/*
 * A rebalance report: the full text, or one line (monitor). hc_report_check()
 * says first whether the message holds one (0) or not (-1).
 */
int hc_report_check(const struct hc_msg *m);
int hc_report_dim(struct nlattr **tb, int dim);
int print_report(const struct hc_msg *m, int dim, bool line);
/* A report's (or a REBALANCE dump's) transfers, by communication step. */
void print_transfers(const struct hc_msg *m, int dim);

/* "label": binary digits (a 0-cube: ""); nothing when the dimension is unknown. */
void print_label(int dim, uint32_t v);

/* ---- cgroup.c ---- */

/*
 * The pids in cgroup.procs of the cgroup v2 directory @path (absolute, or
 * relative to the cgroup2 mount), malloc'ed, *n of them. Exits with one line
 * (status 1) when it is not a cgroup v2 directory, has no cgroup.procs or
 * is empty.
 */
uint32_t *hc_cgroup_pids(const struct hc_ctx *c, const char *path, size_t *n);

/* ---- util.c ---- */

/* "hcubectl: <fmt>" on stderr, exit 1. */
void hc_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "hcubectl: <cmd>: <fmt> (try 'hcubectl <cmd> --help')" on stderr, exit 2. */
void hc_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void *hc_malloc(size_t size);
void *hc_realloc(void *p, size_t size);
extern volatile sig_atomic_t hc_stop_signal;
void hc_signals_catch(const int *sigs, size_t n, sigset_t *waitmask);

/* Parsers: false when @s is not what is asked for. */
bool hc_parse_u32(const char *s, uint32_t *v);
/* A vertex: decimal, or binary with a 0b prefix. *why says what is wrong. */
bool hc_parse_vertex(const char *s, uint32_t *v, const char **why);
bool hc_parse_cpulist(const char *s, const char **why);
/*
 * A cpulist into @set (@n bits, zeroed first): false, with *why, when it is
 * not one or names a CPU of @n or more.
 */
bool hc_cpulist_bits(const char *s, uint8_t *set, uint32_t n, const char **why);
/* The value named @s in @names, or -1. */
int hc_enum_parse(const char *const *names, unsigned int n, const char *s);
/* The names of an enum joined by @sep ("mcwa, dem, ..."): static storage. */
const char *hc_enum_list(const char *const *names, unsigned int n, const char *sep);
/* The name of @v, or its number in @buf. */
const char *hc_name(const char *const *names, unsigned int n, uint32_t v,
		    char *buf, size_t size);
#define HC_NAME(tbl, v, buf)	hc_name(tbl, ARRAY_SIZE(tbl), v, buf, sizeof(buf))

/* A string attribute, malloc'ed, valid UTF-8 without control characters. */
char *hc_attr_str(const struct nlattr *a);

/*
 * A vertex label: @dim binary digits (highest dimension first) when the
 * dimension is known (dim >= 0) and @v fits, "-" for a 0-cube, else the
 * decimal id.
 */
#define HC_LABEL_MAX 40
const char *hc_label(char *buf, int dim, uint32_t v);

/* Replace invalid UTF-8 and control characters by '?', in place. */
void hc_sanitize(char *s);

/* strerror() of a -errno from the kernel. */
const char *hc_kernel_strerror(int32_t err);

/* A text table with columns sized to fit. */
struct hc_table {
	int ncols;
	const char *align;	/* 'l' or 'r' per column */
	size_t nrows, cap;
	char **cells;		/* nrows * ncols, row 0 the header */
};
void hc_table_init(struct hc_table *t, int ncols, const char *align,
		   const char *const *header);
void hc_table_row(struct hc_table *t, ...);	/* ncols strings (at most 16) */
void hc_table_rowv(struct hc_table *t, const char *const *cells);
void hc_table_print(struct hc_table *t, FILE *f, const char *indent);
void hc_table_free(struct hc_table *t);

/* A growing string. */
struct hc_str {
	char *s;
	size_t len, cap;
};
void hc_str_printf(struct hc_str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hc_str_free(struct hc_str *b);

/* settings.c: the module's settings (config set, apply), by index. */
enum {
	HC_SET_POLICY, HC_SET_AUTO, HC_SET_THRESHOLD, HC_SET_COOLDOWN,
	HC_SET_MCE_CE_THRESHOLD, HC_SET_MCE_CE_WINDOW, HC_SET_MCE_UC, HC_NSETTINGS
};
struct hc_setting {
	const char *key;	/* as config set and hcube.conf name it */
	const char *alias;	/* another name it takes, or NULL */
	int attr;		/* its HCUBE_A_CONFIG_* (every one a u32) */
};
extern const struct hc_setting hc_settings[HC_NSETTINGS];
/* The index of the setting @key names, or -1. */
int hc_setting_find(const char *key);
/* The policy @s names, or -1 with "unknown policy 's' (mcwa, ...)" in @why. */
int hc_policy_parse(const char *s, struct hc_str *why);
/*
 * @val of setting @k (given as @key) into @out: 0, or -1 with the reason in
 * @why. @range: check the module's range too (apply checks a whole file
 * before it changes anything; config set leaves it to the kernel).
 */
int hc_setting_parse(int k, const char *key, const char *val, bool range,
		     uint32_t *out, struct hc_str *why);
/* A setting's value as config show and apply print it. */
void hc_setting_format(struct hc_str *b, int k, uint32_t v);

#endif
