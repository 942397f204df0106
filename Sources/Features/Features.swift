// Features: the windowed feature catalog. See README.md.
import Signals
