# SPDX-License-Identifier: GPL-2.0
# Sourced by /init before anything runs: give the guest the shape the
# emulated profile declares.  QEMU gives every core the same number of
# threads, so the emulated E-cores' extra siblings go offline here.
l=$(cat /sys/kernel/debug/ipcc_emu/offline_cpus 2>/dev/null)
for r in $(echo "$l" | tr ',' ' '); do
	for c in $(seq "${r%-*}" "${r#*-}"); do
		echo 0 >/sys/devices/system/cpu/cpu"$c"/online ||
			echo "profile-setup: cannot offline cpu$c"
	done
done
[ -f /sys/kernel/debug/ipcc_emu/profile ] &&
	sed 's/^/# ipcc_emu: /' /sys/kernel/debug/ipcc_emu/profile
true
