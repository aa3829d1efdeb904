#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A strict reader of the Prometheus text exposition format (version
0.0.4), for the tests of hcubectl metrics: parse(text) returns the samples
as {(name, ((label, value), ...)): float} and raises ValueError naming the
line of anything the format, or the project's naming rules, do not allow:

- every line a "# HELP name text", a "# TYPE name type", another comment,
  or a sample "name{label="value",...} value"; the file ends in a newline;
- names [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*,
  label values with only \\\\, \\" and \\n escaped;
- one HELP and one TYPE per family, both before its first sample; the
  samples of a family together; no series twice;
- (hcube's rules) every sample's family has HELP and TYPE; counters end
  in _total and are never negative; names start with hcube_.

Usage: prom_check.py FILE   (exit status 1 and the error when it fails)
"""
import math
import re
import sys

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*')
LABEL = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*')
TYPES = ('counter', 'gauge', 'histogram', 'summary', 'untyped')


def parse_labels(s, ln):
    """'a="x",b="y"}' -> (((a, x), (b, y)), rest after '}')"""
    labels = []
    i = 0
    while True:
        if s[i:i + 1] == '}':
            return tuple(labels), s[i + 1:]
        m = LABEL.match(s, i)
        if not m:
            raise ValueError(f'line {ln}: bad label name at {s[i:]!r}')
        name = m.group(0)
        i = m.end()
        if s[i:i + 2] != '="':
            raise ValueError(f'line {ln}: label {name}: want ="')
        i += 2
        val = []
        while True:
            if i >= len(s):
                raise ValueError(f'line {ln}: label {name}: unterminated value')
            ch = s[i]
            if ch == '\\':
                nxt = s[i + 1:i + 2]
                if nxt not in ('\\', '"', 'n'):
                    raise ValueError(f'line {ln}: label {name}: bad escape \\{nxt}')
                val.append('\n' if nxt == 'n' else nxt)
                i += 2
            elif ch == '"':
                i += 1
                break
            else:
                val.append(ch)
                i += 1
        if name in dict(labels):
            raise ValueError(f'line {ln}: label {name} twice')
        labels.append((name, ''.join(val)))
        if s[i:i + 1] == ',':
            i += 1
        elif s[i:i + 1] != '}':
            raise ValueError(f'line {ln}: want , or }} after label {name}')


def family_of(name, types):
    """The family a sample belongs to (histogram and summary suffixes)."""
    for suf in ('_bucket', '_sum', '_count'):
        base = name[:-len(suf)]
        if name.endswith(suf) and types.get(base) in ('histogram', 'summary'):
            return base
    return name


def parse(text):
    if text and not text.endswith('\n'):
        raise ValueError('the file does not end in a newline')
    helps, types, samples = {}, {}, {}
    done = set()        # families whose samples ended
    current = None
    for ln, line in enumerate(text.split('\n')[:-1], 1):
        if not line.strip():
            continue
        if line.startswith('#'):
            parts = line.split(None, 3)
            if len(parts) >= 3 and parts[1] in ('HELP', 'TYPE'):
                name = parts[2]
                if not NAME.fullmatch(name):
                    raise ValueError(f'line {ln}: bad metric name {name!r}')
                table = helps if parts[1] == 'HELP' else types
                if name in table:
                    raise ValueError(f'line {ln}: a second {parts[1]} for {name}')
                if name in done or name == current:
                    raise ValueError(f'line {ln}: {parts[1]} of {name} after its samples')
                if parts[1] == 'TYPE' and (len(parts) != 4 or parts[3] not in TYPES):
                    raise ValueError(f'line {ln}: bad TYPE line')
                table[name] = parts[3] if len(parts) == 4 else ''
            continue
        m = NAME.match(line)
        if not m:
            raise ValueError(f'line {ln}: not a sample: {line!r}')
        name, rest = m.group(0), line[m.end():]
        labels = ()
        if rest.startswith('{'):
            labels, rest = parse_labels(rest[1:], ln)
        fields = rest.split()
        if not rest.startswith(' ') or len(fields) not in (1, 2):
            raise ValueError(f'line {ln}: want "name{{labels}} value [timestamp]"')
        try:
            value = float(fields[0])
        except ValueError:
            raise ValueError(f'line {ln}: bad value {fields[0]!r}') from None
        fam = family_of(name, types)
        if fam != current:
            if fam in done:
                raise ValueError(f'line {ln}: samples of {fam} not together')
            if current is not None:
                done.add(current)
            current = fam
        key = (name, tuple(sorted(labels)))
        if key in samples:
            raise ValueError(f'line {ln}: series {name}{dict(labels)} twice')
        samples[key] = value
        # the project's rules
        if not name.startswith('hcube_'):
            raise ValueError(f'line {ln}: {name} does not start with hcube_')
        if fam not in helps or fam not in types:
            raise ValueError(f'line {ln}: {fam} has no HELP or no TYPE before its samples')
        if types[fam] == 'counter' and (not fam.endswith('_total') or value < 0 or
                                         math.isnan(value)):
            raise ValueError(f'line {ln}: counter {fam}: want a _total name, a value >= 0')
    return samples


def main():
    try:
        with open(sys.argv[1], encoding='utf-8') as f:
            s = parse(f.read())
    except (OSError, ValueError, IndexError) as e:
        print(f'prom_check: {e}', file=sys.stderr)
        return 1
    print(f'prom_check: {len(s)} samples')
    return 0


if __name__ == '__main__':
    sys.exit(main())
