// Package repotest holds no code: its tests check the repository's set-up
// (the README's set-up section against go.mod, .gitignore, the .ci scripts).
package repotest
