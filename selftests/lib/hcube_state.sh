# SPDX-License-Identifier: GPL-2.0
# The module's state in one line, as hcubectl shows it, for the tests of
# the persistent set-up (apply, -batch, the unit): source it after tap.sh.
#
# STATE_CMD: the hcubectl command line, an array (e.g. (env LD_PRELOAD=FAKE
# hcubectl) against the fake module); STATE_GROUPS=1 adds the vertices' CPU
# groups; $tmp: a temporary directory.

# state: "mode=M [groups=G/G...] cpus=FAULTY marked=IDS policy=P auto=A
# threshold=T cooldown=C", from hcubectl -j show and -j config show.
state() {
	"${STATE_CMD[@]}" -j show >"$tmp/show.json" &&
	"${STATE_CMD[@]}" -j config show >"$tmp/config.json" &&
	python3 - "$tmp/show.json" "$tmp/config.json" "${STATE_GROUPS:-0}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
cpus = []
for v in s['vertices']:
    for r in filter(None, (v['faulty_cpus'] or '').split(',')):
        a, _, b = r.partition('-')
        cpus += range(int(a), int(b or a) + 1)
line = ['mode=' + s['mode']]
if sys.argv[3] == '1':
    line.append('groups=' + '/'.join(v['cpus'] for v in s['vertices']
                                     if v['state'] != 'absent'))
line += ['cpus=' + ','.join(map(str, sorted(cpus))),
         'marked=' + ','.join(str(v['id']) for v in s['vertices'] if v['marked']),
         'policy=%s auto=%s threshold=%s cooldown=%s' %
         (c['policy'], c['auto'], c['threshold'], c['cooldown_ms'])]
print(' '.join(line))
PY
}

# check_state NAME WANT: the state is WANT
check_state() {
	local got
	got=$(state 2>&1)
	if [ "$got" = "$2" ]; then
		ok "$1: $2"
	else
		not_ok "$1: state '$got', want '$2'"
	fi
}
