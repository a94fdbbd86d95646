import pytest

from clef_tools._lru import BoundedLRU


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: BoundedLRU[str, int] = BoundedLRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache["a"] == 1  # a read makes "a" the newest
    cache.put("c", 3)
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.peek("a") == 1 and cache.peek("b") is None
    cache.put("d", 4)  # peek did not refresh "a": it goes now
    assert "a" not in cache and len(cache) == 2


def test_an_owner_may_read_new_entries_before_the_bound_applies() -> None:
    cache: BoundedLRU[int, int] = BoundedLRU(1)
    for i in range(3):
        cache.put(i, i * i, trim=False)
    assert [cache[i] for i in range(3)] == [0, 1, 4]
    cache.trim()
    assert len(cache) == 1 and 2 in cache
    with pytest.raises(ValueError, match="max_entries"):
        BoundedLRU(-1)
