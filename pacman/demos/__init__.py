"""The lecture demos: `pacman demo NAME`. Each demo is a module here defining one `Demo`."""
