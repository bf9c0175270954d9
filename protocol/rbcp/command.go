package rbcp

import (
	"errors"
	"strings"
)

// SplitCommand splits a command line such as `./blindfish engine --bot
// "blindfish:depth=6"` into words, as a POSIX shell would for plain words,
// single and double quotes and backslash escapes (no variables, globs or
// operators). Bot specs like "cmd:PROGRAM ARGS" carry command lines this way.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("rbcp: unterminated ' in command")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`rbcp: unterminated " in command`)
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("rbcp: command ends with a backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("rbcp: empty command")
	}
	return words, nil
}
