#!/usr/bin/env python3
"""Writes cases/*.cases: combinations of values and operators per area. Run it again
after editing; the output is checked in so that the runner needs nothing else."""
import itertools
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases")


def write(area, mode, cases):
    with open(os.path.join(OUT, area + ".cases"), "w") as f:
        f.write(f"# mode: {mode}\n")
        for i, c in enumerate(cases):
            f.write(f"### {area}-{i}\n{c.rstrip()}\necho \"status $?\"\n")


values = ["", "abc", "a b", "hello.tar.gz", "/usr/local/bin", "AbC", "x*y", "  lead", "ééa", "a-b-c"]
q = lambda v: "'" + v.replace("'", "'\\''") + "'"

# ---- POSIX parameter expansion (dash and bash --posix agree on most) ----
posix_param = []
for v in values:
    for op in ["", ":-d", "-d", ":+a", "+a", "#*.", "##*.", "%.*", "%%.*", "#a", "%c", "##*/", "%/*", ":=z", "=z"]:
        posix_param.append(f"v={q(v)}; echo \"[${{v{op}}}]\"; echo [${{v{op}}}]")
    posix_param.append(f"v={q(v)}; echo ${{#v}}")
    posix_param.append(f"unset v; echo \"[${{v-unset}}]\" \"[${{v:-empty}}]\"")
write("posix_param", "posix", posix_param)

# ---- POSIX arithmetic ----
nums = ["0", "1", "7", "-3", "010", "0x1f", "255"]
ops = ["+", "-", "*", "/", "%", "<<", ">>", "<", "<=", "==", "!=", "&", "|", "^", "&&", "||"]
posix_arith = []
for a, b in itertools.product(nums, nums[:5]):
    for op in ops:
        posix_arith.append(f"echo $(( {a} {op} {b} ))")
for e in ["x=5; echo $((x+=2)) $x", "x=3; echo $((x*=x))", "echo $((1?2:3))", "echo $((0?2:3))",
          "echo $(( (1+2)*3 ))", "echo $((~5))", "echo $((!0))", "x=2; y=$((x<<3)); echo $y"]:
    posix_arith.append(e)
write("posix_arith", "posix", posix_arith)

# ---- POSIX control flow and builtins ----
posix_misc = []
for n in range(1, 6):
    posix_misc.append(f"i=0; while [ $i -lt {n} ]; do i=$((i+1)); done; echo $i")
    posix_misc.append(f"for x in $(seq {n}); do printf '%s,' $x; done; echo")
    posix_misc.append(f"f() {{ return {n}; }}; f; echo $?")
    posix_misc.append(f"case {n} in 1|2) echo low;; *) echo high;; esac")
    posix_misc.append(f"set -- $(seq {n}); echo $# \"$*\"; shift; echo $@")
    posix_misc.append(f"x=$(echo {n}; exit {n}); echo $? $x")
    posix_misc.append(f"printf '%05d|%-4s|%x\\n' {n} {n} {n * 37}")
    posix_misc.append(f"(exit {n}) || echo failed $?")
    posix_misc.append(f"test {n} -gt 2 && echo big || echo small")
    posix_misc.append(f"[ -n \"{'x' * n}\" ] && echo nonempty")
for w in ["a:b:c", "a  b", ":a:", "a::b"]:
    posix_misc.append(f"IFS=:; set -- {q(w)}; for x in $1; do echo \"<$x>\"; done")
    posix_misc.append(f"IFS=: read -r a b c <<EOF\n{w}\nEOF\necho \"$a|$b|$c\"")
write("posix_misc", "posix", posix_misc)

# ---- bash: arrays ----
arrays = []
inits = ["(a b c)", "()", "(one 'two three' four)", "([2]=x [5]=y)", "(1 2 3 4 5 6)"]
reads = ["${#a[@]}", "\"${a[@]}\"", "${a[*]}", "\"${!a[@]}\"", "${a[0]}", "${a[1]}", "${a[-1]}",
         "\"${a[@]:1}\"", "\"${a[@]:1:2}\"", "\"${a[@]/a/X}\"", "\"${a[@]^}\"", "${#a[0]}", "\"${a[@]#?}\""]
