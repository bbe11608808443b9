// `profile review NAME`: one screen saying what a session under the profile may run,
// read, write and reach, its limits and capabilities. Each part is a small function
// so another part (a relay line, an exec_paths line) is one more call in
// review_summary(). The full key list is review_text(); the sandbox plan comes from
// the sandbox layer (`profile review --plan`).
#pragma once
#include <string>
#include <vector>

#include "policy/profile_model.h"

namespace lash::policy {

// One line of the summary: a label ("run", "read", ...) and what it says.
struct SummaryLine {
  std::string label;
  std::string text;
};
using Summary = std::vector<SummaryLine>;

void summary_run(const Profile& p, Summary& out);
void summary_read(const Profile& p, Summary& out);
void summary_write(const Profile& p, Summary& out);
void summary_reach(const Profile& p, Summary& out);
void summary_limits(const Profile& p, Summary& out);
void summary_capabilities(const Profile& p, Summary& out);

Summary review_summary(const ResolvedProfile& r);
// The header (name, description, inheritance) and the lines, at most ~100 columns
// (long lists are cut with "... and N more").
std::string summary_text(const ResolvedProfile& r, const Summary& s);

}  // namespace lash::policy
