# embed.cmake - writes a C header holding a file's text as a char array:
#   cmake -DIN=src/x/tmpl/name.c -DOUT=build/tmpl/name.h -DNAME=ctg_tmpl_name -P embed.cmake
# Generated C that ctestgen writes at run time is kept as C files under
# src/*/tmpl/ (readable, diffable, checked by the compilers of the tests
# that build what ctestgen generates) and compiled in through this header.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN} by cmake/embed.cmake: do not edit */\n"
  "static const char ${NAME}[] = {\n    ${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
