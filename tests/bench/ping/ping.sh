#!/bin/sh
# One reply per request line, with the request's numeric id (lash's ids are numbers).
while IFS= read -r line; do
  id=${line#*\"id\":}
  id=${id%%[!0-9]*}
  printf '{"jsonrpc":"2.0","id":%s,"result":"pong"}\n' "${id:-null}"
done
