# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DIN=<file.spv> -DOUT=<header.h> -DVAR=<name> -DSOURCE=<file.cl> -P
# this: writes the SPIR-V module IN as `static const unsigned char NAME[]`
# (UmfGpuSpirv.cmake).
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)"
                     "\\1\n    " bytes "${bytes}")
file(WRITE ${OUT}
     "// Generated from ${SOURCE} by cmake/embed_spirv.cmake.\n"
     "static const unsigned char ${VAR}[] = {\n    ${bytes}\n};\n")
