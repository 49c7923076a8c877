#!/usr/bin/env bats
# sps-dedisperse on the GPU: bit for bit the CPU's output on integer data,
# every kernel shape that can ship, the engine's blocks left on the
# device, 8- and 16-bit streams packed on the GPU.  Without a usable CUDA device the comparison cases skip with the
# reason, unless SPS_REQUIRE_GPU=1 (set it on a GPU machine: a driver that
# fails then fails the suite rather than skipping it); the refusal of
# --gpu is tested everywhere.
# Also requires: aux-dedisp, aux-dmcmp, aux-engine, sps-plan, sps-fake

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load need_gpu.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# same FILE OPTION...: --gpu and --cpu streams are byte-identical; the
# failure names the first differing trial and sample
same() {
	local file=$1 diff

	shift
	sps-dedisperse -q --cpu "$@" "$file" >cpu.dmt
	sps-dedisperse -q --gpu "$@" "$file" >gpu.dmt
	diff=$(aux-dmcmp cpu.dmt gpu.dmt) ||
	    fail "$file $*${SPS_GPU_TILE:+ SPS_GPU_TILE=$SPS_GPU_TILE}${SPS_GPU_SHARED_TILE:+ SPS_GPU_SHARED_TILE=$SPS_GPU_SHARED_TILE}: GPU differs from CPU: $diff"
}

# tiles VARIABLE: the number of entries of a kernel's tile table, from
# the refusal of one past its end
tiles() {
	local why

	why=$(env "$1=100000" sps-dedisperse -q --gpu -d 10 in.fil 2>&1 \
	    >/dev/null)
	[[ "$why" =~ "not a tile number 0 to "([0-9]+) ]] ||
	    fail "$1=100000: $why"
	echo $((BASH_REMATCH[1] + 1))
}

@test "gpu-dedisperse: aux-dmcmp names the first differing trial and sample" {
	aux-dedisp gen -b 8 -c 64 -n 3000 -f 1400 -o -1 -t 0.0005 >in.fil
	sps-dedisperse -q --cpu --dm 0 100 in.fil >a.dmt
	run -0 aux-dmcmp a.dmt a.dmt
	aux-dedisp gen -b 8 -c 64 -n 3000 -f 1400 -o -1 -t 0.0005 -s 2 >in2.fil
	sps-dedisperse -q --cpu --dm 0 100 in2.fil >b.dmt
	run -1 aux-dmcmp a.dmt b.dmt
	[[ "$output" =~ ^trial\ 0\ \(DM\ 0\)\ sample\ 0\ \(base\ sample\ 0\):\ [0-9.]+\ vs\ [0-9.]+$ ]] ||
	    fail "$output"
	sps-dedisperse -q --cpu --dm 0 150 in.fil >c.dmt
	run -1 aux-dmcmp a.dmt c.dmt
	[[ "$output" == *" trials vs "* ]] || fail "$output"
}

# CUDA_VISIBLE_DEVICES= hides every device, on a GPU machine too
@test "gpu-dedisperse: --gpu without a usable device is an error, not a fallback" {
	local f=$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil

	CUDA_VISIBLE_DEVICES= run -1 --separate-stderr sps-dedisperse --gpu \
	    -d 10 "$f"
	assert_output ""
	[[ "$stderr" == "sps-dedisperse: GPU 0: "* || "$stderr" == *"built without CUDA"* ]] ||
	    fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	if sps-header --devices >/dev/null 2>&1; then
		run -1 --separate-stderr sps-dedisperse --gpu --device 1000 \
		    -d 10 "$f"
		assert_output ""
		[[ "$stderr" == "sps-dedisperse: GPU 1000: "* ]] || fail "$stderr"
	fi
}

@test "gpu-dedisperse: without --gpu a run without a usable device uses the CPU" {
	local f=$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil

	CUDA_VISIBLE_DEVICES= sps-dedisperse --dm 0 100 "$f" >any.dmt 2>err ||
	    fail "$(cat err)"
	grep -q ' overlap, memory .* (input ' err ||
	    fail "not the CPU's summary: $(cat err)"
	sps-dedisperse -q --cpu --dm 0 100 "$f" >cpu.dmt
	run -0 aux-dmcmp cpu.dmt any.dmt
}

