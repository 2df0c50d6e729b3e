"""The same rows as the file and cluster routes read them, for differential tests against memory."""


def chunked_sources(tmp_path, X, y, row_group_size=90):
    """The rows of ``X`` with class ``y`` as a CSV file, a Parquet file (row groups of
    ``row_group_size``) and a Dask frame of 3 partitions (its class column ``cls``)."""
    import dask.dataframe as dd
    frame = X.assign(cls=y)
    csv, parquet = tmp_path / "d.csv", tmp_path / "d.parquet"
    frame.to_csv(csv, index=False)
    frame.to_parquet(parquet, row_group_size=row_group_size)
    return csv, parquet, dd.from_pandas(frame, npartitions=3)