for init in inits:
    for r in reads:
        arrays.append(f"a={init}; printf '<%s>' {r}; echo")
    arrays.append(f"a={init}; a+=(z); printf '<%s>' \"${{a[@]}}\"; echo")
    arrays.append(f"a={init}; a[7]=q; echo \"${{!a[@]}}\"")
    arrays.append(f"a={init}; unset 'a[1]'; echo \"${{#a[@]}} ${{a[@]}}\"")
    arrays.append(f"a={init}; for x in \"${{a[@]}}\"; do echo \"[$x]\"; done")
    arrays.append(f"a={init}; i=1; echo \"${{a[i]}} ${{a[i+1]}} ${{a[$i]}}\"")
    arrays.append(f"a={init}; declare -p a")
    arrays.append(f"f() {{ local -a a={init}; echo ${{#a[@]}}; }}; f; echo ${{#a[@]}}")
for k in ["k", "two words", "1"]:
    arrays.append(f"declare -A m; m[{q(k)}]=v; echo \"${{m[{q(k)}]}}\" ${{#m[@]}}")
    arrays.append(f"declare -A m=([{q(k)}]=1 [z]=2); echo \"${{m[z]}} ${{m[{q(k)}]}}\"")
arrays.append("a=(x y); a[1]+=z; echo ${a[@]}")
arrays.append("a=(3 1 2); echo $(( a[0] + a[2] ))")
arrays.append("a=(1 2); (( a[1] += 5 )); echo ${a[1]}")
arrays.append("readonly -a r=(1 2); r[0]=5; echo status $?")
write("arrays", "bash", arrays)

# ---- bash: [[ ]] ----
cond = []
operands = ["abc", "", "a*", "10", "9", "abd"]
for a, b in itertools.product(operands, operands):
    for op in ["==", "!=", "<", ">"]:
        cond.append(f"[[ {q(a)} {op} {q(b)} ]]; echo $?")
    cond.append(f"x={q(a)}; [[ $x == {b or 'nothing'} ]]; echo $?")
for a, b in itertools.product(["1", "10", "2+3", "-4"], ["5", "10", "0"]):
    for op in ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]:
        cond.append(f"[[ {a} {op} {b} ]]; echo $?")
for s, r in [("hello", "^h(el)+"), ("abc123", "[0-9]+$"), ("x", "^(a|b)$"), ("key=val", "^([^=]+)=(.*)$"),
             ("a.b", "a\\.b"), ("a b", "a[[:space:]]b")]:
    cond.append(f"s={q(s)}; if [[ $s =~ {r} ]]; then echo \"y ${{BASH_REMATCH[0]}} ${{BASH_REMATCH[1]}}\"; else echo n; fi")
for t in ["-n x", "-z x", "-z ''", "-e /", "-d /tmp", "-f /etc/passwd", "-r /etc/passwd", "-v HOME", "-v NOPE_X",
          "-o errexit", "! -e /nonexistent", "-n x && -z ''", "-z x || -n y", "( -n x )", "! ( -n x && -z x )"]:
    cond.append(f"[[ {t} ]]; echo $?")
write("cond", "bash", cond)

# ---- bash: (( )), let, for (( )) and arithmetic extensions ----
arith = []
for e in ["2**10", "3**0", "16#ff", "2#1011", "8#17", "36#z", "1,2,3", "x=5,x*2", "++y", "y++", "y--",
          "(2+3)**2", "-2**2", "7/2", "10%3", "1<<4", "0x10", "x=3, y=x*x, y", "z+=4", "a=b=3", "5>3?10:20"]:
    arith.append(f"echo $(( {e} ))")
    arith.append(f"(( {e} )); echo $?")
    arith.append(f"let {q(e)}; echo $?")
