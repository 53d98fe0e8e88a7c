"""asyncio without I/O: gather, queues, timeouts and cancellation with tiny sleeps."""
import asyncio


async def fetch(name, delay, fail=False):
    await asyncio.sleep(delay)
    if fail:
        raise ValueError(f"{name} failed")
    return f"{name} ok"


async def worker(name, queue, results):
    while True:
        item = await queue.get()
        results.append((item, name))
        await asyncio.sleep(0)
        queue.task_done()


async def main():
    print(await asyncio.gather(fetch("a", 0.02), fetch("b", 0.01), fetch("c", 0)))
    results = await asyncio.gather(fetch("x", 0), fetch("y", 0, fail=True), return_exceptions=True)
    print([r if isinstance(r, str) else type(r).__name__ for r in results])
    queue, done = asyncio.Queue(), []
    for i in range(6):
        queue.put_nowait(i)
    workers = [asyncio.create_task(worker(f"w{i}", queue, done)) for i in range(2)]
    await queue.join()
    for w in workers:
        w.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    print(sorted(i for i, _ in done))
    try:
        await asyncio.wait_for(fetch("slow", 1), timeout=0.01)
    except asyncio.TimeoutError:
        print("timed out")
    task = asyncio.create_task(fetch("cancel-me", 1))
    await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        print("cancelled", task.cancelled())
    return "main done"


print(asyncio.run(main()))
