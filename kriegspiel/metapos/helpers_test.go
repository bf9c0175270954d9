package metapos_test

import "errors"

var errStop = errors.New("stopped")

func isStop(err error) bool { return errors.Is(err, errStop) }
