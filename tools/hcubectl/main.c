// SPDX-License-Identifier: GPL-2.0
/*
 * hcubectl: the command-line client of the hcube kernel module, over its
 * generic netlink family "hcube". main() finds the command in the table,
 * and the runner does what every command needs: options, usage, errors of
 * usage, the socket.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "hcubectl.h"


static int hcubectl_batch_line(int argc, char **argv);
static const struct hc_cmd hc_cmd_help;

static const struct hc_cmd *const commands[] = {
	&hc_cmd_show, &hc_cmd_fault, &hc_cmd_task, &hc_cmd_rebalance, &hc_cmd_stats,
	&hc_cmd_config, &hc_cmd_topology, &hc_cmd_monitor, &hc_cmd_top, &hc_cmd_apply,
	&hc_cmd_health, &hc_cmd_metrics, &hc_cmd_help,
};

static void top_usage(FILE *f)
{
	size_t i;

	fputs("usage: hcubectl [-j|--json] [-p|--pretty] COMMAND [ARGS]\n"
	      "       hcubectl [-j|--json] [-p|--pretty] -b|-batch|--batch FILE\n"
	      "\n"
	      "The command-line client of the hcube kernel module (generic netlink\n"
	      "family \"hcube\"), which treats the CPU groups of the machine as the\n"
	      "vertices of a hypercube and balances registered tasks between them.\n"
	      "\n"
	      "commands:\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n"
	      "options (before or after the command):\n"
	      "  -j, --json     print JSON (one object or list; monitor: one per line)\n"
	      "  -p, --pretty   print indented JSON (implies -j)\n"
	      "  -b, -batch, --batch FILE\n"
	      "                 run the commands of FILE ('-': stdin), one per line as\n"
	      "                 after 'hcubectl'; '#' starts a comment; stops at the\n"
	      "                 first that fails, with FILE:LINE in its error\n"
	      "  -V, --version  print the version\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "'hcubectl COMMAND --help' (or 'hcubectl help COMMAND') describes a\n"
	      "command. Vertex labels are binary, highest dimension first (0101 is\n"
	      "vertex 5). Commands that change state need CAP_NET_ADMIN.\n"
	      "\n"
	      "Exit status: 0 on success, 1 when the kernel (or the system) reports an\n"
	      "error, 2 on bad usage; errors are one line on stderr.\n", f);
}

/* ---- usage texts, from the table ---- */

/* @s with the names the spec gives: @POLICIES@ is "mcwa|dem|...". */
static void put_text(struct hc_str *b, const char *s)
{
	static const char key[] = "@POLICIES@";
	const char *p;

	while ((p = strstr(s, key))) {
		hc_str_printf(b, "%.*s%s", (int)(p - s), s,
			      hc_enum_list(hc_policy_names, ARRAY_SIZE(hc_policy_names), "|"));
		s = p + strlen(key);
	}
	hc_str_printf(b, "%s", s);
}

/* @text wrapped at 79 columns, lines after the first indented by @indent. */
static void put_wrapped(FILE *f, const char *text, int col, int indent, const char *brk)
{
	const char *p = text;

	while ((int)strlen(p) + col > 79) {
		const char *cut = NULL, *q;

		/* the last break that fits, else the first one */
		for (q = p; *q && (q - p + col <= 79 || !cut); q++)
			if (*q == ' ' && (!brk || strchr(brk, q[1])))
				cut = q;
		if (!cut)
			break;
		fprintf(f, "%.*s\n%*s", (int)(cut - p), p, indent, "");
		p = cut + 1;
		col = indent;
	}
	fprintf(f, "%s\n", p);
}

/* "hcubectl [-j] [-p] PATH ARGS" for each form of @cmd's synopsis. */
static void synopsis(FILE *f, const struct hc_cmd *cmd, const char *path, bool *first)
{
	struct hc_str args = { 0 };
	char *form, *save = NULL;

	put_text(&args, cmd->args ? cmd->args : "");
	for (form = strtok_r(args.s, "\n", &save); form || !args.len;
	     form = strtok_r(NULL, "\n", &save)) {
		struct hc_str line = { 0 };

		hc_str_printf(&line, "%s hcubectl [-j] [-p] %s%s%s",
			      *first ? "usage:" : "      ", path, form ? " " : "",
			      form ? form : "");
		put_wrapped(f, line.s, 0, 9, "[");
		hc_str_free(&line);
		*first = false;
		if (!form)
			break;
	}
	hc_str_free(&args);
}

