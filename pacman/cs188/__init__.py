"""The CS188 compatibility layer: runs UC Berkeley "multiagent" student code on our simulator."""
