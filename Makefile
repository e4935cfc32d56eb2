# flametools: one Makefile, no autotools.
#   make [all]      build every program into bin/
#   make test       the deterministic tests (ends with "N passed, N failed")
#   make check      the rest: sampling statistics, browsers, other builds
#   make bench      run the benchmarks (FLAMEGRAPH_DIR=... adds the Perl column)
#   make fuzz       build the fuzz targets (needs clang)
#   make install    PREFIX=/usr/local DESTDIR=
#   make uninstall  the same PREFIX and DESTDIR
#   make clean
# Knobs: CC CFLAGS LDFLAGS PREFIX DESTDIR, ZLIB=auto|0|1, SANITIZE=1, STRICT=1,
#        PORTABLE=1 (C11 + POSIX only; with "make filters")

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
CFLAGS   += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
            -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=address,undefined,float-cast-overflow
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

# The scripts, embedded as C strings as they are (js2c.awk drops only
# whole-line comments and leading blanks): ui.js (what both share), then
# the graph's own.  The flame graph's files are parts of which svg.c
# leaves out those its graph does not use: diffview.js (--diff), units.js
# (a --countname other than samples), delta.js (three columns), frac.js
# (fractional counts), links.js (--nameattr), hotcold.js (--colors=hotcold).
# A timeline of a span profile carries the flame graph's script too, as a
# function its own (spanflame.js) runs for the flame graphs of samples,
# diffview.js included for the comparison of two (spandiff.js).
FLAME_JS = $(addprefix src/flamegraph-svg/,ui.js flame.js table.js sandwich.js xform.js \
	diffview.js units.js delta.js frac.js links.js hotcold.js views.js)
TIMELINE_JS = $(addprefix src/flamegraph-svg/,ui.js tlpane.js spanflame.js spandiff.js timeline.js)
$(BUILD)/flamegraph-svg/flame_js.h: $(FLAME_JS) src/flamegraph-svg/js2c.awk
	@mkdir -p $(dir $@)
	awk -v var=flame_js -f src/flamegraph-svg/js2c.awk $(FLAME_JS) > $@.tmp && mv $@.tmp $@
$(BUILD)/flamegraph-svg/timeline_js.h: $(TIMELINE_JS) src/flamegraph-svg/js2c.awk
	@mkdir -p $(dir $@)
	awk -v var=timeline_js -f src/flamegraph-svg/js2c.awk $(TIMELINE_JS) > $@.tmp && mv $@.tmp $@
$(BUILD)/flamegraph-svg/scriptdata.o: $(BUILD)/flamegraph-svg/flame_js.h
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
# inside trace-record as a byte array.  Two: --wall's has stdio's
# wrappers too (wallstdio.c), which only it should pay for: interposed,
# one costs a getc that only passes it on 0.45 ns (200M getc: 348 ms
# alone, 433 with them loaded).
SAMPLER_SRC = src/libtrsample/sampler.c src/libtrsample/alloc.c src/libtrsample/wall.c \
    src/libtrsample/wallfort.c \
    src/elf/cfi.c src/elf/elfimg.c
SAMPLER_DEP = $(SAMPLER_SRC) src/libtrsample/sring.h src/libtrsample/sampler.h \
    src/libtrsample/wall.h src/elf/cfi.h src/elf/elfimg.h Makefile
SAMPLER_CC = $(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(OPT) -fPIC -fno-omit-frame-pointer \
    -fvisibility=hidden -shared
$(BUILD)/libtrsample.so: $(SAMPLER_DEP)
	@mkdir -p $(dir $@)
	$(SAMPLER_CC) -o $@ $(SAMPLER_SRC) -lpthread -lm
$(BUILD)/libtrsample-wall.so: $(SAMPLER_DEP) src/libtrsample/wallstdio.c
	@mkdir -p $(dir $@)
	$(SAMPLER_CC) -o $@ $(SAMPLER_SRC) src/libtrsample/wallstdio.c -lpthread -lm
$(BUILD)/trace-record/sampler_so.h: $(BUILD)/libtrsample.so $(BUILD)/libtrsample-wall.so
	@mkdir -p $(dir $@)
	for v in libtrsample.so:sampler_so libtrsample-wall.so:sampler_wall_so; do \
		od -An -v -tx1 $(BUILD)/$${v%%:*} | awk -v var=$${v#*:} \
		    'BEGIN { print "static const unsigned char " var "[] = {" } \
		    { s = ""; for (i = 1; i <= NF; i++) s = s "0x" $$i ","; print s } \
		    END { print "};" }' || exit 1; \
	done > $@.tmp && mv $@.tmp $@
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

# The filters alone, for PORTABLE=1 (tests/check.sh builds them so with
# clang when it is installed, and compares their output with bin/'s).
FILTERS  = stackcollapse flamegraph-svg spanlayout
filters: $(FILTERS:%=$(BINDIR_B)/%)

test: all $(BUILD)/unit $(FUZZ_REPLAY)
	@BIN=$(BINDIR_B) BUILD=$(BUILD) SANITIZE=$(SANITIZE) CC="$(CC)" \
	    CFLAGS="$(CFLAGS)" LDFLAGS="$(LDFLAGS)" sh tests/run.sh

check: all
	@BIN=$(BINDIR_B) BUILD=$(BUILD) CC="$(CC)" sh tests/check.sh

bench: all
	@sh tests/bench.sh

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

.PHONY: all filters test check bench fuzz demo install uninstall clean
.SECONDARY:
