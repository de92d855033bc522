# CMake package of libinlay, installed by crates/inlay-capi/install.sh into
# PREFIX/lib/cmake/inlay. find_package(inlay) defines
#   inlay::inlay         the shared library (libinlay.so), with include/inlay.h
#   inlay::inlay_static  the static library (libinlay.a) and the system libraries it needs
# and inlay_VERSION (from inlayConfigVersion.cmake).
get_filename_component(_inlay_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET inlay::inlay)
  add_library(inlay::inlay SHARED IMPORTED)
  set_target_properties(inlay::inlay PROPERTIES
    IMPORTED_LOCATION "${_inlay_prefix}/lib/libinlay.so.0"
    IMPORTED_SONAME "libinlay.so.0"
    INTERFACE_INCLUDE_DIRECTORIES "${_inlay_prefix}/include")
endif()
if(NOT TARGET inlay::inlay_static)
  add_library(inlay::inlay_static STATIC IMPORTED)
  set_target_properties(inlay::inlay_static PROPERTIES
    IMPORTED_LOCATION "${_inlay_prefix}/lib/libinlay.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_inlay_prefix}/include"
    INTERFACE_LINK_LIBRARIES "gcc_s;util;rt;pthread;m;dl")
endif()
set(inlay_INCLUDE_DIRS "${_inlay_prefix}/include")
set(inlay_LIBRARIES inlay::inlay)
unset(_inlay_prefix)
