"""A failing rbcp engine for standin_test.go.

Usage: fake_engine.py PIDFILE MODE REQUEST, MODE being "die" or "stall".
It writes its pid to PIDFILE, then answers rbcp requests as a bot that always
passes, until it receives REQUEST (a request's first word, e.g. choosemove):
then it exits at once without answering (die) or never answers again
(stall).
"""

import os
import sys
import time


def main():
    pidfile, mode, fatal = sys.argv[1:4]
    with open(pidfile, 'w') as f:
        f.write(str(os.getpid()))
    answers = {
        'setoption': 'ok', 'isready': 'readyok', 'newgame': 'ok', 'opponentmove': 'ok',
        'choosesense': 'sense pass', 'senseresult': 'ok', 'choosemove': 'move pass',
        'moveresult': 'ok', 'gameend': 'ok',
    }
    for line in sys.stdin:
        word = line.split(' ', 1)[0].strip()
        if word == fatal:
            if mode == 'die':
                os._exit(3)
            time.sleep(3600)
        if word == 'quit':
            return
        if word == 'rbcp':
            print('id name Failing engine')
            print('rbcpok 1')
        else:
            print(answers.get(word, 'error unknown request'))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
