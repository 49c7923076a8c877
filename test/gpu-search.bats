#!/usr/bin/env bats
# The search on the GPU (sps-boxcar --gpu, sps-search --gpu): the same
# events as the CPU's (same trial, sample and width; S/N within 1e-4
# relative, and the 4 decimals of the text), for every algorithm, scrunched
# trials, white noise, a file that ends in a short window and a low
# threshold, noise clipped from the values near its bounds or in full
# passes (SPS_GPU_CLIP_KEEP); 8- and 16-bit streams unpacked on the GPU
# give the events of the same streams unpacked on the host, byte for byte;
# the fused search and its pipe give byte-identical candidates.
# Without a usable CUDA device the comparisons skip with the reason,
# unless SPS_REQUIRE_GPU=1; the refusals are tested everywhere.
# Also requires: sps-fake, sps-dedisperse, sps-header

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load need_gpu.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# Pulses of several widths and DMs in 6.3 s of 512 channels at 80 us (the
# last noise window short), dedispersed on the CPU: dmt.
make_dmt() {
	sps-fake -q --nchans 512 --tsamp 80 --tobs 6.3 --fch1 1500 \
	    --foff -0.5 --seed 7 --pulse dm=40,t=1.0,width=0.3ms,snr=12 \
	    --pulse dm=120,t=2.5,width=4ms,snr=15 \
	    --pulse dm=200,t=4.2,width=20ms,snr=25 \
	    --pulse dm=90,t=6.15,width=1ms,snr=14 >in.fil
	sps-dedisperse -q --cpu --dm 0 250 "$@" in.fil >dmt
}

