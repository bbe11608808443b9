# An ordinary script: parse an INI file into prefixed shell variables.
cat > conf.ini <<'EOF2'
; comment line
# another comment
[server]
host = example.org
port=8080
  name = "quoted value"

[client]
retries = 3
timeout=  2.5
empty =
[broken
key_without_section_value = x = y
EOF2
section=
n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n+1))
  line=${line#"${line%%[![:space:]]*}"}
  line=${line%"${line##*[![:space:]]}"}
  case $line in
    ''|';'*|'#'*) continue ;;
    '['*']') section=${line#[}; section=${section%]}; echo "section: $section" ;;
    '['*) echo "line $n: bad section header" ;;
    *=*)
      key=${line%%=*}; value=${line#*=}
      key=${key%"${key##*[![:space:]]}"}
      value=${value#"${value%%[![:space:]]*}"}
      case $value in \"*\") value=${value#\"}; value=${value%\"} ;; esac
      var="${section}_${key}"
      eval "cfg_$var=\$value"
      echo "  $var=[$value]"
      ;;
    *) echo "line $n: not understood: $line" ;;
  esac
done < conf.ini
echo "host is $cfg_server_host, port+1 is $((cfg_server_port + 1))"
echo "name: $cfg_server_name"
echo "retries: ${cfg_client_retries:-none}, empty: [${cfg_client_empty-unset}]"
set | grep '^cfg_' | sort
