// Package record reads and writes game records, the one place that knows
// files, archives and JSON: where records are found (a record, gzipped or
// not, a .tar.gz archive of them, a folder of either) and the reference
// harness's GameHistory JSON for RBC. Each other game's JSON form has a
// package of its own below this one (ksrecord for Kriegspiel); the rules
// packages hold the records' data and never their encoding.
package record
