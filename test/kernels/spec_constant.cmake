# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# cmake -DSPIRV=<llvm-spirv-14> -DIN=<spec.spv> -DOUT=<out.spv> -P this:
# turns the 32-bit constant 12345 of IN into a specialization constant with
# SpecId 7, through the translator's own text form of SPIR-V.
execute_process(COMMAND ${SPIRV} -to-text ${IN} -o ${OUT}.txt
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "llvm-spirv -to-text ${IN} failed")
endif()
file(READ ${OUT}.txt text)
string(REGEX MATCH "\n4 Constant ([0-9]+) ([0-9]+) 12345 \n" found "${text}")
if(NOT found)
    message(FATAL_ERROR "${IN} has no 32-bit constant 12345")
endif()
set(id ${CMAKE_MATCH_2})
string(REPLACE "${found}" "\n4 SpecConstant ${CMAKE_MATCH_1} ${id} 12345 \n"
               text "${text}")
# Decorations end where the types begin: the decoration goes before the
# first type.
string(FIND "${text}" "\n4 TypeInt " at)
string(SUBSTRING "${text}" 0 ${at} head)
string(SUBSTRING "${text}" ${at} -1 tail)
set(text "${head}\n4 Decorate ${id} SpecId 7 ${tail}")
file(WRITE ${OUT}.txt "${text}")
execute_process(COMMAND ${SPIRV} -to-binary ${OUT}.txt -o ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "llvm-spirv -to-binary ${OUT}.txt failed")
endif()
