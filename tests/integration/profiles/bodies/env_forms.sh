# Body shared by the env tests. The caller exports EXPV=orig and EMPTYV= (empty).
# Every form that changes an exported variable, then a plain shell variable (always free).
export NEWV=1; echo "export $? ${NEWV-unset}"
unset EXPV; echo "unset $? ${EXPV-unset}"
EXPV=assigned; echo "assign $? $EXPV"
for EXPV in a b; do echo "body $EXPV"; done; echo "for $? $EXPV"
: ${EMPTYV:=filled}; echo "default-assign $? [$EMPTYV]"
EXPV=prefix cat /dev/null; echo "prefix $?"
read EXPV < input.txt; echo "read $? $EXPV"
plain=1; echo "plain $? $plain"
readonly EXPV; echo "readonly $?"
echo end
