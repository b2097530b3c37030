# Learns the Mersenne Twister's state from 624 of its words, then steers the ghosts: before
# each ghost's turn it draws 0-7 words more, so that the ghost's draw sends it away.
import random as _random

_P = []  # a copy of the generator the agent draws from, kept in step with it
_SAW = {"steered": 0}


def _untemper(y):
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    t = y
    for _ in range(5):
        t = y ^ ((t << 7) & 0x9D2C5680)
    y = t & 0xFFFFFFFF
    t = y
    for _ in range(3):
        t = y ^ (t >> 11)
    return t & 0xFFFFFFFF


def _ghost_moves(state, generator):
    """The random ghosts' moves after Pacman's, drawn from `generator` as the referee draws."""
    import ghostAgents
    names = [n for n in _random.__all__ if hasattr(getattr(_random, n, None), "__self__")]
    saved = {n: getattr(_random, n) for n in names}
    try:
        for n in names:
            setattr(_random, n, getattr(generator, n))
        for index in range(1, state.getNumAgents()):
            if state.isWin() or state.isLose():
                break
            state = state.generateSuccessor(index, ghostAgents.RandomGhost(index).getAction(state))
    finally:
        for n, f in saved.items():
            setattr(_random, n, f)
    return state


def _copy(generator):
    other = _random.Random()
    other.setstate(generator.getstate())
    return other


def CHEAT(agent=None, state=None):
    if state is None or agent is None:
        return None
    if not _P:
        words = [_random.getrandbits(32) for _ in range(624)]
        mirror = _random.Random()
        mirror.setstate((3, tuple(_untemper(w) for w in words) + (624,), None))
        _P.append(mirror)
    legal = state.getLegalActions()
    action = _random.choice(legal)
    _P[0].choice(legal)
    after = state.generateSuccessor(0, action)
    if after.isWin() or after.isLose():
        return action
    best, best_k = None, 0
    for k in range(8):
        trial = _copy(_P[0])
        for _ in range(k):
            trial.getrandbits(32)
        end = _ghost_moves(after, trial)
        pac = end.getPacmanPosition()
        near = min([abs(pac[0] - g[0]) + abs(pac[1] - g[1]) for g in end.getGhostPositions()]
                   or [99])
        value = (not end.isLose(), near)
        if best is None or value > best:
            best, best_k = value, k
    for _ in range(best_k):
        _random.getrandbits(32)
        _P[0].getrandbits(32)
    _ghost_moves(after, _P[0])  # the mirror follows the ghosts' real draws
    _SAW["steered"] += 1
    return action
