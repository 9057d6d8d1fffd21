#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# W=1 and sparse (C=2) over every object the series touches, in the test
# kernel's build directory (build it first).  A warning is the series'
# when it points into a new file or at a line the hook patches added; any
# such warning fails the object's case.  Warnings of the base's own lines
# are counted and left alone.
# usage: static-check.sh LOGDIR
. "$(dirname "$0")/lib.sh"

logdir=${1:-$OUT/static-check}
mkdir -p "$logdir"
R="python3 $HARNESS/results.py"
[ -f "$BUILD/vmlinux" ] || die "no kernel built in $BUILD"

# Files of the series: new kernel sources, and base files the patches touch.
new=$(series_new_files | grep -E '^(arch|drivers|fs|include|init|kernel|lib|mm)/.*\.[ch]$')
touched=$(for p in $(series_patches); do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$(patch_file "$p")"
done | grep -E '\.[ch]$' | grep -v '^tools/' | sort -u)

# Objects built from those files: their .o.cmd names the file as source or
# dependency (kernel/sched/debug.c is part of build_utility.o, ...).
objs=$(cd "$BUILD" && for f in $new $touched; do
	case $f in *.c) grep -l -E "(^source_| )(\.\./|$SRC/)?$f( |$)" \
		--include='.*.o.cmd' -r . 2>/dev/null ;; esac
done | sed -e 's|^\./||' -e 's|/\.\([^/]*\)\.cmd$|/\1|' | sort -u)
[ -n "$objs" ] || die "found no object built from the series' files"

# Line numbers the series added to each touched base file.
added=$logdir/added-lines
: >"$added"
for f in $touched; do
	[ -f "$BASE_SRC/$f" ] || continue
	diff -U0 "$BASE_SRC/$f" "$SRC/$f" | awk -v f="$f" '
		/^@@/ { split($3, a, ","); l = substr(a[1], 2); n = (a[2] == "" ? 1 : a[2]);
			for (i = 0; i < n; i++) print f ":" l + i }' >>"$added"
done
printf '%s\n' $new >"$logdir/new-files"

msg "W=1 C=2 (sparse) on: $(echo $objs | tr '\n' ' ')"
# shellcheck disable=SC2086
flock "$CACHE/build.lock" make -C "$SRC" O="$BUILD" ARCH=x86_64 CC="ccache gcc" \
	HOSTCC="ccache gcc" -j"$JOBS" W=1 C=2 $objs >"$logdir/build.log" 2>&1
brc=$?

python3 - "$logdir" "$SRC" "$HARNESS/results.py" $brc <<'PY'
import os, re, subprocess, sys
logdir, src, results, brc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
new = open(f'{logdir}/new-files').read().split()
added = set(open(f'{logdir}/added-lines').read().split())
touched = sorted({a.rsplit(':', 1)[0] for a in added})
warn = re.compile(r'^(\S+?):(\d+):(?:\d+:)?\s+(warning|error):\s*(.*)$')
ours, theirs = {}, 0
for line in open(f'{logdir}/build.log', errors='replace'):
    m = warn.match(line.strip())
    if not m:
        continue
    path = os.path.normpath(m.group(1))
    for pre in (src + '/', '../'):
        if path.startswith(pre):
            path = path[len(pre):]
    if path in new or f'{path}:{m.group(2)}' in added:
        ours.setdefault(path, []).append(line.strip())
    else:
        theirs += 1
fails = 0
for f in new + touched:
    st = 'fail' if f in ours else 'pass'
    fails += st == 'fail'
    subprocess.run(['python3', results, 'case', 'static', f'W=1 + sparse: {f}', st],
                   stdout=subprocess.DEVNULL, check=False)
    for w in ours.get(f, []):
        print('    ' + w, file=sys.stderr)
if brc:
    subprocess.run(['python3', results, 'case', 'static', 'W=1 C=2 build of the objects', 'fail'],
                   stdout=subprocess.DEVNULL, check=False)
    fails += 1
print(f'[ipcc] static checks: {len(new) + len(touched)} files, '
      f'{sum(len(v) for v in ours.values())} warnings of the series, '
      f'{theirs} of the base lines (left alone)', file=sys.stderr)
sys.exit(1 if fails else 0)
PY
prc=$?

# No test hook on the tick path: the tick's functions, and the functions
# they call directly, must not test kunit_running, the key behind
# KUNIT_STATIC_STUB_REDIRECT() (a wrapper KUnit can redirect is a call, a
# test and, in a KUnit-enabled kernel, a load on every tick).
tick_fns="__sched_ipcc_tick arch_ipcc_read_class ipcc_itd_read_class"
disas() {
	objdump -d --no-show-raw-insn --disassemble="$1" "$BUILD/vmlinux" 2>/dev/null |
		sed -n "/^[0-9a-f]* <$1>:/,/^\$/p"
}
trc=0
for fn in $tick_fns; do
	body=$(disas "$fn")
	if [ -z "$body" ]; then
		msg "tick path: $fn is not in vmlinux"
		$R case static "tick path without KUnit hooks: $fn" fail >/dev/null
		trc=1
		continue
	fi
	callees=$(printf '%s\n' "$body" | sed -n 's/.*call .*<\([A-Za-z0-9_.]*\)>$/\1/p' |
		grep -v -e '^__fentry__$' -e '^__SCT__' -e 'thunk' | sort -u)
	hooked=
	for c in "$fn" $callees; do
		# grep reads it all: with pipefail, -q could fail the pipeline.
		disas "$c" | grep '<kunit_running>' >/dev/null && hooked+=" $c"
	done
	if [ -n "$hooked" ]; then
		msg "tick path: $fn reaches KUnit hooks in:$hooked"
		$R case static "tick path without KUnit hooks: $fn" fail >/dev/null
		trc=1
	else
		$R case static "tick path without KUnit hooks: $fn" pass >/dev/null
	fi
done
[ $prc -eq 0 ] && [ $trc -eq 0 ]
