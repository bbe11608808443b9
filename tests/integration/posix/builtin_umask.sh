# umask: octal, symbolic output, effect on created files.
umask 022; umask
umask -S
umask 077; umask; umask -S
umask 0; umask
umask u=rwx,g=rx,o=; umask
umask u=rwx,g=,o=; umask
umask g+w; umask
umask o-rwx; umask
umask 027; : > file; ls -l file | cut -c1-10
mkdir dir; ls -ld dir | cut -c1-10
(umask 000; umask); umask
umask 999 2>/dev/null; echo "bad umask: $?"; umask
umask a=rx; umask
