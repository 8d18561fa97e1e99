"""The small games the bot tests use until (and besides) the real ones."""

from parlour.engine.registry import register

from ..engine.nim import Nim
from .skim import OpenSkim, Skim
from .vault import Vault

register(Nim)
register(Skim)
register(OpenSkim)
register(Vault)
