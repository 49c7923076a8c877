# need_gpu: in a test that compares the GPU with the CPU, skip with the
# reason when no CUDA device is usable, unless SPS_REQUIRE_GPU=1 (set it
# on a GPU machine: a driver that fails then fails the suite rather than
# skipping it).  Loaded by the gpu-*.bats files.
need_gpu() {
	local why

	why=$(sps-header --devices 2>&1 >/dev/null) && return 0
	[ "${SPS_REQUIRE_GPU:-0}" = 1 ] &&
	    fail "SPS_REQUIRE_GPU=1 but ${why#sps-header: }"
	skip "${why#sps-header: }"
}
