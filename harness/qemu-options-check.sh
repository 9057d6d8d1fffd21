#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The options our QEMU series adds refuse bad values: QEMU stops at start
# with a message naming the property, and runs nothing.  One results case
# per value (with $IPCC_RESULTS set), and a valid part as the control.
. "$(dirname "$0")/lib.sh"

R="python3 $HARNESS/results.py"
fails=0
base="Skylake-Client,family=6,model=151"

# Start QEMU with the -cpu string $1, stopped (-S), with a QMP monitor on
# stdin that asks it to quit: a valid configuration exits 0 at once.
start() {
	printf '{"execute":"qmp_capabilities"}\n{"execute":"quit"}\n' |
		timeout -k 2 20 "$QEMU_BIN" "${QEMU_FW_ARGS[@]}" -nodefaults -display none \
		-accel tcg -S -smp 2,maxcpus=16,sockets=1,cores=8,threads=2 \
		-cpu "$1" -qmp stdio 2>&1
}

check() {	# name, -cpu string, expected message (empty: accepted)
	local out rc st=pass
	out=$(start "$2")
	rc=$?
	if [ -z "$3" ]; then
		[ $rc -eq 0 ] || st=fail
	elif [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -qF -- "$3" <<<"$out"; then
		st=fail
	fi
	if [ $st = fail ]; then
		fails=$((fails + 1))
		msg "QEMU option check '$1': exit $rc, wanted ${3:-success}; got:"
		sed 's/^/    /' <<<"$out" | grep -v 'warning: TCG' | head -n 5 >&2
	fi
	[ -n "${IPCC_RESULTS:-}" ] && $R case qemu "option $1" $st >/dev/null
	return 0
}

check "valid hybrid part" "$base,hybrid-p=0-7,hybrid-e=8-15,itd-model=rpl,itd-seed=7" ""
check "hybrid-p not a number" "$base,hybrid-p=bogus" "hybrid-p=bogus: expected APIC IDs"
check "hybrid-e range backwards" "$base,hybrid-e=8-3" "hybrid-e=8-3: expected APIC IDs"
check "hybrid-lp trailing separator" "$base,hybrid-lp=16:" "hybrid-lp=16:: expected APIC IDs"
check "hybrid-p empty" "$base,hybrid-p=" "hybrid-p=: expected APIC IDs"
check "hybrid-p beyond the table" "$base,hybrid-p=0-99999" "hybrid-p=0-99999: expected APIC IDs"
check "hybrid-p signed" "$base,hybrid-p=-1" "hybrid-p=-1: expected APIC IDs"
check "APIC ID of two core types" "$base,hybrid-p=0-3,hybrid-e=2-15" "APIC ID 2 is in both hybrid-p and hybrid-e"
check "itd-model unknown" "$base,hybrid-p=0-7,itd-model=perfect" "itd-model=perfect: expected oracle, rpl or rule"
check "itd-model without a hybrid part" "$base,itd-model=rpl" "itd-model needs a hybrid part"
check "itd-seed not a number" "$base,hybrid-p=0-7,itd-seed=x" "itd-seed"
check "hreset not a bool" "$base,hybrid-p=0-7,hreset=maybe" "hreset"
[ $fails -eq 0 ] || die "$fails QEMU option checks failed"
msg "QEMU option checks passed"
