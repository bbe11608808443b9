# { } groups run in the current shell; ( ) in a subshell.
x=1; { x=2; }; echo "group: $x"
x=1; ( x=2 ); echo "subshell: $x"
{ echo a; echo b; } | wc -l
{ false; }; echo "group status: $?"
{ true; false; true; }; echo "last cmd status: $?"
{ cd /; }; [ "$(pwd)" = / ] && echo "group cd persists"; cd - >/dev/null
{ { { echo nested; }; }; }
{ echo "group on"
  echo "several lines"; }
f() { { echo "group in function"; return 3; echo never; }; }; f; echo "return through group: $?"
{ exit 0; } | cat; echo "exit in piped group is subshell"
{ echo "redirected group"; } 2>&1 >/dev/null
for i in 1 2; do { echo "group in loop $i"; continue; echo never; }; done
