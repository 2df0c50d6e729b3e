"""Row chunks: batched passes over encoded blocks in cache-sized pieces."""

CHUNK_ROWS = 32768


def chunks(n, size=CHUNK_ROWS):
    """``(start, stop)`` of consecutive row chunks covering ``range(n)``."""
    for s in range(0, n, size):
        yield s, min(s + size, n)
