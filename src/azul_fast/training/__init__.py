"""Training the learned evaluation: self-play positions collected by the native core (`_training`), the
fit of the board and leftover models (`pipeline`, `small_network`) and the weights file it writes
(`azul-fast train`). Builds on `azul_fast.core`; nothing below imports it."""

from azul_fast.core.lazy import lazy_submodules

__getattr__, __dir__ = lazy_submodules(__name__, __path__)
