# Writes the man page and the completion scripts by running the built binary (under the
# cross-compiling emulator when there is one): cudamatch --generate man|bash|zsh|fish.
# cmake -DBINARY=... -DEMULATOR=... -DOUT_DIR=... -P generate_docs.cmake
foreach(kind_file IN ITEMS "man=cudamatch.1" "bash=completions/cudamatch.bash"
                           "zsh=completions/_cudamatch" "fish=completions/cudamatch.fish")
  string(REPLACE "=" ";" pair "${kind_file}")
  list(GET pair 0 kind)
  list(GET pair 1 file)
  get_filename_component(dir "${OUT_DIR}/${file}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND ${EMULATOR} "${BINARY}" --generate ${kind}
                  OUTPUT_FILE "${OUT_DIR}/${file}.tmp" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${BINARY} --generate ${kind} failed: ${rc}")
  endif()
  file(RENAME "${OUT_DIR}/${file}.tmp" "${OUT_DIR}/${file}")
endforeach()
