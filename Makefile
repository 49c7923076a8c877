# sps: single-pulse search tools.  GNU Make.
#
# make                 build every tool (CUDA parts too when nvcc is found)
# make test            unit tests (cmocka) and tool tests (Bats)
# make test SANITIZE=1 the same under AddressSanitizer + UBSan (CPU build)
# make sanitize        shorthand for a clean sanitized build and test run
# make bench           benchmarks (print figures; not tests)
# make mutate          small bugs put into lib/ one at a time (in a scratch
#                      copy): each must make a test fail (scripts/mutate)
# make fuzz            libFuzzer harnesses (clang), each FUZZ_SECONDS, in
#                      FUZZ_JOBS processes; crashes into FUZZ_CRASHES
# make fuzz-replay     every harness once over its corpus (test/fuzz/)
# make gpu-sanitize    the GPU suites under compute-sanitizer (GPU machine)
# make install PREFIX=/usr/local DESTDIR=
#
# Adding a stage NAME: lib/NAME.{h,c}, kernels/NAME.cu (if on the GPU),
# tools/sps-NAME.c with its option list in tools/help.c, man/sps-NAME.1,
# test/sps-NAME.bats, a case in test/help.bats (bad_arguments), and NAME
# in TOOLS.

# No built-in rules: "tools/sps-x: tools/sps-x.c" would otherwise win over
# the rules below when a program exists but its objects do not.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

VERSION = 0.1.0
TOOLS = header fake filterbank clean cornerturn tscrunch plan dedisperse boxcar \
	peaks search plot candmaker
TOOLS := $(foreach t,$(TOOLS),$(if $(wildcard tools/sps-$(t).c),$(t)))

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man

CC ?= cc
OPT ?= -O3
# The dedispersion and search loops want the host's widest SIMD; set
# ARCH= (empty) to build binaries for other machines.
ARCH ?= -march=native
CFLAGS_BASE = -std=c11 $(OPT) $(ARCH) -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-DSPS_VERSION='"$(VERSION)"' -fopenmp -Ilib
FITS_CFLAGS := $(shell pkg-config --cflags cfitsio 2>/dev/null)
FITS_LIBS := $(shell pkg-config --libs cfitsio 2>/dev/null || echo -lcfitsio)
LDLIBS_BASE = $(FITS_LIBS) -fopenmp -lm

ifeq ($(SANITIZE),1)
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
NVCC =
OPT = -O1
BUILD_TAG = san
else
SAN =
BUILD_TAG = std
endif

# CUDA is optional: found on PATH or in /usr/local/cuda.
NVCC ?= $(shell command -v nvcc 2>/dev/null || \
	(test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc))
CUDA_ARCH ?= sm_90
CUDA_COMPUTE = $(subst sm_,compute_,$(CUDA_ARCH))
ifneq ($(strip $(NVCC)),)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NVCCFLAGS = -O3 -std=c++17 -Ilib -Werror all-warnings \
	-Xcompiler -Wall,-Wextra,-Werror,-fopenmp \
	-gencode arch=$(CUDA_COMPUTE),code=[$(CUDA_ARCH),$(CUDA_COMPUTE)]
CUDA_DEFS = -DSPS_HAVE_CUDA
CUDA_LIBS = -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart \
	-lstdc++
