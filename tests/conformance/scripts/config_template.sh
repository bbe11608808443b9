#!/usr/bin/env bash
# Render config files from templates with here-docs, defaults and a small
# ${VAR} substitution engine, the way container entrypoints do.
set -euo pipefail

declare -A conf=(
  [app_name]="shop-api"
  [port]=8080
  [workers]=4
  [db_host]="db.internal"
  [features]="search,cart,wishlist"
)
: "${LOG_LEVEL:=info}"
: "${REPLICAS:=2}"
export LOG_LEVEL

render() {
  local line out key
  while IFS= read -r line || [[ -n $line ]]; do
    out=
    while [[ $line =~ ^([^{]*)\{\{[[:space:]]*([a-z_]+)[[:space:]]*\}\}(.*)$ ]]; do
      key=${BASH_REMATCH[2]}
      out+=${BASH_REMATCH[1]}${conf[$key]-"<missing:$key>"}
      line=${BASH_REMATCH[3]}
    done
    printf '%s\n' "$out$line"
  done
}

echo "--- nginx.conf"
render <<'TPL'
server {
    listen {{ port }};
    server_name {{app_name}}.local;
    location / { proxy_pass http://127.0.0.1:{{port}}; }
    # {{ unknown_key }}
}
TPL

echo "--- app.env"
cat <<EOT
APP_NAME=${conf[app_name]}
WORKERS=$(( conf[workers] * 2 ))
LOG_LEVEL=${LOG_LEVEL^^}
REPLICAS=$REPLICAS
DATABASE_URL=postgres://${conf[db_host]}:5432/${conf[app_name]//-/_}
EOT

echo "--- features.yaml"
IFS=, read -ra feats <<< "${conf[features]}"
{
  echo "features:"
  for f in "${feats[@]}"; do
    cat <<-YAML
	  - name: $f
	    enabled: $([[ $f == cart ]] && echo true || echo false)
	YAML
  done
} | sed 's/[[:space:]]*$//'

echo "--- systemd unit"
unit=$(cat <<UNIT
[Unit]
Description=${conf[app_name]} service
[Service]
ExecStart=/usr/bin/${conf[app_name]} --port=${conf[port]}
Environment="LOG_LEVEL=$LOG_LEVEL" "ESCAPED=\$HOME"
UNIT
)
printf '%s\n' "$unit"
echo "lines: $(wc -l <<< "$unit" | tr -d ' ')"

echo "--- heredoc into a variable with read -d ''"
read -r -d '' banner <<'B' || true
  Welcome to ${app}
  quoted delimiter: nothing expands $(here)
B
printf '[%s]\n' "$banner"

echo "--- nested heredoc in function with redirect"
emit() {
  cat <<END >"$1"
key=$2
END
}
emit out.cfg value
cat out.cfg
rm -f out.cfg
