# The Linux unit suite: fake NVIDIA libraries (.so) and one ctest entry per test.
add_library(fake_nvml SHARED ${CMAKE_SOURCE_DIR}/tests/fakes/fake_nvml.cc)
add_library(fake_cuda_nosymbol SHARED ${CMAKE_SOURCE_DIR}/tests/fakes/fake_cuda_nosymbol.cc)
add_library(fake_cuda_misbehaving SHARED ${CMAKE_SOURCE_DIR}/tests/fakes/fake_cuda_misbehaving.cc)
if(CUDAMATCH_SANITIZE OR CUDAMATCH_FUZZ)
  # The fakes stand in for NVIDIA's uninstrumented C libraries: no sanitizer inside them (their
  # declarations differ in type names from ours, and their crashes must be real signals).
  foreach(fake fake_nvml fake_cuda_nosymbol fake_cuda_misbehaving)
    target_compile_options(${fake} PRIVATE -fno-sanitize=all)
  endforeach()
endif()
target_compile_definitions(cudamatch_tests PRIVATE
  FAKE_NVML_LIBRARY="$<TARGET_FILE:fake_nvml>"
  FAKE_CUDA_NOSYMBOL_LIBRARY="$<TARGET_FILE:fake_cuda_nosymbol>"
  FAKE_CUDA_MISBEHAVING_LIBRARY="$<TARGET_FILE:fake_cuda_misbehaving>")
add_dependencies(cudamatch_tests cudamatch fake_nvml fake_cuda_nosymbol fake_cuda_misbehaving)
include(GoogleTest)
gtest_discover_tests(cudamatch_tests DISCOVERY_TIMEOUT 60
                     PROPERTIES ENVIRONMENT "CUDAMATCH_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
# The hostile machines and the filesystem once more with openat2 disabled: the component-by-
# component resolution that kernels without it get.
# The attacks of a hostile repository, image or requirements file: each guard is tested again
# without openat2, and as an unprivileged user (where root's permission overrides do not hide a
# check that only holds for root).
set(CUDAMATCH_HOSTILE_TESTS "Hostile*:Safety*:RealFs*:Root*:Unreadable*:ElfCaps*:HonestEmptiness*:PlantedLibrary*:TrustedLibrary*:RequirementsCaps*:RequirementsCheck*:RequirementsDecode*:RunpathExpansion*:SafeOutput*:WatchedChild*:WindowsCaseTwins*:-Hostile.HundredThousandNvidiaPackages")
add_test(NAME hostile_without_openat2
         COMMAND cudamatch_tests --gtest_filter=${CUDAMATCH_HOSTILE_TESTS})
set_tests_properties(hostile_without_openat2 PROPERTIES
                     ENVIRONMENT "CUDAMATCH_SOURCE_DIR=${CMAKE_SOURCE_DIR};CUDAMATCH_NO_OPENAT2=1"
                     TIMEOUT 600)
if(NOT CMAKE_CROSSCOMPILING)  # the wrapper runs the binary itself, without the emulator
  add_test(NAME hostile_unprivileged
           COMMAND sh ${CMAKE_SOURCE_DIR}/cmake/run_unprivileged.sh $<TARGET_FILE:cudamatch_tests>
                   --gtest_filter=${CUDAMATCH_HOSTILE_TESTS})
  set_tests_properties(hostile_unprivileged PROPERTIES
                       ENVIRONMENT "CUDAMATCH_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
# The golden and fixture suites over the environment cache: cold, warm and corrupted on purpose
# (cmake/cache_suite.sh). Nothing the cache holds may change an answer.
if(NOT CMAKE_CROSSCOMPILING)
  add_test(NAME cache_cold_warm_corrupted
           COMMAND sh ${CMAKE_SOURCE_DIR}/cmake/cache_suite.sh $<TARGET_FILE:cudamatch_tests>
                   "*GoldenRun*:*FixtureMachine*:Situations*:PlatformSituations*:EnvCache*:MemoFs*")
  set_tests_properties(cache_cold_warm_corrupted PROPERTIES
                       ENVIRONMENT "CUDAMATCH_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 900)
endif()
