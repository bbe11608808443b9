# Decimal, octal and hexadecimal constants and variable values.
echo $((010)) $((0x10)) $((0X1f)) $((0xff)) $((0)) $((00)) $((007))
echo $((0x7fffffffffffffff)) $((017777777777777777777))
o=010; h=0x20; d=42; echo $((o)) $((h)) $((d)) $((o+h+d))
echo $((-010)) $((-0x10))
echo $((0xA + 0xa)) $((0xAbC))
v=' 0x10 '; echo $((v))
echo $(( 1 + 010 * 0x2 ))