# same_events OPTION...: sps-boxcar --cpu and --gpu on dmt give the same
# events; the failure lists what differs
same_events() {
	local diff

	sps-boxcar -q --cpu "$@" dmt >cpu.ev
	sps-boxcar -q --gpu "$@" dmt >gpu.ev
	[ "$(grep -vc '^#' cpu.ev)" -gt 0 ] || fail "no events on the CPU"
	diff=$(awk '
	    /^#/ { next }
	    FNR == NR { snr[$1 " " $3 " " $5] = $6; n++; next }
	    {
		k = $1 " " $3 " " $5
		if (!(k in snr)) { print "GPU only: " $0; bad++; next }
		d = $6 - snr[k]; if (d < 0) d = -d
		if (d > 1e-4 * $6 + 5e-5) { print "S/N " k ": " snr[k] " " $6; bad++ }
		delete snr[k]
	    }
	    END { for (k in snr) { print "CPU only: " k " " snr[k]; bad++ }
		  exit bad > 0 }' cpu.ev gpu.ev) ||
	    fail "sps-boxcar $*${SPS_GPU_NORM_CACHE:+ (SPS_GPU_NORM_CACHE=$SPS_GPU_NORM_CACHE)}${SPS_GPU_CLIP_KEEP:+ (SPS_GPU_CLIP_KEEP=$SPS_GPU_CLIP_KEEP)}: GPU differs from CPU: $(printf '%s\n' "$diff" | head -5)"
}

@test "gpu-search: BD-16 gives the CPU's events, the short last window too" {
	need_gpu
	make_dmt
	same_events
	awk '!/^#/ && $4 > 6.1' cpu.ev | grep -q . ||
	    fail "the pulse 0.15 s before the end was not found"
}

@test "gpu-search: noise windows held in shared memory, in part or not at all, give the CPU's events" {
	need_gpu
	make_dmt
	# 25000 samples a window: all held, the first 20001 or 1000, none
	for cache in 25000 20001 1000 0; do
		SPS_GPU_NORM_CACHE=$cache same_events -a BD-16
		SPS_GPU_NORM_CACHE=$cache same_events -a IG2 -w 600
	done
}

@test "gpu-search: the noise model's clipping, from the values near its bounds or in full passes, gives the CPU's events" {
	need_gpu
	# impulses: windows whose first bounds are wide, then close in
	sps-fake -q --nchans 512 --tsamp 80 --tobs 6.3 --fch1 1500 \
	    --foff -0.5 --seed 9 --pulse dm=120,t=2.5,width=4ms,snr=15 \
	    --rfi impulse,rate=3,snr=40 >in.fil
	sps-dedisperse -q --cpu --dm 0 250 in.fil >dmt
	# all kept (the default), too many for 8 kept, none kept
	for keep in "" 8 0; do
		SPS_GPU_CLIP_KEEP=$keep same_events -a BD-16
		SPS_GPU_CLIP_KEEP=$keep same_events -a IG2 -w 600
	done
}

@test "gpu-search: every algorithm gives the CPU's events" {
	need_gpu
	make_dmt
	for a in BD-8 BD-32 BD-32,16,8 IG1 IG2 IG3 DIT; do
		same_events -a "$a" -w 512
	done
	same_events -a exhaustive -w 64
	# windows of 5001 samples: all but the first not 16-byte aligned
	# (the means' copy then goes a float at a time)
	same_events -a exhaustive -w 64 --baseline 0.40008
	# BoxDIT in tiles of 256 starts: many tile edges, part-filled groups
	SPS_GPU_BOXDIT_TILE=256 same_events -a BD-16 -w 512
	SPS_GPU_BOXDIT_TILE=256 same_events -a BD-32,16,8 -w 300
}

@test "gpu-search: scrunched trials, white noise, a low threshold" {
	need_gpu
	make_dmt --scrunch
	same_events
	same_events --white
	same_events -s 4.5 --baseline 1
}

@test "gpu-search: 8- and 16-bit streams unpacked on the GPU: the floats the CPU unpacks" {
	need_gpu
	for args in "-b 8" "-b 16" "-b 8 --scrunch"; do
		# shellcheck disable=SC2086
		make_dmt $args
		same_events
		sps-boxcar -q --gpu dmt >gpu.ev
		SPS_GPU_HOST_UNPACK=1 sps-boxcar -q --gpu dmt >host.ev
		cmp gpu.ev host.ev ||
		    fail "$args: unpacked on the GPU and on the host differ"
		# through a pipe, as sps-dedisperse | sps-boxcar runs
		sps-boxcar -q --gpu <dmt | grep -v '^# input' >piped.ev
		grep -v '^# input' gpu.ev | cmp - piped.ev ||
		    fail "$args: a pipe differs from a file"
	done
}

@test "gpu-search: the fused search and its pipe give the same candidates" {
	need_gpu
	make_dmt
	sps-search -q --gpu --dm 0 250 -o fused in.fil >fused.txt
	sps-search -q --gpu --pipe --dm 0 250 -o piped in.fil >piped.txt
	cmp fused.txt piped.txt
	for f in candidates.cand candidates.singlepulse candidates.txt; do
		cmp "fused/$f" "piped/$f"
	done
	[ "$(grep -vc '^#' fused.txt)" -ge 4 ] || fail "$(cat fused.txt)"
}

@test "gpu-search: the fused search on the GPU finds what the CPU finds" {
	need_gpu
	make_dmt
	run --separate-stderr sps-search --gpu --dm 0 250 in.fil
	assert_success
	[[ "$stderr" == *"dedispersed on the GPU, searched on the GPU"* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"GPU kernels: dedispersion "*", search "*"G samples/s"* ]] ||
	    fail "$stderr"
	printf '%s\n' "$output" | awk '!/^#/ { print $2, $3, $5 }' >gpu.c
	sps-search -q --cpu --dm 0 250 in.fil |
	    awk '!/^#/ { print $2, $3, $5 }' >cpu.c
	diff cpu.c gpu.c
}

# CUDA_VISIBLE_DEVICES= hides every device, on a GPU machine too
@test "gpu-search: --gpu without a usable device is one line, not a fallback" {
	make_dmt
	CUDA_VISIBLE_DEVICES= run -1 --separate-stderr sps-boxcar --gpu dmt
	assert_output ""
	[[ "$stderr" == "sps-boxcar: GPU 0: "* ||
	    "$stderr" == *"built without CUDA"* ]] || fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	CUDA_VISIBLE_DEVICES= run -1 --separate-stderr sps-search --gpu \
	    --dm 0 100 in.fil
	assert_output ""
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$stderr"
}

@test "gpu-search: without --gpu, no device means the CPU, said on stderr" {
	make_dmt
	CUDA_VISIBLE_DEVICES= run --separate-stderr sps-boxcar dmt
	assert_success
	[[ "$stderr" == *"on the CPU"* ]] || fail "$stderr"
}

@test "gpu-search: --plane with --gpu is a usage error" {
	run -2 --separate-stderr sps-boxcar --gpu --plane /dev/null
	[[ "$stderr" == "sps-boxcar: --plane is searched on the CPU only"* ]] ||
	    fail "$stderr"
}

# the GPU reads raw samples: PSRFITS values with scales and offsets are not
@test "gpu-search: scaled PSRFITS data: --gpu is one line, any engine takes the CPU" {
	local f=$BATS_TEST_DIRNAME/../../shared/data/parkes_4bit.sf

	need_gpu
	run -1 --separate-stderr sps-dedisperse --gpu --dm 50 60 "$f"
	[[ "$stderr" == "sps-dedisperse: GPU 0: "*"parkes_4bit.sf: the GPU reads"* ]] ||
	    fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	run -0 --separate-stderr sps-search --dm 50 60 "$f"
	[[ "$stderr" == *"dedispersed on the CPU, searched on the CPU"* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"not on the GPU: GPU 0: "*"scaled"* ]] || fail "$stderr"
}
