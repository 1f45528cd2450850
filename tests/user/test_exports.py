import vistasim.user


def test_all_is_sorted_and_lists_the_public_names():
    public = {name for name in dir(vistasim.user) if not name.startswith("_")}
    modules = {"annotations"}
    assert vistasim.user.__all__ == sorted(vistasim.user.__all__)
    assert set(vistasim.user.__all__) == public - modules
