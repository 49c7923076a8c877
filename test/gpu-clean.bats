#!/usr/bin/env bats
# The cleaning on the GPU (sps-clean --gpu, and sps-search's fused path,
# which cleans on the device before dedispersing): the same samples as the
# CPU's, byte for byte for integer data without zero-DM (the decisions are
# the CPU's code on the device's exact sums), within one level where
# zero-DM's float sums round otherwise; the same candidates fused and
# piped.  Without a usable CUDA device the comparisons skip with the
# reason, unless SPS_REQUIRE_GPU=1; the refusals are tested everywhere.
# Also requires: sps-fake, sps-search

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load need_gpu.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# rfi.fil: 4 s of 256 channels at 64 us, NBITS bits (default 8), with two
# pulses, impulses, a switching carrier and a dead channel.
make_rfi() {
	sps-fake -q --nchans 256 --nbits "${1:-8}" --tsamp 64 --tobs 4 \
	    --fch1 1500 --foff -1 --seed 11 \
	    --pulse dm=150,t=1.2,width=2ms,snr=20 \
	    --pulse dm=400,t=2.9,width=4ms,snr=25 \
	    --rfi impulse,rate=5,width=1ms,snr=50 \
	    --rfi carrier,chan=100:110,period=0.5s,duty=0.5,amp=5 \
	    --rfi zero,chan=30 >rfi.fil
}

# same_bytes OPTION...: sps-clean --cpu and --gpu write the same file
same_bytes() {
	sps-clean -q --cpu "$@" rfi.fil >cpu.fil
	sps-clean -q --gpu "$@" rfi.fil >gpu.fil
	cmp cpu.fil gpu.fil || fail "sps-clean $* differs on the GPU"
}

# within_one OPTION...: the same header, every sample within one level
within_one() {
	sps-clean -q --cpu "$@" rfi.fil >cpu.fil
	sps-clean -q --gpu "$@" rfi.fil >gpu.fil
	[ "$(stat -c %s cpu.fil)" = "$(stat -c %s gpu.fil)" ] ||
	    fail "sizes differ"
	cmp -l cpu.fil gpu.fil | awk '
	    function oct(s,  v, i) { for (i = 1; i <= length(s); i++)
		v = v * 8 + substr(s, i, 1); return v }
	    { d = oct($2) - oct($3); if (d > 1 || d < -1) bad++; n++ }
	    END { printf "%d differ, %d by more than one\n", n, bad
	    exit bad > 0 || n > 1000 }' || fail "sps-clean $* on the GPU"
}

@test "gpu-clean: sps-clean --gpu writes the CPU's bytes (8, 16 and 2 bits)" {
	need_gpu
	make_rfi 8
	same_bytes
	same_bytes --sk 4 --hold 0
	same_bytes --block 1000 --clip-width 8
	run -1 --separate-stderr sps-clean -q --gpu -b 32 rfi.fil
	[[ "$stderr" == *"use the CPU" ]] || fail "$stderr"
	make_rfi 16
	same_bytes
	make_rfi 2
	same_bytes
}

@test "gpu-clean: zero-DM and zdot on the GPU within one level of the CPU" {
	need_gpu
	make_rfi 8
	within_one --zerodm
	within_one --zdot
}

@test "gpu-clean: the report of the GPU is the CPU's" {
	need_gpu
	make_rfi 8
	sps-clean -q --cpu --report cpu.rep rfi.fil >/dev/null
	sps-clean -q --gpu --report gpu.rep rfi.fil >/dev/null
	cmp cpu.rep gpu.rep
	[ "$(grep -vc '^#' cpu.rep)" -gt 10 ] || fail "$(cat cpu.rep)"
}

@test "gpu-clean: the fused search cleans on the GPU as the CPU does" {
	need_gpu
	make_rfi 8
	sps-search -q --cpu --dm 0 500 -o cpu rfi.fil >cpu.txt
	sps-search -q --gpu --dm 0 500 -o gpu rfi.fil >gpu.txt
	sps-search -q --gpu --pipe --dm 0 500 -o pipe rfi.fil >pipe.txt
	cmp gpu.txt pipe.txt
	diff -r gpu pipe
	# the pulses, top, and at most a handful of others
	[ "$(grep -vc '^#' gpu.txt)" -le 6 ] || fail "$(cat gpu.txt)"
	sort -k4,4gr <(grep -v '^#' gpu.txt) | head -2 |
	    awk '{ n++; if ($5 > 140 && $5 < 160 || $5 > 380 && $5 < 420)
	    ok++ } END { exit ok != 2 }' || fail "$(cat gpu.txt)"
	# the CPU's candidates, S/N to the search's own rounding
	paste <(grep -v '^#' cpu.txt) <(grep -v '^#' gpu.txt) | awk '
	    { if ($2 != $14 || $3 != $15 || $6 != $18 ||
	    ($4 - $16) ^ 2 > 1e-4) bad++ } END { exit bad > 0 }' ||
	    fail "$(paste cpu.txt gpu.txt)"
}

@test "gpu-clean: --gpu without a usable device is an error" {
	make_rfi 8
	sps-header --devices >/dev/null 2>&1 && skip "a device is usable"
	run -1 --separate-stderr sps-clean -q --gpu rfi.fil
	assert_output ""
	[[ "$stderr" == "sps-clean: GPU 0: "* ]] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	run -0 --separate-stderr sps-clean rfi.fil -o any.fil
	[[ "$stderr" == *"on the CPU"* ]] || fail "$stderr"
}
