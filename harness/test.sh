#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: apply the series, static checks, KUnit under QEMU, selftests
# booted under QEMU on each test topology.  Ends with "N passed, N failed".
#
# Everything runs on $BASE (the default base, or make test BASE=6.12); then
# each other base of harness/bases/ gets a part of it: apply, make series
# and git am, KUnit and the boot tests of one profile (TEST_OTHER_PROFILES,
# default adl-hw), its stages named "BASE:stage".  TEST_OTHER_BASES= (empty)
# leaves the other bases out.
. "$(dirname "$0")/lib.sh"

# IPCC_TEST_PART=1: the part run on another base, inside a full run.
part=${IPCC_TEST_PART:-}
P=
[ -n "$part" ] && P="$BASE:"
logdir=$(new_logdir "test-$BASE")
if [ -z "$part" ]; then
	export IPCC_RESULTS=$logdir/results.tsv
	: >"$IPCC_RESULTS"
fi
R="python3 $HARNESS/results.py"
start=$(date +%s)
# Every run records the base it used.
echo "$BASE $BASE_PKG $BASE_VERSION" >"$logdir/base"

other_bases() {
	local b
	for b in "$HARNESS"/bases/*.conf; do
		b=$(basename "$b" .conf)
		[ "$b" != "$BASE" ] && echo "$b"
	done
}

finish() {
	if [ -z "$part" ]; then
		for b in ${TEST_OTHER_BASES-$(other_bases)}; do
			msg "== the $b base, in part (apply, series, KUnit, boot $(echo ${TEST_OTHER_PROFILES:-adl-hw}))"
			BASE=$b IPCC_TEST_PART=1 PROFILES=${TEST_OTHER_PROFILES:-adl-hw} "$HARNESS/test.sh"
		done
	fi
	msg "logs: $logdir   ($(($(date +%s) - start)) s; base $BASE_PKG $BASE_VERSION)"
	[ -n "$part" ] && exit 0
	$R summary "$IPCC_RESULTS"
	exit $?
}

stage() { msg "== ${P}$* ($(($(date +%s) - start)) s)"; }

# Run a stage script that records its own cases under STAGE (a regular
# expression); one that records none failed, whatever its exit status.
recorded() {
	local re=$1 before
	shift
	before=$(grep -cE "^($re)"$'\t' "$IPCC_RESULTS")
	"$@"
	local rc=$?
	if [ "$(grep -cE "^($re)"$'\t' "$IPCC_RESULTS")" -eq "$before" ]; then
		$R case "${re%%|*}" "$(basename "$1") recorded no result (exit status $rc)" fail
	fi
}

stage "dependencies"
if ! "$HARNESS/deps.sh"; then
	$R case "${P}setup" "install dependencies" fail >/dev/null
	finish
fi

stage "assemble the tree on $BASE_PKG $BASE_VERSION"
if ! "$HARNESS/assemble.sh" 2>&1 | tee "$logdir/assemble.log"; then
	$R case "${P}setup" "apply the series to $BASE_PKG $BASE_VERSION (see above)" fail >/dev/null
	finish
fi
$R case "${P}setup" "apply the series to $BASE_PKG $BASE_VERSION" pass >/dev/null

# A hook patch applied with fuzz can land in the wrong function or case.
stage "hook sites: the series' calls in the base's files"
mapfile -t hooked < <(for p in $(series_patches); do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$(patch_file "$p")"
done | grep '\.c$' | grep -v '^tools/' | sort -u | while read -r f; do
	[ -f "$BASE_SRC/$f" ] && echo "$f"
done)
if python3 "$HARNESS/hook-sites.py" "$HARNESS/hook-sites" "$SRC" "${hooked[@]}" \
	>"$logdir/hook-sites.log" 2>&1; then
	$R case "${P}hook-sites" "every call of the series in ${#hooked[@]} base files where harness/hook-sites says" pass >/dev/null
else
	grep -v '^ok ' "$logdir/hook-sites.log" >&2
	$R case "${P}hook-sites" "every call of the series in ${#hooked[@]} base files where harness/hook-sites says" fail >/dev/null
fi

# What make deb configures, without the hours of building it: Debian's
# own config of this base with the series' options, which olddefconfig
# must keep; then with only the modules of the listing make deb
# DEB_LSMOD= takes, which must leave every option kernel/sched and the
# series' files read as Debian has it.
stage "the package's configuration: Debian's config of $BASE_VERSION"
lsmod=$HARNESS/config/deb-lsmod-adl-hw.txt
for mods in "" "$lsmod"; do
	what="make deb's config: Debian's own with the series on"
	[ -n "$mods" ] && what="$what, modules of $(basename "$mods") only, scheduler's options kept"
	if DEB_CHECK=1 DEB_LSMOD=$mods BASE_CONFIG= DEB_CONFIG= "$HARNESS/deb.sh" \
		>"$logdir/deb-config${mods:+-lsmod}.log" 2>&1; then
		$R case "${P}deb" "$what" pass >/dev/null
	else
		tail -n 5 "$logdir/deb-config${mods:+-lsmod}.log" | cut -c1-400 >&2
		$R case "${P}deb" "$what" fail >/dev/null
	fi
done

if [ -z "$part" ]; then

stage "the emulator: Debian's qemu with our series (qemu/patches)"
if "$HARNESS/qemu-build.sh" all >"$logdir/qemu-build.log" 2>&1; then
	$R case qemu "build qemu-system-x86_64 with qemu/patches" pass >/dev/null
else
	tail -n 20 "$logdir/qemu-build.log" >&2
	$R case qemu "build qemu-system-x86_64 with qemu/patches" fail >/dev/null
	finish
fi
# Bad values of the options the series adds are refused at start.
"$HARNESS/qemu-options-check.sh" >"$logdir/qemu-options.log" 2>&1 ||
	grep -v 'warning: TCG' "$logdir/qemu-options.log" | tail -n 20 >&2
if "$HARNESS/qemu-tree.sh" --check >>"$logdir/qemu-build.log" 2>&1; then
	$R case qemu "git am of the QEMU series on the pinned source" pass >/dev/null
else
	$R case qemu "git am of the QEMU series on the pinned source" fail >/dev/null
fi
# QEMU's own checkpatch on each patch of its series.
for p in "$REPO"/qemu/patches/0*.patch; do
	if perl "$QEMU_SRC/scripts/checkpatch.pl" --color=never "$p" >"$logdir/qemu-checkpatch-$(basename "$p").log" 2>&1; then
		$R case qemu "QEMU checkpatch: $(basename "$p")" pass >/dev/null
	else
		tail -n 20 "$logdir/qemu-checkpatch-$(basename "$p").log" >&2
		$R case qemu "QEMU checkpatch: $(basename "$p")" fail >/dev/null
	fi
done

stage "checkpatch --strict"
recorded checkpatch "$HARNESS/checkpatch.sh" "$logdir/checkpatch"

stage "docs: kernel-doc and docutils"
recorded 'kernel-doc|docutils' "$HARNESS/docs-check.sh" "$logdir/docs"

# The benchmark's scoring: fluid bounds, metrics, scenario keywords and
# the driver's fixed-work accounting (host only, seconds).
stage "bench: host-side tests of the benchmark's scoring"
python3 "$REPO/bench/tests/test_bench.py" >"$logdir/bench-tests.log" 2>&1
$R tap bench "$logdir/bench-tests.log"

fi	# not in the part run of another base

stage "the mailed series: make series, checkpatch --strict on every patch"
if SERIES_OUT=$logdir/series SERIES_TREE=$KCACHE/series-test-tree \
	"$HARNESS/series.sh" >"$logdir/series.log" 2>&1; then
	$R case "${P}series" "make series: layout covers the repo, result equals the tree" pass >/dev/null
	if SERIES_OUT=$logdir/series "$HARNESS/series-am-check.sh" >>"$logdir/series.log" 2>&1; then
		$R case "${P}series" "git am of the mailed series on a fresh $BASE base" pass >/dev/null
	else
		tail -n 5 "$logdir/series.log" >&2
		$R case "${P}series" "git am of the mailed series on a fresh $BASE base" fail >/dev/null
	fi
	for p in "$logdir"/series/0*.patch; do
		[ -n "$part" ] && break
		case $p in *cover-letter*) continue ;; esac
		if (cd "$SRC" && perl scripts/checkpatch.pl --strict --no-summary --color=never "$p") \
			>"$p.checkpatch" 2>&1 && ! grep -qE '^(ERROR|WARNING|CHECK):' "$p.checkpatch"; then
			$R case series "checkpatch: $(basename "$p")" pass >/dev/null
		else
			sed 's/^/    /' "$p.checkpatch" | head -n 20 >&2
			$R case series "checkpatch: $(basename "$p")" fail >/dev/null
		fi
	done
else
	tail -n 10 "$logdir/series.log" >&2
	$R case "${P}series" "make series (see $logdir/series.log)" fail >/dev/null
fi

stage "KUnit (kunit.py run --arch=x86_64; builds the test kernel)"
mapfile -d '' kargs < <("$HARNESS/build.sh" kunit-args)
# The boots below use this build's bzImage: one left from an earlier build
# must not stand in for a build that failed, which kunit.py reports only
# as "ERROR:root:" and the compiler's output. Relinking it costs seconds.
rm -f "$BUILD/arch/x86/boot/bzImage"
(cd "$SRC" && flock "$CACHE/build.lock" python3 tools/testing/kunit/kunit.py run "${kargs[@]}" \
	--timeout="${KUNIT_TIMEOUT:-600}" --qemu_args "-smp 2 ${QEMU_FW_ARGS[*]}" \
	--json="$logdir/kunit.json") >"$logdir/kunit.log" 2>&1
krc=$?
grep -E '^\[..:..:..\] (Testing complete|=+ |.*(FAILED|CRASHED|ERROR))' "$logdir/kunit.log" | tail -n 30 >&2
if [ ! -f "$BUILD/arch/x86/boot/bzImage" ] || grep -q 'Could not call execute make\|BuildError\|Not all Kconfig options' "$logdir/kunit.log"; then
	tail -n 40 "$logdir/kunit.log" >&2
	$R case "${P}kunit" "build the test kernel" fail >/dev/null
	finish
fi
$R kunit "${P}kunit" "$logdir/kunit.json"
if [ $krc -ne 0 ] && ! grep -q 'FAIL\|ERROR' "$logdir/kunit.json" 2>/dev/null; then
	$R case "${P}kunit" "kunit.py exit status $krc" fail
fi

if [ -z "$part" ]; then
	stage "W=1 and sparse on the series' objects"
	recorded static "$HARNESS/static-check.sh" "$logdir/static"
fi

stage "selftests and initramfs"
if ! { "$HARNESS/build.sh" selftests && "$HARNESS/build.sh" initramfs; }; then
	$R case "${P}selftests" "build the selftests" fail >/dev/null
	finish
fi

# Test topologies: profiles of harness/profiles/.
PROFILES=${PROFILES:-"smt8 adl-hw mtl-hw lnl-hw numa2-hw adl-rpl"}
for name in $PROFILES; do
	stage "selftests booted on profile $name"
	PROFILE=$name TIMEOUT=${BOOT_TIMEOUT:-900} \
		"$HARNESS/boot.sh" selftests "$logdir/boot-$name"
	brc=$?
	known=$(. "$HARNESS/profiles/$name.conf" && echo "${PROFILE_KNOWN_FAIL:-}")
	# Expected skips: the profile's list and the binaries it does not run.
	skips=$(. "$HARNESS/profiles/$name.conf" &&
		echo "${PROFILE_EXPECTED_SKIP:-};${PROFILE_SKIP//,/;}")
	$R tap "${P}selftests@$name" "$logdir/boot-$name/output.log" "$known" "$skips"
	case $brc in
	124) $R case "${P}selftests@$name" "guest hung (console: $logdir/boot-$name/console.log)" fail ;;
	125) $R case "${P}selftests@$name" "guest crashed (console: $logdir/boot-$name/console.log)" fail ;;
	esac
	if grep -qE "$SPLAT_RE" "$logdir/boot-$name/console.log"; then
		$R case "${P}selftests@$name" "kernel splat on the console" fail
	fi
done

# The debug kernel (lockdep, KASAN, UBSAN, KFENCE, ...) under a short
# stress run: hotplug and knob churn under a classed workload.
if [ -z "$part" ] && [ "${STRESS_MINUTES:-2}" != 0 ]; then
	stage "stress, debug kernel, ${STRESS_MINUTES:-2} min on adl-hw"
	MINUTES=${STRESS_MINUTES:-2} PROFILE=adl-hw STRESS_LOGDIR=$logdir/stress-adl-hw \
		recorded stress@adl-hw "$HARNESS/stress.sh"
fi

finish
