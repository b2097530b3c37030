"""`BaseAgent`: the typed settings, generator and description every shipped agent shares."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast, overload

from pacman.agents.settings import AgentSettings
from pacman.errors import SettingsError

if TYPE_CHECKING:
    from pacman import GameState
    from pacman.specs import AgentSpec

S = TypeVar("S", bound=AgentSettings)


class _SeededOnFirstUse:
    """`BaseAgent.rng` before a game hands one (`set_rng`): a generator seeded with 0, made
    when first read and kept in the agent's own attributes (seeding one costs more than many
    moves, and every game replaces it). A non-data descriptor: once the agent has its own
    `rng`, reading it is a plain attribute read."""

    @overload
    def __get__(self, agent: None, owner: type) -> _SeededOnFirstUse: ...

    @overload
    def __get__(self, agent: object, owner: type) -> random.Random: ...

    def __get__(self, agent: object | None, owner: type) -> random.Random | _SeededOnFirstUse:
        if agent is None:
            return self
        rng = random.Random(0)
        vars(agent)["rng"] = rng
        return rng


class BaseAgent(Generic[S]):
    """An agent with an index, typed settings, the game's generator, and a one-line description.

    Build one with keyword settings, `AlphaBetaAgent(depth=3, evaluation="better")`, or with a
    settings object, `AlphaBetaAgent(settings=SearchSettings(depth=3))`; either way the
    settings are checked once, here, against the class's `Settings` (a frozen dataclass, see
    `pacman.agents.settings`), and kept in `self.settings`. The first positional argument is
    the agent's index (`DirectionalGhost(2)`).

    The game hands its seeded generator through `set_rng`; an agent used outside a game gets a
    fixed-seed generator, so it is deterministic too.
    """

    #: the settings this agent takes (a subclass of `AgentSettings`)
    Settings: ClassVar[type[AgentSettings]] = AgentSettings
    index: int = 0
    #: the generator of every random choice: the game's (`set_rng`), or one seeded with 0
    rng: _SeededOnFirstUse = _SeededOnFirstUse()

    def __init__(self, index: int = 0, settings: S | None = None, **values: Any) -> None:
        self.index = index
        name = type(self).__name__
        if settings is None:
            try:
                settings = cast(S, self.Settings.of(values))
            except SettingsError as error:
                raise SettingsError(f"{name}: {error}") from None
        elif values:
            raise SettingsError(f"{name}: give a settings object or keyword settings, not both")
        elif not isinstance(settings, self.Settings):
            raise SettingsError(f"{name}: its settings are a {self.Settings.__name__}, got "
                                f"{type(settings).__name__}")
        self.settings: S = settings

    @property
    def spec(self) -> AgentSpec:
        """This agent's canonical description, as a Gymnasium env carries `env.spec`: its
        class's name and its settings as a batch stores them (`AgentSettings.batch_settings`:
        every setting that changes how it plays, defaults included; a Python object given as a
        setting, such as an evaluation function, is left out). For a shipped agent it is the
        spec `pacman batch` stores for the same agent (`pacman.agents.resolve`)."""
        from pacman.specs import AgentSpec

        values = {item.name: getattr(self.settings, item.name) for item in self.Settings.fields()}
        return AgentSpec.of(type(self).__name__, self.Settings.batch_settings(values))

    def set_rng(self, rng: random.Random) -> None:
        """Use the game's generator for every random choice."""
        self.rng = rng

    def settings_text(self) -> str:
        """The settings shown in the description ('' for none)."""
        return ""

    def describe(self) -> str:
        """E.g. `AlphaBetaAgent depth=3 better`."""
        extra = self.settings_text()
        return f"{type(self).__name__} {extra}" if extra else type(self).__name__

    def get_action(self, state: GameState) -> Any:
        """The action to play in `state`."""
        raise NotImplementedError
