# A mingw cross build takes fmt and nlohmann-json (header-only) from the build machine's
# /usr/include. That directory itself must not be searched (its libc headers are glibc's), so it
# is treated as an implicit directory (dropped from the command lines) and the two libraries
# are reached through links in the build directory.
list(APPEND CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)
set(host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${host_headers})
foreach(dir fmt nlohmann)
  if(EXISTS /usr/include/${dir} AND NOT EXISTS ${host_headers}/${dir})
    file(CREATE_LINK /usr/include/${dir} ${host_headers}/${dir} SYMBOLIC)
  endif()
endforeach()
include_directories(SYSTEM ${host_headers})
