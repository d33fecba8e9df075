"""The relaying worker's command-stream writes go to Redis together per event-loop step, in order (issue 42, the cluster's cost)."""

from __future__ import annotations

import asyncio

from stich.web.cluster.command_batch import CommandBatch

from .helpers import run_async


def test_commands_added_in_one_step_share_one_round_trip_and_keep_their_order(redis_url: str) -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        redis = Redis.from_url(redis_url, decode_responses=True)
        batch = CommandBatch(redis, 100)
        try:
            await redis.delete("test:batch:a", "test:batch:b")
            await asyncio.gather(*(batch.add(f"test:batch:{'ab'[n % 2]}", {"n": str(n)}) for n in range(10)))
            assert batch.round_trips == 1  # before: ten XADDs, ten round trips
            for name, numbers in (("a", range(0, 10, 2)), ("b", range(1, 10, 2))):
                entries = await redis.xrange(f"test:batch:{name}")
                assert [fields["n"] for _id, fields in entries] == [str(n) for n in numbers]  # each stream in the order added
            await batch.add("test:batch:a", {"n": "10"})  # alone: at once, in its own round trip
            assert batch.round_trips == 2 and (await redis.xlen("test:batch:a")) == 6
            await redis.set("test:batch:plain", "x")  # a stream command on a string fails: only that caller gets the error
            outcomes = await asyncio.gather(
                batch.add("test:batch:plain", {"n": "1"}), batch.add("test:batch:b", {"n": "11"}), return_exceptions=True
            )
            assert isinstance(outcomes[0], Exception) and outcomes[1] is None
            assert (await redis.xlen("test:batch:b")) == 6
        finally:
            await redis.delete("test:batch:a", "test:batch:b", "test:batch:plain")
            await redis.aclose()

    run_async(body())


def test_a_batch_that_cannot_reach_redis_fails_every_caller() -> None:
    async def body() -> None:
        from redis.asyncio import Redis

        redis = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)  # nothing listens there
        batch = CommandBatch(redis, 100)
        try:
            outcomes = await asyncio.gather(*(batch.add("s", {"n": str(n)}) for n in range(3)), return_exceptions=True)
            assert len(outcomes) == 3 and all(isinstance(outcome, Exception) for outcome in outcomes)
        finally:
            await redis.aclose()

    run_async(body())
