# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake --install: the headers, libumf_gpu.so (versioned) and libumf_gpu.a,
# a CMake package (find_package(umf_gpu CONFIG) -> umf_gpu::umf_gpu and
# umf_gpu::umf_gpu_static) and a pkg-config file (umf-gpu.pc). The emulated
# drivers and their helper program install themselves from their folders.

include(CMakePackageConfigHelpers)

set(UMF_GPU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/umf_gpu)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/umf
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(
    TARGETS umf_gpu umf_gpu_static
    EXPORT umf_gpu-targets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(
    EXPORT umf_gpu-targets
    NAMESPACE umf_gpu::
    DESTINATION ${UMF_GPU_CMAKE_DIR})

configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/umf_gpu-config.cmake.in
    ${PROJECT_BINARY_DIR}/umf_gpu-config.cmake
    INSTALL_DESTINATION ${UMF_GPU_CMAKE_DIR})
write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/umf_gpu-config-version.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/umf_gpu-config.cmake
              ${PROJECT_BINARY_DIR}/umf_gpu-config-version.cmake
        DESTINATION ${UMF_GPU_CMAKE_DIR})

# The pkg-config file finds the prefix from its own folder (${pcfiledir}),
# so that it stays right when `cmake --install --prefix` (or a package)
# puts the files elsewhere than CMAKE_INSTALL_PREFIX.
file(RELATIVE_PATH UMF_GPU_PC_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH UMF_GPU_PC_LIBDIR ${CMAKE_INSTALL_PREFIX}
     ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH UMF_GPU_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX}
     ${CMAKE_INSTALL_FULL_INCLUDEDIR})
string(REGEX REPLACE "/$" "" UMF_GPU_PC_PREFIX "${UMF_GPU_PC_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/umf-gpu.pc.in
               ${PROJECT_BINARY_DIR}/umf-gpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/umf-gpu.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The README links to these pages by relative paths, which hold in the
# installed copy too.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")