static void usage(FILE *f, const struct hc_cmd *cmd, const struct hc_cmd *parent,
		  const char *path)
{
	const struct hc_cmd *s;
	const struct hc_opt *o;
	bool first = true;
	int w = 0;

	if (cmd->subs) {
		for (s = cmd->subs; s->name; s++) {
			struct hc_str p = { 0 };

			hc_str_printf(&p, "%s %s", path, s->name);
			synopsis(f, s, p.s, &first);
			hc_str_free(&p);
		}
	} else {
		synopsis(f, cmd, path, &first);
	}
	fprintf(f, "\n%s", cmd->help ? cmd->help : parent->help);
	for (o = cmd->opts; o && o->name; o++)
		if (o->help) {
			int n = 4 + (int)strlen(o->name) + 2 +
				(o->arg ? 1 + (int)strlen(o->arg) : 0);

			w = n > w ? n : w;
		}
	for (o = cmd->opts; o && o->name; o++) {
		struct hc_str line = { 0 }, help = { 0 };

		if (!o->help)
			continue;
		if (o->val > 0xff)
			hc_str_printf(&line, "    --%s", o->name);
		else
			hc_str_printf(&line, "-%c, --%s", o->val, o->name);
		hc_str_printf(&line, "%s%s", o->arg ? " " : "", o->arg ? o->arg : "");
		put_text(&help, o->help);
		fprintf(f, "  %-*s  ", w, line.s);
		put_wrapped(f, help.s, w + 4, w + 4, NULL);
		hc_str_free(&line);
		hc_str_free(&help);
	}
}

/* ---- running a command ---- */

static void version(void)
{
	printf("hcubectl (hcube generic netlink family version %d)\n",
	       HCUBE_FAMILY_VERSION);
}

static bool is_help(const char *s)
{
	return !strcmp(s, "--help") || !strcmp(s, "-h") || !strcmp(s, "help");
}

static bool named(const struct hc_cmd *c, const char *name)
{
	return !strcmp(c->name, name) || (c->alias && !strcmp(c->alias, name));
}

static const struct hc_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (named(commands[i], name))
			return commands[i];
	return NULL;
}

static const struct hc_cmd *find_sub(const struct hc_cmd *cmd, const char *name)
{
	const struct hc_cmd *s;

	for (s = cmd->subs; s->name; s++)
		if (named(s, name))
			return s;
	return NULL;
}

static const char *sub_names(const struct hc_cmd *cmd)
{
	static char buf[128];
	const struct hc_cmd *s;
	size_t len = 0;

	buf[0] = '\0';
	for (s = cmd->subs; s->name; s++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					s == cmd->subs ? "" : ", ", s->name);
	return buf;
}

/* -j and -p, before or after the command. */
static bool output_option(int ch)
{
	if (ch == 'j')
		hc_opts.json = true;
	else if (ch == 'p')
		hc_opts.json = hc_opts.pretty = true;
	return ch == 'j' || ch == 'p';
}

/* getopt_long()'s complaint as a usage error of @what (NULL: hcubectl's). */
static void bad_option(const char *what, int ch, char **argv)
{
	if (ch == ':')
		hc_usage_error(what, "option '%s' needs an argument", argv[optind - 1]);
	if (optopt)
		hc_usage_error(what, "unknown option '-%c'", optopt);
	hc_usage_error(what, "unknown option '%s'", argv[optind - 1]);
}

/* The options of @c's command (and -j, -p, -h) out of argv. */
static void parse_options(struct hc_ctx *c, const struct hc_cmd *parent, int argc, char **argv)
{
	struct option longopts[HC_MAX_OPTS + 4];
	char shortopts[3 * HC_MAX_OPTS + 8] = ":hjp";
	const struct hc_opt *o;
	size_t n = 0, s = strlen(shortopts);
	int ch;

	for (o = c->cmd->opts; o && o->name; o++, n++) {
		longopts[n] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					       NULL, o->val };
		if (o->val > 0xff)
			continue;	/* long only */
		shortopts[s++] = (char)o->val;
		if (o->arg)
			shortopts[s++] = ':';
	}
	shortopts[s] = '\0';
	longopts[n++] = (struct option){ "json", no_argument, NULL, 'j' };
	longopts[n++] = (struct option){ "pretty", no_argument, NULL, 'p' };
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };

	optind = 0;	/* glibc: start over, argv[0] is the command */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout, c->cmd, parent, c->what);
			exit(0);
		}
		if (ch == ':' || ch == '?')
			bad_option(c->what, ch, argv);
		if (output_option(ch))
			continue;
		for (o = c->cmd->opts; o->val != ch; o++)
			;
		c->opt[o - c->cmd->opts] = optarg ? optarg : "";
	}
}