@test "gpu-dedisperse: every direct-kernel shape, through the cache and shared memory" {
	need_gpu
	aux-dedisp gen -b 8 -c 512 -n 20000 -f 1500 -o -0.5 -t 0.000128 >in.fil
	aux-dedisp gen -b 4 -c 334 -n 20000 -f 1337 -o 0.5 -t 0.0001 >up.fil
	awk 'BEGIN { for (c = 0; c < 512; c++) print (c % 7 == 3 ? 0 : 1) }' \
	    >kill.txt
	printf '0\n13.7\n55.5\n101\n250\n600\n1000\n' >wide.txt
	ncache=$(SPS_GPU_DIRECT=cache tiles SPS_GPU_TILE)
	nshared=$(SPS_GPU_DIRECT=shared tiles SPS_GPU_SHARED_TILE)
	[ "$ncache" -ge 2 ] && [ "$nshared" -ge 2 ] ||
	    fail "tables of $ncache and $nshared shapes"
	export SPS_GPU_DIRECT=cache
	for ((i = 0; i < ncache; i++)); do
		export SPS_GPU_TILE=$i
		same in.fil --dm 0 500 -k kill.txt --block 5000
		same in.fil --plan wide.txt
		same up.fil --dm 0 500 --block 3001
	done
	unset SPS_GPU_TILE
	export SPS_GPU_DIRECT=shared
	for ((i = 0; i < nshared; i++)); do
		export SPS_GPU_SHARED_TILE=$i
		same in.fil --dm 0 500 -k kill.txt --block 5000
		same in.fil --plan wide.txt
		same up.fil --dm 0 500 --block 3001
	done
}

