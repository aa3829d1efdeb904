# SPDX-License-Identifier: GPL-2.0
# hcube-sim experiment: the plots of Figs. 6-9 of Nam et al. (1999) from
# the data files 'hcube-sim experiment' writes. Usage:
#   gnuplot -e "dir='build/experiment'; dims='5 6 7'" tools/hcube-sim/plots.gp
# Writes dir/speedup_nN.png (Figs. 6-8), dir/migrations_nN.png (Fig. 9 for
# N = 7) and dir/hops_over_optimum.png.

if (!exists("dir")) dir = 'build/experiment'
if (!exists("dims")) dims = '5 6 7'

set terminal pngcairo size 860,560 font 'DejaVu Sans,11' noenhanced
set datafile missing '?'
set key below horizontal maxrows 2 width -2
set grid ytics lc rgb '#dddddd'
set xtics 1
set border 3
set tics nomirror
set pointsize 0.9

# Policy colours, the same in every plot.
c_mcwa = '#c0392b'
c_dem = '#2471a3'
c_rid = '#7d3c98'
c_opt = '#1e8449'
c_ideal = '#555555'
c_cwa = '#d68910'

# speedup_nN.dat: 1 faults, 2-3 ideal, 4-5 mcwa, 6-7 dem, 8-9 rid,
# 10-11 mcwa-opt, 12-13 cwa (mean, 95% CI half-width)
do for [n in dims] {
	f = sprintf('%s/speedup_n%s.dat', dir, n)
	set output sprintf('%s/speedup_n%s.png', dir, n)
	set title sprintf('Speedup over no balancing, %s-cube (mean, 95%% CI)', n)
	set xlabel 'faulty nodes'
	set ylabel 'speedup'
	set xrange [-0.5:n + 3.5]
	set yrange [*:*]
	plot f u 1:2:3 w yerrorlines dt 2 lw 1.5 pt 1 lc rgb c_ideal t 'ideal (work / healthy nodes)', \
	     f u ($1 - 0.12):4:5 w yerrorlines lw 2 pt 7 lc rgb c_mcwa t 'MCWA', \
	     f u ($1 - 0.04):6:7 w yerrorlines lw 2 pt 5 lc rgb c_dem t 'DEM', \
	     f u ($1 + 0.04):8:9 w yerrorlines lw 2 pt 9 lc rgb c_rid t 'RID', \
	     f u ($1 + 0.12):10:11 w yerrorlines lw 2 pt 13 lc rgb c_opt t 'MCWA-opt (beyond the paper)', \
	     f u 1:12:13 w yerrorbars pt 6 ps 1.6 lw 1.5 lc rgb c_cwa t 'CWA (fault-free only)'
}

# migrations_nN.dat: 1 faults; per policy (mcwa 2-5, dem 6-9, rid 10-13,
# mcwa-opt 14-17, cwa 18-21): task-hops/node, optimal task-hops/node,
# moved/node, rounds; 22 mean tree depth T
set key inside right bottom vertical maxrows auto width 0 box opaque
do for [n in dims] {
	f = sprintf('%s/migrations_n%s.dat', dir, n)
	set output sprintf('%s/migrations_n%s.png', dir, n)
	set title sprintf('Task migrations per node in one run, %s-cube', n)
	set xlabel 'faulty nodes'
	set ylabel 'task-hops per healthy node'
	set y2label 'MCWA tree depth T'
	set y2tics 0.5 nomirror
	set xrange [-0.5:n + 3.5]
	set yrange [0:*]
	set y2range [0:*]
	plot f u 1:2 w lp lw 2 pt 7 lc rgb c_mcwa t 'MCWA', \
	     f u 1:3 w lp lw 1.5 dt 2 pt 6 lc rgb c_mcwa t 'optimum for MCWA''s loads', \
	     f u 1:6 w lp lw 2 pt 5 lc rgb c_dem t 'DEM', \
	     f u 1:7 w lp lw 1.5 dt 2 pt 4 lc rgb c_dem t 'optimum for DEM''s loads', \
	     f u 1:10 w lp lw 2 pt 9 lc rgb c_rid t 'RID (1 hop each)', \
	     f u 1:14 w lp lw 2 pt 13 lc rgb c_opt t 'MCWA-opt', \
	     f u 1:22 axes x1y2 w l lw 1 dt 3 lc rgb c_ideal t 'tree depth T (right)'
	unset y2label
	unset y2tics
}

set output sprintf('%s/hops_over_optimum.png', dir)
set title 'Task-hops over the optimum for the same final loads'
set xlabel 'faulty nodes'
set ylabel 'task-hops / optimum'
set key inside right bottom vertical maxrows auto width 0 box opaque
set xrange [-0.5:10.5]
set yrange [1:*]
plot for [i = 1:words(dims)] sprintf('%s/migrations_n%s.dat', dir, word(dims, i)) \
	u 1:($2 / $3) w lp lw 2 pt 7 dashtype i lc rgb c_mcwa \
	t sprintf('MCWA, %s-cube', word(dims, i)), \
     for [i = 1:words(dims)] sprintf('%s/migrations_n%s.dat', dir, word(dims, i)) \
	u 1:($6 / $7) w lp lw 2 pt 5 dashtype i lc rgb c_dem \
	t sprintf('DEM, %s-cube', word(dims, i))
