"""The change hook's sender (shop/changes.py) against a stand-in shop: what it sends, how it
signs, and how it retries, without ever holding up the code that saved. Run by
contracts/django-changes.test.ts: `python3 manage.py test shop.test_changes`."""

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.test import SimpleTestCase, TransactionTestCase, override_settings

from shop import changes

SECRET = "a-secret-the-backend-and-the-shop-share"


class StandInShop:
    """Answers each hook with the next of `statuses` (the last one from then on); each request
    waits until `released` is set."""

    def __init__(self, statuses):
        self.statuses, self.hooks = list(statuses), []
        self.arrived, self.released = threading.Event(), threading.Event()
        self.released.set()
        shop = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                shop.hooks.append((body, self.headers["X-Shop-Signature"]))
                shop.arrived.set()
                shop.released.wait(10)
                status = shop.statuses.pop(0) if len(shop.statuses) > 1 else shop.statuses[0]
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/changed"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class SenderTest(SimpleTestCase):
    def setUp(self):
        self.pauses = []

    def sender(self, shop):
        return changes.Sender(shop.url, SECRET, pauses=[0.5, 1, 2], sleep=self.pauses.append)

    def test_a_change_goes_out_signed_with_a_new_id_and_the_time(self):
        shop = StandInShop([202])
        self.addCleanup(shop.close)
        sender = self.sender(shop)
        sender.put({"products": [7, None, 7], "slides": True})
        self.assertTrue(sender.wait(10))
        [(body, signature)] = shop.hooks
        expected = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        self.assertEqual(signature, f"sha256={expected}")
        hook = json.loads(body)
        self.assertEqual(hook["products"], [7])
        self.assertIs(hook["slides"], True)
        self.assertEqual(set(hook), {"id", "sent_at", "products", "slides"})

    def test_a_refused_or_failed_attempt_is_tried_again_as_a_new_hook_after_a_growing_pause(self):
        shop = StandInShop([503, 401, 202])
        self.addCleanup(shop.close)
        sender = self.sender(shop)
        sender.put({"products": [7]})
        self.assertTrue(sender.wait(10))
        self.assertEqual(len(shop.hooks), 3)
        self.assertEqual(self.pauses, [0.5, 1])
        ids = [json.loads(body)["id"] for body, _ in shop.hooks]
        self.assertEqual(len(set(ids)), 3)
        for body, signature in shop.hooks:
            expected = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
            self.assertEqual(signature, f"sha256={expected}")

    def test_a_shop_that_never_takes_it_gets_every_attempt_then_the_change_is_dropped(self):
        shop = StandInShop([502])
        self.addCleanup(shop.close)
        sender = self.sender(shop)
        sender.put({"news": True})
        self.assertTrue(sender.wait(10))
        self.assertEqual(len(shop.hooks), 4)
        self.assertEqual(self.pauses, [0.5, 1, 2])

    def test_a_body_the_shop_calls_wrong_is_not_sent_again(self):
        shop = StandInShop([400])
        self.addCleanup(shop.close)
        sender = self.sender(shop)
        sender.put({"products": [7]})
        self.assertTrue(sender.wait(10))
        self.assertEqual(len(shop.hooks), 1)

    def test_changes_that_pile_up_while_one_is_sent_go_out_together(self):
        shop = StandInShop([202])
        self.addCleanup(shop.close)
        shop.released.clear()
        sender = self.sender(shop)
        sender.put({"products": [7]})
        self.assertTrue(shop.arrived.wait(10))
        sender.put({"products": [8]})
        sender.put({"sections": [15], "policy": True})
        shop.released.set()
        self.assertTrue(sender.wait(10))
        self.assertEqual([json.loads(body)["products"] for body, _ in shop.hooks], [[7], [8]])
        last = json.loads(shop.hooks[1][0])
        self.assertEqual((last["sections"], last["policy"]), ([15], True))


class TellShopTest(TransactionTestCase):
    """Outside a transaction: each change goes to the sender as soon as it is told."""

    def test_the_code_that_saved_never_waits_for_the_shop(self):
        shop = StandInShop([202])
        self.addCleanup(shop.close)
        shop.released.clear()
        with override_settings(SHOP_CHANGE_HOOK_URL=shop.url, SHOP_CHANGE_HOOK_SECRET=SECRET):
            changes._running = None
            changes.tell_shop(products=[7])
            # Back here while the shop still holds the hook: nothing waited for its answer.
            self.assertTrue(shop.arrived.wait(10))
            self.assertEqual(changes._sender().queue.unfinished_tasks, 1)
            shop.released.set()
            self.assertTrue(changes._sender().wait(10))
        self.assertEqual(json.loads(shop.hooks[0][0])["products"], [7])

    def test_without_the_settings_nothing_is_sent(self):
        with override_settings(SHOP_CHANGE_HOOK_URL="", SHOP_CHANGE_HOOK_SECRET=""):
            changes._running = None
            changes.tell_shop(products=[7])
            self.assertIsNone(changes._running)
