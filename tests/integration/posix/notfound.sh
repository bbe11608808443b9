# 127 for missing commands, 126 for non-executable, status only (messages differ).
nosuch_command_xyz 2>/dev/null; echo "not found: $?"
/nonexistent/path/cmd 2>/dev/null; echo "absolute not found: $?"
./relative_nosuch 2>/dev/null; echo "relative not found: $?"
printf 'echo hi\n' > noexec; chmod 644 noexec
./noexec 2>/dev/null; echo "not executable: $?"
mkdir adir; ./adir 2>/dev/null; echo "directory: $?"
PATH=$PWD:$PATH; noexec 2>/dev/null; echo "non-exec in PATH: $?"
$(echo nosuch_command_xyz) 2>/dev/null; echo "from subst: $?"
x=$(nosuch_command_xyz 2>/dev/null); echo "in cmdsubst: $?"
nosuch_command_xyz 2>/dev/null | cat; echo "first in pipe ignored: $?"
echo x | nosuch_command_xyz 2>/dev/null; echo "last in pipe: $?"
"" 2>/dev/null; echo "empty command name: $?"
v=; $v; echo "empty expansion is no command: $?"
false; $v; echo "empty expansion after false: $?"
if nosuch_command_xyz 2>/dev/null; then echo no; else echo "if not found: $?"; fi
nosuch_command_xyz 2>/dev/null || echo "or branch: $?"
(nosuch_command_xyz) 2>/dev/null; echo "subshell: $?"
printf '#!/nonexistent/interp\necho x\n' > badinterp; chmod +x badinterp
./badinterp 2>/dev/null; echo "bad interpreter: $?"
PATH=/nonexistent; ls 2>/dev/null; echo "empty PATH search: $?"
