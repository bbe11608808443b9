# File descriptors opened by the shell are inherited by children; background redirections.
exec 3> fd3
$TESTSH -c 'echo "child writes fd 3" >&3'
sh -c 'echo "external writes fd 3" >&3'
exec 3>&-
cat fd3
exec 4<fd3; $TESTSH -c 'read l <&4; echo "child read: $l"'; exec 4<&-
echo bg-redirect > bgf & wait; cat bgf
{ echo a; sleep 0; echo b; } > bg2 & wait; cat bg2
sh -c 'echo "fd 3 closed in child: $(echo x >&3 2>/dev/null && echo open || echo closed)"' 3>&-
( exec 5>f5; echo five >&5 ); cat f5
exec 6>&1; sh -c 'echo "to dup of stdout" >&6'; exec 6>&-
printf 'l1\nl2\nl3\n' > lines
{ read a; sh -c 'read b; echo "child continues at: $b"'; } < lines
