# flametools: one Makefile, no autotools.
#   make [all]      build every program into bin/
#   make test       build and run every test (ends with "N passed, N failed")
#   make bench      run the benchmarks (FLAMEGRAPH_DIR=... adds the Perl column)
#   make fuzz       build the fuzz targets (needs clang)
#   make install    PREFIX=/usr/local DESTDIR=
#   make uninstall  the same PREFIX and DESTDIR
#   make clean
# Knobs: CC CFLAGS LDFLAGS PREFIX DESTDIR, ZLIB=auto|0|1, SANITIZE=1, STRICT=1,
#        PORTABLE=1 (C11 + POSIX only; with "make filters"), HOSTCC (tools
#        run during the build), STATIC=auto|0|1 (flamegraph-svg static),
#        MUSL=auto|0|1 (flamegraph-svg linked with musl-gcc, or MUSLCC)

VERSION   = 0.1.0
.DEFAULT_GOAL := all
# libtracerecord's ABI: the major number is in its SONAME.
SOMAJOR   = 0
CC       ?= cc
PREFIX   ?= /usr/local
MANDIR   ?= $(PREFIX)/share/man
ZLIB     ?= auto
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2
ifeq ($(STRICT),1)
WARN     += -Werror
endif
ifeq ($(SANITIZE),1)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=address,undefined
BUILD     = build/san
else ifeq ($(PORTABLE),1)
BUILD     = build/port
else
BUILD     = build/rel
endif
# PORTABLE=1 builds as a system with C11 and POSIX.1-2008 alone would:
# no GNU extensions (src/lib/compat.h stands in for them).  The three
# filters claim that; trace-record is Linux-only.
ifeq ($(PORTABLE),1)
FEATURES  = -D_POSIX_C_SOURCE=200809L
else
FEATURES  = -D_GNU_SOURCE
endif
ALL_CFLAGS = -std=c11 $(FEATURES) -DFT_VERSION='"$(VERSION)"' $(WARN) $(CFLAGS)

# zlib: probed once with a one-line test compile.
HASH := \#
ifeq ($(ZLIB),auto)
ZLIB := $(shell printf '%s\n' '$(HASH)include <zlib.h>' \
          'int main(void){return zlibVersion()==0;}' | \
          $(CC) -x c - -o /dev/null -lz >/dev/null 2>&1 && echo 1 || echo 0)
endif
ifeq ($(ZLIB),1)
ALL_CFLAGS += -DHAVE_ZLIB
LIBS       += -lz
endif
LIBS += -lpthread

