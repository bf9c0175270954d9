// Package rbc implements the rules of Reconnaissance Blind Chess exactly as the
// reference harness (reconchess 1.6.9) enforces them, on the chess core's
// boards: sense windows and what they show, move resolution on the hidden
// board (a requested move revised by the pieces the mover cannot see), and a
// referee with chess clocks that plays two Players and keeps the game's
// History.
package rbc
