// Rhythm: sinus, atrial fibrillation, other, noisy and insufficient labels per stream window,
// AF episodes and burden. See README.md.
import Signals
