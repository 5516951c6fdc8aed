"""``python -m robotscope.spark``: a survey of WARC files on Apache Spark, as Parquet.

    python -m robotscope.spark --warcs robotstxt.paths --agents GPTBot,CCBot --out rows/

``--warcs`` lists one WARC a line, as Common Crawl's ``robotstxt.paths`` does: a local
path, an ``https://`` (or ``http://``) URL, or ``s3://bucket/key`` (with boto3
installed); a relative Common Crawl path (``crawl-data/...``) is read from
``--prefix`` (default ``https://data.commoncrawl.org/``). Each WARC is read by one task
(:func:`robotscope.survey.survey_warc`'s reader and the command line's verdicts), and
the rows are written as Parquet with the columns of ``robotscope survey --json``.

Redirects are resolved across files with joins, up to five hops (RFC 9309
§2.3.1.2): Common Crawl writes a site's http capture, which redirects, and its https
capture, which holds the rules, to different files. A redirect takes the verdicts of
its target's capture nearest in time; one whose target is not in the input says
``redirect``, and why, as the command line does.

On a cluster, as cc-pyspark's jobs are submitted, this file is the job; robotscope must
be installed where the Python workers run (a virtual environment packed with
venv-pack, say; cluster mode runs the driver there too)::

    spark-submit --master yarn --deploy-mode cluster --archives env.tar.gz#env \
        --conf spark.pyspark.python=./env/bin/python \
        "$(python -c 'import robotscope.spark as job; print(job.__file__)')" \
        --warcs robotstxt.paths --agents GPTBot,ClaudeBot --out s3a://bucket/survey/

A WARC that cannot be opened or read to its end gives one row per agent with the
``error``, and the job goes on.
"""

from __future__ import annotations

import argparse
import sys
import urllib.request
from typing import IO, Any, Iterable, Iterator, Optional, Sequence

# Absolute imports: spark-submit runs this file as a script (see the module's doc).
from robotscope._robotscope import SURVEY_AGENTS, url_key
from robotscope.survey import survey_warc

#: The command line's ``--json`` fields, in order.
COLUMNS = ("url", "site", "agent", "category", "group", "line", "status", "bytes", "time", "train_ai", "html", "error")

#: The columns written: :data:`COLUMNS`, then the WARC each row comes from.
OUTPUT = COLUMNS + ("warc",)

#: The most redirects followed from a capture (RFC 9309 §2.3.1.2).
MAX_REDIRECT_HOPS = 5

#: Where a relative Common Crawl path is read from.
COMMON_CRAWL = "https://data.commoncrawl.org/"


def open_warc(location: str, prefix: str = COMMON_CRAWL, timeout: float = 60.0) -> IO[bytes]:
    """A WARC's bytes as a stream: a local path, an http(s) URL, ``s3://bucket/key``, or
    a Common Crawl path under ``prefix``."""
    if location.startswith(("https://", "http://")):
        return urllib.request.urlopen(location, timeout=timeout)  # noqa: S310 - the user's list
    if location.startswith("s3://"):
        try:
            import boto3
        except ImportError as error:
            raise ImportError("s3:// paths need boto3: pip install boto3") from error
        bucket, _, key = location[len("s3://") :].partition("/")
        return boto3.client("s3").get_object(Bucket=bucket, Key=key)["Body"]
    if location.startswith("crawl-data/"):
        return open_warc(prefix + location, prefix, timeout)
    return open(location, "rb")


def warc_rows(location: str, agents: Sequence[str], reading: str, reader: str, prefix: str) -> Iterator[tuple[Any, ...]]:
    """The rows of one WARC, redirects unresolved, as tuples of :data:`COLUMNS` +
    (warc, key, target, target_only). A WARC that cannot be read to its end gives a row per agent
    saying why, after the rows read."""
    try:
        with open_warc(location, prefix) as stream:
            for row in survey_warc(stream, agents, reading=reading, reader=reader, follow_redirects=False):
                yield tuple(row[column] for column in COLUMNS) + (
                    location,
                    url_key(row["url"]),
                    row["target"],
                    row["target_only"],
                )
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    # A bad file is a row, never the job's end; a reader's panic (PyO3's
    # PanicException) is no Exception, and is caught too.
    except BaseException as error:  # noqa: BLE001
        why = f"{location}: {type(error).__name__}: {error}"
        for agent in agents:
            yield ("", "", agent, "unreachable", "none", None, None, 0, "", None, False, why, location, "", None, False)


