// Package childproc starts child processes that can be stopped with
// everything they started, and that do not outlive us.
//
// Prepare, called before exec.Cmd.Start, puts the child in a process group of
// its own, so that Kill, which signals the whole group, also reaches what the
// child started (the real engine behind a wrapper script, say). On Linux it
// also asks the kernel to send the child SIGKILL when its parent dies (the
// parent-death signal), so that a crash of ours leaves no engine running.
// Elsewhere on Unix there is no parent-death signal; where there are no
// process groups (Windows) Prepare does nothing and Kill kills the child
// alone.
//
// It is shared by the clients that run engines as child processes (the UCI
// client of evaluator/uci and the rbcp client of protocol/rbcp) and imports
// nothing of the project.
package childproc
