"""Where games with hard limits are hosted: agents in child processes that a parent can stop.

- `isolation`: run code in a child process, with a channel to it and limits it cannot escape;
- `sandbox` and `jail`: the world such a child gets on Linux (its own namespaces and file tree,
  no privileges), planned in the parent and built in the child before any agent code runs;
- `host`: the agent host, the one process model of every untrusted agent (a user's agent in
  a game, a graded submission), and `agent_host`, a game's side of it (the grader's side is
  `pacman.grading.running.hosted`);
- `watched`: a game shown in this process while its agents play in a child (`pacman play
  --timeout`), stopped cleanly at a limit;
- `game_worker`: the child's side of a watched game.

`ISOLATIONS` are where an agent of the user's may run (`local.build_agents`): `process`, in
an agent host of its own, or `none`, in the referee's process.

An application room: it builds agents by name through the registry, so it sits above the
policies; the game core knows nothing of it.
"""

__all__ = ["ISOLATIONS"]

ISOLATIONS = ("process", "none")
