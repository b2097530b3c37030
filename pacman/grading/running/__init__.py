"""Running and isolation: grading submissions against a suite.

`submission` is the front door (one submission, in worker processes or in this one); `session`
grades in this process, test by test and question by question; `isolated` runs `worker`
processes under hard time and memory limits and keeps what they reported; `bulk` grades a class
in parallel and writes its files. `contestant` is the code under test, `runner` loads it and
runs it on a test tree, and `classic_game` plays a game the classic autograder's way.
"""
