# install.cmake - `cmake --install build --prefix DIR` and `cpack -G DEB`
# (docs/tools.md, "Installing and packaging").
#
# The layout below PREFIX is compiled into lmdlc (compiler/base/paths.c), which
# finds PREFIX from its own executable, so an installed tree can be moved.
# Fixed relative directories, not GNUInstallDirs: a multiarch libdir
# (lib/x86_64-linux-gnu) would make the layout depend on the prefix.
set(LMDL_INSTALL_BINDIR bin)
set(LMDL_INSTALL_LIBDIR lib)
set(LMDL_INSTALL_INCLUDEDIR include/lmdl)
set(LMDL_INSTALL_STDLIBDIR share/lmdl/library)
set(LMDL_INSTALL_FMUSRCDIR share/lmdl/runtime)

target_compile_definitions(lmdl_base PRIVATE
  LMDL_BUILD_DIR="$<TARGET_FILE_DIR:lmdlc>"
  LMDL_INSTALL_BINDIR="${LMDL_INSTALL_BINDIR}"
  LMDL_INSTALL_LIBDIR="${LMDL_INSTALL_LIBDIR}"
  LMDL_INSTALL_INCLUDEDIR="${LMDL_INSTALL_INCLUDEDIR}"
  LMDL_INSTALL_STDLIBDIR="${LMDL_INSTALL_STDLIBDIR}"
  LMDL_INSTALL_FMUSRCDIR="${LMDL_INSTALL_FMUSRCDIR}"
  LMDL_RT_LIB_NAME="$<TARGET_FILE_NAME:lmdl_rt>"
  LMDL_RT_PIC_LIB_NAME="$<TARGET_FILE_NAME:lmdl_rt_pic>")

# Modes are explicit: lmdlc trusts an installed tree only if no one but
# its owner can write to it, whatever the umask of whoever installs.
set(LMDL_DIR_MODE OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                  WORLD_READ WORLD_EXECUTE)
set(LMDL_FILE_MODE OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${LMDL_DIR_MODE})

install(TARGETS lmdlc RUNTIME DESTINATION ${LMDL_INSTALL_BINDIR})
install(TARGETS lmdl_rt ARCHIVE DESTINATION ${LMDL_INSTALL_LIBDIR}
        PERMISSIONS ${LMDL_FILE_MODE})
install(TARGETS lmdl_rt_pic ARCHIVE DESTINATION ${LMDL_INSTALL_LIBDIR}
        PERMISSIONS ${LMDL_FILE_MODE})
# The headers generated code includes (rt_model.h, and rt_units.h for
# RT_DIM_COUNT and rt_kinds.h and rt_math.h, which it includes; lmdl_fmi.h for an FMU's
# table), flat.
install(FILES runtime/rt_model.h runtime/common/rt_units.h runtime/common/rt_kinds.h
              runtime/common/rt_math.h
              runtime/lmdl_fmi.h
        DESTINATION ${LMDL_INSTALL_INCLUDEDIR} PERMISSIONS ${LMDL_FILE_MODE})
# The sources an FMU carries in sources/ (tools/fmu.c): the runtime files
# of liblmdl_rt_pic.a and every header, as in runtime/.
foreach(f ${LMDL_FMU_RT_SOURCES})
  get_filename_component(d ${f} DIRECTORY)
  install(FILES runtime/${f} DESTINATION ${LMDL_INSTALL_FMUSRCDIR}/${d}
          PERMISSIONS ${LMDL_FILE_MODE})
endforeach()
install(DIRECTORY runtime/ DESTINATION ${LMDL_INSTALL_FMUSRCDIR}
        FILE_PERMISSIONS ${LMDL_FILE_MODE} DIRECTORY_PERMISSIONS ${LMDL_DIR_MODE}
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY library/ DESTINATION ${LMDL_INSTALL_STDLIBDIR}
        FILE_PERMISSIONS ${LMDL_FILE_MODE} DIRECTORY_PERMISSIONS ${LMDL_DIR_MODE})

# The Debian package: lmdl_VERSION_ARCH.deb, installing under /usr.
# LMDL_DEB_DEPENDS is what a simulator build needs on the target machine
# (a C compiler, the C library's headers, and every library the simulators
# link: extend it when the runtime links more).
set(LMDL_DEB_DEPENDS "gcc | c-compiler, libc6-dev, libgsl-dev, libsundials-dev, libsuitesparse-dev, libzip4")
# LMDL_DEB_RECOMMENDS: what commands use when present, and refuse with a
# message otherwise: gnuplot for lmdlc plot, GNU parallel for lmdlc sweep
# --engine parallel --run.
set(LMDL_DEB_RECOMMENDS "gnuplot-nox | gnuplot, parallel")
set(CPACK_PACKAGE_NAME lmdl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "equation-based modeling language: the lmdlc compiler, runtime and library")
set(CPACK_PACKAGE_DESCRIPTION
    "lmdlc checks models written in lmdl (Simscape/Modelica style) and turns them into simulators, with the simulator runtime and the standard library.")
set(CPACK_PACKAGE_CONTACT "lmdl maintainers <lmdl@example.invalid>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${LMDL_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${LMDL_DEB_RECOMMENDS}")
include(CPack)
