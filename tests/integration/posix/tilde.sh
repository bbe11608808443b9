# Tilde expansion: ~, ~/path, in assignments, quoted, after : in assignments.
HOME=/home/testuser
echo ~
echo ~/sub/dir
echo "~"
echo '~'
echo \~
echo ~x_nosuch_user_q
echo a~
echo x=~
v=~; echo "assignment: $v"
v=~/p; echo "assignment path: $v"
v=a:~/b:~; echo "after colons: $v"
v="~"; echo "quoted in assignment: $v"
echo ${unset_v:-~}
echo "${unset_v:-~}"
HOME=/other; echo ~
HOME=; echo "empty HOME: [~]" [~]
unset HOME; echo ~ | grep -q . && echo "unset HOME gives something"
HOME=/h; set -- ~ ~/x; echo "$1 $2"
HOME='/with space'; set -- ~; echo "$# [$1]"
HOME=/star*; echo ~
