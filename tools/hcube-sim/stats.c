// SPDX-License-Identifier: GPL-2.0
/*
 * hcube-sim: means and their 95% confidence intervals with Student's t
 * distribution, as in the paper's Figs. 6-8. The quantile comes from the
 * regularized incomplete beta function (continued fraction, modified
 * Lentz) by bisection; no table.
 */
#include <math.h>
#include "sim.h"

/* Continued fraction of the incomplete beta function I_x(a, b). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		double aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom. */
static double t_cdf(double t, double df)
{
	double tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double sim_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void sim_mean_of(struct sim_mean *m, const double *x, u32 n)
{
	double sum = 0, ss = 0;
	u32 i;

	m->n = n;
	m->mean = 0;
	m->sd = 0;
	m->ci95 = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	m->mean = sum / n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - m->mean) * (x[i] - m->mean);
	m->sd = sqrt(ss / (n - 1));
	m->ci95 = sim_t_quantile(0.975, n - 1) * m->sd / sqrt(n);
}
