# Cross-build for 64-bit Arm Linux with Debian's g++-aarch64-linux-gnu; tests and the
# build-time generators run under qemu-user-static.
#   cmake -S . -B build-aarch64 -G Ninja --toolchain cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The target's libc, libstdc++ and loader live in /usr/aarch64-linux-gnu (libc6-dev-arm64-cross);
# programs start through that loader (cmake/qemu-aarch64 says why not qemu's -L).
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/qemu-aarch64)

# Programs come from the build machine, libraries and headers from the target's directory.
# fmt and nlohmann-json are used header-only, so their (architecture-free) headers and
# CMake package files from the build machine serve; GoogleTest is built from Debian's source
# package (/usr/src/googletest) with this compiler (CUDAMATCH_GTEST_SOURCE).
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(fmt_DIR /usr/lib/x86_64-linux-gnu/cmake/fmt CACHE PATH "fmt (header-only use)")
set(CUDAMATCH_GTEST_SOURCE /usr/src/googletest CACHE PATH "GoogleTest sources built for the target")
