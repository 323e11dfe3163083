# The Windows unit suite (cross-built, run under wine): stand-in nvml.dll and nvcuda.dll built
# here, and the whole gtest binary as one ctest entry (one wine process instead of one per test).
enable_language(RC)
foreach(fake nvml nvcuda)
  add_library(fake_${fake}_dll SHARED ${CMAKE_SOURCE_DIR}/tests/fakes/windows/fake_${fake}_dll.cc
                                      ${CMAKE_SOURCE_DIR}/tests/fakes/windows/driver_566_36.rc)
  set_target_properties(fake_${fake}_dll PROPERTIES OUTPUT_NAME ${fake} PREFIX ""
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fake-nvidia
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fake-nvidia)
endforeach()
target_compile_definitions(cudamatch_tests PRIVATE
  FAKE_NVML_DLL="$<TARGET_FILE:fake_nvml_dll>"
  FAKE_NVCUDA_DLL="$<TARGET_FILE:fake_nvcuda_dll>")
add_dependencies(cudamatch_tests cudamatch fake_nvml_dll fake_nvcuda_dll)
add_test(NAME unit_suite COMMAND cudamatch_tests)
set_tests_properties(unit_suite PROPERTIES ENVIRONMENT "CUDAMATCH_SOURCE_DIR=${CMAKE_SOURCE_DIR}" TIMEOUT 900)
