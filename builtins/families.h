// Each builtin family registers its rows into the one builtin table.
#pragma once

namespace lash::builtins {
void register_core();
void register_vars();
void register_session();
void register_io();
void register_jobs();
void register_profile();
void register_audit();
void register_plugin();
void register_sessions();
void register_config();
void register_declare();
void register_shopt();
void register_bash_io();
// All families, once at start-up.
void register_all();
}  // namespace lash::builtins
