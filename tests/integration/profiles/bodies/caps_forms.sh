# Body shared by the capability tests: the builtins that need a capability, then the
# subcommands that need none.
profile create newp; echo "create $?"
profile edit newp; echo "edit $?"
profile reload; echo "reload $?"
profile switch default; echo "switch $?"
audit tail; echo "audit $?"
profile list > /dev/null; echo "list $?"
profile permissions > /dev/null; echo "permissions $?"
profile test default true > /dev/null; echo "test $?"
[ -e "$LASH_HOME/profiles/newp.profile" ] && echo "newp exists" || echo "no newp"
echo end
