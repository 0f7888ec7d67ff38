# Installation and the package that other builds use:
#
#   bin/dwarfpack                         the tool            (Runtime)
#   lib/libdwarfpack.so.*                 the C API           (Runtime)
#   include/dwarfpack/dwarfpack.h, lib/libdwarfpack.so,
#   lib/cmake/dwarfpack/, lib/pkgconfig/dwarfpack.pc,
#   share/dwarfpack/dwarfpack.mk          to build with them  (Development)
#   lib/libdwarfpack<Component>.a, the C++ headers under include/dwarfpack,
#   their CMake targets                   C++ components      (Libraries)
#
# Every file refers to the others by relative paths, so the tree works
# wherever it is installed (`cmake --install build --prefix DIR`).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DWARFPACK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dwarfpack)

# The installed tool and library find libLLVM where this build did.
set_target_properties(dwarfpack libdwarfpack PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS dwarfpack EXPORT dwarfpackTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
install(TARGETS libdwarfpack EXPORT dwarfpackTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime
    NAMELINK_COMPONENT Development
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/dwarfpack/dwarfpack.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dwarfpack COMPONENT Development)

# A link named addr2line makes the tool act as GNU addr2line; it would
# shadow binutils' in the same bin/, so it is not installed by default.
option(DWARFPACK_INSTALL_ADDR2LINE_LINK
  "Install bin/addr2line, a link to dwarfpack that acts as GNU addr2line" OFF)
if(DWARFPACK_INSTALL_ADDR2LINE_LINK)
  install(CODE "file(CREATE_LINK dwarfpack
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/addr2line\"
    SYMBOLIC)" COMPONENT Runtime)
endif()

# The component libraries and their C++ headers.
get_property(dwarfpack_libraries GLOBAL PROPERTY DWARFPACK_LIBRARIES)
install(TARGETS ${dwarfpack_libraries} EXPORT dwarfpackLibrariesTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Libraries
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/dwarfpack
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Libraries
  PATTERN dwarfpack.h EXCLUDE)

# The CMake package.
install(EXPORT dwarfpackTargets NAMESPACE dwarfpack::
  DESTINATION ${DWARFPACK_CMAKE_DIR} COMPONENT Development)
install(EXPORT dwarfpackLibrariesTargets NAMESPACE dwarfpack::
  DESTINATION ${DWARFPACK_CMAKE_DIR} COMPONENT Libraries)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dwarfpackConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dwarfpackConfig.cmake
  INSTALL_DESTINATION ${DWARFPACK_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/dwarfpackConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/dwarfpackConfig.cmake
  ${PROJECT_BINARY_DIR}/dwarfpackConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/dwarfpackPostLink.cmake
  DESTINATION ${DWARFPACK_CMAKE_DIR} COMPONENT Development)

# pkg-config's file and the Make snippet locate the prefix from their own
# place: ${pcfiledir}, $(MAKEFILE_LIST).
file(RELATIVE_PATH DWARFPACK_PC_TO_PREFIX
  /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
file(RELATIVE_PATH DWARFPACK_MK_TO_BINDIR
  /prefix/${CMAKE_INSTALL_DATADIR}/dwarfpack /prefix/${CMAKE_INSTALL_BINDIR})
string(REGEX REPLACE "/$" "" DWARFPACK_PC_TO_PREFIX "${DWARFPACK_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/dwarfpack.pc.in
  ${PROJECT_BINARY_DIR}/dwarfpack.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/dwarfpack.mk.in
  ${PROJECT_BINARY_DIR}/dwarfpack.mk @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dwarfpack.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT Development)
install(FILES ${PROJECT_BINARY_DIR}/dwarfpack.mk
  DESTINATION ${CMAKE_INSTALL_DATADIR}/dwarfpack COMPONENT Development)