static int run(const struct hc_cmd *cmd, const struct hc_cmd *parent, const char *path,
	       int argc, char **argv)
{
	struct hc_ctx c = { .cmd = cmd, .what = path, .dim = -2 };
	const struct hc_cmd *sub;
	char subpath[64];
	int ret;

	if (cmd->subs) {
		if (argc < 2)
			hc_usage(&c, "missing command (%s)", sub_names(cmd));
		if (is_help(argv[1])) {
			usage(stdout, cmd, parent, path);
			return 0;
		}
		sub = find_sub(cmd, argv[1]);
		if (!sub)
			hc_usage(&c, "unknown command '%s' (%s)", argv[1], sub_names(cmd));
		snprintf(subpath, sizeof(subpath), "%s %s", path, sub->name);
		return run(sub, cmd, subpath, argc - 1, argv + 1);
	}
	parse_options(&c, parent, argc, argv);
	if (!(cmd->flags & HC_ARGS) && optind < argc)
		hc_usage(&c, "unexpected argument '%s'", argv[optind]);
	ret = cmd->handler(&c, argc - optind, argv + optind);
	hc_close(&c);
	if (!ret && (cmd->flags & HC_ACK) && hc_opts.json) {
		print_begin(false);
		open_json_object(NULL);
		close_json_object();
		print_end();
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "hcubectl: %s: cannot write the output\n", path);
		return HC_EXIT_ERROR;
	}
	return ret;
}

/*
 * hcubectl's command line: the options before the command, then the
 * command. @in_batch: a line of a batch file (-batch is refused there).
 */
static int hcubectl_main(int argc, char **argv, bool in_batch)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "batch", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const struct hc_cmd *cmd;
	const char *batch = NULL;
	int ch, i;

	/* ip's spelling, -batch, is --batch (getopt would read -b atch) */
	for (i = 1; i < argc && argv[i][0] == '-'; i++)
		if (!strcmp(argv[i], "-batch"))
			argv[i] = (char *)"--batch";
	optind = 0;
	opterr = 0;
	/* The options before the command ('+': up to the first word). */
	while ((ch = getopt_long(argc, argv, "+:jphVb:", opts, NULL)) != -1) {
		if (ch == 'h') {
			top_usage(stdout);
			return 0;
		}
		if (ch == 'V') {
			version();
			return 0;
		}
		if (ch == 'b') {
			if (in_batch)
				hc_usage_error(NULL, "-batch inside a batch file");
			batch = optarg;
			continue;
		}
		if (!output_option(ch))
			bad_option(NULL, ch, argv);
	}
	i = optind;
	if (batch) {
		if (i < argc)
			hc_usage_error(NULL, "-batch FILE takes no command ('%s')", argv[i]);
		return hc_batch(batch, hcubectl_batch_line);
	}
	if (i >= argc)
		hc_usage_error(NULL, "missing command");
	cmd = find_command(argv[i]);
	if (!cmd)
		hc_usage_error(NULL, "unknown command '%s'", argv[i]);
	return run(cmd, NULL, cmd->name, argc - i, argv + i);
}

/*
 * hcubectl help [COMMAND [SUBCOMMAND]]: the list of commands, or what
 * "hcubectl COMMAND [SUBCOMMAND] --help" prints (help help included).
 */
static int help(struct hc_ctx *c, int argc, char **argv)
{
	const struct hc_cmd *cmd;
	char **hargv;
	int i;

	(void)c;
	if (!argc) {
		top_usage(stdout);
		return 0;
	}
	cmd = find_command(argv[0]);
	if (!cmd)
		hc_usage_error(NULL, "unknown command '%s'", argv[0]);
	hargv = hc_malloc((size_t)(argc + 2) * sizeof(*hargv));
	for (i = 0; i < argc; i++)
		hargv[i] = argv[i];
	hargv[argc] = (char *)"--help";
	hargv[argc + 1] = NULL;
	i = run(cmd, NULL, cmd->name, argc + 1, hargv);
	free(hargv);
	return i;
}

static const struct hc_cmd hc_cmd_help = {
	.name = "help",
	.args = "[COMMAND [SUBCOMMAND]]",
	.summary = "this list, or the help of a command",
	.help =
	"Without a command, prints what 'hcubectl --help' prints: the usage and\n"
	"the list of commands. With one, what 'hcubectl COMMAND [SUBCOMMAND]\n"
	"--help' prints: 'hcubectl help task add' describes 'task add', and\n"
	"'hcubectl help help' this command.\n",
	.flags = HC_ARGS,
	.handler = help,
};

/* One line of a batch file: its words, as if after "hcubectl". */
static int hcubectl_batch_line(int argc, char **argv)
{
	return hcubectl_main(argc, argv, true);
}

int main(int argc, char **argv)
{
	return hcubectl_main(argc, argv, false);
}
