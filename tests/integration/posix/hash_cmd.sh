# hash: remembered locations, -r, PATH change clears the table.
hash -r
hash; echo "empty table: $?"
ls >/dev/null
hash | grep -c ls
hash cat; hash | grep -c /cat
hash nosuch_cmd_xyz 2>/dev/null; echo "hash nosuch: $?"
hash -r; hash | wc -l
mkdir b1 b2
printf '#!/bin/sh\necho tool-from-b1\n' > b1/tool; chmod +x b1/tool
printf '#!/bin/sh\necho tool-from-b2\n' > b2/tool; chmod +x b2/tool
PATH=$PWD/b1:$PWD/b2:$PATH
tool
rm b1/tool
tool 2>/dev/null; echo "stale hash status: $?"
hash -r
tool
PATH=$PWD/b1:$PATH; printf '#!/bin/sh\necho tool-from-b1-again\n' > b1/tool; chmod +x b1/tool
tool
