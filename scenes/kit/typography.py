"""Font sizes and spacing that stay legible at 480p.

At 480p the frame is 8 units tall, so one unit is 60 px. Nothing on screen is set smaller than
`MIN_FONT_SIZE`, whose glyphs are about 11 px tall at 480p (the layout check enforces a floor in units).
"""

TITLE_SIZE = 44
HEADING_SIZE = 34
BODY_SIZE = 28
LABEL_SIZE = 26
NUMBER_SIZE = 28
SMALL_SIZE = 24
MIN_FONT_SIZE = 22

# The smallest height (in scene units) a line of text may have on screen: about 10 px at 480p.
MIN_TEXT_HEIGHT = 0.16

FONT = "DejaVu Sans"
MONO_FONT = "DejaVu Sans Mono"

BUFF = 0.25
CELL = 0.62  # side of a heat-map / matrix cell
