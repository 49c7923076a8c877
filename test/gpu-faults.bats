#!/usr/bin/env bats
# GPU faults become one clear line: out of device memory (a card made
# small by SPS_GPU_MEMORY_MB), a failed launch (SPS_GPU_FAULT=launch), no
# device, a device number beyond the devices.  Where a smaller gulp fits,
# the GPU path takes it, says so, and gives the same results; --gpu never
# falls back to the CPU.  Without a usable CUDA device the GPU cases skip
# with the reason, unless SPS_REQUIRE_GPU=1.
# Also requires: sps-fake, sps-dedisperse, sps-search, sps-boxcar,
# sps-clean, sps-header

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load need_gpu.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# 20 s of 1024 channels searched to DM 1000: a GPU plan of about 4.8 GB,
# whose longest gulps (131072 spectra) do not fit in 3200 MB and whose
# smallest do not fit in 50 MB.
big() {
	sps-fake -q --nchans 1024 --nbits 8 --tsamp 64 --tobs 20 --fch1 1581.8 \
	    --foff -0.390625 --pulse dm=300,t=10,width=2ms,snr=20 >big.fil
}

# The one line of stderr of a run that failed (status 1).
one_line() {
	[ "$status" -eq 1 ] || fail "status $status, not 1: $output"
	[ "${#lines[@]}" -eq 1 ] || fail "not one line: $output"
	[[ ${lines[0]} =~ $1 ]] || fail "'${lines[0]}' does not match '$1'"
}

oom='GPU 0: cudaMalloc of [0-9.]+ MB for [a-zA-Z0-9 -]+: out of memory \([0-9.]+ MB free of [0-9]+ MB\)'

@test "gpu-faults: out of device memory is one line: the call, the device, the bytes" {
	need_gpu
	big
	sps-dedisperse -q --gpu --dm 0 1000 big.fil >dmt
	export SPS_GPU_MEMORY_MB=50
	run -1 sh -c 'sps-dedisperse -q --gpu --dm 0 1000 big.fil >out.dmt'
	one_line "^sps-dedisperse: $oom: try a smaller --block\$"
	run -1 sps-search -q --gpu --dm 0 1000 big.fil -o out
	one_line "^sps-search: $oom(: try a smaller --block)?\$"
	[ ! -e out ] || fail "a failed search left its folder"
	run -1 sps-boxcar -q --gpu -o ev dmt
	one_line "^sps-boxcar: $oom\$"
	[ ! -e ev ] || fail "a failed sps-boxcar left its output"
	run -1 sps-clean -q --gpu big.fil -o clean.fil
	one_line "^sps-clean: $oom\$"
	[ ! -e clean.fil ] || fail "a failed sps-clean left its output"
}

@test "gpu-faults: a gulp too big for the device: smaller gulps, said, same results" {
	need_gpu
	big
	sps-dedisperse -q --gpu --dm 0 1000 big.fil >whole.dmt
	sps-search -q --gpu --dm 0 1000 big.fil -o whole >/dev/null
	export SPS_GPU_MEMORY_MB=3200
	run -0 sh -c 'sps-dedisperse -q --gpu --dm 0 1000 big.fil >small.dmt'
	[[ $output =~ ^sps-dedisperse:\ $oom:\ gulps\ of\ [0-9]+\ spectra\ instead\ of\ 131072$ ]] ||
	    fail "no note of the smaller gulps: $output"
	cmp whole.dmt small.dmt
	run -0 --separate-stderr sps-search -q --gpu --dm 0 1000 big.fil \
	    -o small
	[[ $stderr =~ ^sps-search:\ $oom:\ gulps\ of\ [0-9]+\ spectra\ instead\ of\ 131072$ ]] ||
	    fail "no note of the smaller gulps: $stderr"
	diff -r whole small
	[ "$(grep -vc '^#' small/*.cand)" -ge 1 ] || fail "no candidates"
}

@test "gpu-faults: a failed launch is one line naming the kernel and the device" {
	need_gpu
	sps-fake -q --nchans 256 --nbits 8 --tsamp 64 --tobs 2 >in.fil
	sps-dedisperse -q --gpu --dm 0 100 in.fil >dmt
	export SPS_GPU_FAULT=launch
	run -1 sh -c 'sps-dedisperse -q --gpu --dm 0 100 in.fil >out.dmt'
	one_line '^sps-dedisperse: GPU 0: CUDA launch of [a-z0-9_]+: .+$'
	run -1 sps-search -q --gpu --dm 0 100 in.fil -o out
	one_line '^sps-search: GPU 0: CUDA launch of [a-z0-9_]+: .+$'
	run -1 sps-boxcar -q --gpu dmt
	one_line '^sps-boxcar: GPU 0: CUDA launch of [a-z0-9_]+: .+$'
	run -1 sps-clean -q --gpu in.fil -o c.fil
	one_line '^sps-clean: GPU 0: CUDA launch of [a-z0-9_]+: .+$'
}

@test "gpu-faults: no device, or a device beyond them: --gpu fails in one line" {
	need_gpu
	sps-fake -q --nchans 256 --nbits 8 --tsamp 64 --tobs 2 >in.fil
	sps-dedisperse -q --cpu --dm 0 100 in.fil >dmt
	for t in dedisperse search boxcar clean; do
		case $t in
		dedisperse) set -- --dm 0 100 -o out in.fil ;;
		search) set -- --dm 0 100 -o out in.fil ;;
		boxcar) set -- -o out dmt ;;
		clean) set -- -o out in.fil ;;
		esac
		CUDA_VISIBLE_DEVICES= run -1 "sps-$t" -q --gpu "$@"
		one_line "^sps-$t: GPU 0: CUDA cudaSetDevice.*: no CUDA-capable device is detected\$"
		run -1 "sps-$t" -q --gpu --device 7 "$@"
		one_line "^sps-$t: GPU 7: CUDA cudaSetDevice.*: invalid device ordinal\$"
		[ ! -e out ] || fail "sps-$t left its output"
	done
}

@test "gpu-faults: without a device and without --gpu, the CPU gives the same" {
	sps-fake -q --nchans 256 --nbits 8 --tsamp 64 --tobs 2 \
	    --pulse dm=50,t=1,width=1ms,snr=30 >in.fil
	sps-dedisperse -q --cpu --dm 0 100 in.fil >cpu.dmt
	sps-search -q --cpu --dm 0 100 in.fil -o cpu
	CUDA_VISIBLE_DEVICES= sps-dedisperse -q --dm 0 100 in.fil >any.dmt
	cmp cpu.dmt any.dmt
	CUDA_VISIBLE_DEVICES= run -0 sps-search --dm 0 100 in.fil -o any
	assert_output --partial "dedispersed on the CPU, searched on the CPU"
	diff -r cpu any
	[ "$(grep -vc '^#' any/*.cand)" -ge 1 ] || fail "no candidates"
}
