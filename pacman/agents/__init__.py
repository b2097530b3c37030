"""Policies for the Pacman environment: search agents, ghosts, evaluation functions."""
