# The compiler's error messages, exactly: one case per class of error in
# spec/language.md (lexical, syntax, names, constants, procedures, the
# parallel parts, memory), each with the gcc-style line and caret. Every
# case must exit with status 1 and write nothing to stdout and no file.
. tests/lib.sh
XC_ABS="$(cd "$(dirname "$XC")" && pwd)/$(basename "$XC")"

# want FILE: writes its standard input (a here-document) to FILE, in the
# shell: a cat a case was 71 processes.
want() {
    while IFS= read -r want_line || [ -n "$want_line" ]; do
        printf '%s\n' "$want_line"
    done >"$1"
}

# check_error NAME [OPTION...]: compiles $TMP/NAME.x from inside $TMP (so
# that messages name NAME.x) and compares stderr with $TMP/NAME.want.
check_error() {
    name=$1
    shift
    (cd "$TMP" && exec "$XC_ABS" "$@" "$name.x" >"$name.out" 2>"$name.err")
    status=$?
    if [ "$status" -ne 1 ]; then
        fail "error_$name" "exit status $status, expected 1"
    elif [ -s "$TMP/$name.out" ] || [ -e "$TMP/$name.hex" ]; then
        fail "error_$name" "wrote output on an error"
    elif cmp -s "$TMP/$name.want" "$TMP/$name.err"; then
        pass "error_$name"
    else
        fail "error_$name" "$(diff "$TMP/$name.want" "$TMP/$name.err" | head -n 20)"
    fi
}

printf '%b' 'proc main() is print 1 @ 2\n' >"$TMP/invalid_character.x"
want "$TMP/invalid_character.want" <<'EOF'
invalid_character.x:1:24: error: invalid character '@'
    1 | proc main() is print 1 @ 2
      |                        ^
EOF
check_error invalid_character

printf '%b' 'proc main() is\n  var n;\n  print n\0303\0251\0303\0251 \0342\0200\0224 1\n' >"$TMP/non_ascii_character.x"
want "$TMP/non_ascii_character.want" <<'EOF'
non_ascii_character.x:3:10: error: invalid character 'é' (U+00E9): a name has only ASCII letters, digits and '_'
    3 |   print néé — 1
      |          ^
non_ascii_character.x:3:12: error: invalid character 'é' (U+00E9): a name has only ASCII letters, digits and '_'
    3 |   print néé — 1
      |           ^
non_ascii_character.x:3:15: error: invalid character '—' (U+2014)
    3 |   print néé — 1
      |             ^
EOF
check_error non_ascii_character

# A UTF-8 byte-order mark at the start of the file is skipped: line 1's
# columns and caret are those of the text after it.
printf '%b' '\0357\0273\0277proc main() is print y\n' >"$TMP/byte_order_mark.x"
want "$TMP/byte_order_mark.want" <<'EOF'
byte_order_mark.x:1:22: error: 'y' is not declared
    1 | proc main() is print y
      |                      ^
EOF
check_error byte_order_mark

# A letter outside ASCII in quotes: one message saying so, not 'more than
# one character' (it is two bytes).
printf '%b' 'proc main() is\n  { print \047\0303\0251\047; print y }\n' >"$TMP/non_ascii_in_quotes.x"
want "$TMP/non_ascii_in_quotes.want" <<'EOF'
non_ascii_in_quotes.x:2:11: error: 'é' (U+00E9) is not ASCII: a character in quotes is one ASCII character or escape, like 'a' or '\n'
    2 |   { print 'é'; print y }
      |           ^
non_ascii_in_quotes.x:2:23: error: 'y' is not declared
    2 |   { print 'é'; print y }
      |                      ^
EOF
check_error non_ascii_in_quotes

# A hex image given to xc: one line, not an error for each of its digits;
# by its name, or (check_error's NAME.x) by its text of hex digits alone.
cp tests/data/hex/loop.hex "$TMP/image.hex"
(cd "$TMP" && exec "$XC_ABS" image.hex >image.out 2>image.err)
status=$?
want "$TMP/image.want" <<'EOF'
xc: image.hex is a hex image, a program compiled already: bin/emu runs it ('bin/emu image.hex'), and xc compiles a program's source, a .x file
EOF
if [ "$status" -ne 1 ]; then fail error_hex_image_named "exit status $status, expected 1"
elif [ -s "$TMP/image.out" ] || [ -e "$TMP/image.hex.hex" ]; then fail error_hex_image_named "wrote output"
else expect_same error_hex_image_named "$TMP/image.want" "$TMP/image.err"; fi
cp tests/data/hex/loop.hex "$TMP/hex_image_text.x"
want "$TMP/hex_image_text.want" <<'EOF'
xc: hex_image_text.x holds a hex image, a program compiled already, not a program's source: bin/emu runs it from a file named .hex
EOF
check_error hex_image_text

printf '%b' 'proc main() is\n  var n;\n  print n \0351 1\n' >"$TMP/invalid_byte.x"
printf '%b' 'invalid_byte.x:3:11: error: invalid character (byte 0xe9)\n    3 |   print n \0351 1\n      |           ^\n' >"$TMP/invalid_byte.want"
check_error invalid_byte

printf '%b' 'proc main() is\n  var n;\n  print n ^ 1\n' >"$TMP/caret_for_xor.x"
want "$TMP/caret_for_xor.want" <<'EOF'
caret_for_xor.x:3:11: error: invalid character '^' (exclusive or is 'xor')
    3 |   print n ^ 1
      |           ^
EOF
check_error caret_for_xor

printf '%b' 'proc main() is print 4294967296\n' >"$TMP/number_too_large.x"
want "$TMP/number_too_large.want" <<'EOF'
number_too_large.x:1:22: error: number '4294967296' is too large (a number must be below 2^32)
    1 | proc main() is print 4294967296
      |                      ^
EOF
check_error number_too_large

printf '%b' 'proc main() is print #\n' >"$TMP/hex_without_digits.x"
want "$TMP/hex_without_digits.want" <<'EOF'
hex_without_digits.x:1:22: error: expected hex digits after '#'
    1 | proc main() is print #
      |                      ^
EOF
check_error hex_without_digits

