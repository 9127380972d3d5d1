# gridflow_forbid_links(TARGET <target> FORBIDDEN <library>...)
#
# Layers depend downwards only (DESIGN.md): this stops the configure with a FATAL_ERROR when
# <target> reaches any of the <library>s through its links, naming every path that does, e.g.
#   gridflow::solver -> gridflow::io -> tomlplusplus::tomlplusplus
#
# The walk follows LINK_LIBRARIES (what the target itself links, PRIVATE included) and
# INTERFACE_LINK_LIBRARIES (what it passes on) of every target it meets, transitively, through
# ALIAS targets (gridflow::x is gridflow_x) and IMPORTED ones. Generator expressions cannot be
# evaluated at configure time, so they are read conservatively: $<LINK_ONLY:x>,
# $<BUILD_INTERFACE:x> and a condition such as $<$<CONFIG:Debug>:x> count as linking x;
# $<INSTALL_INTERFACE:x> does not (it never applies inside this build). A library matches when its
# name, or the target it aliases, is one of the forbidden names or the target one of them aliases.
# Plain library names and files match by name only and are not followed.
#
# The check runs at the end of the top-level CMakeLists (cmake_language(DEFER)), when every target
# and every target_link_libraries call is known, so it may be called from anywhere; the target
# must exist by then.
include_guard(GLOBAL)

function(gridflow_forbid_links)
  cmake_parse_arguments(F "" "TARGET" "FORBIDDEN" ${ARGN})
  if(NOT F_TARGET OR NOT F_FORBIDDEN OR F_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: gridflow_forbid_links(TARGET <target> FORBIDDEN <library>...)"
                        " (got: ${ARGN})")
  endif()
  # DEFER CALL expands variables when the call runs; EVAL freezes the values given here.
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL \
_gridflow_check_forbidden_links [[${F_TARGET}]] [[${F_FORBIDDEN}]])")
endfunction()

# The real target behind `name` (an ALIAS resolved), or "" when `name` is no target.
function(_gridflow_real_target name out)
  set(real "")
  if(TARGET "${name}")
    get_target_property(aliased "${name}" ALIASED_TARGET)
    if(aliased)
      set(real "${aliased}")
    else()
      set(real "${name}")
    endif()
  endif()
  set(${out} "${real}" PARENT_SCOPE)
endfunction()

# The library an entry of a link property names, generator expressions read as described above;
# "" for entries that name none (directory markers ::@..., $<INSTALL_INTERFACE:...>, empty).
function(_gridflow_link_entry entry out)
  set(item "${entry}")
  while(TRUE)
    if(item MATCHES "^\\$<(LINK_ONLY|BUILD_INTERFACE|BUILD_LOCAL_INTERFACE|TARGET_NAME):(.*)>$")
      set(item "${CMAKE_MATCH_2}")
    elseif(item MATCHES "^\\$<INSTALL_INTERFACE:")
      set(item "")
    elseif(item MATCHES "^\\$<\\$<.*>:(.*)>$")  # $<condition:x>: the condition assumed true
      set(item "${CMAKE_MATCH_1}")
    elseif(item MATCHES "^\\$<[01]:(.*)>$")
      set(item "${CMAKE_MATCH_1}")
    else()
      break()
    endif()
  endwhile()
  if(item MATCHES "^::@")  # target_link_libraries from another directory marks its entries so
    set(item "")
  endif()
  set(${out} "${item}" PARENT_SCOPE)
endfunction()

function(_gridflow_check_forbidden_links target forbidden)
  _gridflow_real_target("${target}" start)
  if(NOT start)
    message(FATAL_ERROR "gridflow_forbid_links: '${target}' is not a target")
  endif()
  # Forbidden names, and the targets they alias, to compare against.
  set(bad_names "")
  foreach(f IN LISTS forbidden)
    list(APPEND bad_names "${f}")
    _gridflow_real_target("${f}" real)
    if(real)
      list(APPEND bad_names "${real}")
    endif()
  endforeach()

  # Breadth first from the target, so each reported path is a shortest one. Nodes are keyed by
  # real target (or plain name); `via_<key>` holds the path to a node as written at each step.
  string(MAKE_C_IDENTIFIER "${start}" key)
  set(via_${key} "${target}")
  set(queue "${start}")
  set(seen "${start}")
  set(found "")
  while(queue)
    list(POP_FRONT queue node)
    string(MAKE_C_IDENTIFIER "${node}" node_key)
    set(path "${via_${node_key}}")
    get_target_property(direct "${node}" LINK_LIBRARIES)
    get_target_property(passed "${node}" INTERFACE_LINK_LIBRARIES)
    set(entries "")
    if(direct)
      list(APPEND entries ${direct})
    endif()
    if(passed)
      list(APPEND entries ${passed})
    endif()
    foreach(entry IN LISTS entries)
      _gridflow_link_entry("${entry}" name)
      if(name STREQUAL "")
        continue()
      endif()
      _gridflow_real_target("${name}" real)
      set(next "${name}")
      if(real)
        set(next "${real}")
      endif()
      if(next IN_LIST seen)
        continue()
      endif()
      list(APPEND seen "${next}")
      set(next_path "${path} -> ${name}")
      if(name IN_LIST bad_names OR next IN_LIST bad_names)
        list(APPEND found "${next_path}")
        continue()  # one path to each forbidden library is enough
      endif()
      if(real)
        string(MAKE_C_IDENTIFIER "${next}" next_key)
        set(via_${next_key} "${next_path}")
        list(APPEND queue "${next}")
      endif()
    endforeach()
  endwhile()
  if(found)
    list(JOIN found "\n  " paths)
    list(JOIN forbidden ", " names)
    message(FATAL_ERROR "gridflow_forbid_links: ${target} must not link ${names}, but does through:\n  ${paths}")
  endif()
endfunction()
