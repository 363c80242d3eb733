"""The type scale: one place for every size, set to read from the back row and on a phone held sideways.

At 480p the frame is 8 units tall, so one unit is 60 px. Nothing on screen is smaller than `MIN_FONT_SIZE`
*as the viewer sees it* (through the camera's zoom): the quality gates measure every text on screen against it.
The sizes below are what a piece is built at; `layout.fit_into` then scales a composition to fill its region,
so on screen they mostly come out larger, and never (the gates check) below the floor.
"""

TITLE_SIZE = 52
HEADING_SIZE = 40
BODY_SIZE = 34
LABEL_SIZE = 32
NUMBER_SIZE = 34
SMALL_SIZE = 30
MIN_FONT_SIZE = 26

#: The smallest a worked computation's numbers should come out for the post's example (a figure the inspection
#: prints as `number_font_size`; the gates hold every number to MIN_FONT_SIZE).
WORKED_NUMBER_SIZE = 32

# The smallest height (in scene units) a line of text may have on screen: about 12 px at 480p.
MIN_TEXT_HEIGHT = 0.19

FONT = "DejaVu Sans"
MONO_FONT = "DejaVu Sans Mono"

BUFF = 0.25
CELL = 0.72  # side of a heat-map / matrix cell
