# dwarfpack_add_post_link(<target> [STORE <dir>] [EMBED]
#                         [FORMAT compact|gsym] [STRICT])
#
# Runs `dwarfpack pack` on <target> (an executable, shared or module
# library) right after it links, as part of the same build step, so that
# every build of it has its tables:
#
#   STORE <dir>  files its address table by build-id under <dir> (relative
#                to the current binary directory), where
#                `dwarfpack lookup --store <dir>` and the C API's stores
#                find it;
#   EMBED        writes a .ctf section (its C types, for GDB and libctf
#                readers) and its address table (the .dwarfpack.table
#                section, which `dwarfpack lookup <binary>` reads) into the
#                binary itself;
#   FORMAT       the address table's format: compact (the default) or gsym;
#   STRICT       a binary without DWARF (built without -g) fails the build;
#                otherwise it gets a symbol-only table and a one-line note.
#
# At least one of STORE and EMBED. The link needs a build-id for STORE
# (-Wl,--build-id, the default of Debian's GCC and clang).

function(dwarfpack_add_post_link target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "EMBED;STRICT" "STORE;FORMAT" "")
  set(fn "dwarfpack_add_post_link")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${fn}: '${target}' is not a target")
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    message(FATAL_ERROR "${fn}: '${target}' is a ${type}; only executables "
      "and shared or module libraries are linked")
  endif()
  if(NOT DEFINED ARG_STORE AND NOT ARG_EMBED)
    message(FATAL_ERROR "${fn}(${target}): nothing to do: give STORE <dir>, "
      "EMBED, or both")
  endif()
  if(DEFINED ARG_STORE AND ARG_STORE STREQUAL "")
    message(FATAL_ERROR "${fn}(${target}): STORE needs a directory")
  endif()

  # The tool: this package's, or dwarfpack's own when a build of dwarfpack
  # uses the function. A target name as the command makes the step wait
  # for the tool to be built.
  if(TARGET dwarfpack::dwarfpack)
    set(cmd dwarfpack::dwarfpack)
  else()
    set(cmd dwarfpack)
  endif()
  list(APPEND cmd pack "$<TARGET_FILE:${target}>")
  if(DEFINED ARG_STORE)
    get_filename_component(store "${ARG_STORE}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND cmd --store "${store}")
  endif()
  if(ARG_EMBED)
    list(APPEND cmd --embed -o "$<TARGET_FILE:${target}>")
  endif()
  if(DEFINED ARG_FORMAT)
    if(NOT ARG_FORMAT MATCHES "^(compact|gsym)$")
      message(FATAL_ERROR "${fn}(${target}): FORMAT is compact or gsym, not "
        "'${ARG_FORMAT}'")
    endif()
    list(APPEND cmd "--format=${ARG_FORMAT}")
  endif()
  if(ARG_STRICT)
    list(APPEND cmd --strict)
  endif()
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${cmd}
    COMMENT "dwarfpack: packing ${target}"
    VERBATIM)
endfunction()
