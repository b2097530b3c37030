"""Reference searches: what a correct agent does, and why a student's did otherwise.

`tree` makes a test tree a search state that records what an agent generates; `search` is the
plain reference search on it, with the classic bugs as switches; `diagnostics` turns those
switches into hints for a failed tree test and `departure` names the first node where the
agent's search parted from the expected one; `staff` is the reference search on real game
states behind the game tests' solution files.
"""