printf '%b' 'proc main() is print #100000000\n' >"$TMP/hex_too_large.x"
want "$TMP/hex_too_large.want" <<'EOF'
hex_too_large.x:1:22: error: number '#100000000' is too large (a number must be below 2^32)
    1 | proc main() is print #100000000
      |                      ^
EOF
check_error hex_too_large

printf '%b' 'proc main() is print 12ab\n' >"$TMP/invalid_number.x"
want "$TMP/invalid_number.want" <<'EOF'
invalid_number.x:1:22: error: invalid number '12ab'
    1 | proc main() is print 12ab
      |                      ^
EOF
check_error invalid_number

printf '%b' 'proc main() is print '\''\\q'\''\n' >"$TMP/bad_escape.x"
want "$TMP/bad_escape.want" <<'EOF'
bad_escape.x:1:23: error: unknown escape '\q' in a character (use \n \t \\ \' or \0)
    1 | proc main() is print '\q'
      |                       ^
EOF
check_error bad_escape

printf '%b' 'proc main() is print '\''a\n' >"$TMP/unterminated_character.x"
want "$TMP/unterminated_character.want" <<'EOF'
unterminated_character.x:1:22: error: missing closing ' of a character
    1 | proc main() is print 'a
      |                      ^
EOF
check_error unterminated_character

printf '%b' 'proc main() is print '\'''\''\n' >"$TMP/empty_character.x"
want "$TMP/empty_character.want" <<'EOF'
empty_character.x:1:22: error: empty character ''
    1 | proc main() is print ''
      |                      ^
EOF
check_error empty_character

printf '%b' 'proc main() is\n  var in\n  in := 1\n' >"$TMP/expected_token.x"
want "$TMP/expected_token.want" <<'EOF'
expected_token.x:2:9: error: expected ';' before 'in'
    2 |   var in
      |         ^
EOF
check_error expected_token

printf '%b' 'proc main() is { print 1; ) }\n' >"$TMP/expected_statement.x"
want "$TMP/expected_statement.want" <<'EOF'
expected_statement.x:1:27: error: expected a statement before ')'
    1 | proc main() is { print 1; ) }
      |                           ^
EOF
check_error expected_statement

printf '%b' 'proc main() is {\n  print 1;\n' >"$TMP/missing_close.x"
want "$TMP/missing_close.want" <<'EOF'
missing_close.x:2:11: error: expected '}' at end of input
    2 |   print 1;
      |           ^
EOF
check_error missing_close

printf '%b' 'proc main() is print 1 + 2 * 3\n' >"$TMP/mixed_operators.x"
want "$TMP/mixed_operators.want" <<'EOF'
mixed_operators.x:1:28: error: '*' after '+' needs parentheses (X has no operator precedence): write '(a + b) * c' or 'a + (b * c)'
    1 | proc main() is print 1 + 2 * 3
      |                            ^
EOF
check_error mixed_operators

printf '%b' 'proc main() is print 1 - 2 - 3\n' >"$TMP/repeated_minus.x"
want "$TMP/repeated_minus.want" <<'EOF'
repeated_minus.x:1:28: error: '-' cannot be repeated without parentheses: write '(a - b) - c' or 'a - (b - c)'
    1 | proc main() is print 1 - 2 - 3
      |                            ^
EOF
check_error repeated_minus

printf '%b' 'proc main() is print 1 < 2 < 3\n' >"$TMP/chained_comparison.x"
want "$TMP/chained_comparison.want" <<'EOF'
chained_comparison.x:1:28: error: comparisons cannot be chained: write '(a < b) and (b < c)'
    1 | proc main() is print 1 < 2 < 3
      |                            ^
EOF
check_error chained_comparison

printf '%b' 'proc main() is print -1 + 2\n' >"$TMP/unary_then_binary.x"
want "$TMP/unary_then_binary.want" <<'EOF'
unary_then_binary.x:1:25: error: '-' applies to one element only: write '(-a) + b' or '-(a + b)'
    1 | proc main() is print -1 + 2
      |                         ^
EOF
check_error unary_then_binary

printf '%b' 'proc main() is print 2 + -1\n' >"$TMP/binary_then_unary.x"
want "$TMP/binary_then_unary.want" <<'EOF'
binary_then_unary.x:1:26: error: '-' after '+' needs parentheses: write 'a + (-b)'
    1 | proc main() is print 2 + -1
      |                          ^
EOF
check_error binary_then_unary

printf '%b' 'proc main() is\n  var x;\n  x = 1\n' >"$TMP/assignment_with_equals.x"
want "$TMP/assignment_with_equals.want" <<'EOF'
assignment_with_equals.x:3:5: error: expected ':=', '!', '?' or a procedure call before '=' (assignment is ':='; '=' compares)
    3 |   x = 1
      |     ^
EOF
check_error assignment_with_equals

printf '%b' 'proc main() is {\n  if true then print 1; else print 2\n}\n' >"$TMP/semicolon_before_else.x"
want "$TMP/semicolon_before_else.want" <<'EOF'
semicolon_before_else.x:2:25: error: expected a statement before 'else' (there is no ';' before 'else')
    2 |   if true then print 1; else print 2
      |                         ^
EOF
check_error semicolon_before_else

# The same ';' at the end of a line, before an 'else' on the next: the
# caret is on the ';', not after it, where a missing one would be.
printf '%b' 'proc main() is {\n  if true then print 1;\n  else print 2;\n  print y\n}\n' >"$TMP/semicolon_before_else_on_next_line.x"
want "$TMP/semicolon_before_else_on_next_line.want" <<'EOF'
semicolon_before_else_on_next_line.x:2:23: error: expected a statement before 'else' (there is no ';' before 'else')
    2 |   if true then print 1;
      |                       ^
semicolon_before_else_on_next_line.x:4:9: error: 'y' is not declared
    4 |   print y
      |         ^
EOF
check_error semicolon_before_else_on_next_line

printf '%b' 'proc main() is\n  var in;\n  network { 2 ! 22; 0 ? in & skip }\n' >"$TMP/network_branch_sequence.x"
want "$TMP/network_branch_sequence.want" <<'EOF'
network_branch_sequence.x:3:19: error: expected '&' or '}' before ';' (a branch of several statements is a block: { s1; s2 })
    3 |   network { 2 ! 22; 0 ? in & skip }
      |                   ^
EOF
check_error network_branch_sequence

# A ';' ending a network's branch: one error, at the ';', which is then
# read as if it were not there ('expected a statement before }' followed).
printf '%b' 'proc main() is\n  var x;\n  network { 1 ! 1; & 0 ? x; }\n' >"$TMP/network_branch_semicolon.x"
want "$TMP/network_branch_semicolon.want" <<'EOF'
network_branch_semicolon.x:3:18: error: no ';' after a network's branch: ';' goes between the statements of a block, '{ s1; s2 }', and '&' between branches
    3 |   network { 1 ! 1; & 0 ? x; }
      |                  ^
network_branch_semicolon.x:3:27: error: no ';' after a network's branch: ';' goes between the statements of a block, '{ s1; s2 }', and '&' between branches
    3 |   network { 1 ! 1; & 0 ? x; }
      |                           ^
EOF
check_error network_branch_semicolon

# C's operators: each message names the X form, at the operator, and the
# rest is read as meant, so that the errors after it are found too.
printf '%b' 'proc main() is\n  var a;\n  if a == 1 then print 1\n' >"$TMP/c_equals.x"
want "$TMP/c_equals.want" <<'EOF'
c_equals.x:3:8: error: X has no '==': use '=' to compare (':=' assigns)
    3 |   if a == 1 then print 1
      |        ^
EOF
check_error c_equals

printf '%b' 'proc main() is\n  var a;\n  if a != 1 then print 1\n' >"$TMP/c_not_equal.x"
want "$TMP/c_not_equal.want" <<'EOF'
c_not_equal.x:3:8: error: X has no '!=': use '~=' (not equal)
    3 |   if a != 1 then print 1
      |        ^
EOF
check_error c_not_equal

printf '%b' 'proc main() is\n  var a;\n  { if a <> 1 then print 1; print y }\n' >"$TMP/pascal_not_equal.x"
want "$TMP/pascal_not_equal.want" <<'EOF'
pascal_not_equal.x:3:10: error: X has no '<>': use '~=' (not equal)
    3 |   { if a <> 1 then print 1; print y }
      |          ^
pascal_not_equal.x:3:35: error: 'y' is not declared
    3 |   { if a <> 1 then print 1; print y }
      |                                   ^
EOF
check_error pascal_not_equal

printf '%b' 'proc main() is\n  var a;\n  if (a > 0) && (a < 9) then print 1\n' >"$TMP/c_logical_and.x"
want "$TMP/c_logical_and.want" <<'EOF'
c_logical_and.x:3:14: error: X has no '&&': use 'and', which works on every bit and evaluates both sides (see the traps in docs/language.md)
    3 |   if (a > 0) && (a < 9) then print 1
      |              ^
EOF
check_error c_logical_and

printf '%b' 'proc main() is\n  var a;\n  if (a < 0) || (a > 9) then print 1\n' >"$TMP/c_logical_or.x"
want "$TMP/c_logical_or.want" <<'EOF'
c_logical_or.x:3:13: error: expected 'then' at end of input ('|' starts a comment: for C's '||' write 'or', which works on every bit)
    3 |   if (a < 0) || (a > 9) then print 1
      |             ^
EOF
check_error c_logical_or

printf '%b' 'proc main() is\n  var done;\n  while !done do done := true\n' >"$TMP/c_logical_not.x"
want "$TMP/c_logical_not.want" <<'EOF'
c_logical_not.x:3:9: error: X has no '!': for C's '!done' write 'done = false' ('~' flips every bit, and '~1' is -2, which is true)
    3 |   while !done do done := true
      |         ^
EOF
check_error c_logical_not

printf '%b' 'proc main() is\n  var a; var b;\n  if a and !(b = 2) then print 1\n' >"$TMP/c_logical_not_operand.x"
want "$TMP/c_logical_not_operand.want" <<'EOF'
c_logical_not_operand.x:3:12: error: X has no '!': for C's '!(b = 2)' write '((b = 2) = false)' ('~' flips every bit, and '~1' is -2, which is true)
    3 |   if a and !(b = 2) then print 1
      |            ^
EOF
check_error c_logical_not_operand

printf '%b' 'proc main() is\n  var i;\n  { i++; ++i; i-- }\n' >"$TMP/c_increment.x"
want "$TMP/c_increment.want" <<'EOF'
c_increment.x:3:6: error: X has no '++': write 'i := i + 1'
    3 |   { i++; ++i; i-- }
      |      ^
c_increment.x:3:10: error: X has no '++': write 'i := i + 1'
    3 |   { i++; ++i; i-- }
      |          ^
c_increment.x:3:16: error: X has no '--': write 'i := i - 1'
    3 |   { i++; ++i; i-- }
      |                ^
EOF
check_error c_increment

printf '%b' 'proc main() is\n  var i; array a[4];\n  a[i++] := 0\n' >"$TMP/c_increment_in_expression.x"
want "$TMP/c_increment_in_expression.want" <<'EOF'
c_increment_in_expression.x:3:6: error: X has no '++': write 'i := i + 1' in a statement of its own
    3 |   a[i++] := 0
      |      ^
EOF
check_error c_increment_in_expression

printf '%b' 'proc main() is\n  var i; array a[4];\n  { a[1] += 2; i *= a[0] + 1; i &= 7 }\n' >"$TMP/c_compound_assignment.x"
want "$TMP/c_compound_assignment.want" <<'EOF'
c_compound_assignment.x:3:10: error: X has no '+=': write 'a[1] := a[1] + 2'
    3 |   { a[1] += 2; i *= a[0] + 1; i &= 7 }
      |          ^
c_compound_assignment.x:3:18: error: X has no '*=': write 'i := i * (a[0] + 1)'
    3 |   { a[1] += 2; i *= a[0] + 1; i &= 7 }
      |                  ^
c_compound_assignment.x:3:33: error: X has no '&=': write 'i := i and 7'
    3 |   { a[1] += 2; i *= a[0] + 1; i &= 7 }
      |                                 ^
EOF
check_error c_compound_assignment

# A procedure header without its 'is': one error, and its body is read
# as if the 'is' were there, so that the body's own errors are found.
printf '%b' 'proc main()\n  var a;\n  a := b\n' >"$TMP/missing_is.x"
want "$TMP/missing_is.want" <<'EOF'
missing_is.x:1:12: error: expected 'is' before 'var'
    1 | proc main()
      |            ^
missing_is.x:3:8: error: 'b' is not declared
    3 |   a := b
      |        ^
EOF
check_error missing_is

# C's hex numbers, comments and strings: each error says the X form (a
# string is one error, to its closing quote).
printf '%b' 'proc main() is\n  var x;\n  { x := 0x1F; // one\n    printf("%d", x) }\n' >"$TMP/c_lexical.x"
want "$TMP/c_lexical.want" <<'EOF'
c_lexical.x:3:10: error: invalid number '0x1F' (a hex number is written with '#': #FF)
    3 |   { x := 0x1F; // one
      |          ^
c_lexical.x:3:16: error: expected a statement before '/' (a comment starts with '|' and runs to the end of the line: X has no '//' or '/* */')
    3 |   { x := 0x1F; // one
      |                ^
c_lexical.x:4:12: error: invalid character '"' (X has no strings: 'print e' prints a number, and 'a' is the code of a character)
    4 |     printf("%d", x) }
      |            ^
EOF
check_error c_lexical

# A ';' after a procedure's body: before 'else' and at the body's end,
# C's habits, each said as it is.
printf '%b' 'proc f() is\n  if procid = 0 then print 1; else print 2\nproc main() is\n  f();\n' >"$TMP/semicolon_after_body.x"
want "$TMP/semicolon_after_body.want" <<'EOF'
semicolon_after_body.x:2:29: error: there is no ';' before 'else'
    2 |   if procid = 0 then print 1; else print 2
      |                             ^
semicolon_after_body.x:4:6: error: no ';' after a procedure's body: ';' goes between the statements of a block, '{ s1; s2 }'
    4 |   f();
      |      ^
EOF
check_error semicolon_after_body

# A second statement after a procedure's body, without a ';': the same
# error, at the statement; the statements after the body are then read as
# a block's, so that their own errors are found.
printf '%b' 'proc main() is\n  var x;\n  x := 1\n  print x\n  print y\n' >"$TMP/statements_after_body.x"
want "$TMP/statements_after_body.want" <<'EOF'
statements_after_body.x:4:3: error: a procedure's body is one statement: put several in a block, '{ s1; s2 }'
    4 |   print x
      |   ^
statements_after_body.x:5:9: error: 'y' is not declared
    5 |   print y
      |         ^
EOF
check_error statements_after_body

# C's declarations: one error, at the type, and the name is then declared
# (here a var and an array), so that its uses add none.
printf '%b' 'unsigned int g;\nproc main() is\n  int a[4];\n  { a[0] := g; 1 ! a[0 for 4] }\n' >"$TMP/c_declarations.x"
want "$TMP/c_declarations.want" <<'EOF'
c_declarations.x:1:1: error: X has no 'unsigned': declare a word as 'var g;' (an array as 'array g[size];')
    1 | unsigned int g;
      | ^
c_declarations.x:3:3: error: X has no 'int': declare a word as 'var a;' (an array as 'array a[size];')
    3 |   int a[4];
      |   ^
EOF
check_error c_declarations

# A procedure's header with another language's word for 'proc' or 'func':
# one error, at the word, and the procedure read (as a func when it
# returns a value), so that a 'main' so written is found and its body's
# errors are too.
printf '%b' 'function f(val x) is return x + 1\nprocedure main() is\n  print f(y)\n' >"$TMP/other_procedure_word.x"
want "$TMP/other_procedure_word.want" <<'EOF'
other_procedure_word.x:1:1: error: X has no 'function': a procedure is 'proc f(...) is ...', or 'func f(...) is ...' when it returns a value
    1 | function f(val x) is return x + 1
      | ^
other_procedure_word.x:2:1: error: X has no 'procedure': a procedure is 'proc main(...) is ...', or 'func main(...) is ...' when it returns a value
    2 | procedure main() is
      | ^
other_procedure_word.x:3:11: error: 'y' is not declared
    3 |   print f(y)
      |           ^
EOF
check_error other_procedure_word

# C's for loop: one error, at the 'for'; its header is skipped and the
# errors after it are still found.
printf '%b' 'proc main() is\n  var x;\n  { for (x = 0; (x < 3); x++) print x; print y }\n' >"$TMP/c_for.x"
want "$TMP/c_for.want" <<'EOF'
c_for.x:3:5: error: X has no 'for' loop: write 'i := 0; while i < n do { ...; i := i + 1 }' ('for' is only in 'network i for n' and 'a[i for n]')
    3 |   { for (x = 0; (x < 3); x++) print x; print y }
      |     ^
c_for.x:3:46: error: 'y' is not declared
    3 |   { for (x = 0; (x < 3); x++) print x; print y }
      |                                              ^
EOF
check_error c_for

# C's `int a[4];` written as a var: one error, at the '[', and the name is
# then an array, so that its uses (here a message of all four) add none.
printf '%b' 'proc main() is\n  var a[4];\n  { a[0] := 1; 1 ! a[0 for 4] }\n' >"$TMP/c_var_array.x"
want "$TMP/c_var_array.want" <<'EOF'
c_var_array.x:2:8: error: a var is one word: declare an array as 'array a[...];'
    2 |   var a[4];
      |        ^
EOF
check_error c_var_array

printf '%b' 'proc main() is\n  var a;\n  { if a == 1 then a += 1; print b }\n' >"$TMP/c_habits_then_other_errors.x"
want "$TMP/c_habits_then_other_errors.want" <<'EOF'
c_habits_then_other_errors.x:3:10: error: X has no '==': use '=' to compare (':=' assigns)
    3 |   { if a == 1 then a += 1; print b }
      |          ^
c_habits_then_other_errors.x:3:22: error: X has no '+=': write 'a := a + 1'
    3 |   { if a == 1 then a += 1; print b }
      |                      ^
c_habits_then_other_errors.x:3:34: error: 'b' is not declared
    3 |   { if a == 1 then a += 1; print b }
      |                                  ^
EOF
check_error c_habits_then_other_errors

{ echo "proc main() is print"; i=0; while [ $i -lt 1200 ]; do echo "("; i=$((i+1)); done; echo 1; i=0; while [ $i -lt 1200 ]; do printf ")"; i=$((i+1)); done; echo; } >"$TMP/nesting.x"
want "$TMP/nesting.want" <<'EOF'
nesting.x:1001:1: error: nesting deeper than 1,000 levels
 1001 | (
      | ^
EOF
check_error nesting

printf '%b' 'proc main() is print x\n' >"$TMP/undeclared.x"
want "$TMP/undeclared.want" <<'EOF'
undeclared.x:1:22: error: 'x' is not declared
    1 | proc main() is print x
      |                      ^
EOF
check_error undeclared

printf '%b' 'val a = b;\nval b = 1;\nproc main() is skip\n' >"$TMP/used_before_declaration.x"
want "$TMP/used_before_declaration.want" <<'EOF'
used_before_declaration.x:1:9: error: 'b' is used before its declaration at line 2 (globals must be declared before use)
    1 | val a = b;
      |         ^
EOF
check_error used_before_declaration

printf '%b' 'var a;\nvar a;\nproc main() is skip\n' >"$TMP/redeclared_global.x"
want "$TMP/redeclared_global.want" <<'EOF'
redeclared_global.x:2:5: error: redeclaration of 'a' (already declared at 1:5)
    2 | var a;
      |     ^
EOF
check_error redeclared_global

printf '%b' 'proc p(val x) is\n  var x;\n  skip\nproc main() is p(1)\n' >"$TMP/redeclared_local.x"
want "$TMP/redeclared_local.want" <<'EOF'
redeclared_local.x:2:7: error: redeclaration of 'x' (already declared at 1:12)
    2 |   var x;
      |       ^
EOF
check_error redeclared_local

printf '%b' 'var v;\nval c = v + 1;\nproc main() is skip\n' >"$TMP/val_not_constant.x"
want "$TMP/val_not_constant.want" <<'EOF'
val_not_constant.x:2:9: error: a val must be a constant, and 'v' is a variable (use numbers, characters, true, false, vals and operators)
    2 | val c = v + 1;
      |         ^
EOF
check_error val_not_constant

# A global val that calls a func, after the procedures: its two errors,
# not 'f' is not declared (the procedures' names are entered after the
# globals are checked).
printf '%b' 'func f() is return 1\nval k = f();\nproc main() is print k\n' >"$TMP/val_calls_func.x"
want "$TMP/val_calls_func.want" <<'EOF'
val_calls_func.x:2:1: error: global declarations must come before the procedures
    2 | val k = f();
      | ^
val_calls_func.x:2:9: error: a val must be a constant, and a call of 'f' is not (use numbers, characters, true, false, vals and operators)
    2 | val k = f();
      |         ^
EOF
check_error val_calls_func

printf '%b' 'val c = 1 / (2 - 2);\nproc main() is skip\n' >"$TMP/val_division_by_zero.x"
want "$TMP/val_division_by_zero.want" <<'EOF'
val_division_by_zero.x:1:11: error: division by zero in a val
    1 | val c = 1 / (2 - 2);
      |           ^
EOF
check_error val_division_by_zero

# A division or remainder by 0 whose sides are both constants, in an
# expression as in a val; a variable divided by 0 is left to run time.
printf '%b' 'val z = 0;\nproc main() is\n  var x;\n  { print 1 / 0; print 5 % (z + z); print x / 0; print y }\n' >"$TMP/expression_division_by_zero.x"
want "$TMP/expression_division_by_zero.want" <<'EOF'
expression_division_by_zero.x:4:13: error: division by zero: a constant divisor of 0 stops the processor with a fault
    4 |   { print 1 / 0; print 5 % (z + z); print x / 0; print y }
      |             ^
expression_division_by_zero.x:4:26: error: division by zero: a constant divisor of 0 stops the processor with a fault
    4 |   { print 1 / 0; print 5 % (z + z); print x / 0; print y }
      |                          ^
expression_division_by_zero.x:4:56: error: 'y' is not declared
    4 |   { print 1 / 0; print 5 % (z + z); print x / 0; print y }
      |                                                        ^
EOF
check_error expression_division_by_zero

printf '%b' 'val c = 1;\nproc main() is c := 2\n' >"$TMP/assign_to_val.x"
want "$TMP/assign_to_val.want" <<'EOF'
assign_to_val.x:2:16: error: cannot assign to 'c': it is a val constant
    2 | proc main() is c := 2
      |                ^
EOF
check_error assign_to_val

printf '%b' 'proc p(val x) is x := 2\nproc main() is p(1)\n' >"$TMP/assign_to_val_parameter.x"
want "$TMP/assign_to_val_parameter.want" <<'EOF'
assign_to_val_parameter.x:1:18: error: cannot assign to 'x': it is a val parameter
    1 | proc p(val x) is x := 2
      |                  ^
EOF
check_error assign_to_val_parameter

printf '%b' 'array a[2];\nproc main() is a := 2\n' >"$TMP/assign_to_array.x"
want "$TMP/assign_to_array.want" <<'EOF'
assign_to_array.x:2:16: error: cannot assign to the array 'a' as a whole: assign its elements, 'a[i]'
    2 | proc main() is a := 2
      |                ^
EOF
check_error assign_to_array

printf '%b' 'var n;\narray a[n];\nproc main() is skip\n' >"$TMP/array_size_not_constant.x"
want "$TMP/array_size_not_constant.want" <<'EOF'
array_size_not_constant.x:2:9: error: an array size must be a constant, and 'n' is a variable (use numbers, characters, true, false, vals and operators)
    2 | array a[n];
      |         ^
EOF
check_error array_size_not_constant

printf '%b' 'array a[0];\nproc main() is skip\n' >"$TMP/array_size_zero.x"
want "$TMP/array_size_zero.want" <<'EOF'
array_size_zero.x:1:9: error: an array size must be at least 1, not 0
    1 | array a[0];
      |         ^
EOF
check_error array_size_zero

printf '%b' 'proc main() is\n  var n;\n  network i for n do skip\n' >"$TMP/network_count_not_constant.x"
want "$TMP/network_count_not_constant.want" <<'EOF'
network_count_not_constant.x:3:17: error: the count of a network must be a constant, and 'n' is a variable (use numbers, characters, true, false, vals and operators)
    3 |   network i for n do skip
      |                 ^
EOF
check_error network_count_not_constant

printf '%b' 'proc main() is network i for 1048577 do skip\n' >"$TMP/network_count_too_large.x"
want "$TMP/network_count_too_large.want" <<'EOF'
network_count_too_large.x:1:30: error: the count of a network must be from 1 to 1,048,576, not 1048577
    1 | proc main() is network i for 1048577 do skip
      |                              ^
EOF
check_error network_count_too_large

printf '%b' 'proc main() is while true do network { skip & skip }\n' >"$TMP/network_in_loop.x"
want "$TMP/network_in_loop.want" <<'EOF'
network_in_loop.x:1:30: error: a network statement may only be main's body or one of the statements of its body block (not inside a loop, a conditional, a nested block or another network)
    1 | proc main() is while true do network { skip & skip }
      |                              ^
EOF
check_error network_in_loop

printf '%b' 'proc p() is network { skip & skip }\nproc main() is p()\n' >"$TMP/network_in_other_procedure.x"
want "$TMP/network_in_other_procedure.want" <<'EOF'
network_in_other_procedure.x:1:13: error: a network statement may only be in 'main'
    1 | proc p() is network { skip & skip }
      |             ^
EOF
check_error network_in_other_procedure

printf '%b' 'proc start() is skip\n' >"$TMP/no_main.x"
want "$TMP/no_main.want" <<'EOF'
no_main.x:1:21: error: the program has no 'main' (it must have 'proc main() is ...')
    1 | proc start() is skip
      |                     ^
EOF
check_error no_main

printf '%b' 'proc main(val x) is skip\n' >"$TMP/main_with_parameters.x"
want "$TMP/main_with_parameters.want" <<'EOF'
main_with_parameters.x:1:6: error: 'main' must be 'proc main()', without parameters
    1 | proc main(val x) is skip
      |      ^
EOF
check_error main_with_parameters

printf '%b' 'proc p() is main()\nproc main() is p()\n' >"$TMP/main_called.x"
want "$TMP/main_called.want" <<'EOF'
main_called.x:1:13: error: 'main' cannot be called
    1 | proc p() is main()
      |             ^
EOF
check_error main_called

printf '%b' 'func f() is return 1\nproc main() is f()\n' >"$TMP/func_as_statement.x"
want "$TMP/func_as_statement.want" <<'EOF'
func_as_statement.x:2:16: error: 'f' is a func: use its value (for example 'x := f(...)')
    2 | proc main() is f()
      |                ^
EOF
check_error func_as_statement

printf '%b' 'proc p() is skip\nproc main() is print p()\n' >"$TMP/proc_in_expression.x"
want "$TMP/proc_in_expression.want" <<'EOF'
proc_in_expression.x:2:22: error: 'p' is a proc, which gives no value: only a func can be used in an expression
    2 | proc main() is print p()
      |                      ^
EOF
check_error proc_in_expression

printf '%b' 'array a[2];\nproc main() is print a + 1\n' >"$TMP/array_as_value.x"
want "$TMP/array_as_value.want" <<'EOF'
array_as_value.x:2:22: error: 'a' is an array: use one of its elements, 'a[i]'
    2 | proc main() is print a + 1
      |                      ^
EOF
check_error array_as_value

printf '%b' 'proc p(array a) is skip\nproc main() is p(3)\n' >"$TMP/value_for_array_parameter.x"
want "$TMP/value_for_array_parameter.want" <<'EOF'
value_for_array_parameter.x:2:18: error: argument 1 of 'p' must be an array name (its parameter is 'array a')
    2 | proc main() is p(3)
      |                  ^
EOF
check_error value_for_array_parameter

printf '%b' 'var x;\nproc main() is print x[0]\n' >"$TMP/index_non_array.x"
want "$TMP/index_non_array.want" <<'EOF'
index_non_array.x:2:22: error: 'x' is a variable, not an array, so it cannot be indexed
    2 | proc main() is print x[0]
      |                      ^
EOF
check_error index_non_array

# A constant index outside an array whose size is known (a global or a
# local one) is an error, negative ones and the words of a message too; a
# computed index, and any index of an array parameter, is left to run time.
printf '%b' 'array g[3];\nproc p(array b) is b[7] := 1\nproc main() is\n  array a[2];\n  { print 1; a[2] := 4; print a[-1] + a[procid];\n    1 ! g[1 for 3]; 0 ? a[procid for 3]; p(a); print y }\n' >"$TMP/index_out_of_range.x"
want "$TMP/index_out_of_range.want" <<'EOF'
index_out_of_range.x:5:16: error: index 2 is outside a[0..1]
    5 |   { print 1; a[2] := 4; print a[-1] + a[procid];
      |                ^
index_out_of_range.x:5:33: error: index -1 is outside a[0..1]
    5 |   { print 1; a[2] := 4; print a[-1] + a[procid];
      |                                 ^
index_out_of_range.x:6:17: error: g[1 for 3] ends at g[3], outside g[0..2]
    6 |     1 ! g[1 for 3]; 0 ? a[procid for 3]; p(a); print y }
      |                 ^
index_out_of_range.x:6:38: error: 3 words are more than a[0..1] holds
    6 |     1 ! g[1 for 3]; 0 ? a[procid for 3]; p(a); print y }
      |                                      ^
index_out_of_range.x:6:54: error: 'y' is not declared
    6 |     1 ! g[1 for 3]; 0 ? a[procid for 3]; p(a); print y }
      |                                                      ^
EOF
check_error index_out_of_range

printf '%b' 'proc main() is return 1\n' >"$TMP/return_outside_func.x"
want "$TMP/return_outside_func.want" <<'EOF'
return_outside_func.x:1:16: error: 'return' outside a func (a proc ends at the end of its body)
    1 | proc main() is return 1
      |                ^
EOF
check_error return_outside_func

printf '%b' 'func f(val x) is if x then return 1\nproc main() is print f(1)\n' >"$TMP/missing_return.x"
want "$TMP/missing_return.want" <<'EOF'
missing_return.x:1:6: error: not every path through func 'f' ends in 'return'
    1 | func f(val x) is if x then return 1
      |      ^
EOF
check_error missing_return

printf '%b' 'proc p(val a, val b) is skip\nproc main() is p(1)\n' >"$TMP/wrong_argument_count.x"
want "$TMP/wrong_argument_count.want" <<'EOF'
wrong_argument_count.x:2:16: error: wrong number of arguments to 'p': expected 2, found 1
    2 | proc main() is p(1)
      |                ^
EOF
check_error wrong_argument_count

printf '%b' 'proc main() is 16777216 ! 1\n' >"$TMP/destination_out_of_range.x"
want "$TMP/destination_out_of_range.want" <<'EOF'
destination_out_of_range.x:1:16: error: destination processor 16777216 is out of range: it must be from 0 to 16777215
    1 | proc main() is 16777216 ! 1
      |                ^
EOF
check_error destination_out_of_range

printf '%b' 'proc main() is 0 : 256 ! 1\n' >"$TMP/port_out_of_range.x"
want "$TMP/port_out_of_range.want" <<'EOF'
port_out_of_range.x:1:20: error: port 256 is out of range: it must be from 0 to 255
    1 | proc main() is 0 : 256 ! 1
      |                    ^
EOF
check_error port_out_of_range

printf '%b' 'proc main() is [1, 16777216] ! 1\n' >"$TMP/list_destination_out_of_range.x"
want "$TMP/list_destination_out_of_range.want" <<'EOF'
list_destination_out_of_range.x:1:20: error: destination processor 16777216 is out of range: it must be from 0 to 16777215
    1 | proc main() is [1, 16777216] ! 1
      |                    ^
EOF
check_error list_destination_out_of_range

printf '%b' 'proc main() is network i for 2 do [0, i + 16777215] ! 1\n' >"$TMP/list_index_destination_out_of_range.x"
want "$TMP/list_index_destination_out_of_range.want" <<'EOF'
list_index_destination_out_of_range.x:1:39: error: destination processor 16777216 is out of range: it must be from 0 to 16777215 (in processor 1's branch, where 'i' is 1)
    1 | proc main() is network i for 2 do [0, i + 16777215] ! 1
      |                                       ^
EOF
check_error list_index_destination_out_of_range

printf '%b' 'proc main() is [1] : 256 ! 1\n' >"$TMP/list_port_out_of_range.x"
want "$TMP/list_port_out_of_range.want" <<'EOF'
list_port_out_of_range.x:1:22: error: port 256 is out of range: it must be from 0 to 255
    1 | proc main() is [1] : 256 ! 1
      |                      ^
EOF
check_error list_port_out_of_range

printf '%b' 'proc main() is network i for 2 do all : (i + 255) ! 1\n' >"$TMP/all_port_out_of_range.x"
want "$TMP/all_port_out_of_range.want" <<'EOF'
all_port_out_of_range.x:1:42: error: port 256 is out of range: it must be from 0 to 255 (in processor 1's branch, where 'i' is 1)
    1 | proc main() is network i for 2 do all : (i + 255) ! 1
      |                                          ^
EOF
check_error all_port_out_of_range

{ printf 'proc main() is\n  [0,\n'; awk 'BEGIN { for (i = 0; i < 65535; i++) print "0," }'
  printf '0] ! 1\n'; } >"$TMP/list_too_long.x"
want "$TMP/list_too_long.want" <<'EOF'
list_too_long.x:2:3: error: a multicast list may name at most 65,536 destinations, not 65537
    2 |   [0,
      |   ^
EOF
check_error list_too_long

printf '%b' 'proc main() is [] ! 1\n' >"$TMP/list_empty.x"
want "$TMP/list_empty.want" <<'EOF'
list_empty.x:1:17: error: expected a destination before ']' (a list names at least one processor: '[d1, d2] ! e')
    1 | proc main() is [] ! 1
      |                 ^
EOF
check_error list_empty

printf '%b' 'var all;\nproc main() is\n  { all := 1; print all; 0 ? all }\n' >"$TMP/all_as_a_name.x"
want "$TMP/all_as_a_name.want" <<'EOF'
all_as_a_name.x:1:5: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    1 | var all;
      |     ^
all_as_a_name.x:3:5: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    3 |   { all := 1; print all; 0 ? all }
      |     ^
all_as_a_name.x:3:21: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    3 |   { all := 1; print all; 0 ? all }
      |                     ^
all_as_a_name.x:3:30: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    3 |   { all := 1; print all; 0 ? all }
      |                              ^
EOF
check_error all_as_a_name

printf '%b' 'proc all() is skip\nfunc f(val all) is return 1\nproc main() is network all for 2 do skip\n' >"$TMP/all_as_a_declared_name.x"
want "$TMP/all_as_a_declared_name.want" <<'EOF'
all_as_a_declared_name.x:1:6: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    1 | proc all() is skip
      |      ^
all_as_a_declared_name.x:2:12: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    2 | func f(val all) is return 1
      |            ^
all_as_a_declared_name.x:3:24: error: 'all' is a keyword (a broadcast: all ! e) and cannot be a name
    3 | proc main() is network all for 2 do skip
      |                        ^
EOF
check_error all_as_a_declared_name

# Every keyword where a name is declared: one error each, at the keyword,
# which is then read as the name, so that the declaration goes on ('var val;'
# was two errors).
printf '%b' 'var timestep;\nvar val;\narray do[4];\nval if = 3;\nproc print(val for, array while) is skip\nproc main() is\n  var x;\n  network procid for 2 do print y\n' >"$TMP/keyword_as_a_name.x"
want "$TMP/keyword_as_a_name.want" <<'EOF'
keyword_as_a_name.x:1:5: error: 'timestep' is a keyword and cannot be a name
    1 | var timestep;
      |     ^
keyword_as_a_name.x:2:5: error: 'val' is a keyword and cannot be a name
    2 | var val;
      |     ^
keyword_as_a_name.x:3:7: error: 'do' is a keyword and cannot be a name
    3 | array do[4];
      |       ^
keyword_as_a_name.x:4:5: error: 'if' is a keyword and cannot be a name
    4 | val if = 3;
      |     ^
keyword_as_a_name.x:5:6: error: 'print' is a keyword and cannot be a name
    5 | proc print(val for, array while) is skip
      |      ^
keyword_as_a_name.x:5:16: error: 'for' is a keyword and cannot be a name
    5 | proc print(val for, array while) is skip
      |                ^
keyword_as_a_name.x:5:27: error: 'while' is a keyword and cannot be a name
    5 | proc print(val for, array while) is skip
      |                           ^
keyword_as_a_name.x:8:11: error: 'procid' is a keyword and cannot be a name
    8 |   network procid for 2 do print y
      |           ^
keyword_as_a_name.x:8:33: error: 'y' is not declared
    8 |   network procid for 2 do print y
      |                                 ^
EOF
check_error keyword_as_a_name

printf '%b' 'array a[200];\nproc main() is skip\n' >"$TMP/globals_do_not_fit.x"
want "$TMP/globals_do_not_fit.want" <<'EOF'
globals_do_not_fit.x:1:7: error: the globals need 200 words, which with the program and 64 words of stack do not fit in --mem 256
    1 | array a[200];
      |       ^
EOF
check_error globals_do_not_fit --mem 256

printf '%b' 'array a[180];\nproc main() is { print 100000; print 100000; print 100000; print 100000; print 100000 }\n' >"$TMP/program_does_not_fit.x"
want "$TMP/program_does_not_fit.want" <<'EOF'
program_does_not_fit.x:2:6: error: the program (14 words on processor 0) and its globals (180 words) leave fewer than 64 words of stack in --mem 256
    2 | proc main() is { print 100000; print 100000; print 100000; print 100000; print 100000 }
      |      ^
EOF
check_error program_does_not_fit --mem 256

printf '%b' 'var a;\nvar a;\nproc main() is {\n  print b;\n  a := 1 + 2 * 3;\n  c()\n}\n' >"$TMP/several_errors.x"
want "$TMP/several_errors.want" <<'EOF'
several_errors.x:2:5: error: redeclaration of 'a' (already declared at 1:5)
    2 | var a;
      |     ^
several_errors.x:4:9: error: 'b' is not declared
    4 |   print b;
      |         ^
several_errors.x:5:14: error: '*' after '+' needs parentheses (X has no operator precedence): write '(a + b) * c' or 'a + (b * c)'
    5 |   a := 1 + 2 * 3;
      |              ^
several_errors.x:6:3: error: 'c' is not declared
    6 |   c()
      |   ^
EOF
check_error several_errors

# What a syntax error leaves of an expression stands for no value: a word
# count, an array size, a divisor, an index or a destination missing its
# operand is the syntax error alone, not a second error about a 0 (or a -1
# from '~') that is not in the program.
printf '%b' 'proc main() is\n  array a[]; array b[4];\n  { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }\n' >"$TMP/values_of_syntax_errors.x"
want "$TMP/values_of_syntax_errors.want" <<'EOF'
values_of_syntax_errors.x:2:11: error: expected a name, a number or '(' before ']'
    2 |   array a[]; array b[4];
      |           ^
values_of_syntax_errors.x:3:18: error: expected a name, a number or '(' before ']'
    3 |   { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }
      |                  ^
values_of_syntax_errors.x:3:37: error: expected a name, a number or '(' before ']'
    3 |   { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }
      |                                     ^
values_of_syntax_errors.x:3:50: error: expected a name, a number or '(' before ';'
    3 |   { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }
      |                                                  ^
values_of_syntax_errors.x:3:58: error: expected a name, a number or '(' before ';'
    3 |   { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }
      |                                                          ^
values_of_syntax_errors.x:3:63: error: expected a name, a number or '(' before ']'
    3 |   { 1 ! b[0 for (]; 0 ? b[0 for 2 * ]; print 5 / ; 1 ! ~ ; b[~] := 1 }
      |                                                               ^
EOF
check_error values_of_syntax_errors

# A whole array sent, or received into, or a list received into, as a
# message is sent: each says how to send or receive the words of an array.
printf '%b' 'proc main() is\n  array a[4]; var x; var y;\n  { 1 ! a; 0 ? a; 0 ? [x, y] }\n' >"$TMP/array_as_message.x"
want "$TMP/array_as_message.want" <<'EOF'
array_as_message.x:3:9: error: 'a' is an array: send one of its elements, 'a[i]', or its words as one message, 'a[0 for n]'
    3 |   { 1 ! a; 0 ? a; 0 ? [x, y] }
      |         ^
array_as_message.x:3:16: error: cannot receive into the array 'a' as a whole: receive one element, 'a[i]', or n words, 'a[0 for n]'
    3 |   { 1 ! a; 0 ? a; 0 ? [x, y] }
      |                ^
array_as_message.x:3:23: error: expected a variable or an array element before '[' (a receive takes one word, or the words of an array: 'k ? a[i for n]')
    3 |   { 1 ! a; 0 ? a; 0 ? [x, y] }
      |                       ^
EOF
check_error array_as_message

# The words of an array written as other languages write a range or a
# slice: each error says how X writes them.
printf '%b' 'proc main() is\n  array a[4];\n  { 1 ! a[0..3]; 0 ? a[0:3] }\n' >"$TMP/slice_of_other_languages.x"
want "$TMP/slice_of_other_languages.want" <<'EOF'
slice_of_other_languages.x:3:12: error: invalid characters '..' (X has no ranges: the words a[i] to a[j] of an array are a[i for j - i + 1], a[0..3] is a[0 for 4])
    3 |   { 1 ! a[0..3]; 0 ? a[0:3] }
      |            ^
slice_of_other_languages.x:3:25: error: expected ']' before ':' (the words of an array from a[i] on are a[i for n]: Python's a[0:3] is a[0 for 3])
    3 |   { 1 ! a[0..3]; 0 ? a[0:3] }
      |                         ^
EOF
check_error slice_of_other_languages