for n in [0, 1, 3, 5]:
    arith.append(f"for (( i=0; i<{n}; i++ )); do printf $i; done; echo")
    arith.append(f"for ((i={n}; i>0; i-=2)); do printf '%s ' $i; done; echo")
    arith.append(f"i={n}; while (( i-- > 0 )); do printf x; done; echo")
arith.append("x=y+1; y=2; echo $((x))")
arith.append("declare -i n=3; n+=4; n=n*2; echo $n")
write("arith_ext", "bash", arith)

# ---- bash: parameter expansion extensions ----
pe = []
for v in values:
    for op in [":1", ":1:2", ": -2", ":0:-1", "/b/X", "//b/X", "/#a/X", "/%c/X", "^", "^^", ",", ",,", "//[aeiou]/", "/*/Z"]:
        pe.append(f"v={q(v)}; echo \"[${{v{op}}}]\"")
pe.append("n=HOME; echo ${!n}")
pe.append("PRE_a=1 PRE_b=2; echo ${!PRE_*}")
pe.append("set -- a b c d; echo ${@:2} ${@:1:2} ${*: -1}")
write("param_ext", "bash", pe)

# ---- bash: quoting, braces, redirections ----
qb = []
for s in ["a\\tb", "\\x41\\x42", "it\\'s", "\\u00e9", "\\e[0m", "a\\nb", "\\101", "\\c"]:
    qb.append(f"printf '%s' $'{s}' | od -An -c")
for b in ["{a,b,c}", "x{1..5}", "{1..10..3}", "{a..e}", "{e..a..2}", "{01..10}", "{a,b}{1,2}", "{a}", "{,x}y",
          "pre{A,B}post", "{1..3}{a,b}", "{-3..3}", "'{a,b}'", "\\{a,b}", "{a,{b,c}}"]:
    qb.append(f"echo {b}")
for r in ["cat <<< hello", "x=w; cat <<< \"$x y\"", "{ echo o; echo e >&2; } &> f; cat f",
          "echo 1 > f; echo 2 &>> f; cat f", "{ echo o; echo e >&2; } |& tr a-z A-Z", "echo a | cat | wc -l",
          "read -r x <<< 'a b'; echo $x"]:
    qb.append(r)
write("quoting_redirs", "bash", qb)

# ---- POSIX field splitting and quoting ----
split = []
for ifs in [None, "", ":", " :", "\\n", "ab"]:
    for v in ["a b  c", " lead trail ", "a:b::c", "x", "", "a\\tb", "1a2b3"]:
        set_ifs = "unset IFS" if ifs is None else f"IFS=$(printf '{ifs}')"
        split.append(f"v=$(printf '{v}'); {set_ifs}; set -- $v; echo $#; for a; do printf '<%s>' \"$a\"; done; echo")
        split.append(f"v=$(printf '{v}'); {set_ifs}; set -- \"$v\" x; printf '<%s>' \"$*\" $*; echo")
write("posix_split", "posix", split)

# ---- POSIX redirections and here-documents ----
redir = []
for i in range(1, 4):
    redir.append(f"echo {i} > f; echo $(( {i} + 1 )) >> f; cat f; wc -l < f")
    redir.append(f"exec 3> f; echo x{i} >&3; exec 3>&-; cat f")
    redir.append(f"{{ echo out{i}; echo err{i} >&2; }} 2>&1 | sort")
    redir.append(f"cat <<EOF\nline {i} $(( {i} * 2 ))\n\\$HOME-ish\nEOF")
    redir.append(f"cat <<'EOF'\nraw $x {i}\nEOF")
    redir.append(f"cat <<-EOF\n\t\ttabbed {i}\n\tEOF")
    redir.append(f"(echo sub{i}; exit {i}); echo $?")
    redir.append(f"f() {{ echo in-f{i}; }} > f; f; cat f")
    redir.append(f"echo a{i} | {{ read -r x; echo got $x; }}")
    redir.append(f"x=$(cat <<EOF\nhere {i}\nEOF\n); echo \"$x\"")
write("posix_redirs", "posix", redir)
