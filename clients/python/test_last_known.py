"""The answers a client keeps for an outage are bounded (issue 22): requests carry
user-supplied keys and arguments, and keeping every distinct one took ~120 MB per worker."""

import tracemalloc
import unittest

from l10nd_client.last_known import CAPACITY, CAPACITY_BYTES, LastKnownAnswers


def request(index):
    return {"op": "lookup", "key": "%@ liked your post", "lang": "de", "args": [f"user {index}"]}


def reply(index, padding=""):
    return {"ok": True, "value": "%@ gefällt dein Beitrag", "found": True, "lang": "de", "generation": 3,
            "formatted": f"user {index} gefällt dein Beitrag{padding}"}


class LastKnownBoundTests(unittest.TestCase):
    def test_at_most_capacity_requests_the_latest_kept(self):
        answers = LastKnownAnswers()
        tracemalloc.start()
        for index in range(30_000):
            answers.remember(request(index), reply(index))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        count, size = answers.size
        self.assertEqual(count, CAPACITY)
        self.assertLessEqual(size, CAPACITY_BYTES)
        self.assertLess(peak, 20 * 1024 * 1024, f"{peak / 1e6:.1f} MB for 30,000 distinct requests")
        self.assertIsNone(answers.recall(request(0)))
        self.assertEqual(answers.recall(request(29_999)), {**reply(29_999), "stale": True})

    def test_bytes_bound_large_replies(self):
        answers = LastKnownAnswers(capacity_bytes=100_000)
        for index in range(100):
            answers.remember(request(index), reply(index, "x" * 5_000))
        count, size = answers.size
        self.assertLessEqual(size, 100_000)
        self.assertLess(count, 25)
        self.assertIsNotNone(answers.recall(request(99)))
        # One reply larger than the whole bound is not kept (it would push out everything).
        answers.remember(request(1000), reply(1000, "x" * 200_000))
        self.assertIsNone(answers.recall(request(1000)))
        self.assertIsNotNone(answers.recall(request(99)))

    def test_remembering_again_replaces(self):
        answers = LastKnownAnswers()
        answers.remember(request(1), reply(1))
        answers.remember(request(1), reply(2))
        self.assertEqual(answers.size[0], 1)
        self.assertEqual(answers.recall(request(1))["formatted"], reply(2)["formatted"])


if __name__ == "__main__":
    unittest.main()
