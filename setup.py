"""Build hook: `make` compiles matmul_opt/libmatmul.so before the package is copied into the wheel.

Everything declarative lives in pyproject.toml; this file only adds the CUDA build step and marks the wheel as
platform specific (it carries a Linux shared library, yet no CPython extension, so the tag is py3-none-<platform>).
"""
import os
import shlex
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 ships bdist_wheel itself
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # older setuptools: the `wheel` package provides it
    from wheel.bdist_wheel import bdist_wheel

LIBRARY = os.path.join("matmul_opt", "libmatmul.so")


class BuildWithMake(build_py):
    """Run the Makefile (once; it is incremental), then copy libmatmul.so next to the Python sources."""

    def run(self):
        # MAKE_ARGS passes options through, e.g. MAKE_ARGS="ARCH=sm_86" pip wheel .
        command = ["make", "-j", str(os.cpu_count() or 1)] + shlex.split(os.environ.get("MAKE_ARGS", ""))
        print("running", " ".join(command))
        subprocess.run(command, check=True)
        super().run()
        if not getattr(self, "editable_mode", False):
            # Copy explicitly: package data is globbed before make may have created the file.
            target = os.path.join(self.build_lib, LIBRARY)
            self.mkpath(os.path.dirname(target))
            self.copy_file(LIBRARY, target)

    def get_outputs(self, include_bytecode=1):
        outputs = super().get_outputs(include_bytecode)
        target = os.path.join(self.build_lib, LIBRARY)
        return outputs if target in outputs else outputs + [target]


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True  # binary content: build into platlib and tag the wheel with the platform


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildWithMake, "bdist_wheel": PlatformWheel})
