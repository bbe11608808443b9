#include "builtins/families.h"

namespace lash::builtins {

void register_all() {
  static bool done = false;
  if (done) return;
  done = true;
  register_core();
  register_vars();
  register_session();
  register_io();
  register_jobs();
  register_profile();
  register_audit();
  register_plugin();
  register_sessions();
  register_config();
  register_declare();
  register_shopt();
  register_bash_io();
}

}  // namespace lash::builtins
