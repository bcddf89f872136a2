# Builds matmul_opt/libmatmul.so from cuda/ with nvcc.
#   make                 sm_90 machine code + compute_90 PTX (newer GPUs JIT the PTX)
#   make ARCH=sm_86      another architecture (machine code + PTX for it)
#   make resources       ptxas report per kernel: registers, shared memory, stack, spills
#   make clean
NVCC      ?= nvcc
ARCH      ?= sm_90
BUILD     ?= build
LIBRARY   := matmul_opt/libmatmul.so
COMPUTE   := $(subst sm_,compute_,$(ARCH))
GENCODE   := -gencode arch=$(COMPUTE),code=[$(ARCH),$(COMPUTE)]
# Per-thread default streams let calls from different host threads run concurrently on the GPU.
NVCCFLAGS ?= -O3 -std=c++17 -lineinfo
FLAGS     := $(NVCCFLAGS) $(GENCODE) --default-stream per-thread -Xcompiler -fPIC,-fvisibility=hidden \
             -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -Icuda

SOURCES   := $(wildcard cuda/*.cu cuda/kernels/*.cu)
OBJECTS   := $(patsubst cuda/%.cu,$(BUILD)/%.o,$(SOURCES))

.PHONY: all resources clean
all: $(LIBRARY)

$(LIBRARY): $(OBJECTS)
	$(NVCC) $(GENCODE) -shared -o $@ $^ -ldl

# -MMD writes header dependencies next to each object, so editing a header rebuilds only its users.
$(BUILD)/%.o: cuda/%.cu $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(NVCC) $(FLAGS) -MMD -MP -c $< -o $@

# Rebuild everything when the compiler flags or the target architecture change.
$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(NVCC) $(FLAGS)' | cmp -s - $@ || echo '$(NVCC) $(FLAGS)' > $@
FORCE:

resources:
	@for src in $(wildcard cuda/kernels/*.cu); do \
		echo "== $$src"; \
		$(NVCC) $(FLAGS) -Xptxas -v -c $$src -o /dev/null 2>&1 | grep -E "Compiling entry|Used|spill|stack frame"; \
	done

clean:
	rm -rf $(BUILD) $(LIBRARY)

-include $(OBJECTS:.o=.d)
