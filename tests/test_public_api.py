import clef_tools


def test_all_lists_exactly_the_public_names() -> None:
    public = {name for name in vars(clef_tools) if not name.startswith("_")} - {"annotations"}
    modules = {name for name in public if type(getattr(clef_tools, name)).__name__ == "module"}
    assert sorted(clef_tools.__all__) == sorted((public - modules) | {"__version__"})
