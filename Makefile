# Builds matmul_opt/libmatmul.so from cuda/ with nvcc.
#   make                 sm_90 machine code + compute_90 PTX (newer GPUs JIT the PTX)
#   make ARCH=sm_86      another architecture (machine code + PTX for it)
#   make resources       ptxas report per kernel: registers, shared memory, stack, spills (and, for
#                        warp-specialised kernels, the registers of each warpgroup role)
#   make clean
# Sources named *_sm90a.cu use instructions that exist on sm_90a only (wgmma, setmaxnreg): they are built for
# sm_90a machine code alone, whatever ARCH is, into the same library; their kernels report themselves
# unavailable on GPUs that cannot run that code.
NVCC      ?= nvcc
ARCH      ?= sm_90
BUILD     ?= build
LIBRARY   := matmul_opt/libmatmul.so
COMPUTE   := $(subst sm_,compute_,$(ARCH))
GENCODE   := -gencode arch=$(COMPUTE),code=[$(ARCH),$(COMPUTE)]
# The -gencode form: nvcc 13.0's -arch=sm_90a shorthand also runs a plain sm_90 pass, which rejects wgmma.
# The tensor-core kernels in these sources keep their accumulators and fragments in registers (tests/test_sass.py
# checks their machine code for local memory, where cuobjdump is present): ptxas refuses local memory in them too,
# so a spill or a stack frame fails the build on any machine with nvcc, GPU or not.
SM90A_GENCODE := -gencode arch=compute_90a,code=sm_90a -Xptxas -warn-spills,-warn-lmem-usage,-Werror
# Per-thread default streams let calls from different host threads run concurrently on the GPU.
NVCCFLAGS ?= -O3 -std=c++20 -lineinfo
FLAGS     := $(NVCCFLAGS) --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden \
             -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -Icuda

SOURCES       := $(sort $(shell find cuda -name '*.cu'))
SM90A_SOURCES ?= $(filter %_sm90a.cu,$(SOURCES))
OBJECTS       := $(patsubst cuda/%.cu,$(BUILD)/%.o,$(SOURCES))
gencode_of     = $(if $(filter $(1),$(SM90A_SOURCES)),$(SM90A_GENCODE),$(GENCODE))

.PHONY: all resources clean
all: $(LIBRARY)

$(LIBRARY): $(OBJECTS)
	$(NVCC) $(GENCODE) -shared -o $@ $^ -ldl

# -MMD writes header dependencies next to each object, so editing a header rebuilds only its users.
$(BUILD)/%.o: cuda/%.cu $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(NVCC) $(FLAGS) $(call gencode_of,$<) -MMD -MP -c $< -o $@

# Rebuild everything when the compiler flags, the target architecture or the sm_90a list change.
$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(NVCC) $(FLAGS) $(GENCODE) sm_90a: $(SM90A_SOURCES)' | cmp -s - $@ || \
		echo '$(NVCC) $(FLAGS) $(GENCODE) sm_90a: $(SM90A_SOURCES)' > $@
FORCE:

# Warp-specialised kernels (setmaxnreg, sm_90a sources) also list each warpgroup role's register budget: ptxas
# reports the budget at entry, setmaxnreg.dec what the producer warpgroup keeps, .inc what consumers take.
resources:
	@$(foreach src,$(SOURCES),echo "== $(src)"; \
		$(NVCC) $(FLAGS) $(call gencode_of,$(src)) -Xptxas -v -c $(src) -o /dev/null 2>&1 | \
		grep -E "Compiling entry|Used|spill|stack frame" || true; \
		$(if $(filter $(src),$(SM90A_SOURCES)),$(NVCC) $(FLAGS) $(SM90A_GENCODE) -ptx $(src) -o - 2>/dev/null | \
		grep -oE "setmaxnreg.(dec|inc).sync.aligned.u32 [0-9]+" | sort -u | \
		sed -e 's/setmaxnreg.dec.sync.aligned.u32/    producer warpgroup registers:/' \
		    -e 's/setmaxnreg.inc.sync.aligned.u32/    consumer warpgroup registers:/';))

clean:
	rm -rf $(BUILD) $(LIBRARY)

-include $(OBJECTS:.o=.d)
