// Motion: accelerometer and rotation-rate analysis. See README.md.
import Signals
