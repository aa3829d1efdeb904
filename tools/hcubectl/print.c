// SPDX-License-Identifier: GPL-2.0
/* hcubectl: text or JSON from the same calls (print.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "hcubectl.h"

static struct json jw;
static bool json_on;

void print_begin(bool oneline)
{
	json_on = hc_opts.json;
	if (json_on)
		json_init(&jw, stdout, hc_opts.pretty && !oneline);
}

void print_end(void)
{
	if (json_on)
		json_end(&jw);
	json_on = false;
	fflush(stdout);
}

bool is_json(void)
{
	return json_on;
}

void open_json_object(const char *key)
{
	if (json_on)
		json_obj_open(&jw, key);
}

void close_json_object(void)
{
	if (json_on)
		json_obj_close(&jw);
}

void open_json_array(const char *key)
{
	if (json_on)
		json_arr_open(&jw, key);
}

void close_json_array(void)
{
	if (json_on)
		json_arr_close(&jw);
}

/* Does this call print in the current mode? */
static bool text(int t, const char *fmt)
{
	return !json_on && (t & PRINT_FP) && fmt;
}

static bool json(int t)
{
	return json_on && (t & PRINT_JSON);
}

void print_string(enum output_type t, const char *key, const char *fmt, const char *value)
{
	if (json(t))
		json_str(&jw, key, value);
	else if (text(t, fmt) && value)
		printf(fmt, value);
}

void print_uint(enum output_type t, const char *key, const char *fmt, unsigned int value)
{
	if (json(t))
		json_uint(&jw, key, value);
	else if (text(t, fmt))
		printf(fmt, value);
}

void print_u64(enum output_type t, const char *key, const char *fmt, uint64_t value)
{
	if (json(t))
		json_uint(&jw, key, value);
	else if (text(t, fmt))
		printf(fmt, (unsigned long long)value);
}

void print_int(enum output_type t, const char *key, const char *fmt, int value)
{
	if (json(t))
		json_int(&jw, key, value);
	else if (text(t, fmt))
		printf(fmt, value);
}

void print_bool(enum output_type t, const char *key, const char *fmt, bool value)
{
	if (json(t))
		json_bool(&jw, key, value);
	else if (text(t, fmt))
		printf(fmt, value ? "true" : "false");
}

void print_null(enum output_type t, const char *key, const char *fmt)
{
	if (json(t))
		json_null(&jw, key);
	else if (text(t, fmt))
		fputs(fmt, stdout);
}

void print_fp(const char *fmt, ...)
{
	va_list ap;

	if (json_on)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void print_enum(enum output_type t, const char *key, const char *fmt,
		const char *const *names, unsigned int n, uint32_t value)
{
	char num[16];

	print_string(t, key, fmt, hc_name(names, n, value, num, sizeof(num)));
}

/* An absent attribute: null, nothing with PRINT_OPT, 0 in text with PRINT_ZERO. */
static bool absent(int t, const char *key, const struct nlattr *a)
{
	if (a)
		return false;
	if (!(t & PRINT_OPT))
		print_null(t & PRINT_JSON, key, NULL);
	return true;
}

void print_attr_u32(int t, const char *key, const char *fmt, const struct nlattr *a)
{
	if (!absent(t, key, a))
		print_uint(t & PRINT_ANY, key, fmt, nla_get_u32(a));
	else if (t & PRINT_ZERO)
		print_uint(t & PRINT_FP, NULL, fmt, 0);
}

void print_attr_u64(int t, const char *key, const char *fmt, const struct nlattr *a)
{
	if (!absent(t, key, a))
		print_u64(t & PRINT_ANY, key, fmt, nla_get_u64(a));
	else if (t & PRINT_ZERO)
		print_u64(t & PRINT_FP, NULL, fmt, 0);
}

void print_attr_str(int t, const char *key, const char *fmt, const struct nlattr *a)
{
	char *s;

	if (absent(t, key, a))
		return;
	s = hc_attr_str(a);
	print_string(t & PRINT_ANY, key, fmt, s);
	free(s);
}

void print_attr_enum(int t, const char *key, const char *fmt,
		     const char *const *names, unsigned int n, const struct nlattr *a)
{
	if (!absent(t, key, a))
		print_enum(t & PRINT_ANY, key, fmt, names, n, nla_get_u32(a));
}
