"""Numbers said in words as the messages and printouts say them."""

__all__ = ["plural"]


def plural(n, word):
    """``n`` (with thousands separators, a whole number where it is one) and ``word``, in the plural
    unless ``n`` is 1.

    >>> plural(1, "instance"), plural(3, "class"), plural(1500.0, "training instance")
    ('1 instance', '3 classes', '1,500 training instances')
    """
    many = word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")
    shown = f"{int(n):,}" if float(n) == int(n) else f"{n:,g}"
    return f"{shown} {word if n == 1 else many}"
