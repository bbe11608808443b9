// Byte strings into JSON. argv, paths and variable names are bytes, not UTF-8, and
// nlohmann's dump() throws on invalid UTF-8 (examples.md §4). A field whose bytes are not
// valid UTF-8 is stored with each invalid byte and each backslash written as \xNN text,
// and its name is listed in the object's "escaped" array, so nothing is lost.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lash::policy {

using Json = nlohmann::ordered_json;

bool valid_utf8(std::string_view s);
std::string escape_bytes(std::string_view s);
void put_string(Json& obj, const char* key, std::string_view s);

}  // namespace lash::policy