KERNEL_SRC = $(wildcard kernels/*.cu)
else
CUDA_DEFS =
CUDA_LIBS =
KERNEL_SRC =
endif

# Optional libraries of single tools: tool NAME links $(NAME_OBJ) (objects
# of tools/) and $(NAME_LIBS); its objects are built with $(NAME_CFLAGS).
HDF5_PC := $(firstword $(foreach p,hdf5 hdf5-serial,$(shell \
	pkg-config --exists $(p) 2>/dev/null && echo $(p))))
ifneq ($(HDF5_PC),)
candmaker_CFLAGS = $(shell pkg-config --cflags $(HDF5_PC)) -DSPS_HAVE_HDF5
candmaker_LIBS = $(shell pkg-config --libs $(HDF5_PC))
candmaker_OBJ = $(O)/tools/candmaker_h5.o
endif

# cairo draws sps-plot's pages and sps-search --plot's (lib/plot*.c),
# its text through fontconfig; "make CAIRO=" builds without it.
CAIRO := $(shell pkg-config --exists cairo fontconfig 2>/dev/null && \
	echo cairo fontconfig)
ifneq ($(CAIRO),)
CAIRO_CFLAGS = $(shell pkg-config --cflags $(CAIRO)) -DSPS_HAVE_CAIRO
plot_LIBS = $(shell pkg-config --libs $(CAIRO))
search_LIBS = $(plot_LIBS)
endif

CFLAGS = $(CFLAGS_BASE) $(FITS_CFLAGS) $(CUDA_DEFS) $(SAN)
LDLIBS = $(LDLIBS_BASE) $(CUDA_LIBS) $(SAN)

O = .build/$(BUILD_TAG)
LIB_SRC = $(wildcard lib/*.c)
LIB_OBJ = $(LIB_SRC:lib/%.c=$(O)/lib/%.o) $(KERNEL_SRC:kernels/%.cu=$(O)/kernels/%.o)
LIB = $(O)/libsps.a
CLI_OBJ = $(O)/tools/cli.o $(O)/tools/help.o $(O)/tools/cleanopts.o \
	$(O)/tools/searchpipe.o
BINS = $(TOOLS:%=tools/sps-%)
SCRIPTS = scripts/sps-completeness scripts/sps-cleancost scripts/sps-batch
UNIT_SRC = $(wildcard test/unit-*.c)
UNITS = $(UNIT_SRC:test/%.c=$(O)/test/%)
AUX_SRC = $(wildcard test/aux-*.c)
AUX = $(AUX_SRC:test/%.c=$(O)/test/%)
MANS = $(wildcard man/*.[157])

all: $(BINS)

# What the objects were built with: when it changes (nvcc or cairo found
# or given empty, another ARCH), $(O)/config changes and they are rebuilt.
CONFIG = nvcc=$(NVCC) arch=$(CUDA_ARCH) cairo=$(CAIRO) hdf5=$(HDF5_PC) \
	cc=$(CC) opt=$(OPT) march=$(ARCH)
$(shell mkdir -p $(O) && { echo '$(CONFIG)' | cmp -s - $(O)/config || \
	echo '$(CONFIG)' >$(O)/config; })

# Binaries in tools/ belong to the last build (plain or sanitized).
$(BINS): tools/sps-%: $(O)/tools/sps-%.o $(CLI_OBJ) $(LIB) \
    .build/flavour-$(BUILD_TAG)
	$(CC) $(CFLAGS) -o $@ $< $($*_OBJ) $(CLI_OBJ) $(LIB) $($*_LIBS) \
		$(LDLIBS)

tools/sps-candmaker: $(candmaker_OBJ)
$(O)/tools/sps-candmaker.o $(candmaker_OBJ): CFLAGS += $(candmaker_CFLAGS)
CAIRO_OBJ = $(O)/lib/plot.o $(O)/lib/plot%.o $(O)/tools/sps-plot.o \
	$(O)/tools/sps-search.o
$(CAIRO_OBJ): CFLAGS += $(CAIRO_CFLAGS)

.build/flavour-$(BUILD_TAG):
	@mkdir -p .build && rm -f .build/flavour-* && touch $@

$(O)/lib/%.o: lib/%.c $(wildcard lib/*.h) $(O)/config
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(O)/tools/%.o: tools/%.c $(wildcard lib/*.h) $(wildcard tools/*.h) \
    $(O)/config
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(O)/kernels/%.o: kernels/%.cu $(wildcard lib/*.h) $(wildcard kernels/*.h) \
    $(wildcard kernels/*.cuh) $(O)/config
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UNITS): $(O)/test/unit-%: test/unit-%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS) -lcmocka

# test/aux-*.c: small programs the Bats suites use (reference sums etc.).
$(AUX): $(O)/test/aux-%: test/aux-%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

test: all $(UNITS) $(AUX)
	@SPS_UNIT_DIR=$(O)/test sh test/run

sanitize:
	$(MAKE) SANITIZE=1 test

bench: all
	@for b in scripts/bench-*; do [ -x "$$b" ] && "$$b"; done; true

mutate:
	scripts/mutate
# Fuzzing (test/fuzz/): lib/ built again by clang with libFuzzer, ASan
# and UBSan into .build/fuzz, one thread (test/fuzz/include/omp.h), for
# any x86-64 (no -march), linked statically but for libc, libm and
# cfitsio, so that the binaries run on other Debian machines.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 1
FUZZ_CRASHES ?= .build/fuzz/crashes
FO = .build/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
# -Werror only for the harnesses: the gcc build holds lib/ to it, and a
# clang-only warning there should not stop the fuzzing.
FUZZ_CFLAGS = -std=c11 -O1 -g -Wall -Wextra -Wno-unknown-pragmas \
	-D_GNU_SOURCE -DSPS_VERSION='"$(VERSION)"' -Itest/fuzz/include -Ilib \
	$(FITS_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SRC = $(wildcard test/fuzz/fuzz-*.c)
FUZZ_BINS = $(FUZZ_SRC:test/fuzz/%.c=$(FO)/%)
FUZZ_LIB = $(FO)/libsps.a
FUZZ_AUX = $(FO)/test/fuzz.o $(FO)/test/omp1.o

$(FO)/lib/%.o: lib/%.c $(wildcard lib/*.h) test/fuzz/include/omp.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FO)/test/%.o: test/fuzz/%.c test/fuzz/fuzz.h $(wildcard lib/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -c -o $@ $<

$(FUZZ_LIB): $(LIB_SRC:lib/%.c=$(FO)/lib/%.o)
	@rm -f $@
	ar rcs $@ $^

# psrfits.c's fits_open_diskfile is sent to the harness's memory file.
$(FO)/fuzz-psrfits: FUZZ_WRAP = -Wl,--wrap=ffdkopn
$(FUZZ_BINS): $(FO)/fuzz-%: $(FO)/test/fuzz-%.o $(FUZZ_AUX) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -static-libstdc++ \
		-static-libgcc $(FUZZ_WRAP) -o $@ $^ $(FITS_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	scripts/fuzz-all -b $(FO) -t $(FUZZ_SECONDS) -j $(FUZZ_JOBS) \
		-o $(FUZZ_CRASHES)

fuzz-replay: fuzz-build
	scripts/fuzz-all -b $(FO) -r

# the GPU suites under compute-sanitizer (on a GPU machine)
gpu-sanitize: all $(UNITS) $(AUX)
	scripts/gpu-sanitize --tool memcheck
	scripts/gpu-sanitize --tool racecheck

lint-man:
	mandoc -Tlint -W warning $(MANS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BINS) $(SCRIPTS) $(DESTDIR)$(BINDIR)
	for m in $(MANS); do \
		s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s; done

uninstall:
	rm -f $(BINS:tools/%=$(DESTDIR)$(BINDIR)/%) \
		$(SCRIPTS:scripts/%=$(DESTDIR)$(BINDIR)/%)
	for m in $(MANS); do \
		s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done

clean:
	rm -rf .build $(BINS)

.PHONY: all test sanitize gpu-sanitize bench mutate fuzz fuzz-build \
	fuzz-replay lint-man install uninstall clean
