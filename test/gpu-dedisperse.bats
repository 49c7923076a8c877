#!/usr/bin/env bats
# sps-dedisperse on the GPU: bit for bit the CPU's output on integer data.
# Without a usable CUDA device the comparison cases skip with the reason;
# the refusal of --gpu is tested everywhere.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

need_gpu() {
	local why

	why=$(sps-header --devices 2>&1 >/dev/null) ||
	    skip "no CUDA device: ${why#sps-header: }"
}

# same FILE OPTION...: --gpu and --cpu streams are byte-identical
same() {
	local file=$1

	shift
	sps-dedisperse -q --cpu "$@" "$file" >cpu.dmt
	sps-dedisperse -q --gpu "$@" "$file" >gpu.dmt
	cmp cpu.dmt gpu.dmt || fail "$file $*: GPU differs from CPU"
}

@test "gpu-dedisperse: --gpu without a usable device is an error, not a fallback" {
	if sps-header --devices >/dev/null 2>&1; then
		run -1 --separate-stderr sps-dedisperse --gpu --device 1000 \
		    -d 10 "$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil"
	else
		run -1 --separate-stderr sps-dedisperse --gpu -d 10 \
		    "$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil"
	fi
	assert_output ""
	[[ "$stderr" == "sps-dedisperse: GPU "* || "$stderr" == *"built without CUDA"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
}

@test "gpu-dedisperse: without --gpu a run without a usable device uses the CPU" {
	run -0 sps-dedisperse -q -d 10 \
	    "$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil"
}

@test "gpu-dedisperse: every integer nbits, both channel orders" {
	need_gpu
	printf '0\n13.7\n55.5\n101\n250\n1000\n3000\n' >plan.txt
	for b in 1 2 4 8 16; do
		aux-dedisp gen -b "$b" -c 64 -n 30001 -f 1400 -o -1 \
		    -t 0.0005 >down.fil
		same down.fil --plan plan.txt
		aux-dedisp gen -b "$b" -c 64 -n 30001 -f 1337 -o 1 \
		    -t 0.0005 >up.fil
		same up.fil --plan plan.txt
	done
}

@test "gpu-dedisperse: 64 to 65536 channels, DM 0 to 3000" {
	need_gpu
	for c in 64 1024 4096 65536; do
		aux-dedisp gen -b 8 -c "$c" -n $((4000000 / c + 4000)) \
		    -f 1500 -o "$(awk -v c="$c" 'BEGIN { print -300 / c }')" -t 0.001 >in.fil
		same in.fil --dm 0 3000 --dm_tol 1.25
	done
}

@test "gpu-dedisperse: time-scrunching, kill mask, three block sizes" {
	need_gpu
	aux-dedisp gen -b 8 -c 256 -n 40000 -f 1500 -o -1 -t 0.000256 >in.fil
	awk 'BEGIN { for (c = 0; c < 256; c++) print (c % 7 == 3 ? 0 : 1) }' \
	    >kill.txt
	same in.fil --dm 0 2000 --scrunch
	same in.fil --dm 0 2000 -k kill.txt
	same in.fil --dm 0 2000 --scrunch -k kill.txt --block 1000
	same in.fil --dm 0 2000 --scrunch --block 4099
	same in.fil --dm 0 2000 --block 20000
}

@test "gpu-dedisperse: the sub-band algorithm sums what the CPU's does" {
	need_gpu
	aux-dedisp gen -b 8 -c 256 -n 40000 -f 1500 -o -1 -t 0.000256 >in.fil
	awk 'BEGIN { for (c = 0; c < 256; c++) print (c % 5 == 2 ? 0 : 1) }' \
	    >kill.txt
	same in.fil --dm 0 2000 --subband 16
	same in.fil --dm 0 2000 --subband 16 --scrunch -k kill.txt
	same in.fil --dm 0 2000 --subband 32 --group 8 --block 3000
	aux-dedisp gen -b 2 -c 1024 -n 30000 -f 1500 -o -0.25 -t 0.000064 \
	    >in2.fil
	same in2.fil --dm 0 1000 --subband 32
}

@test "gpu-dedisperse: a block too large for the device is a clear error" {
	need_gpu
	aux-dedisp gen -b 8 -c 4096 -n 5000 -f 1500 -o -0.1 -t 0.001 >in.fil
	run -1 --separate-stderr sps-dedisperse -q --gpu --dm 0 3000 \
	    --block 50000000 in.fil
	assert_output ""
	[[ "$stderr" == "sps-dedisperse: GPU 0: out of GPU memory"* ]]
}
