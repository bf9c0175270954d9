// Package ksrecord is the JSON form of a Kriegspiel game record
// (kriegspiel.Record): written by matches and the local kriegspiel.org, read
// back by replay, view, belief and the results reader, which tell it from an
// RBC record by its "format" field (Is).
package ksrecord