def schema() -> Any:
    from pyspark.sql import types as T

    return T.StructType(
        [
            T.StructField("url", T.StringType()),
            T.StructField("site", T.StringType()),
            T.StructField("agent", T.StringType()),
            T.StructField("category", T.StringType()),
            T.StructField("group", T.StringType()),
            T.StructField("line", T.LongType()),
            T.StructField("status", T.IntegerType()),
            T.StructField("bytes", T.LongType()),
            T.StructField("time", T.StringType()),
            T.StructField("train_ai", T.StringType()),
            T.StructField("html", T.BooleanType()),
            T.StructField("error", T.StringType()),
            T.StructField("warc", T.StringType()),
            T.StructField("key", T.StringType()),
            T.StructField("target", T.StringType()),
            # A capture of another path: a redirect's possible target, no site's row.
            T.StructField("target_only", T.BooleanType()),
        ]
    )


def resolve_redirects(rows: Any) -> Any:
    """Each redirect's rows with its target's verdicts, following up to
    :data:`MAX_REDIRECT_HOPS` redirects; ``redirect`` with why when the target is not
    among the rows or the chain is longer. A redirect takes its target's capture
    nearest in time (the last at or before it, else the first after), as the command
    line does."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    taken = ("category", "group", "line", "status", "bytes", "train_ai", "html", "error")
    targets = rows.select(
        F.col("key").alias("_t_key"),
        F.col("agent").alias("_t_agent"),
        F.col("time").alias("_t_time"),
        F.col("target").alias("_t_target"),
        *[F.col(column).alias("_t_" + column) for column in taken],
    )
    current = (
        rows.filter(~F.col("target_only"))
        .withColumn("_id", F.monotonically_increasing_id())
        .withColumn("_at", F.col("target"))
        .withColumn("_done", F.col("target").isNull())
        .withColumn("_resolved", F.lit(False))
    )
    # A capture with no time (its date could not be read) is taken when no other is.
    before = (F.col("_t_time") <= F.col("time")) & (F.col("_t_time") != "")
    after = F.col("_t_time") > F.col("time")
    nearest = Window.partitionBy("_id").orderBy(
        F.when(before, F.lit(0)).when(after, F.lit(1)).otherwise(F.lit(2)),
        F.when(before, F.col("_t_time")).desc_nulls_last(),
        F.col("_t_time").asc_nulls_last(),
    )
    for _ in range(MAX_REDIRECT_HOPS):
        # Only the redirects still followed are joined: the rest pass by.
        settled = current.filter(F.col("_done"))
        joined = (
            current.filter(~F.col("_done"))
            .join(targets, (F.col("_at") == F.col("_t_key")) & (F.col("agent") == F.col("_t_agent")), "left")
            .withColumn("_rank", F.row_number().over(nearest))
            .filter(F.col("_rank") == 1)
        )
        found = F.col("_t_key").isNotNull()
        judged = found & F.col("_t_target").isNull()
        stepped = joined.select(
            *[c for c in current.columns if c not in taken and c not in ("_at", "_done", "_resolved")],
            *[F.when(judged, F.col("_t_" + column)).otherwise(F.col(column)).alias(column) for column in taken],
            F.when(found & ~judged, F.col("_t_target")).otherwise(F.col("_at")).alias("_at"),
            (judged | ~found).alias("_done"),
            judged.alias("_resolved"),
        )
        current = settled.unionByName(stepped)
    unresolved = F.col("target").isNotNull() & ~F.col("_resolved")
    why = F.when(~F.col("_done"), F.lit(f"more than {MAX_REDIRECT_HOPS} redirects")).otherwise(
        F.concat(F.lit("redirects to "), F.col("_at"), F.lit(", which the input does not hold"))
    )
    columns = []
    for column in OUTPUT:
        if column == "error":
            columns.append(F.when(unresolved, F.concat_ws("; ", F.col("error"), why)).otherwise(F.col("error")).alias("error"))
        elif column == "bytes":
            # As the command line writes a redirect it could not follow: no body of its own.
            columns.append(F.when(unresolved, F.lit(0)).otherwise(F.col("bytes")).cast("long").alias("bytes"))
        else:
            columns.append(F.col(column))
    return current.select(*columns)


def survey(
    spark: Any,
    warcs: Iterable[str],
    agents: Sequence[str],
    *,
    reading: str = "rfc9309",
    reader: str = "auto",
    prefix: str = COMMON_CRAWL,
) -> Any:
    """The survey's rows of ``warcs`` as a DataFrame (:data:`OUTPUT`), redirects
    resolved across files."""
    locations = list(warcs)
    agents = list(agents)
    rdd = spark.sparkContext.parallelize(locations, max(1, len(locations)))
    rows = rdd.flatMap(lambda location: warc_rows(location, agents, reading, reader, prefix))
    return resolve_redirects(spark.createDataFrame(rows, schema()))


def read_list(path: str) -> list[str]:
    """The WARCs of a list: one a line, blank lines and ``#`` comments skipped; ``-``
    is standard input."""
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    try:
        lines = [line.strip() for line in stream]
    finally:
        if stream is not sys.stdin:
            stream.close()
    return [line for line in lines if line and not line.startswith("#")]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m robotscope.spark",
        description="A survey of WARC files' robots.txt captures on Spark, written as Parquet.",
    )
    parser.add_argument("--warcs", required=True, metavar="LIST", help="WARCs, one a line (a path, URL or s3://)")
    parser.add_argument(
        "--agents",
        default=",".join(SURVEY_AGENTS),
        metavar="A,B,...",
        help="product tokens (default: the agents Consent in Crisis tracks, Googlebot, bingbot and *)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the Parquet directory written")
    parser.add_argument("--reading", default="rfc9309", choices=("rfc9309", "draft1996", "koster1994"))
    parser.add_argument("--reader", default="auto", choices=("auto", "fastwarc", "warcio"))
    parser.add_argument("--prefix", default=COMMON_CRAWL, help="where relative Common Crawl paths are read from")
    parser.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    args = parser.parse_args(argv)
    agents = [agent.strip() for agent in args.agents.split(",") if agent.strip()]
    if not agents:
        parser.error("--agents: name at least one robot")
    warcs = read_list(args.warcs)
    if not warcs:
        parser.error(f"--warcs: {args.warcs} lists no WARC")

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("robotscope survey").getOrCreate()
    if not args.overwrite and _exists(spark, args.out):
        # Said before the work, not after hours of it.
        print(f"python -m robotscope.spark: {args.out} exists: --overwrite replaces it", file=sys.stderr)
        return 2
    rows = survey(spark, warcs, agents, reading=args.reading, reader=args.reader, prefix=args.prefix)
    rows.write.mode("overwrite" if args.overwrite else "errorifexists").parquet(args.out)
    written = spark.read.parquet(args.out)
    failed = written.filter(written.url == "").select("warc").distinct().count()
    print(
        f"python -m robotscope.spark: {len(warcs)} WARC file{'s' if len(warcs) != 1 else ''} surveyed for "
        f"{len(agents)} robot{'s' if len(agents) != 1 else ''} into {args.out}"
        + (f"; {failed} could not be read to their end (rows with an empty url say why)" if failed else ""),
        file=sys.stderr,
    )
    return 0


def _exists(spark: Any, path: str) -> bool:
    """Whether ``path`` exists, as Spark's file systems see it (local, HDFS, S3)."""
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return bool(hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).exists(hadoop_path))


if __name__ == "__main__":
    sys.exit(main())