LIB_SRC  = $(wildcard src/lib/*.c)
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/%.o)
PROGS    = stackcollapse flamegraph-svg trace-record spanlayout
ifneq ($(filter 1,$(SANITIZE) $(PORTABLE)),)
BINDIR_B = $(BUILD)/bin
else
BINDIR_B = bin
endif

# flamegraph-svg linked statically, as a static PIE (so it keeps ASLR),
# where the toolchain has libc.a (and libz.a with zlib): a graph is made
# in a few milliseconds, of which the dynamic loader's share, loading
# libz and libc and relocating, was a tenth (0.1 ms of 0.9 on a small
# graph: perf stat -e task-clock).  Probed with a one-line link; never
# with SANITIZE=1 (the sanitizers' runtimes are shared libraries).
# STATIC=0 links it dynamically, as the other programs are.
STATIC   ?= auto
ifeq ($(SANITIZE),1)
STATIC   := 0
endif
ifeq ($(STATIC),auto)
STATIC := $(shell printf '%s\n' 'int main(void){return 0;}' | \
          $(CC) $(CFLAGS) -x c - -static-pie -o /dev/null $(LIBS) -lm \
          >/dev/null 2>&1 && echo 1 || echo 0)
endif
# flamegraph-svg linked statically with musl (musl-gcc, Debian's
# musl-tools) where it is installed, on x86-64: a static glibc program
# spends 0.5 ms starting here, before main, nine tenths of it in the
# cpuid instructions of glibc's cache-size probe (each traps to the
# hypervisor on a VM), more than a small graph takes to make; musl starts
# in 0.05 ms.  src/musl replaces musl's malloc and its memcpy, memchr and
# memcmp, slow for this work (see each file).  zlib is the host's libz.a
# and zlib.h: of it flamegraph-svg links deflate, plain C that calls
# memcpy, memset and malloc alone.  Probed with a one-line link.  MUSL=0
# links it with glibc, as STATIC says.
MUSL     ?= auto
MUSLCC   ?= musl-gcc
MBUILD    = $(BUILD)-musl
ifneq ($(filter 1,$(SANITIZE) $(PORTABLE))$(filter 0,$(STATIC)),)
MUSL     := 0
endif
ifeq ($(ZLIB)$(filter 0,$(MUSL)),1)
# zlib.h and zconf.h where $(CC) finds them, linked into a folder of
# their own: the host's /usr/include would hand musl-gcc glibc's headers
ZLIB_H   := $(shell printf '$(HASH)include <zlib.h>\n' | $(CC) -x c -M - 2>/dev/null | \
              tr ' \\' '\n\n' | grep -E '/z(lib|conf)\.h$$')
MUSL_INC  = -I$(MBUILD)/zlib
MUSL_LIBS = $(shell $(CC) -print-file-name=libz.a)
endif
# The probe links what flamegraph-svg calls of zlib, deflate and inflate,
# with zlib.h and zconf.h linked into a folder of its own for the while.
ifeq ($(MUSL),auto)
MUSL := $(shell [ "$$($(CC) -dumpmachine 2>/dev/null | cut -d- -f1)" = x86_64 ] || \
          { echo 0; exit; }; d=$$(mktemp -d) || { echo 0; exit; }; \
          $(if $(ZLIB_H),ln -s $(ZLIB_H) $$d/;) \
          printf '%s\n' '$(HASH)include <stdio.h>' \
          $(if $(filter 1,$(ZLIB)),'$(HASH)include <zlib.h>' \
          'int main(void){z_stream s = {0}; return deflateInit2(&s, 1, 8, -15, 9, 0) + inflateInit2(&s, 47);}', \
          'int main(void){return 0;}') | \
          $(MUSLCC) $(CFLAGS) -I$$d -x c - -x none $(LDFLAGS) -static -o /dev/null \
          $(MUSL_LIBS) >/dev/null 2>&1 && echo 1 || echo 0; rm -rf "$$d")
endif
ifeq ($(MUSL),1)
# A static PIE, so that its code is placed at random too, linked by hand
# (musl-gcc's specs link none): musl's rcrt1.o, which relocates the
# program, from where its specs take Scrt1.o (the linker line of -v),
# with gcc's crtbeginS.o and crtendS.o.  Probed by running one; where it
# does not link or run, a static program (-static).  It starts 0.01 to
# 0.02 ms later than that one.
MUSL_CRT := $(dir $(shell $(MUSLCC) -v -static -x c /dev/null -o /dev/null 2>&1 | \
              grep -o '/[^ ]*/Scrt1\.o' | head -n 1))
MUSL_PIE_START := $(MUSL_CRT)rcrt1.o $(MUSL_CRT)crti.o \
                  $(shell $(MUSLCC) -print-file-name=crtbeginS.o)
MUSL_PIE_END   := $(shell $(MUSLCC) -print-file-name=crtendS.o) $(MUSL_CRT)crtn.o
MUSL_PIE_LINK  = -static -nostartfiles -Wl,-pie,--no-dynamic-linker
MUSL_PIE := $(shell t=$$(mktemp) || exit; \
              printf 'int main(void){return 0;}\n' | $(MUSLCC) $(CFLAGS) -fPIE -x c - \
              -x none $(LDFLAGS) $(MUSL_PIE_LINK) -o "$$t" $(MUSL_PIE_START) \
              $(MUSL_PIE_END) >/dev/null 2>&1 && "$$t" && echo 1 || echo 0; rm -f "$$t")
ifeq ($(MUSL_PIE),1)
MUSL_LINK  = $(MUSL_PIE_LINK) $(MUSL_PIE_START)
MUSL_END   = $(MUSL_PIE_END)
else
MUSL_LINK  = -static
endif
MUSL_OBJ  = $(patsubst src/%.c,$(MBUILD)/%.o,$(wildcard src/flamegraph-svg/*.c \
            src/lib/*.c src/musl/*.c))
$(MBUILD)/zlib:
	mkdir -p $@ $(if $(ZLIB_H),&& ln -sf $(ZLIB_H) $@/)
$(MBUILD)/%.o: src/%.c Makefile | $(MBUILD)/zlib
	@mkdir -p $(dir $@)
	$(MUSLCC) $(ALL_CFLAGS) -fPIE $(MUSL_INC) -MMD -MP -I$(BUILD)/$(*D:src/%=%) -c $< -o $@
$(MBUILD)/musl/string.o: ALL_CFLAGS += -fno-tree-loop-distribute-patterns
$(MBUILD)/flamegraph-svg/svg.o: $(BUILD)/flamegraph-svg/flame_js.h
$(MBUILD)/flamegraph-svg/timeline.o: $(BUILD)/flamegraph-svg/timeline_js.h
ifeq ($(ZLIB),1)
$(MBUILD)/flamegraph-svg/svg.o: $(BUILD)/flamegraph-svg/flame_jsz.h
endif
-include $(wildcard $(MBUILD)/*/*.d)
# musl's mallocng must not come in beside src/musl's malloc (which would
# then free its blocks): it would not clash, so it is looked for
$(BINDIR_B)/flamegraph-svg: $(MUSL_OBJ)
	@mkdir -p $(dir $@)
	$(MUSLCC) $(LDFLAGS) $(MUSL_LINK) -o $@ $(filter %.o,$^) $(MUSL_LIBS) -lm $(MUSL_END)
	@if nm $@ | grep -q __libc_malloc_impl; then \
	    echo "$@: musl's malloc is linked beside src/musl's" >&2; rm -f $@; exit 1; fi
# their unit tests, linked with them and musl alone; their byte-at-a-time
# references must not become calls of the functions they check
MUSL_UNIT = $(MBUILD)/unit
$(MUSL_UNIT): tests/musl/unit.c $(patsubst src/%.c,$(MBUILD)/%.o,$(wildcard src/musl/*.c))
	$(MUSLCC) $(ALL_CFLAGS) -fno-tree-loop-distribute-patterns $(LDFLAGS) \
	    -static -o $@ $^ -lpthread
else ifeq ($(STATIC),1)
$(BINDIR_B)/flamegraph-svg: LDFLAGS += -static-pie
endif
# How flamegraph-svg is linked, in a file rewritten only when that
# changes, so that switching MUSL or STATIC relinks it.
LINK_MODE = MUSL=$(MUSL) STATIC=$(STATIC) MUSL_PIE=$(MUSL_PIE)
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(BUILD)/link-mode 2>/dev/null)" = \
    "$(LINK_MODE)" ] || echo "$(LINK_MODE)" > $(BUILD)/link-mode; })
$(BINDIR_B)/flamegraph-svg: $(BUILD)/link-mode
BINS     = $(PROGS:%=$(BINDIR_B)/%)
# The objects of one program: every .c in its folder.
objs     = $(patsubst src/%.c,$(BUILD)/%.o,$(wildcard src/$(1)/*.c))
# The folders a program links besides its own and src/lib: the ELF
# reader (src/elf) is trace-record's and libtracerecord's.
uses_trace-record = elf
uses     = $(foreach d,$(uses_$(1)),$(call objs,$(d)))

.SECONDEXPANSION:
all: $(BINS)

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD) in a .d file next to it; -MP keeps a deleted header from
# stopping the build.
$(BUILD)/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(PIC) -I$(BUILD)/$(*D:src/%=%) -c $< -o $@
-include $(wildcard $(BUILD)/*/*.d)

# The scripts, embedded as C strings: ui.js (what both share), then the
# graph's own (the flame graph's in several files, its views last); the
# flame graph's in parts, one a file, of which svg.c takes those its
# graph needs: diffview.js (--diff), units.js (a --countname other than
# samples), delta.js (three columns), frac.js (fractional counts),
# links.js (--nameattr).
FLAME_JS = $(addprefix src/flamegraph-svg/,ui.js flame.js table.js sandwich.js \
	diffview.js units.js delta.js frac.js links.js views.js)
$(BUILD)/flamegraph-svg/flame_js.h: $(FLAME_JS) src/flamegraph-svg/jsmin.awk
	@mkdir -p $(dir $@)
	awk -v var=flame_js -v parts=1 -f src/flamegraph-svg/jsmin.awk $(FLAME_JS) > $@
$(BUILD)/flamegraph-svg/svg.o: $(BUILD)/flamegraph-svg/flame_js.h
# With zlib, the script deflated ahead for pack.h, by a tool built and run
# on the build host (HOSTCC, with the host's zlib), cross builds too.
HOSTCC   ?= cc
ifeq ($(ZLIB),1)
$(BUILD)/host/jsz: src/flamegraph-svg/host/jsz.c src/flamegraph-svg/jsparts.h $(BUILD)/flamegraph-svg/flame_js.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -O2 -I$(BUILD)/flamegraph-svg -o $@ $< -lz
$(BUILD)/flamegraph-svg/flame_jsz.h: $(BUILD)/host/jsz
	$< > $@
$(BUILD)/flamegraph-svg/svg.o: $(BUILD)/flamegraph-svg/flame_jsz.h
endif
$(BUILD)/flamegraph-svg/timeline_js.h: src/flamegraph-svg/ui.js src/flamegraph-svg/timeline.js src/flamegraph-svg/jsmin.awk
	@mkdir -p $(dir $@)
	awk -v var=timeline_js -f src/flamegraph-svg/jsmin.awk src/flamegraph-svg/ui.js src/flamegraph-svg/timeline.js > $@
$(BUILD)/flamegraph-svg/timeline.o: $(BUILD)/flamegraph-svg/timeline_js.h

$(BUILD)/libft.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# libtracerecord, static and shared: position-independent, and never
# instrumented itself.  Programs link it; it links nothing of ours but
# the ELF reader, whose objects it carries (so they are built -fPIC for
# trace-record too: one build of them, and a program may be PIE anyway).
TRLIB_OBJ = $(call objs,libtracerecord) $(call objs,elf)
SO        = libtracerecord.so
# The link named as the SONAME: what the loader looks for in the build
# directory too (LD_LIBRARY_PATH=build/rel).
TRLIB     = $(BUILD)/libtracerecord.a $(BUILD)/$(SO) $(BUILD)/$(SO).$(SOMAJOR)
$(BUILD)/libtracerecord/%.o $(BUILD)/elf/%.o: PIC = -fPIC
$(BUILD)/libtracerecord.a: $(TRLIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^
$(BUILD)/$(SO): $(TRLIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SO).$(SOMAJOR) -o $@ $^ -lpthread
$(BUILD)/$(SO).$(SOMAJOR): $(BUILD)/$(SO)
	ln -sf $(SO) $@
all: $(TRLIB)

# The signal sampler trace-record preloads: never sanitized (it is
# loaded into programs that are not), with frame pointers, and carried
# inside trace-record as a byte array.
SAMPLER_SRC = src/libtrsample/sampler.c src/elf/cfi.c src/elf/elfimg.c
$(BUILD)/libtrsample.so: $(SAMPLER_SRC) src/libtrsample/sring.h src/elf/cfi.h src/elf/elfimg.h Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(OPT) -fPIC -fno-omit-frame-pointer \
	    -fvisibility=hidden -shared -o $@ $(SAMPLER_SRC) -lpthread
$(BUILD)/trace-record/sampler_so.h: $(BUILD)/libtrsample.so
	@mkdir -p $(dir $@)
	od -An -v -tx1 $< | awk 'BEGIN { print "static const unsigned char sampler_so[] = {" } \
	    { s = ""; for (i = 1; i <= NF; i++) s = s "0x" $$i ","; print s } END { print "};" }' > $@
$(BUILD)/trace-record/sigsample.o: $(BUILD)/trace-record/sampler_so.h

$(BINDIR_B)/%: $$(call objs,%) $$(call uses,%) $(BUILD)/libft.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LIBS) -lm

# Unit tests of src/lib.
UNIT_SRC = $(wildcard tests/unit/*.c)
$(BUILD)/unit: $(UNIT_SRC) $(BUILD)/libft.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc $(LDFLAGS) -o $@ $(filter %.c %.o %.a,$^) $(LIBS) -lm

# The fuzz targets, replayed over their corpus without a fuzzer (make
# test) or built for libFuzzer (make fuzz).  Each links the sources of
# the folder whose parser it drives, and of the folders that one uses,
# but their main.
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/replay_%)
fuzz_prog_perf = stackcollapse
fuzz_prog_folded = flamegraph-svg
fuzz_prog_diff = flamegraph-svg
fuzz_prog_timeline = flamegraph-svg
fuzz_prog_packets = trace-record
fuzz_prog_elfimg = elf
fuzz_prog_elfsym = elf
fuzz_prog_cfi = elf
fuzz_prog_perfrec = trace-record
fuzz_prog_spans = spanlayout
# The demangler is src/lib's; trace-record names samples with it.
fuzz_prog_demangle = trace-record
# Every other target drives a format of stackcollapse.
fuzz_prog = $(or $(fuzz_prog_$(1)),stackcollapse)
fuzz_srcs = $(filter-out %/main.c,$(foreach d,$(call fuzz_prog,$(1)) \
            $(uses_$(call fuzz_prog,$(1))),$(wildcard src/$(d)/*.c)))
fuzz_objs = $(patsubst src/%.c,$(BUILD)/%.o,$(call fuzz_srcs,$(1)))
$(BUILD)/replay_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/collapse_fuzz.h tests/fuzz/fuzz_file.h $$(call fuzz_objs,%) $(BUILD)/libft.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc $(LDFLAGS) -o $@ $(filter %.c %.o %.a,$^) $(LIBS) -lm

# The filters alone, for PORTABLE=1 (tests/run.sh builds them so with
# clang when it is installed, and compares their output with bin/'s).
FILTERS  = stackcollapse flamegraph-svg spanlayout
filters: $(FILTERS:%=$(BINDIR_B)/%)

test: all $(BUILD)/unit $(FUZZ_REPLAY) $(MUSL_UNIT)
	@BIN=$(BINDIR_B) BUILD=$(BUILD) SANITIZE=$(SANITIZE) CC="$(CC)" MUSL_UNIT=$(MUSL_UNIT) \
	    CFLAGS="$(CFLAGS)" LDFLAGS="$(LDFLAGS)" sh tests/run.sh

bench: all
	@MUSL=$(MUSL) MUSLCC=$(MUSLCC) MUSL_LINK="$(MUSL_LINK)" MUSL_END="$(MUSL_END)" \
	    sh tests/bench.sh

# libFuzzer builds: make fuzz, then build/fuzz/fuzz_perf tests/fuzz/corpus/perf
FUZZ_BIN = $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
fuzz: $(FUZZ_BIN)
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(call fuzz_srcs,%) $(LIB_SRC) \
      $(BUILD)/flamegraph-svg/flame_js.h $(BUILD)/flamegraph-svg/timeline_js.h \
      $(BUILD)/trace-record/sampler_so.h
	@mkdir -p $(dir $@)
	clang -g -O1 -std=c11 -D_GNU_SOURCE -DFT_VERSION='"$(VERSION)"' -Isrc \
	    -I$(BUILD)/flamegraph-svg -I$(BUILD)/trace-record -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    -o $@ $(filter %.c,$^) -lpthread -lm

demo: all
	@sh tests/demo.sh

# The shared library under its full version, with the links the loader
# (SONAME) and the linker (-ltracerecord) look for.
MANS      = $(wildcard man/man1/*.1 man/man3/*.3 man/man5/*.5)
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(BUILD)/libtracerecord.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/$(SO) $(DESTDIR)$(PREFIX)/lib/$(SO).$(VERSION)
	ln -sf $(SO).$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SO).$(SOMAJOR)
	ln -sf $(SO).$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/$(SO)
	install -m 644 src/libtracerecord/trace_record.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 man/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	install -m 644 man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/man5/*.5 $(DESTDIR)$(MANDIR)/man5/

# What install put there, and nothing else.
uninstall:
	rm -f $(PROGS:%=$(DESTDIR)$(PREFIX)/bin/%) \
	    $(DESTDIR)$(PREFIX)/lib/libtracerecord.a \
	    $(DESTDIR)$(PREFIX)/lib/$(SO).$(VERSION) \
	    $(DESTDIR)$(PREFIX)/lib/$(SO).$(SOMAJOR) \
	    $(DESTDIR)$(PREFIX)/lib/$(SO) \
	    $(DESTDIR)$(PREFIX)/include/trace_record.h \
	    $(MANS:man/%=$(DESTDIR)$(MANDIR)/%)

clean:
	rm -rf build $(PROGS:%=bin/%)

.PHONY: all filters test bench fuzz demo install uninstall clean
.SECONDARY:
