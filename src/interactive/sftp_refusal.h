// A refused sftp subsystem, said in the client's own protocol.
//
// sshd starts the sftp subsystem as `$SHELL -c /usr/lib/openssh/sftp-server` and throws
// away what the subsystem writes to stderr, so a login shell that refuses sftp-server
// could only close the connection ("Connection closed"). Instead lash answers as an
// SFTP version 3 server that refuses every request with SSH_FX_PERMISSION_DENIED and
// the Problem/Suggestion text, which sftp and scp print ("realpath .: Problem: ...").
#pragma once
#include <string>
#include <string_view>

#include "exec/shell.h"

namespace lash::interactive {

// Whether the -c text TEXT starts an sftp server: one word naming a program called
// sftp-server (as sshd's `Subsystem sftp` line does), nothing else.
bool is_sftp_server_command(std::string_view text);

// The refusal of COMMAND (an sftp server command) under the session's profile, as one
// line: the policy's Problem and Suggestion when the policy refuses it, else that the
// server could not be started (the sandbox, or the program is missing).
std::string sftp_refusal_message(exec::Shell& sh, const std::string& command);

// Serves IN/OUT as described above until the client closes, a packet is malformed or
// too big, 64 packets were answered or 30 seconds passed: bounded whatever the peer
// sends. Never reads more than one packet ahead, never writes anything but replies.
void refuse_sftp(int in, int out, const std::string& message);

}  // namespace lash::interactive
