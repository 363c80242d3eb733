"""The quality tooling, apart from the visual language: the headless runner that plays a scene without drawing
its movie, the inspection that measures every beat, and the gates it runs (layout, numbers, story, contrast,
colour alone, descriptive claims). Scenes never import it; tests and the command line do."""
