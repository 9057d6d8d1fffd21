#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Context-switch cost of the series when it is built in but off
# (kernel.sched_ipcc=0) against the same kernel built without it.
#
# usage: bench/overhead/compare-kernels.sh [BOOTS] [REPS]
#   Builds (once) a second kernel from the harness's .config with
#   CONFIG_SCHED_IPCC off in ~/.cache/ipcc/build/kernel-noipcc, then boots
#   the two kernels alternately BOOTS times (default 3), each running the
#   pipe ping-pong and the hackbench-like messaging REPS times (default 5).
#   NOIPCC_KERNEL=path boots that bzImage instead of building one (any
#   build of the same base without CONFIG_SCHED_IPCC: with the option off
#   every hook compiles away, so the series' later changes do not matter).
#   Times are divided by the guest's calibration loop (cancels TCG speed
#   drift between boots).  Prints per-pair ratios noipcc/ipcc (>= 0.99:
#   no measurable overhead) with median and spread.
. "$(dirname "$0")/../../harness/lib.sh"

boots=${1:-3}
reps=${2:-5}
nob=$CACHE/build/kernel-noipcc
"$HARNESS/build.sh" all || exit 1
"$REPO/bench/build-guest.sh" || exit 1
"$HARNESS/build.sh" initramfs || exit 1
if [ -n "${NOIPCC_KERNEL:-}" ]; then
	noimg=$NOIPCC_KERNEL
else
noimg=$nob/arch/x86/boot/bzImage
if [ ! -f "$nob/.config" ] || [ "$BUILD/.config" -nt "$nob/.config" ]; then
	mkdir -p "$nob"
	cp "$BUILD/.config" "$nob/.config"
	"$SRC/scripts/config" --file "$nob/.config" -d SCHED_IPCC \
		-d X86_IPCC_EMULATION -d SCHED_IPCC_KUNIT_TEST \
		-d X86_IPCC_EMULATION_KUNIT_TEST
fi
msg "building the kernel without CONFIG_SCHED_IPCC in $nob"
make -C "$SRC" O="$nob" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	-j"$JOBS" olddefconfig bzImage >"$OUT/kernel-noipcc.log" 2>&1 ||
	die "build failed; see $OUT/kernel-noipcc.log"
grep -q '^# CONFIG_SCHED_IPCC is not set' "$nob/.config" || die "SCHED_IPCC still on"
fi

guest=$(mktemp)
cat >"$guest" <<EOT
#!/bin/sh
[ -f /proc/sys/kernel/sched_ipcc ] && echo 0 >/proc/sys/kernel/sched_ipcc
for i in \$(seq $reps); do
	ipcc-pingpong 20000
	ipcc-hackbench 4 10 100
done
EOT
logdir=$(new_logdir compare-kernels)
for ((b = 1; b <= boots; b++)); do
	for k in ipcc noipcc; do
		kern=$BUILD/arch/x86/boot/bzImage
		[ $k = noipcc ] && kern=$noimg
		KERNEL=$kern "$HARNESS/boot.sh" script "$logdir/$k-$b" "$guest" ||
			die "guest run failed; see $logdir/$k-$b"
		sed "s/^/$k $b /" "$logdir/$k-$b/output.log" >>"$logdir/all.txt"
	done
done
rm -f "$guest"
python3 - "$logdir/all.txt" <<'EOT'
import re, statistics, sys
val = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 3 or f[2] not in ('pingpong', 'hackbench'):
        continue
    kv = dict(x.split('=', 1) for x in f[3:] if '=' in x)
    t = float(kv.get('ns_per_roundtrip', kv.get('seconds', 0)))
    val.setdefault((f[2], f[1]), {}).setdefault(f[0], []).append(t / float(kv['calib_ns']))
for bench in ('pingpong', 'hackbench'):
    ratios = []
    for (b, boot), d in sorted(val.items()):
        if b == bench and 'ipcc' in d and 'noipcc' in d:
            ratios.append(statistics.median(d['noipcc']) / statistics.median(d['ipcc']))
    if ratios:
        print(f'{bench}: noipcc/ipcc(mode 0) per boot pair: ' +
              ' '.join(f'{r:.3f}' for r in ratios) +
              f'  median {statistics.median(ratios):.3f}'
              f'  spread {min(ratios):.3f}..{max(ratios):.3f}')
EOT
