"""Test-case formats: what a suite is and how its files read.

`suite` finds what to grade (a classic `test_cases/` tree with `CONFIG` files, or folders of our
own cases); `parser` reads the `key: "value"` syntax of `.test` and `.solution` files; one
module per test class checks its fields and runs it (`tree_case`: `GraphGameTreeTest`,
`game_case`: `PacmanGameTreeTest`, `eval_case`: `EvalAgentTest`); `ghost_spec` reads the ghosts
field of an agent test without executing it; `solutions` writes every test's `.solution`.
"""