@test "gpu-dedisperse: the engine's blocks left on the device equal the host's" {
	need_gpu
	aux-dedisp gen -b 8 -c 256 -n 40000 -f 1500 -o -1 -t 0.000256 >in.fil
	sps-plan -q --dm 0 1000 --scrunch -o plan.txt in.fil
	aux-engine -c -b 4096 in.fil plan.txt >cpu.raw
	aux-engine -g -b 4096 in.fil plan.txt >gpu.raw
	aux-engine -d -b 4096 in.fil plan.txt >dev.raw
	[ -s cpu.raw ] || fail "no output"
	cmp cpu.raw gpu.raw || fail "GPU blocks differ from the CPU's"
	cmp cpu.raw dev.raw || fail "blocks left on the device differ"
	run -1 aux-engine -d -c in.fil plan.txt
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

# 65536 channels: gulps past the packed 8-bit kernel's reach, which the
# trees still read as bytes
@test "gpu-dedisperse: 64 to 65536 channels, DM 0 to 3000" {
	need_gpu
	for c in 64 1024 4096 65536; do
		aux-dedisp gen -b 8 -c "$c" -n $((4000000 / c + 4000)) \
		    -f 1500 -o "$(awk -v c="$c" 'BEGIN { print -300 / c }')" -t 0.001 >in.fil
		same in.fil --dm 0 3000 --dm_tol 1.25
		same in.fil --algo tree-linear --dm 0 3000 --dm_tol 1.25
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

# packed_same OPTION...: the 8- or 16-bit stream of --gpu, packed on the
# GPU after its first gulps, is the --cpu stream byte for byte, with the
# same count of values clipped; packed on the host (SPS_GPU_HOST_PACK)
# the same again
packed_same() {
	local clip

	sps-dedisperse --cpu "$@" in.fil >cpu.dmt 2>cpu.err
	sps-dedisperse --gpu "$@" in.fil >gpu.dmt 2>gpu.err
	SPS_GPU_HOST_PACK=1 sps-dedisperse -q --gpu "$@" in.fil >host.dmt
	cmp cpu.dmt gpu.dmt || fail "$*: packed on the GPU: $(aux-dmcmp \
	    cpu.dmt gpu.dmt)"
	cmp cpu.dmt host.dmt || fail "$*: packed on the host"
	clip=$(grep 'values clipped' cpu.err) || clip=none
	[ "$clip" = "$(grep 'values clipped' gpu.err || echo none)" ] ||
	    fail "$*: CPU $clip; GPU $(grep clipped gpu.err)"
}

@test "gpu-dedisperse: 8- and 16-bit streams packed on the GPU: the CPU's bytes and clipping" {
	need_gpu
	# a pulse bright enough to clip 8 bits, many gulps (--block), the
	# last block short
	sps-fake -q --nchans 256 --tobs 4.1 --seed 3 --fch1 1500 --foff -1 \
	    --pulse dm=60,t=1,width=2ms,snr=500 \
	    --pulse dm=120,t=2.5,width=1ms,snr=15 >in.fil
	packed_same -b 8 --dm 0 200 --block 4096
	grep -q 'values clipped to 8 bits' gpu.err || fail "nothing clipped"
	packed_same -b 16 --dm 0 200 --block 2048
	packed_same -b 8 --dm 0 200 --scrunch --block 4096
	packed_same -b 16 --dm 0 200 --scrunch --block 1000
	packed_same -b 8 --dm 0 200
}

@test "gpu-dedisperse: the direct kernel through shared memory and through the cache" {
	need_gpu
	printf '0\n13.7\n55.5\n101\n250\n600\n1000\n' >wide.txt
	aux-dedisp gen -b 8 -c 1024 -n 30000 -f 1500 -o -0.25 -t 0.000064 \
	    >in.fil
	aux-dedisp gen -b 4 -c 334 -n 20000 -f 1337 -o 0.5 -t 0.0001 >up.fil
	awk 'BEGIN { for (c = 0; c < 1024; c++) print (c % 7 == 3 ? 0 : 1) }' \
	    >kill.txt
	for path in shared cache; do
		export SPS_GPU_DIRECT=$path
		same in.fil --dm 0 300 --dm_tol 1.01
		same in.fil --dm 0 300 --dm_tol 1.01 -k kill.txt --block 5000
		same in.fil --dm 0 1000 --scrunch --block 8192
		same in.fil --plan wide.txt
		same up.fil --dm 0 500 --block 3001
	done
}

@test "gpu-dedisperse: the summary names the direct kernel's path" {
	need_gpu
	aux-dedisp gen -b 8 -c 1024 -n 30000 -f 1500 -o -0.25 -t 0.000064 \
	    >in.fil
	run -0 --separate-stderr sps-dedisperse --gpu --dm 0 300 in.fil
	[[ "$stderr" =~ "GPU direct kernel through "(the cache|"shared memory")", "[0-9.]+"x as fast as through "(the cache|"shared memory")" in a trial at set-up" ]] ||
	    fail "$stderr"
	SPS_GPU_DIRECT=shared run -0 --separate-stderr sps-dedisperse --gpu \
	    --dm 0 300 in.fil
	[[ "$stderr" == *"GPU direct kernel through shared memory (SPS_GPU_DIRECT)"* ]] ||
	    fail "$stderr"
	SPS_GPU_DIRECT=bogus run -1 --separate-stderr sps-dedisperse --gpu \
	    --dm 0 300 in.fil
	[ "$stderr" = "sps-dedisperse: GPU 0: SPS_GPU_DIRECT=bogus: not auto, cache or shared" ] ||
	    fail "$stderr"
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
	[[ "$stderr" =~ ^sps-dedisperse:\ GPU\ 0:\ cudaMalloc\ of\ [0-9.]+\ MB\ for\ .*:\ out\ of\ memory\ .*:\ try\ a\ smaller\ --block$ ]] ||
	    fail "$stderr"
}

# ---- the algorithms of --algo on the GPU --------------------------------

@test "gpu-dedisperse: --gpu --device 99 is an error naming the device" {
	run -1 --separate-stderr sps-dedisperse --gpu --device 99 -d 10 \
	    "$BATS_TEST_DIRNAME/../../shared/data/tutorial.fil"
	assert_output ""
	[[ "$stderr" == "sps-dedisperse: GPU 99: "* ]] || fail "$stderr"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
}

@test "gpu-dedisperse: the trees sum what the CPU's do, 8-bit" {
	need_gpu
	aux-dedisp gen -b 8 -c 256 -n 40000 -f 1500 -o -1 -t 0.000256 >in.fil
	awk 'BEGIN { for (c = 0; c < 256; c++) print (c % 5 == 2 ? 0 : 1) }' \
	    >kill.txt
	for a in tree-linear tree-padded; do
		same in.fil --algo $a --dm 0 2000
		same in.fil --algo $a --dm 0 2000 --scrunch -k kill.txt
		same in.fil --algo $a --dm 0 2000 --scrunch -k kill.txt \
		    --block 3000
		same in.fil --algo $a --dm 0 2000 --block 20000
	done
	same in.fil --algo tree-linear --subband 4 --dm 0 2000 --scrunch
	same in.fil --algo tree-linear --subband 64 --dm 0 2000 -k kill.txt
}

@test "gpu-dedisperse: the trees sum what the CPU's do, 2-bit" {
	need_gpu
	aux-dedisp gen -b 2 -c 1024 -n 30000 -f 1500 -o -0.25 -t 0.000064 \
	    >in.fil
	awk 'BEGIN { for (c = 0; c < 1024; c++) print (c % 7 == 3 ? 0 : 1) }' \
	    >kill.txt
	for a in tree-linear tree-padded; do
		same in.fil --algo $a --dm 0 1000 -k kill.txt
		same in.fil --algo $a --dm 0 1000 --scrunch --block 5000
		same in.fil --algo $a --dm 0 1000 --scrunch -k kill.txt \
		    --block 16384
	done
}

# float noise of mean 0: sums that depend on their order, and zeros of
# both signs
@test "gpu-dedisperse: the trees sum what the CPU's do, 32-bit floats" {
	need_gpu
	sps-fake -q --nbits 32 --nchans 512 --tsamp 128 --nsamples 30000 \
	    --fch1 1500 --foff -0.5 --mean 0 --rms 1 --seed 3 \
	    --pulse "dm=200,t=1,width=2ms,snr=30" -o in.fil
	for a in tree-linear tree-padded; do
		same in.fil --algo $a --dm 0 1000
		same in.fil --algo $a --dm 0 1000 --scrunch --block 7000
	done
}

# best STREAM W: "TRIAL DM SCRUNCH START SNR" of the highest S/N, boxcars
# of W base samples
best() {
	aux-dedisp peak -w "$2" "$1" | sort -k5 -g | tail -n 1
}

@test "gpu-dedisperse: sub-band and trees find the GPU direct run's pulse, S/N within their bounds" {
	need_gpu
	# 1024 channels of 0.25 MHz from 1500 MHz down, 128 us: a 1 ms pulse
	# is 8 samples
	sps-fake -q --nosmear --nchans 1024 --fch1 1500 --foff -0.25 \
	    --tsamp 128 --tobs 6 --seed 9 \
	    --pulse "dm=300,t=2,width=1ms,snr=30" -o p.fil
	sps-dedisperse --gpu --dm 0 1000 p.fil 2>err >d.dmt
	grep -Eq '^sps-dedisperse: GPU kernels [0-9.]+ s \([0-9.]+ T additions/s\)$' err ||
	    fail "no GPU kernels line: $(cat err)"
	read -r dtrial ddm df dstart dsnr <<<"$(best d.dmt 8)"
	awk -v d="$ddm" 'BEGIN { exit !(d > 290 && d < 310) }' ||
	    fail "direct: peak at DM $ddm"
	for a in "subband --subband 32 --group 8" tree-linear tree-padded; do
		# shellcheck disable=SC2086
		sps-dedisperse --gpu --algo $a --dm 0 1000 p.fil 2>err >t.dmt
		grep -q '^sps-dedisperse: GPU kernels' err ||
		    fail "$a: not on the GPU: $(cat err)"
		bound=$(sed -n 's/^sps-dedisperse: .* smearing \(bound \)\{0,1\}\([0-9.e+-]*\) ms.*/\2/p' err)
		[ -n "$bound" ] || fail "$a: no smearing bound: $(cat err)"
		read -r ttrial tdm tf tstart tsnr <<<"$(best t.dmt 8)"
		[ $((ttrial - dtrial)) -le 1 ] && [ $((dtrial - ttrial)) -le 1 ] ||
		    fail "$a: peak in trial $ttrial (DM $tdm), direct $dtrial (DM $ddm)"
		# at least 0.8 of the direct S/N, and what a 1 ms pulse smeared
		# by the bound keeps (width sqrt(1 + t^2) ms), less 5 % noise
		awk -v t="$tsnr" -v d="$dsnr" -v b="$bound" 'BEGIN {
			exit !(t >= 0.8 * d && t >= 0.95 * d / sqrt(1 + b * b) &&
			    t <= 1.1 * d) }' ||
		    fail "$a: S/N $tsnr against $dsnr direct, bound $bound ms"
	done
}

@test "gpu-dedisperse: --block 67108864 with 8192 channels is out of GPU memory, not a crash" {
	need_gpu
	aux-dedisp gen -b 8 -c 8192 -n 3000 -f 1500 -o -0.03 -t 0.001 >in.fil
	for a in direct tree-linear; do
		run -1 --separate-stderr sps-dedisperse -q --gpu --algo $a \
		    --dm 0 100 --block 67108864 in.fil
		assert_output ""
		[[ "$stderr" == "sps-dedisperse: GPU 0: cudaMalloc of "*": out of memory ("* ]] ||
		    fail "$a: $stderr"
		[[ "$stderr" =~ [0-9]+\ MB ]] || fail "$a: no figure: $stderr"
		[[ "$stderr" == *"try a smaller --block"* ]] || fail "$a: $stderr"
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	done
}
